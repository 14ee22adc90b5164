// Taking results away: JSON of parameters and settings, CSV of predicted curves, PNG of a chart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';

const env = useServerAndBrowser(before, after);

async function downloadOf(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), data: await readFile(await download.path()) };
}

test('exports JSON, CSV and PNG', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name]')?.dataset.finalLoss);

    const json = await downloadOf(page, '#export-json');
    assert.match(json.name, /\.json$/);
    const fit = JSON.parse(json.data.toString('utf8'));
    assert.equal(fit.params.L0.toFixed(3), '2.628');
    assert.equal(fit.params.A.toFixed(3), '0.430');
    assert.equal(fit.params.C.toFixed(3), '0.411');
    assert.equal(fit.params.alpha.toFixed(3), '0.550');
    assert.deepEqual(fit.settings, {
      lambda: 0.999,
      fitLambda: false,
      warmupSteps: 500,
      warmupConvention: 'peak',
      huberDelta: 0.001,
      law: 'annealing',
      auto: false,
      mplSearch: 'optimum',
      priors: 'weak',
    });
    assert.match(fit.version, /^\d+\.\d+\.\d+$/);
    assert.equal(fit.version, await page.textContent('#version'));
    assert.equal(fit.source, 'fit');
    assert.equal(fit.multiPower, undefined);
    assert.deepEqual(fit.schedules.find((c) => c.name === 'cosine').schedule, {
      kind: 'cosine',
      total: 20000,
      peak: 2e-4,
      final: 0,
      warmup: 500,
    });
    assert.deepEqual(fit.curves.map((c) => c.name).sort(), ['constant', 'cosine']);
    assert.equal(fit.predictions.length, 5);
    assert.ok(fit.curves.every((c) => c.metrics.R2 > 0.999));

    // By default as dense as the charts: each curve from its first observed step (schedules:
    // from the end of warmup), about 2000 points.
    const drawn = await downloadOf(page, '#export-csv');
    const drawnRows = drawn.data
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const cosineDrawn = drawnRows.filter((r) => r[0] === 'cosine');
    assert.ok(cosineDrawn.length > 1000 && cosineDrawn.length <= 2001, `${cosineDrawn.length} rows of cosine`);
    assert.ok(
      Number(cosineDrawn[0][2]) >= 1000 && Number(cosineDrawn[0][2]) < 1020,
      `cosine starts at ${cosineDrawn[0][2]}, its first observed step is 1000`,
    );
    assert.ok(
      Number(drawnRows.find((r) => r[0] === 'constant 60K')[2]) >= 500,
      'a schedule starts at the end of its warmup',
    );
    assert.match(await page.textContent('#export-csv-every'), /every step \(CSV, 335,507 rows, about \d+(\.\d)? MB\)/);

    const csv = await downloadOf(page, '#export-csv-every');
    assert.match(csv.name, /\.csv$/);
    const lines = csv.data.toString('utf8').trimEnd().split('\n');
    // the fit has intervals, so its predictions carry its band (lower and upper)
    assert.equal(lines[0], 'curve,law,step,lr,loss,s1_term,s2_term,lower,upper');
    const rows = lines.slice(1).map((l) => l.split(','));
    const byCurve = new Map();
    for (const r of rows) {
      assert.equal(r[1], 'annealing', 'only the annealing law is fitted');
      if (!byCurve.has(r[0])) byCurve.set(r[0], []);
      byCurve.get(r[0]).push(r);
    }
    // Every step of every curve: from the first observed step (1000) to 20K for the two Fig. 2
    // curves, from the end of the warmup (500) to 60K for the five predictions.
    assert.equal(byCurve.size, 7);
    assert.equal(byCurve.get('cosine').length, 19001);
    assert.equal(byCurve.get('cosine')[0][2], '1000');
    const constant60 = byCurve.get('constant 60K');
    assert.equal(constant60.length, 59501);
    assert.equal(constant60[0][2], '500');
    const last = constant60[constant60.length - 1];
    assert.equal(last[2], '60000');
    assert.equal(Number(last[3]), 2e-4);
    // The CSV agrees with the final loss the page shows.
    const shown = Number(
      await page.getAttribute('#predict-list [data-schedule-name="constant 60K"]', 'data-final-loss'),
    );
    assert.ok(Math.abs(Number(last[4]) - shown) < 1e-9, `csv ${last[4]}, page ${shown}`);
    // Loss = L0 + s1_term - s2_term.
    assert.ok(Math.abs(Number(last[4]) - (fit.params.L0 + Number(last[5]) - Number(last[6]))) < 1e-9);
    assert.ok(Number(last[7]) < Number(last[4]) && Number(last[4]) < Number(last[8]), 'the band holds the loss');

    const png = await downloadOf(page, '[data-png="loss"]');
    assert.match(png.name, /\.png$/);
    assert.deepEqual([...png.data.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // Decoded, it is the chart as drawn on the page (its pixels, under a title, above a legend),
    // and the chart is not blank.
    const image = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      const chart = document.querySelector('#chart-loss canvas');
      const ratio = chart.width / chart.clientWidth;
      // chart-png.js draws the chart at (12, 28) CSS pixels.
      const got = ctx.getImageData(Math.round(12 * ratio), Math.round(28 * ratio), chart.width, chart.height).data;
      const shown = chart.getContext('2d').getImageData(0, 0, chart.width, chart.height).data;
      // The chart's canvas is transparent but for what is drawn: compare its opaque pixels.
      let opaque = 0;
      let same = 0;
      let inked = 0;
      for (let i = 0; i < shown.length; i += 4) {
        if (shown[i + 3] < 255) continue;
        opaque++;
        if (Math.abs(got[i] - shown[i]) + Math.abs(got[i + 1] - shown[i + 1]) + Math.abs(got[i + 2] - shown[i + 2]) < 8)
          same++;
        if (Math.abs(shown[i] - shown[i + 2]) > 60) inked++; // coloured, not grey
      }
      return {
        width: bitmap.width,
        height: bitmap.height,
        chartWidth: chart.width,
        chartHeight: chart.height,
        same: same / opaque,
        inked,
      };
    }, png.data.toString('base64'));
    assert.ok(
      image.width > image.chartWidth && image.height > image.chartHeight,
      `PNG ${image.width}x${image.height}, chart ${image.chartWidth}x${image.chartHeight}`,
    );
    assert.ok(image.same > 0.98, `only ${(image.same * 100).toFixed(1)}% of the chart's pixels are in the PNG`);
    assert.ok(image.inked > 2000, `the chart has ${image.inked} coloured pixels`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('exports observed and fitted points as CSV; a removed curve comes back with Undo', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const csv = await downloadOf(page, '#export-observed');
    const lines = csv.data.toString('utf8').trimEnd().split('\n');
    assert.equal(lines[0], 'curve,role,step,observed,in_window,fitted');
    assert.equal(lines.length, 1 + 40); // 20 points of each Fig. 2 curve
    // the paper's data: cosine at step 20000 is 2.8376071; the fit is within 0.5% of it
    const last = lines.find((l) => l.startsWith('cosine,fit,20000,')).split(',');
    assert.equal(Number(last[3]), 2.8376071);
    assert.equal(last[4], '1', 'in the fit window');
    assert.ok(Math.abs(Number(last[5]) / Number(last[3]) - 1) < 0.005, last.join(','));

    const names = () => page.$$eval('#curve-list [data-curve-name]', (rows) => rows.map((r) => r.dataset.curveName));
    assert.deepEqual(await names(), ['cosine', 'constant']);
    await page.click('#curve-list [data-curve-name="cosine"] button.remove');
    assert.deepEqual(await names(), ['constant']);
    assert.match(await page.textContent('#undo-bar'), /Removed cosine/);
    await page.click('#undo-button');
    assert.deepEqual(await names(), ['cosine', 'constant']);
    assert.equal(await page.isHidden('#undo-bar'), true);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a Multi-Power fit alone is exported too: its parameters in the JSON, its fitted loss in the CSV', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.selectOption('#law', 'both');
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted both laws/.test(document.querySelector('#status').textContent), null, {
      timeout: 120000,
    });
    const both = JSON.parse((await downloadOf(page, '#export-json')).data.toString('utf8'));
    assert.equal(both.params.L0.toFixed(3), '2.628');
    assert.deepEqual(Object.keys(both.multiPower.params).sort(), ['A', 'B', 'C', 'L0', 'alpha', 'beta', 'gamma']);
    assert.equal(both.settings.law, 'both');
    const lines = (await downloadOf(page, '#export-observed')).data.toString('utf8').trimEnd().split('\n');
    assert.equal(lines[0], 'curve,role,step,observed,in_window,fitted,fitted_multi_power');
    const last = lines
      .find((l) => l.startsWith('cosine,fit,20000,'))
      .split(',')
      .map(Number);
    assert.ok(Math.abs(last[5] / last[3] - 1) < 0.005 && Math.abs(last[6] / last[3] - 1) < 0.005, lines.join('\n'));

    await page.selectOption('#law', 'multi-power');
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 2 curve/.test(document.querySelector('#status').textContent), null, {
      timeout: 120000,
    });
    const mpl = JSON.parse((await downloadOf(page, '#export-json')).data.toString('utf8'));
    assert.equal(mpl.params, undefined);
    assert.equal(mpl.settings.law, 'multi-power');
    assert.deepEqual(mpl.multiPower.params, both.multiPower.params);
    assert.deepEqual(
      mpl.multiPower.curves.map((c) => c.name),
      ['cosine', 'constant'],
    );
    const header = (await downloadOf(page, '#export-observed')).data.toString('utf8').split('\n')[0];
    assert.equal(header, 'curve,role,step,observed,in_window,fitted_multi_power');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
