// Polish: every control has a label, and the fit can be run from the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('every input, select and textarea has a label', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const unlabelled = await page.$$eval('input:not([type=hidden]), select, textarea', (els) =>
      els
        .filter(
          (el) =>
            !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'),
        )
        .map((el) => el.id || el.outerHTML.slice(0, 80)),
    );
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
      for (let a = el; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return true;
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
        found.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${(el.textContent || '').trim().slice(0, 30)}" ends at ${Math.round(rect.right)}`,
        );
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
      // Every curve's and schedule's name is shown whole: none is clipped, none squeezed to a sliver.
      const names = await page.$$eval('.row-name', (xs) =>
        xs.map((x) => ({
          text: x.textContent,
          width: x.getBoundingClientRect().width,
          clipped: x.scrollWidth > x.clientWidth + 1,
        })),
      );
      for (const n of names)
        assert.ok(
          !n.clipped && n.width >= 100,
          `${n.text} at ${width} px: ${n.width} px wide${n.clipped ? ', clipped' : ''}`,
        );
      // The analyses, a share link and the schedule builder open within the width too.
      await page.click('#analyses-panel > summary');
      await page.waitForFunction(
        () =>
          document.querySelector('#analysis-table:not([hidden]) tbody tr')
          || document.querySelector('#chart-analysis canvas'),
        null,
        { timeout: 30000 },
      );
      await page.click('#share-button');
      await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
      assert.deepEqual(await overflowing(page), [], `analyses and share link at ${width} px`);
      await page.click('#add-prediction');
      await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
      assert.deepEqual(await overflowing(page), [], `schedule builder at ${width} px`);
      const dialog = await page.locator('#schedule-dialog').boundingBox();
      assert.ok(
        dialog.x >= 0 && dialog.x + dialog.width <= width + 1,
        `the builder spans ${dialog.x}..${dialog.x + dialog.width} in ${width} px`,
      );
      await page.keyboard.press('Escape');
      // The Multi-Power example: longer names, another parameter table.
      await page.click('#example-mpl25');
      await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length > 2, null, {
        timeout: 30000,
      });
      await waitForFit(page);
      assert.deepEqual(await overflowing(page), [], `MultiPowerLaw 25M at ${width} px`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

/** contrast is the WCAG contrast ratio of two CSS colours given as rgb(...). */
function contrast(a, b) {
  const lum = (rgb) => {
    const [r, g, bl] = rgb
      .match(/\d+(\.\d+)?/g)
      .slice(0, 3)
      .map((x) => {
        const c = Number(x) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('light and dark follow the system, both readable, and the charts follow a switch', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url, { colorScheme: 'light' });
  try {
    await waitForFit(page);
    const look = () =>
      page.evaluate(() => {
        const color = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
        return {
          page: color('body', 'backgroundColor'),
          panel: color('.panel', 'backgroundColor'),
          text: color('.panel h2', 'color'),
          muted: color('.row-sub', 'color'),
          link: color('#example-fig2', 'color'),
          // pixels of the loss chart drawn near white: its light background, or in the dark
          // scheme only its axis labels
          whitish: (() => {
            const canvas = document.querySelector('#chart-loss canvas');
            const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
            let n = 0;
            for (let i = 0; i < data.length; i += 4)
              if (data[i] > 200 && data[i + 1] > 200 && data[i + 2] > 200 && data[i + 3] > 200) n++;
            return n;
          })(),
        };
      });
    const light = await look();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor !== bg, light.page);
    await page.waitForTimeout(300); // the charts redraw on the scheme's change event
    const dark = await look();
    for (const [scheme, c] of [
      ['light', light],
      ['dark', dark],
    ]) {
      for (const fg of ['text', 'muted', 'link']) {
        const ratio = contrast(c[fg], c.panel);
        assert.ok(ratio >= 4.5, `${scheme}: ${fg} ${c[fg]} on ${c.panel} has contrast ${ratio.toFixed(2)}, below 4.5`);
      }
    }
    assert.ok(contrast(dark.page, 'rgb(0, 0, 0)') < 1.5, `dark page background ${dark.page}`);
    assert.ok(contrast(light.page, 'rgb(255, 255, 255)') < 1.2, `light page background ${light.page}`);
    // The charts are redrawn in the dark scheme's colours.
    assert.ok(
      dark.whitish > 100 && dark.whitish < light.whitish / 5,
      `near-white pixels of the loss chart: ${light.whitish} light, ${dark.whitish} dark`,
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
