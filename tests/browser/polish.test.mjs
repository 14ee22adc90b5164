// Polish: every control has a label, and the fit can be run from the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('every input, select and textarea has a label', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const unlabelled = await page.$$eval('input:not([type=hidden]), select, textarea', (els) => els
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
      .map((el) => el.id || el.outerHTML.slice(0, 80)));
    assert.deepEqual(unlabelled, []);
  } finally {
    await context.close();
  }
});

test('the fit runs from the keyboard', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.fill('#lambda', '0.998');
    await page.focus('#fit-button');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent));
    assert.notEqual(await page.textContent('#param-L0'), '2.628');
  } finally {
    await context.close();
  }
});

/** overflowing lists what sticks out past the window's right edge, when the page is wider than it. */
function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const clipped = (el) => {
      for (let a = el; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.nodeType === Node.TEXT_NODE ? n.parentElement : n;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rect = n.nodeType === Node.TEXT_NODE ? range.getBoundingClientRect() : n.getBoundingClientRect();
      if (rect.width > 0 && rect.right > width + 1 && !clipped(n.nodeType === Node.TEXT_NODE ? el : el.parentElement)) {
        found.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className} "${(el.textContent || '').trim().slice(0, 30)}" ends at ${Math.round(rect.right)}`);
      }
    }
    return [`page ${document.documentElement.scrollWidth} px wide in a ${width} px window`, ...found.slice(0, 5)];
  });
}

test('from a phone-width window to a wide screen, nothing widens the page', async () => {
  for (const width of [320, 375, 768, 1400]) {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width, height: 800 } });
    try {
      await waitForFit(page);
      assert.deepEqual(await overflowing(page), [], `Fig. 2 at ${width} px`);
      // Every chart fits in the window.
      const charts = await page.$$eval('canvas', (cs) => cs.map((c) => c.getBoundingClientRect().right));
      assert.ok(charts.length >= 3 && charts.every((r) => r <= width + 1), `charts end at ${charts} in ${width} px`);
      // The analyses, a share link and the schedule builder open within the width too.
      await page.click('#analyses-panel > summary');
      await page.waitForFunction(() => document.querySelector('#analysis-table:not([hidden]) tbody tr') || document.querySelector('#chart-analysis canvas'), null, { timeout: 30000 });
      await page.click('#share-button');
      await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
      assert.deepEqual(await overflowing(page), [], `analyses and share link at ${width} px`);
      await page.click('#add-prediction');
      await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
      assert.deepEqual(await overflowing(page), [], `schedule builder at ${width} px`);
      const dialog = await page.locator('#schedule-dialog').boundingBox();
      assert.ok(dialog.x >= 0 && dialog.x + dialog.width <= width + 1, `the builder spans ${dialog.x}..${dialog.x + dialog.width} in ${width} px`);
      await page.keyboard.press('Escape');
      // The Multi-Power example: longer names, another parameter table.
      await page.click('#example-mpl25');
      await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length > 2, null, { timeout: 30000 });
      await waitForFit(page);
      assert.deepEqual(await overflowing(page), [], `MultiPowerLaw 25M at ${width} px`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});
