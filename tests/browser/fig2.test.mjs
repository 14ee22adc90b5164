// The page opens on the paper's companion view: Fig. 2 fitted, the 60K schedules predicted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, params, fullParams } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('opens with the Fig. 2 fit and the 60K predictions drawn', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    assert.deepEqual(await params(page), { L0: '2.628', A: '0.430', C: '0.411', alpha: '0.550' });

    // The two Fig. 2 curves are fitted, with the paper's R2 > 0.999.
    const r2 = await page.$$eval('#metrics-table tr[data-role="fit"] td[data-metric="R2"]', (tds) =>
      tds.map((td) => Number(td.dataset.value)),
    );
    assert.equal(r2.length, 2);
    for (const v of r2) assert.ok(v > 0.999, `R2 ${v}`);

    // Five unseen 60K schedules, each with a predicted final loss, each drawn on the loss chart.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#predict-list [data-schedule-name]')].every((r) => r.dataset.finalLoss !== ''),
    );
    const predictions = await page.$$eval('#predict-list [data-schedule-name]', (rows) =>
      rows.map((r) => ({ name: r.dataset.scheduleName, final: Number(r.dataset.finalLoss) })),
    );
    assert.equal(predictions.length, 5);
    for (const p of predictions) assert.ok(p.final > 2.6 && p.final < 3.2, `${p.name}: final loss ${p.final}`);
    // The constant one in closed form (S2 = 0; S1 = 60,001 steps at the peak, warmup counted at
    // the peak and the sums from step 0): L0 + A·(60001·2e-4)^(−α).
    const p = await fullParams(page);
    const constant = predictions.find((q) => q.name === 'constant 60K').final;
    assert.ok(Math.abs(constant - (p.L0 + p.A * (60001 * 2e-4) ** -p.alpha)) < 1e-9, `constant 60K: ${constant}`);
    const drawn = (await page.getAttribute('#chart-loss', 'data-series')).split('|');
    for (const p of predictions) assert.ok(drawn.includes(p.name), `${p.name} is not on the loss chart: ${drawn}`);
    assert.ok((await page.locator('#chart-loss canvas').count()) >= 1);
    assert.ok((await page.locator('#chart-lr canvas').count()) >= 1);
    // Annealing helps: the multi-step and WSD runs end below the constant one (Fig. 3).
    const final = Object.fromEntries(predictions.map((p) => [p.name, p.final]));
    assert.ok(final['WSD 20% cosine 60K'] < final['constant 60K']);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
