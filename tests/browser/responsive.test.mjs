// A long fit runs in the worker: the page keeps answering, the progress bar moves, and Cancel
// stops the fit, says so and keeps the previous results.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, keepExample } from './harness.mjs';

const env = useServerAndBrowser(before, after);

/** bigCurve writes a long WSD-like run, step,lr,loss every `every` steps, from the law itself. */
function bigCurve(total, every, decayStart, seed) {
  const peak = 3e-4;
  const lambda = 0.999;
  let s1 = 0;
  let s2 = 0;
  let m = 0;
  let prev = 0;
  let rand = seed;
  const lines = ['step,lr,loss'];
  for (let s = 0; s <= total; s++) {
    const lr = s < decayStart ? peak : peak * (1 - (0.9 * (s - decayStart)) / (total - decayStart));
    m = lambda * m + (s === 0 ? 0 : prev - lr);
    s1 += lr;
    s2 += m;
    prev = lr;
    if (s > 0 && s % every === 0) {
      rand = (rand * 1103515245 + 12345) % 2147483648;
      const noise = (rand / 2147483648 - 0.5) * 0.004;
      const loss = 2.5 + 0.45 * s1 ** -0.5 - 0.5 * s2 + noise;
      lines.push(`${s},${lr},${loss.toFixed(5)}`);
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

test('a long fit keeps the page responsive and can be cancelled', async (t) => {
  const { context, page } = await openPage(env.browser, env.url);
  const replaced = [];
  page.on('console', (msg) => {
    if (/worker was replaced/.test(msg.text())) replaced.push(msg.text());
  });
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    const before = await page.textContent('#param-L0');
    const files = [0, 1, 2, 3, 4, 5].map((i) => ({
      name: `long-run-${i}.csv`,
      mimeType: 'text/csv',
      buffer: bigCurve(400000, 20, 200000 + 30000 * i, 7 + i),
    }));
    // Beside the example's two curves, whose fit stays on screen until a new one replaces it.
    await page.setInputFiles('#file-input', files);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 8, null, {
      timeout: 60000,
    });
    await page.check('#fit-lambda');

    // A counter in the page: it only advances while the main thread is free.
    await page.evaluate(() => {
      window.ticks = 0;
      setInterval(() => {
        window.ticks++;
      }, 20);
    });
    await page.click('#fit-button');
    await page.waitForFunction(() => document.body.classList.contains('fitting'));
    const t0 = await page.evaluate(() => window.ticks);
    await page.waitForTimeout(1500);
    const t1 = await page.evaluate(() => window.ticks);
    assert.ok(
      await page.evaluate(() => document.body.classList.contains('fitting')),
      'the fit ended too soon to test responsiveness',
    );
    assert.ok(t1 - t0 >= 30, `the page froze: ${t1 - t0} ticks of 20 ms in 1.5 s`);
    // The page answers the user while the fit runs: a details element opens.
    await page.click('#manual-params summary');
    assert.equal(await page.getAttribute('#manual-params', 'open'), '');
    assert.equal(await page.isEnabled('#cancel-button'), true);
    // The progress bar moves and the status line counts.
    await page.waitForFunction(() => document.querySelector('#fit-progress').value > 0, null, { timeout: 10000 });
    assert.match(await page.textContent('#status'), /Fitting.*\d+%/);
    // Cancel late, when the intervals' ten refits run: they took seconds without a report, so
    // a cancel could not reach lawcore there (the bar was full from the search's end).
    await page.waitForFunction(() => document.querySelector('#fit-progress').value > 0.9, null, { timeout: 60000 });

    const cancelAt = Date.now();
    await page.click('#cancel-button');
    await page.waitForFunction(() => /cancelled/i.test(document.querySelector('#status').textContent), null, {
      timeout: 10000,
    });
    t.diagnostic(
      `cancelled in ${Date.now() - cancelAt} ms, ${replaced.length ? 'by replacing the worker' : 'by lawcore.cancel()'}`,
    );
    assert.deepEqual(
      replaced,
      [],
      'lawcore.cancel() stops the fit itself, without the fallback of replacing the worker',
    );
    assert.equal(await page.evaluate(() => document.body.classList.contains('fitting')), false);
    assert.equal(await page.isEnabled('#fit-button'), true);
    assert.equal(await page.textContent('#param-L0'), before, 'the previous fit stays on screen');
    assert.equal(await page.locator('#message:not([hidden])').count(), 0, 'cancelling is not an error');

    // The calculator still works after the cancel.
    await page.click('#example-fig2');
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2);
    await waitForFit(page);
    assert.equal(await page.textContent('#param-L0'), '2.628');
  } finally {
    await context.close();
  }
});
