// Importing through lawcore's `import`: a W&B panel export with two runs (and __MIN/__MAX
// columns) asks which runs to take and imports both; the loss at step 0 is dropped with a note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, messageText, curveNames } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('a W&B export with two runs asks which runs and imports both', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const head =
      'Step,runA - train/loss,runA - train/loss__MIN,runA - train/loss__MAX,runB - train/loss,runB - train/loss__MIN,runB - train/loss__MAX';
    const rows = [0, 100, 200, 300, 400].map((s, i) =>
      [s, 5 - i * 0.4, 5 - i * 0.4, 5 - i * 0.4, 5.1 - i * 0.4, 5.1 - i * 0.4, 5.1 - i * 0.4].join(','),
    );
    await page.setInputFiles('#file-input', [
      { name: 'wandb_export.csv', mimeType: 'text/csv', buffer: Buffer.from(`${[head, ...rows].join('\n')}\n`) },
    ]);

    const dialog = page.locator('#import-dialog');
    await dialog.waitFor({ state: 'visible' });
    assert.match(await page.textContent('#import-message'), /2 runs/);
    const options = await page.$$eval('#import-options input', (xs) =>
      xs.map((x) => ({ type: x.type, value: x.value, checked: x.checked })),
    );
    assert.deepEqual(options, [
      { type: 'checkbox', value: 'runA', checked: true },
      { type: 'checkbox', value: 'runB', checked: true },
    ]);
    await page.click('#import-ok');
    await dialog.waitFor({ state: 'hidden' });

    // The first file replaces the example (whose two curves are in the list until it does).
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('#curve-list [data-curve-name]')].map((r) => r.dataset.curveName).join()
        === 'runA,runB',
    );
    assert.deepEqual(await curveNames(page), ['runA', 'runB']);
    // Step 0 is dropped (the fit needs steps >= 1), with a note (behind the disclosure, after the
    // line each curve added has).
    assert.match(await page.textContent('#curve-list [data-curve-name="runA"]'), /4 points, steps 100–400/);
    assert.match(
      await page.textContent('#message .report-notes > div'),
      /^wandb_export\.csv: the point at step 0 \(or without a loss\) dropped from runA, runB; the fit needs steps ≥ 1\./,
    );
    assert.match(await page.textContent('#curve-list [data-curve-name="runB"]'), /needs a schedule/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a file with an LR column gets an explicit schedule through its points', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const text = 'step,lr,loss\n0,0,6\n500,2e-4,4\n1000,2e-4,3.6\n1500,1e-4,3.4\n2000,0,3.3\n';
    await page.setInputFiles('#file-input', [{ name: 'with-lr.csv', mimeType: 'text/csv', buffer: Buffer.from(text) }]);
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="with-lr"]'));
    assert.deepEqual(await curveNames(page), ['with-lr'], 'the first file replaces the example');
    assert.match(await page.textContent('#curve-list [data-curve-name="with-lr"]'), /LR from the file/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a W&B export with two runs and two loss columns asks for both; the column chosen names the curve', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const runs = ['cosine-10k', 'wsd-10k'];
    const metrics = ['train/loss', 'val/loss'];
    const head = [
      'Step',
      ...runs.flatMap((r) => metrics.flatMap((m) => [`${r} - ${m}`, `${r} - ${m}__MIN`, `${r} - ${m}__MAX`])),
    ];
    // val/loss is logged every 200 steps, train/loss every 100.
    const rows = [100, 200, 300, 400].map((s) =>
      [
        s,
        ...runs.flatMap((_r, k) =>
          metrics.flatMap((_m, j) => {
            const v = j === 1 && s % 200 ? '' : (4 + k * 0.1 + j * 0.05 - s / 1000).toFixed(3);
            return [v, v, v];
          }),
        ),
      ].join(','),
    );
    await page.setInputFiles('#file-input', [
      {
        name: 'wandb_2metrics.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`${[head.join(','), ...rows].join('\n')}\n`),
      },
    ]);

    const dialog = page.locator('#import-dialog');
    await dialog.waitFor({ state: 'visible' });
    assert.deepEqual(await page.$$eval('#import-options legend', (xs) => xs.map((x) => x.textContent)), [
      'The loss column',
      'The runs (one curve each)',
    ]);
    const options = await page.$$eval('#import-options input', (xs) =>
      xs.map((x) => `${x.type} ${x.value} ${x.checked}`),
    );
    // the validation loss is offered first (issue 45), and the question says why
    assert.deepEqual(options, [
      'radio train/loss false',
      'radio val/loss true',
      'checkbox cosine-10k true',
      'checkbox wsd-10k true',
    ]);
    assert.match(await page.textContent('#import-reason'), /^"val\/loss" is chosen: the validation loss/);
    await page.check('#import-options input[value="val/loss"]');
    await page.uncheck('#import-options input[value="wsd-10k"]');
    await page.click('#import-ok');
    await dialog.waitFor({ state: 'hidden' });

    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="cosine-10k val/loss"]'));
    assert.deepEqual(await curveNames(page), ['cosine-10k val/loss'], 'the first file replaces the example');
    assert.match(
      await page.textContent('#curve-list [data-curve-name="cosine-10k val/loss"]'),
      /2 points, steps 200–400/,
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a file added twice: the copy gets a new name, and the page says it holds the same points; another curve of a taken name is only renamed', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const text = 'step,lr,loss\n0,0,6\n500,2e-4,4\n1000,2e-4,3.6\n1500,1e-4,3.4\n2000,0,3.3\n';
    const file = (body) => [{ name: 'run.csv', mimeType: 'text/csv', buffer: Buffer.from(body) }];
    await page.setInputFiles('#file-input', file(text));
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run"]'));
    await page.setInputFiles('#file-input', file(text));
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run (2)"]'));
    assert.match(
      await messageText(page),
      /run is already on the page with the same points: the copy added is named run \(2\) \(remove it if the file was added twice\)\./,
    );
    await page.setInputFiles('#file-input', file(text.replace('3.3', '3.25')));
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run (3)"]'));
    const said = await messageText(page);
    assert.match(said, /A curve named run is already on the page: the one added is named run \(3\)\./);
    assert.doesNotMatch(said, /same points/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
