// Curves without an LR column get their schedule from the builder; schedules with no data are
// added to the predictions from the builder too (presets, every kind, a preview, checked input).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { useServerAndBrowser, openPage, waitForFit, EXAMPLES } from './harness.mjs';

const env = useServerAndBrowser(before, after);

const KINDS = [
  'constant',
  'linear',
  'cosine',
  'wsd',
  'multistep',
  'cyclic',
  'inverse-sqrt',
  'polynomial',
  'one-cycle',
  'concat',
  'explicit',
];

/**
 * openAddPrediction opens the builder to add a schedule to predict, once the example is fitted and
 * the presets are listed.
 */
async function openAddPrediction(page) {
  await waitForFit(page);
  await page.click('#add-prediction');
  await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelectorAll('#schedule-preset option').length > 10);
}

test('pasted data gets a schedule from the builder and is fitted as the paper', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const fig2 = JSON.parse(await readFile(path.join(EXAMPLES, 'paper-fig2.json'), 'utf8'));
    const paste = async (name, loss) => {
      await page.fill('#paste-text', `step\tloss\n${fig2.steps.map((s, i) => `${s}\t${loss[i]}`).join('\n')}`);
      await page.fill('#paste-name', name);
      await page.click('#paste-add');
      await page.locator(`#curve-list [data-curve-name="${name}"]`).waitFor();
    };
    await page.click('.paste summary');
    // The Fig. 2 curves pasted without their learning rates: the first replaces the example.
    await paste('my constant', fig2.loss.constant);
    await paste('my cosine', fig2.loss.cosine);
    assert.deepEqual(
      await page.$$eval('#curve-list [data-curve-name]', (rows) => rows.map((r) => r.dataset.curveName)),
      ['my constant', 'my cosine'],
    );
    const row = page.locator('#curve-list [data-curve-name="my cosine"]');
    assert.match(await row.textContent(), /needs a schedule/);

    const dialog = page.locator('#schedule-dialog');
    const build = async (name, kind, fill) => {
      await page
        .locator(`#curve-list [data-curve-name="${name}"]`)
        .getByRole('button', { name: /Schedule/ })
        .click();
      await dialog.waitFor({ state: 'visible' });
      assert.deepEqual(await page.$$eval('#schedule-kind option', (os) => os.map((o) => o.value)), KINDS);
      // The builder starts at the curve's last step.
      assert.equal(await page.inputValue('#sf-total'), '20000');
      await page.selectOption('#schedule-kind', kind);
      for (const [field, value] of fill) await page.fill(field, value);
    };
    await build('my cosine', 'cosine', [
      ['#sf-total', '20000'],
      ['#sf-peak', '2e-4'],
      ['#sf-final', '0'],
      ['#sf-warmup', '500'],
    ]);
    // The preview asks lawcore for the schedule and draws it.
    await page.waitForFunction(() =>
      /20,000 steps · peak 2e-4 · final 0 · warmup 500/.test(document.querySelector('#schedule-info').textContent),
    );
    assert.ok((await page.locator('#schedule-preview canvas').count()) >= 1);
    await page.click('#schedule-save');
    await dialog.waitFor({ state: 'hidden' });
    // The dialog's close event, which applies the schedule, comes a task after it hides.
    await page.waitForFunction(() =>
      /cosine · 20,000 steps · 2e-4 → 0 · warmup 500/.test(
        document.querySelector('#curve-list [data-curve-name="my cosine"]').textContent,
      ),
    );
    await build('my constant', 'constant', [
      ['#sf-peak', '2e-4'],
      ['#sf-warmup', '500'],
    ]);
    await page.waitForFunction(() =>
      /20,000 steps · peak 2e-4/.test(document.querySelector('#schedule-info').textContent),
    );
    await page.click('#schedule-save');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() =>
      /constant · 20,000 steps/.test(document.querySelector('#curve-list [data-curve-name="my constant"]').textContent),
    );

    // The user's own curves are fitted with auto by default; the paper's setting is asked for here.
    assert.equal(await page.isChecked('#auto'), true);
    await page.uncheck('#auto');
    await page.click('#fit-button');
    await page.waitForSelector('#metrics-table tr[data-curve-name="my cosine"][data-role="fit"]');
    const predE = Number(
      await page.getAttribute('#metrics-table tr[data-curve-name="my cosine"] td[data-metric="PredE"]', 'data-value'),
    );
    assert.ok(predE < 0.002, `PredE of the Fig. 2 cosine: ${predE}`);
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("a schedule left without a warmup takes the setting's, and its curve is fitted from the end of it", async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('.paste summary');
    // a run logged every 100 steps from step 100: its first points are in any warmup of 500
    const steps = Array.from({ length: 100 }, (_, i) => 100 * (i + 1));
    await page.fill(
      '#paste-text',
      `step\tloss\n${steps.map((s) => `${s}\t${(3 + 2 / Math.sqrt(s)).toFixed(5)}`).join('\n')}`,
    );
    await page.fill('#paste-name', 'short run');
    await page.click('#paste-add');
    const row = page.locator('#curve-list [data-curve-name="short run"]');
    await row.waitFor();
    await row.getByRole('button', { name: /Schedule/ }).click();
    const dialog = page.locator('#schedule-dialog');
    await dialog.waitFor({ state: 'visible' });
    await page.selectOption('#schedule-kind', 'constant');
    await page.fill('#sf-peak', '2e-4');
    await page.fill('#sf-warmup', ''); // empty: the fit setting
    await page.waitForFunction(() => /peak 2e-4/.test(document.querySelector('#schedule-info').textContent));
    await page.click('#schedule-save');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() =>
      /constant/.test(document.querySelector('#curve-list [data-curve-name="short run"]').textContent),
    );
    const windowOf = () =>
      page.$eval('#curve-list [data-curve-name="short run"] .window-input', (i) => ({
        from: Number(i.dataset.from),
        set: i.dataset.set === 'true',
        placeholder: i.placeholder,
      }));
    // the fit gives it the setting's 500 steps of warmup (lawcore's Schedule.WithDefaultWarmup):
    // its points before step 500 are the warmup's, not fitted (they were, from step 0)
    assert.equal(await page.inputValue('#warmup-steps'), '500');
    assert.deepEqual(await windowOf(), { from: 500, set: false, placeholder: '500' });
    // the window follows the setting
    await page.fill('#warmup-steps', '1200');
    await page.dispatchEvent('#warmup-steps', 'change');
    await page.waitForFunction(
      () => document.querySelector('#curve-list [data-curve-name="short run"] .window-input').dataset.from === '1200',
    );
    assert.deepEqual(await windowOf(), { from: 1200, set: false, placeholder: '1200' });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the builder adds a preset to the predictions and refuses a wrong schedule', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await openAddPrediction(page);
    await page.selectOption('#schedule-preset', 'wsd-1-sqrt-20');
    assert.equal(await page.inputValue('#schedule-name'), 'WSD, 20% 1-sqrt decay');
    assert.equal(await page.inputValue('#sf-decay'), '1-sqrt');

    // A decay fraction above 1 is refused by lawcore; the dialog stays open and says why.
    await page.fill('#sf-decayFraction', '1.5');
    await page.click('#schedule-save');
    await page.waitForFunction(() => document.querySelector('#schedule-info').classList.contains('error'));
    assert.match(await page.textContent('#schedule-info'), /decay/i);
    assert.ok(await page.locator('#schedule-dialog').isVisible());

    // A step count that is not whole is refused by the form, naming the field (lawcore's JSON
    // decoding said "cannot unmarshal number 20000.7 into Go struct field Schedule.total of type int").
    await page.fill('#sf-decayFraction', '0.2');
    const total = await page.inputValue('#sf-total');
    await page.fill('#sf-total', '20000.7');
    await page.waitForFunction(() =>
      /^Total steps: 20000\.7 is not a whole number/.test(document.querySelector('#schedule-info').textContent),
    );
    await page.click('#schedule-save');
    assert.ok(await page.locator('#schedule-dialog').isVisible(), 'not saved');
    await page.fill('#sf-total', total);
    // and so is one in the JSON, by lawcore, in the same words
    await page.click('#schedule-dialog summary:has-text("Edit as JSON")');
    const written = await page.inputValue('#schedule-json');
    await page.fill('#schedule-json', JSON.stringify({ ...JSON.parse(written), total: 20000.7 }));
    await page.waitForFunction(() =>
      /"total" must be a whole number, got number 20000\.7/.test(document.querySelector('#schedule-info').textContent),
    );
    await page.fill('#schedule-json', written);

    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    const row = page.locator('#predict-list [data-schedule-name="WSD, 20% 1-sqrt decay"]');
    await row.waitFor();
    await page.waitForFunction(
      () =>
        document.querySelector('#predict-list [data-schedule-name="WSD, 20% 1-sqrt decay"]').dataset.finalLoss !== '',
    );
    const final = Number(await row.getAttribute('data-final-loss'));
    const constant = Number(
      await page.getAttribute('#predict-list [data-schedule-name="constant 60K"]', 'data-final-loss'),
    );
    assert.ok(final < constant, `WSD ${final} should end below constant ${constant}`);
    assert.ok((await page.getAttribute('#chart-loss', 'data-series')).split('|').includes('WSD, 20% 1-sqrt decay'));

    // Removing it takes it off the list and the chart.
    await row.getByRole('button', { name: /Remove/ }).click();
    assert.equal(await row.count(), 0);
    assert.ok(!(await page.getAttribute('#chart-loss', 'data-series')).split('|').includes('WSD, 20% 1-sqrt decay'));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("the library presets fill the fields that follow their libraries, and copy as the library's own code", async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await openAddPrediction(page);
    const json = async () => JSON.parse(await page.inputValue('#schedule-json'));
    const info = (re) =>
      page.waitForFunction(
        (src) => new RegExp(src).test(document.querySelector('#schedule-info').textContent),
        re.source,
      );

    // Hugging Face's hard restarts: 4 cycles, not a cycle length with after "restart".
    await page.selectOption('#schedule-preset', 'cosine-restarts');
    assert.equal(await page.inputValue('#sf-cycles'), '4');
    assert.equal(await page.inputValue('#sf-cycle'), '');
    assert.equal(await page.inputValue('#sf-after'), '');
    assert.match(await page.textContent('#schedule-origin'), /num_cycles=4/);
    assert.equal((await json()).cycles, 4);

    // DeepSeek's multi-step: its levels begin on their milestone steps.
    await page.selectOption('#schedule-preset', 'multistep-deepseek');
    assert.equal(await page.inputValue('#sf-drop'), 'at');
    assert.deepEqual(await page.$$eval('#sf-drop option', (os) => os.map((o) => o.textContent)), [
      'default (after)',
      'after',
      'at',
    ]);

    // CyclicLR: from its base, and no warmup, whatever the fit's warmup setting.
    await page.selectOption('#schedule-preset', 'cyclic');
    assert.equal(await page.inputValue('#sf-start'), 'base');
    assert.equal(await page.inputValue('#sf-warmup'), '0');
    await info(/peak 2e-4 · final 2e-5 · warmup 0$/);
    // its 0 is CyclicLR's, not the run's: the next preset takes the run's warmup again (it
    // took the 0, and made a cosine without warmup); a 0 typed by hand is the user's, and stays
    await page.selectOption('#schedule-preset', 'cosine');
    assert.equal(await page.inputValue('#sf-warmup'), '500');
    await page.selectOption('#schedule-preset', 'cyclic');
    await page.fill('#sf-warmup', '0');
    await page.selectOption('#schedule-preset', 'linear');
    assert.equal(await page.inputValue('#sf-warmup'), '0');
    await page.selectOption('#schedule-preset', 'cyclic');
    await info(/peak 2e-4 · final 2e-5 · warmup 0$/);
    // the select writes the description, and lawcore checks it
    await page.selectOption('#sf-start', 'peak');
    assert.equal((await json()).start, 'peak');
    await page.selectOption('#sf-start', 'base');
    assert.deepEqual(await json(), {
      kind: 'cyclic',
      total: 60000,
      peak: 2e-4,
      warmup: 0,
      final: 2e-5,
      stepSize: 7500,
      start: 'base',
    });
    await page.fill('#sf-warmup', '');
    await info(/warmup 500$/); // empty: the fit setting's
    await page.fill('#sf-warmup', '0');
    await info(/warmup 0$/);
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    const row = page.locator('#predict-list [data-schedule-name="Cyclic (triangular)"]');
    await row.waitFor();
    assert.match(await row.textContent(), /cyclic from base · 60,000 steps · 2e-4 → 2e-5/);

    // Copied as PyTorch code, it is PyTorch's own CyclicLR.
    const copy = page.locator('[aria-label="Copy Cyclic (triangular) as a PyTorch scheduler"]');
    await copy.waitFor();
    await copy.click();
    await page.waitForFunction(() =>
      /^scheduler = CyclicLR\(optimizer, base_lr=0\.00002, max_lr=0\.0002, step_size_up=7500, mode="triangular", cycle_momentum=False\)$/m.test(
        document.querySelector('#answer-code').value,
      ),
    );
    assert.match(await page.textContent('#answer-code-title'), /Cyclic \(triangular\) as PyTorch’s CyclicLR/);

    // The next schedule starts from this one's fields, but its warmup of 0 is no warmup of the
    // run: a preset chosen there takes the run's again (it took the 0, the next dialog over)
    await openAddPrediction(page);
    assert.equal(await page.inputValue('#sf-warmup'), '0');
    await page.selectOption('#schedule-preset', 'cosine');
    assert.equal(await page.inputValue('#sf-warmup'), '500');
    await page.click('#schedule-cancel');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a schedule edited as JSON is saved as written, and one lawcore refuses is not saved', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await openAddPrediction(page);
    await page.fill('#schedule-name', 'wsd edited');
    await page.click('#schedule-dialog summary:has-text("Edit as JSON")');
    const info = (re) =>
      page.waitForFunction(
        (src) => new RegExp(src).test(document.querySelector('#schedule-info').textContent),
        re.source,
      );
    // a decay shape the select does not hold: refused by the preview, and by Save (before, Save
    // read the fields, which had dropped it, and saved a cosine decay)
    await page.fill('#schedule-json', '{"kind":"wsd","total":20000,"peak":2e-4,"decay":"Linear","decayFraction":0.2}');
    await info(/unknown decay shape "Linear"/);
    await page.click('#schedule-save');
    await info(/unknown decay shape "Linear"/);
    assert.ok(await page.locator('#schedule-dialog').isVisible(), 'not saved');
    // a key of no schedule: refused too
    await page.fill(
      '#schedule-json',
      '{"kind":"wsd","total":20000,"peak":2e-4,"decay":"linear","decayFraction":0.2,"bogus":1}',
    );
    await page.click('#schedule-save');
    await info(/bogus/);
    assert.ok(await page.locator('#schedule-dialog').isVisible(), 'not saved');
    // as written, it is saved as written: a linear decay
    await page.fill('#schedule-json', '{"kind":"wsd","total":20000,"peak":2e-4,"decay":"linear","decayFraction":0.2}');
    await info(/20,000 steps/);
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    const row = page.locator('#predict-list [data-schedule-name="wsd edited"]');
    await row.waitFor();
    assert.match(await row.textContent(), /linear/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
