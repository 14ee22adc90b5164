// Share links: the whole view in the URL fragment (#s=, deflate-raw, base64url, versioned JSON),
// restored in a fresh browser context; bad fragments are refused with a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, params, messageText } from './harness.mjs';

const env = useServerAndBrowser(before, after);

const curveNames = (page) => page.$$eval('#curve-list [data-curve-name]', (rows) => rows.map((r) => r.dataset.curveName));
const predictions = (page) => page.$$eval('#predict-list [data-schedule-name]', (rows) => rows.map((r) => ({ name: r.dataset.scheduleName, final: r.dataset.finalLoss })));
const allPredicted = (page) => page.waitForFunction(() => {
  const rows = [...document.querySelectorAll('#predict-list [data-schedule-name]')];
  return rows.length && rows.every((r) => r.dataset.finalLoss !== '');
});

/** encode builds a fragment payload in the page, as the page itself does. */
function encodeIn(page, text) {
  return page.evaluate(async (t) => {
    const stream = new Blob([t]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }, text);
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
    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('#schedule-preset option').length > 10);
    await page.selectOption('#schedule-preset', 'wsd-1-sqrt-20');
    await page.fill('#schedule-name', 'my WSD');
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    await allPredicted(page);
    before = { params: await params(page), curves: await curveNames(page), predictions: await predictions(page) };
    assert.ok(before.predictions.some((p) => p.name === 'my WSD'));

    await page.click('#share-button');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
    link = await page.inputValue('#share-link');
    assert.match(await page.textContent('#share-note'), /data/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }

  const fresh = await openPage(env.browser, link);
  try {
    const { page } = fresh;
    await page.waitForFunction(() => document.querySelector('#param-lambda').textContent.trim() === '0.998');
    await waitForFit(page);
    await allPredicted(page);
    assert.deepEqual(await params(page), before.params);
    assert.deepEqual(await curveNames(page), before.curves);
    assert.deepEqual(await predictions(page), before.predictions);
    assert.equal(await page.inputValue('#lambda'), '0.998');
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.context.close();
  }
});

test('corrupted, oversized and wrong-version links are refused; the page still works', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const wrongVersion = await encodeIn(page, JSON.stringify({ v: 2, settings: {}, curves: [], predictions: [] }));
    const badType = await encodeIn(page, JSON.stringify({ v: 1, settings: { lambda: 'x' }, curves: [], predictions: [] }));
    const notJSON = await encodeIn(page, '{"v":1, nope');
    const bomb = await encodeIn(page, ' '.repeat(9 * 1024 * 1024));
    const extraField = await encodeIn(page, JSON.stringify({ v: 1, settings: { lambda: 0.999, fitLambda: false, warmupSteps: 500, warmupConvention: 'peak', huberDelta: 0.001, law: 'annealing', auto: false }, curves: [], predictions: [], __proto__x: 1 }));
    const infinite = await encodeIn(page, '{"v":1,"settings":{"lambda":0.999,"fitLambda":false,"warmupSteps":500,"warmupConvention":"peak","huberDelta":1e999,"law":"annealing","auto":false},"curves":[],"predictions":[]}');
    const cases = [
      ['corrupted', 'AAAA____not-deflate', /corrupt|decompress/i],
      ['bad characters', '%3Cscript%3E', /base64url/i],
      ['oversized', 'A'.repeat(210 * 1024), /too large/i],
      ['wrong version', wrongVersion, /version 2/i],
      ['bad type', badType, /settings/i],
      ['not JSON', notJSON, /not JSON/i],
      ['deflate bomb', bomb, /expands to more than/i],
      ['unexpected field', extraField, /unexpected field "__proto__x"/],
      ['infinite number', infinite, /huberDelta: not a finite number/],
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
    // 100,000 noisy points with an LR column: far over 200 KB deflated.
    let seed = 1;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const rows = ['step,lr,loss'];
    for (let s = 1; s <= 100000; s++) rows.push(`${s},2e-4,${(3 + 1 / Math.sqrt(s) + 0.01 * rnd()).toFixed(9)}`);
    await page.setInputFiles('#file-input', [{ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) }]);
    await page.waitForFunction(() => [...document.querySelectorAll('#curve-list [data-curve-name]')].some((r) => r.dataset.curveName === 'big'));
    await page.click('#share-button');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
    assert.match(await page.textContent('#share-note'), /too large.*leaves the data out/);
    link = await page.inputValue('#share-link');
    assert.ok(link.length < 200 * 1024);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
  const fresh = await openPage(env.browser, link);
  try {
    const { page } = fresh;
    await allPredicted(page);
    // No data in the link: the curves come back as schedules to predict, with the parameters.
    assert.deepEqual(await curveNames(page), []);
    const names = (await predictions(page)).map((p) => p.name);
    for (const n of ['cosine', 'constant', 'big', 'constant 60K']) assert.ok(names.includes(n), `${n} in ${names}`);
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.match(await messageText(page), /no data/);
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.context.close();
  }
});
