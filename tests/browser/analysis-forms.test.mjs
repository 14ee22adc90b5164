// Driving an analysis as a researcher does: the WSD-ratio view's form fields (total steps,
// decay shape, peak LR) and its JSON view stay in sync; each change recomputes the answer, whose
// sentence and chart follow; every line's optimum is marked on the chart as drawn (checked in
// its SVG export, which is built from the chart's data); the y axis shows each line relative to
// its best; input typed wrong, or refused by lawcore, is named and the last answer stays; text
// typed before lawcore’s defaults arrive is not written over.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useServerAndBrowser, openPage, waitForFit, holdFullModule } from './harness.mjs';

const env = useServerAndBrowser(before, after);

const answer = (page) => page.textContent('#analysis-answer');
const series = async (page) => (await page.getAttribute('#chart-analysis', 'data-series')).split('|');
const error = (page) =>
  page.evaluate(() => {
    const e = document.querySelector('#analysis-error');
    return e.hidden ? '' : e.textContent;
  });

/** setField types text in an option's field and leaves it (a change event), as a user does. */
async function setField(page, key, text) {
  await page.fill(`#analysis-field-${key}`, text);
  await page.press(`#analysis-field-${key}`, 'Tab');
}

/** answered waits until the answer's sentence matches re and nothing is computing. */
async function answered(page, re) {
  await page.waitForFunction(
    (src) =>
      new RegExp(src).test(document.querySelector('#analysis-answer').textContent)
      && !/Computing/.test(document.querySelector('#analysis-status').textContent),
    re.source,
    { timeout: 60000 },
  );
}

/** openView opens the Analyses panel once the example is fitted, and shows view with its first answer. */
async function openView(page, view) {
  await waitForFit(page);
  await page.click('#analyses-panel > summary');
  await page.selectOption('#analysis-view', view);
  await answered(page, /./);
}

/**
 * svgMarks downloads the chart as SVG and returns, for each line's optimum mark, how many points
 * it draws and its colour, and each line's colour: {marks: {label: {points, color}}, lines: {label: color}, yLabel}.
 */
async function svgMarks(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-svg="analysis"]')]);
  const text = (await readFile(await download.path())).toString('utf8');
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const marks = {};
    const lines = {};
    for (const p of doc.querySelectorAll('path[data-series$=": best"]')) {
      marks[p.dataset.series] = {
        points: (p.getAttribute('d').match(/M/g) || []).length - (p.getAttribute('d') === 'M0 0' ? 1 : 0),
        color: p.getAttribute('fill'),
      };
    }
    for (const g of doc.querySelectorAll('g[data-series]')) lines[g.dataset.series] = g.getAttribute('stroke');
    const yLabel = [...doc.querySelectorAll('text')].find((x) =>
      /rotate\(-90\)/.test(x.getAttribute('transform') || ''),
    );
    return { marks, lines, yLabel: yLabel && yLabel.textContent };
  }, text);
}

test('the WSD-ratio form drives the analysis: sentence, chart, every optimum marked, relative axis, errors named', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#analyses-panel > summary');
    await page.selectOption('#analysis-view', 'wsd-ratio');
    await answered(page, /^At 50K steps the best WSD cooldown \(cosine decay\) is \d+\.\d% of the run/);
    assert.equal(await page.inputValue('#analysis-field-totals'), '10000, 20000, 50000, 100000, 200000');
    assert.equal(await page.inputValue('#analysis-field-ratios'), '0.02..0.8 by 0.02');
    assert.match(
      await page.textContent('#analysis-field-totals-range'),
      /^steps, from 1 to 9,999,999, up to 20 values$/,
    );
    const first = await answer(page);

    // Every one of the five lines has its optimum drawn: one point each, in the line's colour.
    const totals = ['10000 steps', '20000 steps', '50000 steps', '100000 steps', '200000 steps'];
    // (the fit gives its uncertainty: each line's ratios within the band of its best are marked too)
    assert.deepEqual(await series(page), [
      ...totals,
      ...totals.map((t) => `${t}: best`),
      ...totals.map((t) => `${t}: within the band`),
    ]);
    let svg = await svgMarks(page);
    for (const t of totals) assert.deepEqual(svg.marks[`${t}: best`], { points: 1, color: svg.lines[t] }, t);
    assert.equal(svg.yLabel, 'final loss');

    // Change the total steps: the sentence, the chart and the JSON view follow.
    await setField(page, 'totals', '30K, 60K, 120K');
    await answered(page, /^At 60K steps /);
    assert.match(await answer(page), /from 30K to 120K steps the best goes from/);
    const lines3 = ['30000 steps', '60000 steps', '120000 steps'];
    assert.deepEqual(await series(page), [
      ...lines3,
      ...lines3.map((t) => `${t}: best`),
      ...lines3.map((t) => `${t}: within the band`),
    ]);
    assert.match(await page.inputValue('#analysis-options'), /"totals": \[30000,60000,120000\]/);
    assert.equal(await page.inputValue('#analysis-field-totals'), '30000, 60000, 120000');
    svg = await svgMarks(page);
    assert.deepEqual(
      Object.values(svg.marks).map((m) => m.points),
      [1, 1, 1],
    );

    // The JSON view (the advanced view, folded) sets the form: a linear decay.
    await page.click('#analysis-options-box > summary');
    const json = (await page.inputValue('#analysis-options')).replace('"decay": "cosine"', '"decay": "linear"');
    await page.fill('#analysis-options', json);
    await page.press('#analysis-options', 'Tab');
    await answered(page, /^At 60K steps the best WSD cooldown \(linear decay\)/);
    assert.equal(await page.inputValue('#analysis-field-decay'), 'linear');
    const linear = await answer(page);

    // Typed wrong: the field is named, marked, and the last answer stays on screen.
    await setField(page, 'totals', '30K, lots');
    await page.waitForFunction(() => !document.querySelector('#analysis-error').hidden);
    assert.equal(
      await error(page),
      'WSD annealing ratio: final loss vs ratio: Total steps, value 2: “lots” is not a number (The answer shown is from the last options that worked.)',
    );
    assert.equal(await page.getAttribute('#analysis-field-totals', 'aria-invalid'), '');
    assert.equal(await answer(page), linear);
    assert.equal((await series(page)).length, 9);
    // Refused by lawcore (shorter than the warmup): named by the form's label.
    await setField(page, 'totals', '300');
    await page.waitForFunction(() => /totals\[0\]/.test(document.querySelector('#analysis-error').textContent), null, {
      timeout: 60000,
    });
    assert.match(
      await error(page),
      /^WSD annealing ratio: final loss vs ratio: Total steps, value 1 \(totals\[0\]\): must be from 501 to 9999999 steps, got 300/,
    );
    assert.equal(await answer(page), linear);
    // Bad JSON: named, and nothing changes.
    await page.fill('#analysis-options', '{"totals": [50000,');
    await page.press('#analysis-options', 'Tab');
    await page.waitForFunction(() =>
      /Options \(JSON\): not valid JSON/.test(document.querySelector('#analysis-error').textContent),
    );
    assert.equal(await page.getAttribute('#analysis-options', 'aria-invalid'), '');
    assert.equal(await answer(page), linear);

    // A good value clears the error; the peak LR typed here is used, and said.
    await setField(page, 'totals', '50K');
    await answered(page, /^At 50K steps the best WSD cooldown \(linear decay\)/);
    assert.equal(await error(page), '');
    assert.equal(await page.getAttribute('#analysis-field-totals', 'aria-invalid'), null);
    const atPagePeak = await answer(page);
    await setField(page, 'peak', '4e-4');
    await page.waitForFunction(
      () => /peak LR 4e-4 \(set here\)/.test(document.querySelector('#analysis-status').textContent),
      null,
      { timeout: 60000 },
    );
    assert.notEqual(await answer(page), atPagePeak);
    // twice the peak the example's curves were fitted at: the answer says it extrapolates
    assert.match(
      await answer(page),
      /^Warning: its peak LR \(4e-4\) is 2× the highest of the curves fitted \(2e-4\);.* an extrapolation the fit cannot vouch for\. At 50K steps/,
    );
    assert.doesNotMatch(atPagePeak, /Warning/);

    // The y axis relative to each line's best.
    await page.check('#analysis-relative');
    await page.waitForFunction(() => document.querySelector('#analysis-result').dataset.relative === 'true');
    svg = await svgMarks(page);
    assert.equal(svg.yLabel, 'final loss − the line’s best');

    // Defaults: lawcore's options again.
    await page.click('#analysis-reset');
    await answered(page, /^At 50K steps the best WSD cooldown \(cosine decay\)/);
    assert.equal(await answer(page), first);
    assert.equal(await page.inputValue('#analysis-field-peak'), '');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('constant vs cosine over runs too long to cross: the answer says so and the chart is drawn, with no error', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await openView(page, 'constant-vs-cosine');
    await setField(page, 'minTotal', '30000');
    await answered(page, /cosine \(to 0\) ends lower than a constant LR at every total/);
    assert.ok((await page.locator('#chart-analysis canvas').count()) >= 1, 'no chart');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Cancel stops a long analysis in its worker: the bar moves, the last answer stays, and the next analysis answers', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const replaced = [];
  page.on('console', (msg) => {
    if (/was replaced/.test(msg.text())) replaced.push(msg.text());
  });
  try {
    await openView(page, 'constant-vs-cosine');
    const before = await answer(page);
    assert.ok(await page.isHidden('#analysis-cancel'), 'no Cancel with nothing computing');
    assert.ok(await page.isHidden('#analysis-progress'), 'no progress bar with nothing computing');
    // the optimiser over every family with many knots: seconds of work, whose progress shows
    await page.selectOption('#analysis-view', 'optimize');
    await page.locator('#analysis-cancel').waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const bar = document.querySelector('#analysis-progress');
      return !bar.hidden && bar.value > 0 && bar.value < 1;
    });
    await page.click('#analysis-cancel');
    const cancelledAt = Date.now();
    await page.waitForFunction(() => /^Cancelled\./.test(document.querySelector('#analysis-status').textContent));
    assert.ok(await page.isHidden('#analysis-cancel'));
    assert.ok(await page.isHidden('#analysis-progress'));
    assert.equal(await answer(page), before, 'the answer shown before stays');
    await page.selectOption('#analysis-view', 'constant-vs-cosine');
    await answered(page, /./);
    await setField(page, 'count', '12');
    await answered(page, /./);
    assert.equal(await error(page), '');
    // lawcore stopped the optimiser itself: the page did not have to replace its worker, which
    // it does when a cancel is not honoured within 3 s
    await page.waitForTimeout(Math.max(0, cancelledAt + 3500 - Date.now()));
    assert.deepEqual(replaced, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/**
 * openBeforeDefaults opens the WSD-ratio view once the example is fitted, with lawcore.wasm (and
 * with it the analyses' defaults, loaded at the panel's first opening) held back until the
 * release it returns is called: what a test types meanwhile falls before them on any machine.
 */
async function openBeforeDefaults(context, page) {
  await waitForFit(page);
  const release = await holdFullModule(context);
  await page.click('#analyses-panel > summary');
  await page.selectOption('#analysis-view', 'wsd-ratio');
  return release;
}

test('text typed in a field before lawcore’s defaults arrive stays, focused, and sets the options when left', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    const release = await openBeforeDefaults(context, page);
    await page.click('#analysis-field-totals');
    await page.keyboard.type('30000, 60000');
    release();
    // the defaults are in
    await page.waitForFunction(() => /"ratios"/.test(document.querySelector('#analysis-options').value));
    assert.equal(
      await page.inputValue('#analysis-field-totals'),
      '30000, 60000',
      'the typing stays (before the fix, the defaults were written over it)',
    );
    assert.equal(await page.evaluate(() => document.activeElement.id), 'analysis-field-totals');
    await page.keyboard.type(', 90000');
    await page.press('#analysis-field-totals', 'Tab');
    await answered(page, /^At \d+K steps the best WSD cooldown/);
    assert.deepEqual(
      (await series(page)).filter((x) => !x.includes(':')),
      ['30000 steps', '60000 steps', '90000 steps'],
    );
    assert.match(await page.inputValue('#analysis-options'), /"totals": \[30000,60000,90000\]/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('text typed in the JSON view before lawcore’s defaults arrive stays', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    const release = await openBeforeDefaults(context, page);
    await page.click('#analysis-options-box > summary');
    await page.click('#analysis-options');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"totals": [40000]');
    release();
    // the defaults are in
    await page.waitForFunction(() => document.querySelector('#analysis-field-ratios')?.value, null, { timeout: 60000 });
    assert.equal(await page.inputValue('#analysis-options'), '{"totals": [40000]');
    await page.keyboard.type('}');
    await page.press('#analysis-options', 'Tab');
    await answered(page, /^At 40K steps the best WSD cooldown/);
    assert.deepEqual(
      (await series(page)).filter((x) => !x.includes(':')),
      ['40000 steps'],
    );
    assert.equal(await page.inputValue('#analysis-field-totals'), '40000');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
