// What a careless or hostile user can type, click or link: each is refused or bounded with a
// message saying what and where, and the view stays as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  useServerAndBrowser,
  openPage,
  waitForFit,
  messageText,
  params,
  encodeIn,
  curveNames,
  keepExample,
  saveSchedule,
} from './harness.mjs';

const env = useServerAndBrowser(before, after);

const PAPER = { L0: '2.628', A: '0.430', C: '0.411', alpha: '0.550' };

const SETTINGS = {
  lambda: 0.999,
  fitLambda: false,
  warmupSteps: 500,
  warmupConvention: 'peak',
  huberDelta: 0.001,
  law: 'annealing',
  auto: false,
  mplSearch: 'optimum',
};

test('parameters and settings out of range are refused, naming the field; the fit shown stays', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#manual-params summary');
    const cases = [
      ['#manual-L0', '-5', /Parameter L0: -5 is out of range \(zero or more\)/],
      ['#manual-lambda', '2', /Parameter lambda: 2 is out of range \(between 0 and 1\)/],
      ['#manual-A', '0x10', /Parameter A: "0x10" is not a number/],
      ['#manual-C', '1e400', /Parameter C: "1e400" is not a number/],
    ];
    for (const [field, value, want] of cases) {
      const kept = await page.inputValue(field);
      await page.fill(field, value);
      await page.click('#manual-apply');
      assert.match(await messageText(page), want);
      assert.deepEqual(await params(page), PAPER, `${field} = ${value}`);
      await page.fill(field, kept);
    }
    // In range, but the law overflows float64: lawcore says which curve, and nothing is applied.
    await page.fill('#manual-A', '1e308');
    await page.fill('#manual-L0', '1e308');
    await page.click('#manual-apply');
    await page.waitForFunction(() => /not a finite number/.test(document.querySelector('#message').textContent));
    assert.match(
      await messageText(page),
      /Predict: curve "cosine": the predicted loss is not a finite number at step \d+/,
    );
    assert.match(await page.textContent('#status'), /were not applied/);
    assert.deepEqual(await params(page), PAPER);
    // Finite, but a C that pulls the cosine's loss below 0 (C·S2 of tens): applied, and said.
    await page.fill('#manual-A', PAPER.A);
    await page.fill('#manual-L0', PAPER.L0);
    await page.fill('#manual-C', '100');
    await page.click('#manual-apply');
    await page.waitForFunction(() => /falls to/.test(document.querySelector('#message').textContent));
    assert.match(
      await messageText(page),
      /^cosine \(annealing law\): the predicted loss falls to -[\d.]+ \(at step \d+; 0 or below from step \d+\): no loss can, so these parameters do not hold on this schedule\.cosine 60K /,
      'each schedule, one line each',
    );
    await page.fill('#manual-C', PAPER.C);
    await page.click('#manual-apply');
    await page.waitForFunction(() => document.querySelector('#message').hidden, null, { timeout: 5000 });

    // Settings: a warmup past any schedule, a number in hex.
    await page.fill('#warmup-steps', '1000000000000000');
    await page.click('#fit-button');
    assert.match(
      await messageText(page),
      /Warmup steps \(a whole number from 0 to 10,000,000\): 1000000000000000 is out of range/,
    );
    await page.fill('#warmup-steps', '500');
    await page.fill('#huber-delta', '');
    await page.click('#fit-button');
    assert.match(await messageText(page), /Huber δ \(> 0\): the field is empty, or holds not a number/);
    await page.fill('#huber-delta', '0.001');
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 2 curve/.test(document.querySelector('#status').textContent));
    assert.deepEqual(await params(page), PAPER);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a learning rate of 1e305 is refused by the builder, naming the field', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.fill('#schedule-name', 'huge');
    await page.selectOption('#schedule-kind', 'constant');
    await page.fill('#sf-total', '100000');
    await page.fill('#sf-peak', '1e305');
    await page.click('#schedule-save');
    await page.waitForFunction(() => /not a learning rate/.test(document.querySelector('#schedule-info').textContent));
    assert.match(
      await page.textContent('#schedule-info'),
      /^Peak LR: 1e\+305 is not a learning rate \(at most 1000\): give it in raw units, such as 3e-4/,
    );
    assert.equal(await page.isVisible('#schedule-dialog'), true);
    // The JSON editor: text that is not a schedule is never saved in silence.
    await page.click('#schedule-dialog summary');
    await page.fill('#schedule-json', '{"kind": "toString", "total": 10}');
    assert.match(await page.textContent('#schedule-info'), /Unknown kind "toString"/);
    await page.fill('#sf-peak', '2e-4'); // a field edited: the form is the schedule again
    await page.fill('#schedule-json', '[1, 2, 3]');
    await page.click('#schedule-save');
    assert.match(await page.textContent('#schedule-info'), /Edit as JSON: The JSON must be an object/);
    assert.equal(await page.isVisible('#schedule-dialog'), true);
    await page.click('#schedule-cancel');
    assert.equal((await page.$$('#predict-list [data-schedule-name="huge"]')).length, 0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a Save still being checked when its dialog was cancelled does not close the next one', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    // lawcore's check of a schedule is made slow, as behind a long fit.
    await page.evaluate(() => {
      const client = globalThis.lawcoreClient;
      const call = client.call.bind(client);
      client.call = (method, ...rest) =>
        method === 'schedule'
          ? new Promise((r) => setTimeout(r, 1500)).then(() => call(method, ...rest))
          : call(method, ...rest);
    });
    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.fill('#schedule-name', 'first');
    await page.click('#schedule-save');
    await page.click('#schedule-cancel');
    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.fill('#schedule-name', 'second');
    await page.waitForTimeout(2500); // the first Save's check has come back
    assert.equal(await page.isVisible('#schedule-dialog'), true, 'the new dialog was closed by the old Save');
    assert.equal(await page.inputValue('#schedule-name'), 'second');
    assert.equal((await page.$$('#predict-list [data-schedule-name="first"]')).length, 0);
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden', timeout: 10000 });
    await page.waitForSelector('#predict-list [data-schedule-name="second"]');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('loading an example during a long fit cancels it and fits the example', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    // A long run: 300,000 per-step points with lambda fitted.
    const rows = ['step,lr,loss'];
    let s1 = 0;
    for (let s = 1; s <= 300000; s++) {
      s1 += 3e-4;
      rows.push(`${s},3e-4,${(2.5 + 0.45 * s1 ** -0.5 + 0.001 * Math.sin(s)).toFixed(6)}`);
    }
    await page.setInputFiles('#file-input', [
      { name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(`${rows.join('\n')}\n`) },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3, null, {
      timeout: 60000,
    });
    await page.check('#fit-lambda');
    await page.click('#fit-button');
    await page.waitForFunction(() => document.body.classList.contains('fitting'));
    await page.uncheck('#fit-lambda');
    await page.click('#example-fig2');
    await page.waitForFunction(() => /^Fitted 2 curve/.test(document.querySelector('#status').textContent), null, {
      timeout: 60000,
    });
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.deepEqual(await params(page), PAPER);
    assert.match(await page.textContent('#equation .fit-origin'), /Fitted on cosine, constant/);
    assert.equal(await page.isHidden('#stale-note'), true);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a predicted-curves CSV too long for a tab is thinned, and says so', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    // Two schedules of 9,999,999 steps: every step of all nine curves would be 20,339,998 rows.
    for (const name of ['long one', 'long two']) {
      await saveSchedule(page, '#add-prediction', {
        name,
        kind: 'constant',
        fields: { total: '9999999', peak: '2e-4' },
        timeout: 60000,
      });
    }
    await page.waitForFunction(
      () => document.querySelector('#predict-list [data-schedule-name="long two"]')?.dataset.finalLoss,
      null,
      { timeout: 120000 },
    );
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120000 }),
      page.click('#export-csv-every'),
    ]);
    const lines = (await readFile(await download.path())).toString('utf8').trimEnd().split('\n');
    assert.ok(lines.length <= 1_000_001, `${lines.length} rows`);
    const longOne = lines.filter((l) => l.startsWith('long one,'));
    assert.ok(longOne.length > 100_000 && longOne.length < 150_000, `${longOne.length} rows of "long one"`);
    assert.equal(longOne.at(-1).split(',')[2], '9999999', 'the last step is kept');
    assert.match(
      await page.textContent('#status'),
      /each thinned to about 111,111 steps: every step would be 20,339,998 rows, more than the 1,000,000 an export holds/,
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('links the page would refuse are never handed out, and links asking for too much are refused', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    // A name longer than a link holds.
    await page.click('[aria-label="Remove constant"]');
    await page.setInputFiles('#file-input', [
      {
        name: `${'n'.repeat(240)}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from('step,lr,loss\n100,2e-4,4\n200,2e-4,3.8\n'),
      },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2);
    await page.click('#share-button');
    await page.waitForFunction(() => /cannot be shared/.test(document.querySelector('#share-note').textContent));
    assert.match(
      await page.textContent('#share-note'),
      /This view cannot be shared as a link: curves\[1\]\.name: length must be 1\.\.200/,
    );

    // A short link asking for 100 schedules of ten million steps each.
    const bomb = {
      v: 2,
      settings: SETTINGS,
      params: { L0: 2.6, A: 0.4, alpha: 0.5, C: 0.4, lambda: 0.999 },
      source: 'manual',
      curves: [],
      predictions: Array.from({ length: 100 }, (_, i) => ({
        name: `p${i}`,
        schedule: { kind: 'cosine', total: 9999999, peak: 2e-4 },
      })),
    };
    const payload = await encodeIn(page, JSON.stringify(bomb));
    assert.ok(payload.length < 2000, `${payload.length} characters`);
    await page.goto(`${env.url}#s=${payload}`);
    await page.waitForFunction(() => /link/i.test(document.querySelector('#message').textContent), null, {
      timeout: 30000,
    });
    assert.match(
      await messageText(page),
      /its schedules run 999,999,900 steps in all, more than the 20,000,000 a link may ask for/,
    );
    await waitForFit(page);
    assert.deepEqual(await params(page), PAPER);
    // Names with control characters and parameters out of range are refused by the same checks
    // (decodeShare), tested under node: tests/node/share.test.mjs.
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a name with control characters still exports as a well-formed SVG', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    await page.click('.paste summary');
    await page.fill('#paste-name', 'bell\u0007 and \u0001 start');
    await page.fill('#paste-text', 'step,lr,loss\n1000,2e-4,3.6\n2000,2e-4,3.3\n3000,2e-4,3.2\n');
    await page.click('#paste-add');
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-svg="loss"]')]);
    const text = (await readFile(await download.path())).toString('utf8');
    const parsed = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      return doc.querySelector('parsererror')
        ? doc.querySelector('parsererror').textContent
        : [...doc.querySelectorAll('text')].map((x) => x.textContent).find((x) => x.startsWith('bell'));
    }, text);
    // The legend has one entry per curve: its name (control characters dropped), then its lines.
    assert.match(parsed, /^bell and {2}start: observed\b/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
