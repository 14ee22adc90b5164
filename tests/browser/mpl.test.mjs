// A researcher's own curves: the MultiPowerLaw 25M runs, uploaded as files, split as the release
// does (fit 3, predict 6), with its 2160 warmup steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, openPage, waitForFit, EXAMPLES } from './harness.mjs';

const env = useServerAndBrowser(before, after);

const FIT = ['cosine_24000', 'constant_24000', 'wsdcon_9'];
const VALIDATE = ['constant_72000', 'cosine_72000', 'wsd_20000_24000', 'wsdld_20000_24000', 'wsdcon_3', 'wsdcon_18'];

test('uploading the nine 25M curves, fitting three and predicting six', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#clear-curves');
    const files = [...FIT, ...VALIDATE].map((n) => path.join(EXAMPLES, 'mpl/csv_25', `${n}.csv`));
    await page.setInputFiles('#file-input', files);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 9);
    await page.fill('#warmup-steps', '2160');
    for (const name of FIT) await page.selectOption(`#curve-list [data-curve-name="${name}"] select`, 'fit');
    for (const name of VALIDATE) await page.selectOption(`#curve-list [data-curve-name="${name}"] select`, 'validate');

    await page.click('#fit-button');
    await page.waitForFunction(
      () => document.querySelectorAll('#metrics-table tr[data-curve-name]').length === 9,
      null,
      { timeout: 120000 },
    );
    await waitForFit(page);

    const rows = await page.$$eval('#metrics-table tr[data-curve-name]', (trs) =>
      trs.map((tr) => ({
        name: tr.dataset.curveName,
        role: tr.dataset.role,
        metrics: Object.fromEntries(
          [...tr.querySelectorAll('td[data-metric]')].map((td) => [
            td.dataset.metric,
            td.dataset.value === '' ? NaN : Number(td.dataset.value),
          ]),
        ),
      })),
    );
    assert.deepEqual(
      rows
        .filter((r) => r.role === 'fit')
        .map((r) => r.name)
        .sort(),
      [...FIT].sort(),
    );
    assert.deepEqual(
      rows
        .filter((r) => r.role === 'validate')
        .map((r) => r.name)
        .sort(),
      [...VALIDATE].sort(),
    );
    for (const r of rows) {
      for (const key of ['R2', 'MAE', 'RMSE', 'PredE', 'WorstE'])
        assert.ok(Number.isFinite(r.metrics[key]), `${r.name} ${key}`);
      // each curve's mean error below the release's own mean worst-point error (WorstE 0.0041)
      assert.ok(r.metrics.PredE <= 0.0041, `${r.name}: PredE ${r.metrics.PredE}`);
    }
    const validateMean = Number(
      await page.getAttribute('#metrics-table tr[data-summary="validate"] td[data-metric="PredE"]', 'data-value'),
    );
    // auto, the default for one's own curves: within the trust issue's target for this split
    // (0.00120, TestAutoScenarios; the release's own law 0.00110)
    assert.ok(validateMean <= 0.0012, `validate mean PredE ${validateMean}`);
    // The shown number is the attribute in percent.
    const shown = await page.textContent('#metrics-table tr[data-summary="validate"] td[data-metric="PredE"]');
    assert.match(shown, /^\d+(\.\d+)?%$/);
    assert.ok(Math.abs(parseFloat(shown) / 100 - validateMean) < 1e-5, `shown ${shown}, value ${validateMean}`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
