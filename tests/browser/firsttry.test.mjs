// A researcher's first try with their own runs (issue 18): the schedule of a curve comes from
// its data, the example is an example, every view works for every law, errors in percent and
// exports as dense as the charts, legends grouped by curve, answers in a table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  useServerAndBrowser,
  holdFullModule,
  openPage,
  waitForFit,
  chartsDrawn,
  curveNames,
  messageText,
  fullParams,
} from './harness.mjs';

const env = useServerAndBrowser(before, after);

/**
 * runCSV is a 10K-step run logged every 50 steps, computed here: a linear warmup to 3e-4 over
 * 800 steps (or warmup) then cosine to 0, and the annealing law's loss for it (L0 2.6, A 0.45, alpha 0.5,
 * C 0.4 (or c), lambda 0.999, the areas summed from step 0 as run, or with atPeak the warmup counted at the peak).
 */
function runCSV(warmup = 800, atPeak = false, c = 0.4) {
  const total = 10000;
  const lrAt = (s) =>
    s < warmup ? (3e-4 * s) / warmup : 1.5e-4 * (1 + Math.cos((Math.PI * (s - warmup)) / (total - warmup)));
  const counted = (s) => (atPeak && s < warmup ? 3e-4 : lrAt(s));
  let s1 = 0;
  let s2 = 0;
  let m = 0;
  let prev = counted(0);
  const rows = ['step,lr,loss'];
  for (let s = 0; s <= total; s++) {
    const lr = counted(s);
    if (s > 0) m = 0.999 * m + (prev - lr);
    s1 += lr;
    s2 += m;
    prev = lr;
    if (s % 50 === 0 && s > 0) rows.push(`${s},${lrAt(s)},${2.6 + 0.45 * (s1 * 1e3) ** -0.5 - c * s2 * 1e3}`);
  }
  return `${rows.join('\n')}\n`;
}

/** addFile adds a CSV file as the user would (the file chooser). */
const addFile = (page, name, text) =>
  page.setInputFiles('#file-input', [{ name, mimeType: 'text/csv', buffer: Buffer.from(text) }]);

const predictionNames = (page) =>
  page.$$eval('#predict-list [data-schedule-name]', (rows) => rows.map((r) => r.dataset.scheduleName));

test('a preset keeps a 10K-step curve at 10K steps and its peak 3e-4; a schedule that disagrees is flagged', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await addFile(page, 'run10k.csv', runCSV());
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run10k"]'));
    // The first file replaced the example, and the warmup setting is the one its LR shows.
    assert.deepEqual(await curveNames(page), ['run10k']);
    assert.equal(await page.inputValue('#warmup-steps'), '800');

    await page.click('[aria-label="Schedule of run10k"]');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('#schedule-preset option').length > 10);
    await page.selectOption('#schedule-preset', 'cosine');
    assert.equal(await page.inputValue('#sf-total'), '10000');
    assert.equal(await page.inputValue('#sf-peak'), '0.0003');
    assert.equal(await page.inputValue('#sf-warmup'), '800');
    assert.match(await page.textContent('#schedule-origin'), /from the curve: its last step 10,000, the peak 3e-4/);
    // The preview agrees with the column: no warning.
    await page.waitForFunction(() =>
      /10,000 steps · peak 3e-4 · final 0 · warmup 800/.test(document.querySelector('#schedule-info').textContent),
    );
    assert.ok(await page.locator('#schedule-warning').isHidden());

    // A peak that is not the data's is flagged in the dialog, then in the row and before the fit.
    await page.fill('#sf-peak', '2e-4');
    await page.waitForFunction(() =>
      /differs from its LR column: 2e-4 instead of 3e-4/.test(document.querySelector('#schedule-warning').textContent),
    );
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() =>
      /differs from its LR column/.test(
        document.querySelector('#curve-list [data-curve-name="run10k"]').dataset.scheduleProblems,
      ),
    );
    await page.click('#fit-button');
    await page.waitForFunction(() =>
      /run10k: its schedule's LR differs/.test(document.querySelector('#message').textContent),
    );
    await waitForFit(page); // fitted as asked, flagged
    const fitted = await page.textContent('#status');

    // A schedule that ends before the data is flagged and not fitted.
    await page.click('[aria-label="Schedule of run10k"]');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.fill('#sf-total', '8000');
    await page.fill('#sf-peak', '3e-4');
    await page.waitForFunction(() =>
      /ends at step 8,000, before its last observed step 10,000/.test(
        document.querySelector('#schedule-warning').textContent,
      ),
    );
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() =>
      /ends at step 8,000/.test(
        document.querySelector('#curve-list [data-curve-name="run10k"]').dataset.scheduleProblems,
      ),
    );
    await page.click('#fit-button');
    await page.waitForFunction(() =>
      /run10k: its schedule ends at step 8,000.*runs to the end of its data/.test(
        document.querySelector('#message').textContent,
      ),
    );
    assert.equal(await page.textContent('#status'), fitted, 'nothing was fitted');

    // A schedule to predict starts from the loaded run, not from the example's 60K at 2e-4.
    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    assert.equal(await page.inputValue('#sf-total'), '10000');
    assert.equal(await page.inputValue('#sf-peak'), '0.0003');
    assert.equal(await page.inputValue('#sf-warmup'), '800');
    await page.click('#schedule-cancel');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Fit pressed while a file is being read fits that file once it is in, not the example it replaces', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    // the import needs the full module: held back until Fit is pressed, so that Fit falls
    // within the import whatever the machine's speed
    const release = await holdFullModule(context);
    await addFile(page, 'run10k.csv', runCSV());
    await page.click('#fit-button');
    release();
    await page.waitForFunction(
      () =>
        /^Fitted .*curve/.test(document.querySelector('#status').textContent)
        && !document.body.classList.contains('fitting')
        && document.querySelector('#curve-list [data-curve-name="run10k"]'),
      null,
      { timeout: 60000 },
    );
    const status = await page.textContent('#status');
    assert.match(status, / 1 curve\(s\)/, "the file's one curve, not the example's two");
    assert.deepEqual(await curveNames(page), ['run10k']);
    assert.match(await page.textContent('#message'), /Your data replaced/, "the import's notes stay");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('settings chosen while a file is read stand: the file replaces the example and auto stays off', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    // the import needs the full module: held back until the setting is changed, so that the
    // change falls within the import whatever the machine's speed
    const release = await holdFullModule(context);
    assert.equal(await page.isChecked('#auto'), false, "the example keeps its paper's setting");
    await addFile(page, 'run10k.csv', runCSV());
    await page.check('#auto');
    await page.uncheck('#auto');
    await page.fill('#lambda', '0.995');
    await page.dispatchEvent('#lambda', 'change');
    release();
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run10k"]'), null, {
      timeout: 60000,
    });
    assert.deepEqual(await curveNames(page), ['run10k']);
    assert.equal(await page.isChecked('#auto'), false, 'auto is as the user left it, not turned back on');
    assert.equal(await page.inputValue('#lambda'), '0.995');
    assert.match(await messageText(page), /Your data replaced .*the settings you chose while it was read are kept/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a λ being typed when a file chosen over the example lands is kept as typed, and fits once entered', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    // the import is held back until λ is half entered (typed, no Tab yet: no change event)
    const release = await holdFullModule(context);
    await addFile(page, 'run10k.csv', runCSV());
    await page.click('#lambda', { clickCount: 3 });
    await page.keyboard.type('0.995');
    release();
    await page.waitForFunction(
      () =>
        document.querySelector('#curve-list [data-curve-name="run10k"]')
        && !document.body.classList.contains('fitting'),
      null,
      { timeout: 60000 },
    );
    assert.equal(
      await page.inputValue('#lambda'),
      '0.995',
      'the settings shown for the file leave the field being typed in',
    );
    await page.keyboard.press('Tab');
    await page.uncheck('#auto');
    await page.click('#fit-button');
    await page.waitForFunction(
      () =>
        /^Fitted/.test(document.querySelector('#status').textContent)
        && !document.body.classList.contains('fitting')
        && document.querySelector('#param-lambda')?.textContent === '0.995',
      null,
      { timeout: 60000 },
    );
    assert.equal(await page.inputValue('#lambda'), '0.995');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('runs with different warmups are fitted alike in either order, each counted with its own', async () => {
  const fits = [];
  for (const order of [
    [200, 2000],
    [2000, 200],
  ]) {
    const { context, page, errors } = await openPage(env.browser, env.url);
    try {
      await waitForFit(page);
      await page.setInputFiles(
        '#file-input',
        order.map((w) => ({ name: `warm${w}.csv`, mimeType: 'text/csv', buffer: Buffer.from(runCSV(w, true, 0.001)) })),
      );
      await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name^="warm"]').length === 2);
      await page.uncheck('#auto');
      await page.click('#fit-button');
      await page.waitForFunction(
        () =>
          /^Fitted 2 curve/.test(document.querySelector('#status').textContent)
          && !document.body.classList.contains('fitting'),
        null,
        { timeout: 60000 },
      );
      assert.match(
        await page.textContent('#fit-settings'),
        /warmups of 200 and 2,000 steps \(each run’s own\) counted at/,
      );
      fits.push(await fullParams(page));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
  // exact data: the truth in either order, to 0.1% (with the first file's warmup for both, one
  // order fitted the other run as if warmed up ten times longer or shorter)
  for (const p of fits)
    assert.ok(Math.abs(p.L0 / 2.6 - 1) < 1e-3 && Math.abs(p.alpha / 0.5 - 1) < 1e-3, JSON.stringify(fits));
});

test('the example is labelled, replaced wholly by the first file (Undo brings it back), and "clear all" clears its schedules', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    assert.match(await page.textContent('#example-note'), /Example: the paper’s Fig\. 2/);
    assert.equal((await predictionNames(page)).length, 5);
    assert.match(await page.textContent('#predict-example-note'), /5 of these come with the example/);

    await addFile(page, 'run10k.csv', runCSV());
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run10k"]'));
    assert.deepEqual(await curveNames(page), ['run10k']);
    assert.deepEqual(await predictionNames(page), [], "the example's schedules went with it");
    assert.ok(await page.locator('#example-note').isHidden());
    assert.equal(await page.textContent('#param-L0'), '–', "the example's fit went with it");
    assert.match(await messageText(page), /Your data replaced the paper’s Fig\. 2 example/);
    assert.match(await page.textContent('#undo-text'), /Your data replaced the paper’s Fig\. 2 example/);

    await page.click('#undo-button');
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.equal((await predictionNames(page)).length, 5);
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.equal(await page.inputValue('#warmup-steps'), '500');
    assert.ok(await page.locator('#example-note').isVisible());

    await page.click('#clear-curves');
    assert.deepEqual(await curveNames(page), []);
    assert.deepEqual(await predictionNames(page), [], '"clear all" leaves no example schedule');
    assert.equal(await page.textContent('#param-L0'), '–');
    assert.ok(await page.locator('#example-note').isHidden());
    await page.click('#undo-button');
    await page.waitForFunction(() => document.querySelectorAll('#predict-list [data-schedule-name]').length === 5);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the Multi-Power Law alone fills every chart, its equation and notes that name it', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.selectOption('#law', 'multi-power');
    // Before the fit, the equation is the law chosen, with dashes.
    await page.waitForFunction(() => document.querySelector('#equation [data-law="multi-power"]'));
    await page.click('#fit-button');
    await page.waitForFunction(
      () =>
        /^Fitted 2 curve/.test(document.querySelector('#status').textContent)
        && !document.body.classList.contains('fitting'),
      null,
      { timeout: 60000 },
    );
    const eq = await page.evaluate(() => ({
      laws: [...document.querySelectorAll('#equation [data-law]')].map((b) => b.dataset.law),
      params: Object.fromEntries(
        [...document.querySelectorAll('#equation .param')].map((p) => [p.dataset.param, p.dataset.value]),
      ),
      text: document.querySelector('#equation').textContent,
    }));
    assert.deepEqual(eq.laws, ['multi-power']);
    assert.deepEqual(Object.keys(eq.params).sort(), ['A', 'B', 'C', 'L0', 'alpha', 'beta', 'gamma']);
    for (const [k, v] of Object.entries(eq.params)) assert.ok(Number.isFinite(Number(v)) && v !== '', `${k} = ${v}`);
    assert.ok(!/–/.test(eq.text.replace(/−/g, '')), `no dash left: ${eq.text}`);
    assert.match(eq.text, /LD\(t\) = /, 'the loss drop is defined');
    assert.ok(/^\d/.test(await page.textContent('#param-L0')));

    for (const id of ['lr', 'loss', 'residuals', 'terms']) {
      const series = (await page.getAttribute(`#chart-${id}`, 'data-series')).split('|').filter(Boolean);
      assert.ok(series.length > 0 && (await page.locator(`#chart-${id} canvas`).count()) > 0, `${id}: ${series}`);
    }
    const terms = (await page.getAttribute('#chart-terms', 'data-series')).split('|');
    assert.ok(
      terms.includes('cosine (Multi-Power Law): A·(S1+S_W)^−α') && terms.includes('cosine (Multi-Power Law): LD'),
      terms.join(', '),
    );
    assert.match(await page.textContent('#terms-hint'), /A·\(S1\+S_W\)\^−α.*LD/);
    assert.match(await page.textContent('#export-hint'), /Multi-Power Law: A·\(S1\+S_W\)\^−α and LD/);
    // Every schedule to predict has the law's final loss.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#predict-list [data-schedule-name]')].every((r) => r.dataset.finalLossMpl),
    );

    await page.click('#validate-button');
    await page.waitForFunction(() => !document.querySelector('#validate-result').hidden, null, { timeout: 120000 });
    const note = await page.textContent('#validate-note');
    assert.match(note, /^Multi-Power Law: 90% of held-out points/);
    assert.match(note, /the Multi-Power Law fitted on the others/);
    assert.match(note, /band is drawn around the Multi-Power Law’s curves/);
    assert.ok(!/annealing/i.test(note), note);
    const drawn = (await page.getAttribute('#chart-loss', 'data-series')).split('|');
    assert.ok(drawn.includes('cosine (Multi-Power Law) band upper'), 'the band of the law validated');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('relative errors in percent; the predicted CSV of the MultiPowerLaw 25M example is under 5 MB, from the first observed step', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#example-mpl25');
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 9, null, {
      timeout: 30000,
    });
    await page.waitForFunction(() => /^Fitted 3 curve/.test(document.querySelector('#status').textContent), null, {
      timeout: 60000,
    });
    await waitForFit(page);
    const cell = page.locator('#metrics-table tr[data-curve-name="cosine_72000"] td[data-metric="PredE"]');
    const [shown, value] = [await cell.textContent(), Number(await cell.getAttribute('data-value'))];
    assert.match(shown, /^\d+(\.\d+)?%$/);
    assert.ok(Math.abs(parseFloat(shown) - 100 * value) <= 0.005 * 100 * value + 1e-9, `${shown} is ${value}`);
    assert.match(
      await page.textContent('#metrics-table tr[data-curve-name="cosine_72000"] td[data-metric="WorstE"]'),
      /%$/,
    );

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const data = await readFile(await download.path());
    assert.ok(data.length < 5 * 2 ** 20, `${data.length} bytes`);
    const rows = data
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const first = new Map();
    for (const r of rows) if (!first.has(r[0])) first.set(r[0], Number(r[2]));
    assert.equal(first.size, 9);
    for (const [name, step] of first) {
      const firstObserved = Number(
        (await page.textContent(`#curve-list [data-curve-name="${name}"] .row-sub`))
          .match(/steps ([\d,]+)–/)[1]
          .replace(/,/g, ''),
      );
      assert.ok(
        step >= firstObserved && step < firstObserved + 100,
        `${name} starts at ${step}, observed from ${firstObserved}`,
      );
      assert.ok(Number.isFinite(Number(rows.find((r) => r[0] === name)[4])));
    }
    assert.match(await page.textContent('#status'), /as dense as the charts/);
    // Every step is there on request, with its size said first.
    assert.match(await page.textContent('#export-csv-every'), /every step \(CSV, [\d,]+ rows, about \d+(\.\d)? MB\)/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("a validated view's legend has one group per curve, one colour each, the band shaded; folded on a phone", async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#validate-button');
    await page.waitForFunction(() => !document.querySelector('#validate-result').hidden, null, { timeout: 120000 });
    await page.waitForFunction(() =>
      (document.querySelector('#chart-loss').dataset.series || '').includes('band upper'),
    );
    const legend = await page.evaluate(() =>
      [...document.querySelectorAll('#chart-loss .legend-group')].map((g) => ({
        name: g.dataset.group,
        colors: [...new Set([...g.querySelectorAll('.sample')].map((s) => s.style.color))],
        roles: [...g.querySelectorAll('.legend-role')].map((r) => r.textContent),
      })),
    );
    const names = [...(await curveNames(page)), ...(await predictionNames(page))];
    assert.deepEqual(
      legend.map((g) => g.name),
      names,
      'one group per curve and schedule',
    );
    for (const g of legend) assert.equal(g.colors.length, 1, `${g.name}: ${g.colors}`);
    assert.equal(new Set(legend.map((g) => g.colors[0])).size, names.length, 'a colour per curve');
    assert.deepEqual(legend[0].roles, ['observed', 'fitted', 'band']);
    assert.deepEqual(legend[2].roles, ['predicted', 'band']);
    // The same colour for a curve in every chart.
    const lrColors = await page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('#chart-lr .legend-group')].map((g) => [
          g.dataset.group,
          g.querySelector('.sample').style.color,
        ]),
      ),
    );
    for (const g of legend) assert.equal(lrColors[g.name], g.colors[0], g.name);
    assert.ok(await page.locator('#chart-loss details.chart-legend').evaluate((d) => d.open), 'open on a wide screen');
    // A role hides its line.
    const fitted = page.locator('#chart-loss .legend-group[data-group="cosine"] .legend-item').nth(1);
    await fitted.click();
    assert.equal(await fitted.getAttribute('aria-pressed'), 'false');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
  const phone = await openPage(env.browser, env.url, { viewport: { width: 375, height: 800 } });
  try {
    await waitForFit(phone.page);
    await phone.page.waitForSelector('#chart-loss details.chart-legend');
    assert.equal(
      await phone.page.locator('#chart-loss details.chart-legend').evaluate((d) => d.open),
      false,
      'folded on a phone',
    );
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.context.close();
  }
});

test('answers in a table: final loss, vs the baseline, loss at a step, steps to a loss; a schedule copied as code', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.waitForFunction(
      () =>
        document.querySelectorAll('#answers-table tbody tr[data-schedule-name]').length === 5
        && [...document.querySelectorAll('#predict-list [data-schedule-name]')].every((r) => r.dataset.finalLoss),
    );
    const read = () =>
      page.$$eval('#answers-table tbody tr[data-schedule-name]', (trs) =>
        Object.fromEntries(
          trs.map((tr) => [
            tr.dataset.scheduleName,
            Object.fromEntries(
              [...tr.querySelectorAll('td[data-metric]')].map((td) => [
                td.dataset.metric,
                td.dataset.value === '' ? null : Number(td.dataset.value),
              ]),
            ),
          ]),
        ),
      );
    const finals = Object.fromEntries(
      await page.$$eval('#predict-list [data-schedule-name]', (rows) =>
        rows.map((r) => [r.dataset.scheduleName, Number(r.dataset.finalLoss)]),
      ),
    );
    let t = await read();
    for (const [name, row] of Object.entries(t)) {
      assert.equal(row.final, finals[name], name);
      assert.ok(Math.abs(row.diff - (finals[name] - finals['constant 60K'])) < 1e-12, `${name} vs the first schedule`);
      // Every schedule here runs 60K steps: the loss at 60,000 is the final loss.
      assert.ok(Math.abs(row.atStep - finals[name]) < 1e-6, `${name}: ${row.atStep} at 60,000`);
    }
    // WSD reaches the constant schedule's final loss well before the end; constant only at its end.
    assert.ok(
      t['WSD 20% cosine 60K'].reach > 48000 && t['WSD 20% cosine 60K'].reach < 60000,
      String(t['WSD 20% cosine 60K'].reach),
    );
    assert.ok(
      Math.abs(t['constant 60K'].reach - 60000) < 1e-6,
      `the baseline reaches its own final loss at its end: ${t['constant 60K'].reach}`,
    );

    await page.selectOption('#answer-baseline', 'WSD 20% cosine 60K');
    await page.fill('#answer-step', '30k');
    await page.dispatchEvent('#answer-step', 'change');
    await page.fill('#answer-loss', '2.9');
    await page.dispatchEvent('#answer-loss', 'change');
    await page.waitForFunction(() => /loss at 30,000/.test(document.querySelector('#answers-table thead').textContent));
    // Text that is neither a step nor a loss is refused with a message, and the choices stay.
    await page.fill('#answer-step', '3O000');
    await page.dispatchEvent('#answer-step', 'change');
    await page.waitForFunction(() =>
      /Loss at step: "3O000" is not a step/.test(document.querySelector('#message').textContent),
    );
    assert.equal(await page.inputValue('#answer-step'), '30k');
    await page.fill('#answer-loss', '2,9');
    await page.dispatchEvent('#answer-loss', 'change');
    await page.waitForFunction(() =>
      /Steps to reach loss: "2,9" is not a loss/.test(document.querySelector('#message').textContent),
    );
    assert.equal(await page.inputValue('#answer-loss'), '2.9');
    assert.match(await page.textContent('#answers-table thead'), /loss at 30,000.*steps to 2\.9/);
    t = await read();
    assert.equal(t['WSD 20% cosine 60K'].diff, 0);
    assert.ok(t['constant 60K'].diff > 0, 'constant ends higher than WSD');
    // The constant schedule in closed form (warmup counted at the peak, the sums from step 0):
    // L(s) = L0 + A·((s+1)·2e-4)^(−α), so L reaches 2.9 at s = ((2.9−L0)/A)^(−1/α)/2e-4 − 1. The
    // table joins the predicted points linearly: off by about 1e-7 in loss and 0.02 steps here.
    const p = await fullParams(page);
    const constantAt = (s) => p.L0 + p.A * ((s + 1) * 2e-4) ** -p.alpha;
    assert.ok(
      Math.abs(t['constant 60K'].atStep - constantAt(30000)) < 1e-6,
      `${t['constant 60K'].atStep} at 30,000, the closed form ${constantAt(30000)}`,
    );
    const reach = ((2.9 - p.L0) / p.A) ** (-1 / p.alpha) / 2e-4 - 1;
    assert.ok(
      Math.abs(t['constant 60K'].reach - reach) < 1,
      `reaches 2.9 at ${t['constant 60K'].reach}, the closed form ${reach}`,
    );

    await page.click('[aria-label="Copy cosine 60K (min 0.1×peak) as a Hugging Face call"]');
    await page.waitForFunction(() =>
      /get_cosine_with_min_lr_schedule_with_warmup\(optimizer, num_warmup_steps=500, num_training_steps=60000, min_lr_rate=0\.1\)/.test(
        document.querySelector('#answer-code').value,
      ),
    );
    await page.click('[aria-label="Copy multi-step 80/10/10 60K as a Hugging Face call"]');
    await page.waitForFunction(() =>
      /LambdaLR\(optimizer, lr_lambda\)/.test(document.querySelector('#answer-code').value),
    );
    assert.match(await page.textContent('#answer-code-title'), /transformers has no schedule like multi-step/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the explanations are a click away from where S1, S2, λ, the warmup and the metrics appear', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    assert.equal(await page.locator('#explain').evaluate((d) => d.open), false);
    await page.click('a.explain-link[href="#explain-areas"]');
    assert.equal(await page.locator('#explain').evaluate((d) => d.open), true);
    assert.match(await page.textContent('#explain'), /S1\(s\), the forward area|S1\(s\)/);
    assert.ok(await page.locator('#explain-metrics').isVisible());
    const laws = await page.$$eval('#explain-law-list dt', (dts) => dts.map((d) => d.textContent));
    for (const law of ['Annealing law', 'Multi-Power Law', 'LR-weighted annealing law'])
      assert.ok(laws.includes(law), laws.join(', '));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the x axis in steps, tokens or FLOPs: the tokens per step entered once, a wrong number refused naming the field', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const axis = () => page.$eval('#chart-loss', (c) => ({ label: c.dataset.xLabel, max: Number(c.dataset.xMax) }));
    // The Fig. 2 view runs to the 60K-step schedules predicted.
    assert.deepEqual(await axis(), { label: 'step', max: 60000 });
    await page.selectOption('#x-unit', 'tokens');
    assert.match(
      await page.textContent('#x-unit-note'),
      /^Enter the tokens per step to count the x axis in tokens: it counts steps meanwhile\.$/,
    );
    assert.deepEqual(await axis(), { label: 'step', max: 60000 });
    await page.fill('#tokens-per-step', 'many');
    await page.dispatchEvent('#tokens-per-step', 'change');
    assert.match(
      await messageText(page),
      /^Tokens per step: "many" is not a positive number \(such as 4000000, 4,000,000 or 4M\)\./,
    );
    await page.fill('#tokens-per-step', '524288');
    await page.dispatchEvent('#tokens-per-step', 'change');
    await page.waitForFunction(() => document.querySelector('#chart-loss').dataset.xLabel === 'tokens');
    assert.deepEqual(await axis(), { label: 'tokens', max: 60000 * 524288 });
    assert.ok(await page.isHidden('#x-unit-note'));
    // FLOPs ≈ 6·N·tokens, N the model's size (the paper's Fig. 2 model: 594M).
    await page.selectOption('#x-unit', 'flops');
    // (written as researchers write sizes: 594M)
    await page.fill('#model-size', '594M');
    await page.dispatchEvent('#model-size', 'change');
    await page.waitForFunction(() => /FLOPs/.test(document.querySelector('#chart-loss').dataset.xLabel));
    const flops = await axis();
    assert.ok(Math.abs(flops.max - 6 * 594e6 * 524288 * 60000) < 1e-9 * flops.max, String(flops.max));
    // Every result chart counts the same way; back to steps, the tokens per step stay entered.
    await chartsDrawn(page);
    for (const id of ['lr', 'residuals', 'terms'])
      assert.match(await page.getAttribute(`#chart-${id}`, 'data-x-label'), /FLOPs/, id);
    await page.selectOption('#x-unit', 'steps');
    assert.deepEqual(await axis(), { label: 'step', max: 60000 });
    await page.selectOption('#x-unit', 'tokens');
    assert.deepEqual(await axis(), { label: 'tokens', max: 60000 * 524288 });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a PNG export says it is drawing and how long it took; the schedule dialog speaks the form’s words', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-png="loss"]')]);
    assert.equal(download.suggestedFilename(), 'annealing-law-loss.png');
    const status = await page.textContent('#status');
    // Drawn with its progress said first ("Drawing the ... chart as PNG…"), then its size and time.
    const m =
      /^Exported the “Loss: observed points, fitted and predicted curves” chart as PNG \(([\d.,]+ (KB|MB|B))\) in ([\d.,]+) (ms|s)\.$/.exec(
        status,
      );
    assert.ok(m, status);

    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.selectOption('#schedule-kind', 'wsd');
    // Nothing typed yet: the dialog asks for the field, in its label's words, and is no error.
    await page.waitForFunction(() => /Fill in/.test(document.querySelector('#schedule-info').textContent));
    assert.equal(await page.textContent('#schedule-info'), 'Fill in Decay fraction (of total, e.g. 0.2).');
    assert.equal(await page.$eval('#schedule-info', (e) => e.classList.contains('error')), false);
    // The default a choice stands for, and what the final LR is beside Hugging Face's ratio.
    assert.equal(await page.$eval('#sf-decay option[value=""]', (o) => o.textContent), 'default (cosine)');
    assert.match(await page.textContent('label[for="sf-final"] .hint'), /raw units.*min_lr_rate is this ÷ the peak/);
    // A wrong value: named by its label, not a JSON path.
    await page.fill('#sf-decayFraction', '1.5');
    await page.waitForFunction(() => document.querySelector('#schedule-info').classList.contains('error'));
    assert.equal(
      await page.textContent('#schedule-info'),
      'Decay fraction: must be in (0, 1] (or give Decay steps), got 1.5',
    );
    await page.fill('#sf-decayFraction', '0.2');
    await page.waitForFunction(() => /steps · peak/.test(document.querySelector('#schedule-info').textContent));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
