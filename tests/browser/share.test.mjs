// Share links: the whole view in the URL fragment (#s=, deflate-raw, base64url, versioned JSON),
// restored in a fresh browser context; bad fragments are refused with a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser,
  openPage,
  waitForFit,
  params,
  messageText,
  encodeIn,
  curveNames,
  keepExample,
  saveSchedule,
  setAnalysisJSON,
} from './harness.mjs';

const env = useServerAndBrowser(before, after);

const predictions = (page) =>
  page.$$eval('#predict-list [data-schedule-name]', (rows) =>
    rows.map((r) => ({ name: r.dataset.scheduleName, final: r.dataset.finalLoss })),
  );
const mplFinals = (page) =>
  page.$$eval('#predict-list [data-schedule-name]', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.scheduleName, r.dataset.finalLossMpl])),
  );
const bothLawsPredicted = (page) =>
  page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('#predict-list [data-schedule-name]')];
    return rows.length && rows.every((r) => r.dataset.finalLoss && r.dataset.finalLossMpl);
  });
/** shareLink presses "Copy share link" and returns the link the page makes. */
async function shareLink(page) {
  await page.click('#share-button');
  await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
  return page.inputValue('#share-link');
}

/**
 * mplOrigin is the Multi-Power Law's parameters as its equation shows them: "L0 2.63, A 0.42, ..."
 * in the law's order.
 */
const mplOrigin = (page) =>
  page.evaluate(() => {
    const shown = Object.fromEntries(
      [...document.querySelectorAll('#equation [data-law="multi-power"] .param')].map((p) => [
        p.dataset.param,
        `${p.title.split(':')[0]} ${Number(p.dataset.value).toPrecision(4)}`,
      ]),
    );
    return ['L0', 'A', 'alpha', 'B', 'C', 'beta', 'gamma'].map((k) => shown[k]).join(', ');
  });
const allPredicted = (page) =>
  page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('#predict-list [data-schedule-name]')];
    return rows.length && rows.every((r) => r.dataset.finalLoss !== '');
  });

/** inFreshPage opens url in a new browser context, runs check(page), checks the page stayed clean, and closes it. */
async function inFreshPage(url, check) {
  const { context, page, errors } = await openPage(env.browser, url);
  try {
    await check(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
}

test('a share link restores the settings, curves, parameters and predictions', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  let link;
  let before;
  try {
    await waitForFit(page);
    await page.fill('#lambda', '0.998');
    await page.dispatchEvent('#lambda', 'change');
    await page.click('#fit-button');
    await page.waitForFunction(() => document.querySelector('#param-lambda').textContent.trim() === '0.998');
    await waitForFit(page);
    await saveSchedule(page, '#add-prediction', { preset: 'wsd-1-sqrt-20', name: 'my WSD' });
    // The dialog's close event adds the row a task later; then it is predicted.
    await page.waitForFunction(
      () => document.querySelector('#predict-list [data-schedule-name="my WSD"]')?.dataset.finalLoss,
    );
    await allPredicted(page);
    before = { params: await params(page), curves: await curveNames(page), predictions: await predictions(page) };
    assert.ok(before.predictions.some((p) => p.name === 'my WSD'));

    link = await shareLink(page);
    assert.match(await page.textContent('#share-note'), /data/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }

  await inFreshPage(link, async (page) => {
    await page.waitForFunction(() => document.querySelector('#param-lambda').textContent.trim() === '0.998');
    await waitForFit(page);
    await allPredicted(page);
    assert.deepEqual(await params(page), before.params);
    assert.deepEqual(await curveNames(page), before.curves);
    assert.deepEqual(await predictions(page), before.predictions);
    assert.equal(await page.inputValue('#lambda'), '0.998');
  });
});

test('corrupted and wrong-version links are refused; the page still works', async () => {
  // Every check of a link opened (oversized, deflate bombs, bad types, unexpected fields, ...)
  // is decodeShare's, tested under node (tests/node/share.test.mjs); here, that the page shows
  // the refusal and opens the default example instead.
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const wrongVersion = await encodeIn(page, JSON.stringify({ v: 3, settings: {}, curves: [], predictions: [] }));
    const cases = [
      ['corrupted', 'AAAA____not-deflate', /corrupt|decompress/i],
      ['wrong version', wrongVersion, /version 3 is not supported.*versions 1 and 2/i],
    ];
    for (const [what, payload, re] of cases) {
      const p = await context.newPage();
      const errs = [];
      p.on('pageerror', (e) => errs.push(e.message));
      await p.goto(`${env.url}#s=${payload}`);
      await p.waitForSelector('#message:not([hidden])');
      const text = await messageText(p);
      assert.match(text, /Share link refused/, what);
      assert.match(text, re, `${what}: ${text}`);
      // The default example opens instead and fits.
      await waitForFit(p);
      assert.equal(await p.textContent('#param-L0'), '2.628', what);
      assert.deepEqual(errs, [], what);
      await p.close();
    }
  } finally {
    await context.close();
  }
});

test('a view too large for a link with data gets a link without data', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  let link;
  try {
    await waitForFit(page);
    await keepExample(page); // the big curve goes beside the example
    // 100,000 noisy points with an LR column: far over 200 KB deflated.
    let seed = 1;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const rows = ['step,lr,loss'];
    for (let s = 1; s <= 100000; s++) rows.push(`${s},2e-4,${(3 + 1 / Math.sqrt(s) + 0.01 * rnd()).toFixed(9)}`);
    await page.setInputFiles('#file-input', [
      { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) },
    ]);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#curve-list [data-curve-name]')].some((r) => r.dataset.curveName === 'big'),
    );
    link = await shareLink(page);
    assert.match(await page.textContent('#share-note'), /too large.*leaves the data out/);
    assert.ok(link.length < 200 * 1024);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
  await inFreshPage(link, async (page) => {
    await allPredicted(page);
    // No data in the link: the curves come back as schedules to predict, with the parameters.
    assert.deepEqual(await curveNames(page), []);
    const names = (await predictions(page)).map((p) => p.name);
    for (const n of ['cosine', 'constant', 'big', 'constant 60K']) assert.ok(names.includes(n), `${n} in ${names}`);
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.match(await messageText(page), /no data/);
  });
});

test('the Multi-Power Law predicts the schedules, and its parameters travel in a link without data', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  let link;
  let before;
  try {
    await waitForFit(page);
    await page.selectOption('#law', 'both');
    await page.click('#fit-button');
    await page.waitForFunction(
      () =>
        !document.body.classList.contains('fitting')
        && document.querySelectorAll('#metrics-table tr[data-curve-name][data-law="multi-power"]').length === 2,
      null,
      { timeout: 60000 },
    );
    // Every schedule to predict gets a final loss under each law.
    await bothLawsPredicted(page);
    before = { mpl: await mplFinals(page), origin: await mplOrigin(page), L0: await page.textContent('#param-L0') };
    assert.equal(Object.keys(before.mpl).length, 5);
    assert.match(
      before.origin,
      /^L0 [\d.e+-]+, A [\d.e+-]+, α [\d.e+-]+, B [\d.e+-]+, C [\d.e+-]+, β [\d.e+-]+, γ [\d.e+-]+$/,
    );
    // The two laws differ, and both drew a line per schedule.
    const drawn = (await page.getAttribute('#chart-loss', 'data-series')).split('|');
    assert.ok(
      drawn.includes('WSD 20% cosine 60K') && drawn.includes('WSD 20% cosine 60K (Multi-Power Law)'),
      drawn.join(', '),
    );
    const row = await page.$('#predict-list [data-schedule-name="WSD 20% cosine 60K"]');
    assert.notEqual(await row.getAttribute('data-final-loss'), await row.getAttribute('data-final-loss-mpl'));
    assert.match(await row.textContent(), /MPL \d\.\d{4}/);

    // A curve too large for a link with data (beside the example, whose fit stays): the link
    // carries both laws' parameters instead.
    await keepExample(page);
    const rows = ['step,lr,loss'];
    for (let s = 1; s <= 100000; s++)
      rows.push(`${s},2e-4,${(3 + 1 / Math.sqrt(s) + 0.01 * Math.sin(s * 12.9898)).toFixed(9)}`);
    await page.setInputFiles('#file-input', [
      { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) },
    ]);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#curve-list [data-curve-name]')].some((r) => r.dataset.curveName === 'big'),
    );
    link = await shareLink(page);
    assert.match(await page.textContent('#share-note'), /leaves the data out/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
  await inFreshPage(link, async (page) => {
    await bothLawsPredicted(page);
    assert.equal(await mplOrigin(page), before.origin);
    assert.equal(await page.textContent('#param-L0'), before.L0);
    const after = await mplFinals(page);
    for (const [name, final] of Object.entries(before.mpl)) assert.equal(after[name], final, name);
  });
});

test('a link with Multi-Power parameters only predicts by the closed form of a constant LR', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    // Constant LR 1e-3 from step 0, no warmup: no loss drop, L(1000) = L0 + A·(1001·1e-3)^-alpha.
    const multiPower = { L0: 2.5, A: 0.5, alpha: 0.5, B: 400, C: 2, beta: 0.6, gamma: 0.5 };
    const view = {
      v: 2,
      settings: {
        lambda: 0.999,
        fitLambda: false,
        warmupSteps: 0,
        warmupConvention: 'actual',
        huberDelta: 0.001,
        law: 'multi-power',
        auto: false,
      },
      params: null,
      multiPower,
      source: 'manual',
      curves: [],
      predictions: [{ name: 'flat', schedule: { kind: 'constant', total: 1000, peak: 1e-3 } }],
    };
    const payload = await encodeIn(page, JSON.stringify(view));
    await page.goto(`${env.url}#s=${payload}`);
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector('#predict-list [data-schedule-name="flat"]')?.dataset.finalLossMpl,
    );
    const got = Number(await page.getAttribute('#predict-list [data-schedule-name="flat"]', 'data-final-loss-mpl'));
    const want = 2.5 + 0.5 / Math.sqrt(1.001);
    assert.ok(Math.abs(got - want) < 1e-12, `final ${got}, want ${want}`);
    assert.equal(await page.getAttribute('#predict-list [data-schedule-name="flat"]', 'data-final-loss'), '');
    assert.match(await page.textContent('#predict-list [data-schedule-name="flat"]'), /final \(MPL\) 2\.99\d\d/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a link made with the Analyses panel open opens it on the same view, with its options, and computes the same answer', async () => {
  const computed = (view) =>
    document.querySelector('#analysis-result').dataset.view === view
    && !document.querySelector('#analysis-table').hidden
    && !/Computing/.test(document.querySelector('#analysis-status').textContent);
  const { context, page, errors } = await openPage(env.browser, env.url);
  let link;
  let table;
  try {
    await waitForFit(page);
    await setAnalysisJSON(page, 'lambda', '{"lambdas": [0.99, 0.995], "totals": [30000]}', /"lambdas"/);
    await page.waitForFunction(computed, 'lambda', { timeout: 60000 });
    table = await page.textContent('#analysis-table');
    link = await shareLink(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
  await inFreshPage(link, async (page) => {
    await waitForFit(page);
    await page.waitForFunction(computed, 'lambda', { timeout: 60000 });
    assert.equal(await page.evaluate(() => document.querySelector('#analyses-panel').open), true);
    assert.deepEqual(JSON.parse(await page.inputValue('#analysis-options')).lambdas, [0.99, 0.995]);
    // the link's fit is made again, and the view computed from it
    await page.waitForFunction((t) => document.querySelector('#analysis-table').textContent === t, table, {
      timeout: 60000,
    });
  });
});
