// The start-up example as this build fitted it (controllers/workspace.js, saveFittedExample): a
// reader who comes back sees the same fitted Fig. 2 and predictions without a call to lawcore,
// said to be from an earlier visit; Fit fits it again to the same numbers; another build of the
// site, or "Forget my data" (shown once the user has work of their own), has it fitted afresh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, exampleSaved } from './harness.mjs';

const env = useServerAndBrowser(before, after);

/** countCalls (an init script) counts the calls the page posts to its worker, by method. */
function countCalls() {
  globalThis.__calls = {};
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.method) __calls[msg.method] = (__calls[msg.method] || 0) + 1;
    return post.call(this, msg, ...rest);
  };
}

/** shown is what the page shows of the example's answers: parameters, intervals, predictions, chart series, status. */
const shown = (page) =>
  page.evaluate(() => ({
    params: ['L0', 'A', 'C', 'alpha', 'lambda'].map((k) => document.querySelector(`#param-${k}`).textContent.trim()),
    equation: document.querySelector('#equation').textContent.replace(/\s+/g, ' '),
    predictions: [...document.querySelectorAll('#predict-list [data-schedule-name]')].map((r) =>
      r.textContent.replace(/\s+/g, ' '),
    ),
    series: document.querySelector('#chart-loss').dataset.series,
    calls: { ...__calls },
    status: document.querySelector('#status').textContent,
  }));

test('a reader who comes back sees the example as this build fitted it, without computing it again; Fit gives the same numbers', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await context.addInitScript(countCalls);
  await page.reload();
  await waitForFit(page);
  const first = await shown(page);
  assert.deepEqual(first.calls, { fit: 1, predict: 1 });
  assert.match(first.status, /^Fitted 2 curve\(s\) in [\d.]+ ms\.$/);
  await exampleSaved(page);

  await page.reload();
  await waitForFit(page);
  const again = await shown(page);
  assert.deepEqual(again.calls, {}, 'nothing is computed');
  assert.match(
    again.status,
    /^Fitted 2 curve\(s\) on an earlier visit, by this same version of the calculator \(Fit fits them again\)\.$/,
  );
  assert.deepEqual(
    { ...again, calls: null, status: null },
    { ...first, calls: null, status: null },
    'the same parameters, intervals, predictions and lines',
  );
  assert.equal(again.params[0], '2.628');
  assert.equal(
    await page.evaluate(() => document.querySelector('#example-note').hidden),
    false,
    'still labelled as the example',
  );

  await page.click('#fit-button');
  await page.waitForFunction(() => /in [\d.]+ ms\.$/.test(document.querySelector('#status').textContent));
  await waitForFit(page);
  const refitted = await shown(page);
  assert.equal(refitted.calls.fit, 1);
  assert.deepEqual(refitted.params, first.params);
  assert.deepEqual(errors, []);
  await context.close();
});

test('another build of the site fits the example afresh, and so does a visit after "Forget my data"', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await waitForFit(page);
  await exampleSaved(page);
  await context.addInitScript(countCalls);

  // the same files but for index.html's build id: another build
  await context.route(
    (url) => url.pathname === '/' || url.pathname.endsWith('/index.html'),
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(
        /<meta name="build" content="[0-9a-f]+">/,
        '<meta name="build" content="0123456789abcdef">',
      );
      await route.fulfill({ response, body });
    },
  );
  await page.reload();
  await waitForFit(page);
  assert.deepEqual((await shown(page)).calls, { fit: 1, predict: 1 }, 'another build fits');
  await exampleSaved(page);
  await context.unrouteAll();

  // the other build's copy replaced this one's: this build fits once more, then keeps its own
  await page.reload();
  await waitForFit(page);
  await exampleSaved(page);
  await page.reload();
  await waitForFit(page);
  assert.deepEqual((await shown(page)).calls, {}, "this build's copy");
  // a change makes the example the user's work, which "Forget my data" forgets with the copy
  await page.fill('#lambda', '0.998');
  await page.dispatchEvent('#lambda', 'change');
  await page.waitForFunction(() => !document.querySelector('#forget-button').hidden);
  await page.click('#forget-button');
  await page.waitForFunction(() => /^Forgotten/.test(document.querySelector('#workspace-text').textContent));
  await page.reload();
  await waitForFit(page);
  assert.deepEqual((await shown(page)).calls, { fit: 1, predict: 1 }, 'forgotten: fitted again');
  assert.deepEqual(errors, []);
  await context.close();
});
