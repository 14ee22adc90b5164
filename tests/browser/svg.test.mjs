// Every chart exports as SVG built from its data: it parses, has axes, and a polyline or path per series.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('each chart downloads as a well-formed SVG with one shape per series', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name]')?.dataset.finalLoss);
    for (const id of ['loss', 'lr', 'residuals', 'terms']) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-svg="${id}"]`)]);
      assert.equal(download.suggestedFilename(), `annealing-law-${id}.svg`);
      const text = (await readFile(await download.path())).toString('utf8');
      assert.match(text, /^<svg /);
      const series = (await page.getAttribute(`#chart-${id}`, 'data-series')).split('|');
      // Parse it with the browser's XML parser and count the shapes per series.
      const got = await page.evaluate((t) => {
        const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
        if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
        return {
          root: doc.documentElement.localName,
          series: [...doc.querySelectorAll('[data-series]')].map((g) => ({
            name: g.getAttribute('data-series'),
            shapes: g.matches('path') ? 1 : g.querySelectorAll('polyline').length,
            points: g.matches('path')
              ? (g.getAttribute('d').match(/M/g) || []).length
              : g.querySelector('polyline').getAttribute('points').split(' ').length,
          })),
          texts: [...doc.querySelectorAll('text')].map((x) => x.textContent),
        };
      }, text);
      assert.equal(got.error, undefined, `${id}: ${got.error}`);
      assert.equal(got.root, 'svg');
      assert.deepEqual(
        got.series.map((s) => s.name),
        series,
        id,
      );
      for (const s of got.series) {
        assert.ok(s.shapes >= 1, `${id}/${s.name}: no shape`);
        assert.ok(s.points >= 1, `${id}/${s.name}: no points`);
      }
      assert.ok(got.texts.includes('step'), `${id}: x-axis label`);
      assert.ok(got.texts.length > 6, `${id}: ticks and legend`);
    }
    // The analyses chart too (the constant vs cosine view by default).
    await page.click('#analyses-panel > summary');
    await page.waitForFunction(() => document.querySelector('#chart-analysis canvas'), null, { timeout: 30000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-svg="analysis"]')]);
    assert.equal(download.suggestedFilename(), 'annealing-law-analysis.svg');
    const text = (await readFile(await download.path())).toString('utf8');
    const n = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      return doc.querySelector('parsererror') ? -1 : doc.querySelectorAll('[data-series]').length;
    }, text);
    const expected = (await page.getAttribute('#chart-analysis', 'data-series')).split('|').length;
    assert.equal(n, expected);

    // The decomposition draws C·S2 on a second axis, on the right: the SVG has it, and each
    // dashed line sits where its own scale puts it, as on the page.
    await page.selectOption('#analysis-view', 'decomposition');
    await page.waitForFunction(
      () => /C·S2/.test(document.querySelector('#chart-analysis').dataset.series || ''),
      null,
      { timeout: 30000 },
    );
    const [dec] = await Promise.all([page.waitForEvent('download'), page.click('[data-svg="analysis"]')]);
    const decText = (await readFile(await dec.path())).toString('utf8');
    const check = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      const label = [...doc.querySelectorAll('text')].find((x) =>
        /rotate\(90\)/.test(x.getAttribute('transform') || ''),
      );
      return { label: label && label.textContent };
    }, decText);
    assert.equal(check.label, 'C·S2 (dashed)');
    // The lowest point (largest y) of every dashed polyline lies inside the frame, and the top of the
    // highest one is near the top of the frame: its own scale, not the loss axis.
    const tops = [...decText.matchAll(/<g data-series="([^"]*C·S2[^"]*)"[^>]*>\n<polyline points="([^"]*)"/g)].map(
      (m) => Math.min(...m[2].split(' ').map((p) => Number(p.split(',')[1]))),
    );
    assert.ok(tops.length >= 3, `dashed C·S2 lines: ${tops.length}`);
    const frame = /<rect x="72" y="36" width="[\d.]+" height="([\d.]+)"/.exec(decText);
    assert.ok(Math.min(...tops) < 36 + 0.2 * Number(frame[1]), `the highest C·S2 line peaks at y=${Math.min(...tops)}`);

    const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-png="analysis"]')]);
    assert.equal(png.suggestedFilename(), 'annealing-law-analysis.png');
    const bytes = await readFile(await png.path());
    assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a log loss axis spans the data with round labels, not whole decades', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.check('#log-y');
    await page.check('#log-x');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-svg="loss"]')]);
    const text = (await readFile(await download.path())).toString('utf8');
    // The y labels are right-aligned at the frame's left edge.
    const labels = [...text.matchAll(/<text x="66" y="[\d.]+" text-anchor="end">([^<]*)<\/text>/g)].map((m) =>
      Number(m[1]),
    );
    // The Fig. 2 losses run from about 2.6 to 3.7: round values between, not 1 and 10.
    assert.ok(labels.length >= 3, `y labels ${labels}`);
    assert.ok(
      labels.every((v) => v > 2.4 && v < 3.9),
      `y labels ${labels}`,
    );
    assert.ok(text.includes('>1K<') && text.includes('>10K<'), 'x labels at 1K and 10K');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
