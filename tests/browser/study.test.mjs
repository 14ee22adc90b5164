// A researcher's cooldown study in a few clicks (issue 45), with the raw logs of the dev
// cooldown study under their runs' own names (about 135 characters; study-logs.mjs), each
// holding val_loss, train_loss and the one-point final_val_loss: the upload asks once, offering
// the validation loss and saying why (the summary is never the default); the first screen is a
// line per curve with Fit on it; the curves show by what tells them apart, the full name on
// hover and in exports and links, and can be renamed; after auto, the settings say what auto
// chose; one action of the builder adds nine cooldown fractions, each with its answer; the
// WSD-ratio view opens on the runs' linear decay and 50K length; and no text leaves its panel,
// at 1400 px and at 375 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useServerAndBrowser, openPage, waitForFit, curveNames } from './harness.mjs';
import { studyLogs } from './study-logs.mjs';

const env = useServerAndBrowser(before, after);
let tmp;
before(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'study-'));
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** The runs the study's own notes fit: the stable run and the 20% cooldown of a 25K run. */
const FILES = ['stable-50k.json', 'wsd-linear-0.2-25k.json'];
const STABLE =
  'stable-124m_slimpajama_llama_norm_nlayers12_nhead12_lr0.0001_sched_wsd_warmup300_decay_linear_0.0_iter50000_bs50x2_ws2_seed0_data_seed1337';
const COOLDOWN =
  'ann124-0.2_slimpajama_llama_norm_nlayers12_nhead12_lr0.0001_sched_wsd_warmup300_decay_linear_0.2_iter25000_bs50x2_ws2_seed0_data_seed1337';

/**
 * escaping lists the text that leaves its panel (or the message area, or a dialog) in the parts
 * of the page named by selectors: the curve list, "Fitted on", the chart legends, the answers
 * table, an import's report. Text scrolled out of sight inside the panel counts as leaving it.
 */
function escaping(page, selectors) {
  return page.evaluate(async (sels) => {
    const out = [];
    for (const sel of sels) {
      for (const root of document.querySelectorAll(sel)) {
        root.scrollIntoView();
        await new Promise((r) => requestAnimationFrame(() => r()));
        const box = (root.closest('.panel, .message, dialog') || root).getBoundingClientRect();
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (!n.textContent.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const r of range.getClientRects()) {
            if (r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1)) {
              out.push(
                `${sel}: "${n.textContent.trim().slice(0, 40)}" spans ${Math.round(r.left)}..${Math.round(r.right)}, its panel ${Math.round(box.left)}..${Math.round(box.right)}`,
              );
              break;
            }
          }
        }
      }
    }
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth)
      out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    return out;
  }, selectors);
}

/** inView says whether the element is wholly within the window, without scrolling. */
const inView = (page, selector) =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  });

/** shownName is the name a curve's row shows, and the full name on hover. */
const shownName = (page, name) =>
  page.$eval(`#curve-list [data-curve-name="${name}"] .row-name`, (el) => ({ text: el.textContent, title: el.title }));

/**
 * theStudy runs the walkthrough at width px: upload, the question, the first screen, Fit, the
 * settings, the sweep, the WSD-ratio view; it returns the seconds from the upload to the
 * cooldown answer and the clicks it took.
 */
async function theStudy(t, width) {
  const files = studyLogs(tmp, FILES);
  assert.ok(
    files.every((f) => path.basename(f).length > 130),
    'names as long as the originals',
  );
  const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width, height: 900 } });
  let clicks = 0;
  try {
    // every question the page asks is counted
    await page.evaluate(() => {
      window.asked = 0;
      const show = HTMLDialogElement.prototype.showModal;
      HTMLDialogElement.prototype.showModal = function (...args) {
        if (this.id === 'import-dialog') window.asked++;
        return show.apply(this, args);
      };
    });
    await waitForFit(page);

    // The upload: one question for both files; the validation loss offered, and why.
    const started = Date.now();
    await page.setInputFiles('#file-input', files);
    clicks++; // choosing the files
    await page.locator('#import-dialog').waitFor({ state: 'visible', timeout: 60000 });
    assert.equal(await page.textContent('#import-dialog-title'), 'Import 2 files');
    const options = await page.$$eval('#import-options input[name="import-column"]', (xs) =>
      xs.map((x) => ({ value: x.value, checked: x.checked, says: x.closest('label').textContent })),
    );
    assert.deepEqual(
      options.map((o) => `${o.value} ${o.checked}`),
      ['final_val_loss false', 'train_loss false', 'val_loss true'],
    );
    assert.match(options[0].says, /a summary \(no curve to fit\)/);
    const reason = await page.textContent('#import-reason');
    assert.match(reason, /^"val_loss" is chosen: the validation loss, which the paper fits, and every file has it/);
    assert.match(reason, /"final_val_loss" has one point a run \(a summary, not a curve\)/);
    assert.ok(await inView(page, '#import-ok'), `Import is on screen at ${width} px`);
    assert.deepEqual(await escaping(page, ['#import-dialog']), [], `the question at ${width} px`);
    await page.click('#import-ok');
    clicks++;
    await page.waitForFunction((n) => document.querySelector(`#curve-list [data-curve-name="${n}"]`), COOLDOWN, {
      timeout: 60000,
    });
    assert.equal(await page.evaluate(() => window.asked), 1, 'asked once for the upload');
    assert.deepEqual(await curveNames(page), [STABLE, COOLDOWN], 'the full names are the curves’');

    // The first screen: a line per curve (the name shown, points, steps, its LR) and Fit on it;
    // the notes folded.
    const lines = await page.$$eval('#message .report-curve', (xs) => xs.map((x) => x.textContent));
    assert.deepEqual(lines, [
      'stable-124m 0.0 50K · 249 points, steps 200–49,800 · LR from the file',
      'ann124-0.2 0.2 25K · 25 points, steps 20,000–24,800 · LR from the file',
    ]);
    assert.ok(await inView(page, '#report-fit'), `Fit is on screen after the upload at ${width} px`);
    assert.equal(await page.isVisible('#message .report-notes > div'), false, 'the notes are folded');
    assert.match(await page.textContent('#fit-settings'), /^2 curves loaded: press Fit/);

    // Names a person can read, the full name on hover.
    assert.deepEqual(await shownName(page, STABLE), {
      text: 'stable-124m 0.0 50K',
      title: `${STABLE} (${STABLE}.json)`,
    });
    assert.equal((await shownName(page, COOLDOWN)).text, 'ann124-0.2 0.2 25K');
    assert.deepEqual(await escaping(page, ['#message', '#curve-list']), [], `the first screen at ${width} px`);

    // Fit (auto): the settings say what auto chose, in place of the fields it did not read.
    await page.click('#report-fit');
    clicks++;
    await page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent), null, {
      timeout: 300000,
    });
    await waitForFit(page);
    const used = await page.textContent('#fit-settings');
    const m =
      /^Picked by auto: the (.+?), (?:λ (fixed|fitted) · )?warmup 300 steps counted at the (peak LR|LR as run)/.exec(
        used,
      );
    assert.ok(m, used);
    const shown = await page.evaluate(() =>
      Object.fromEntries(
        ['law', 'lambda', 'warmup-convention', 'mpl-search'].map((id) => [
          id,
          { field: !document.querySelector(`#${id}`).hidden, text: document.querySelector(`#${id}-auto`).textContent },
        ]),
      ),
    );
    for (const [id, s] of Object.entries(shown)) assert.equal(s.field, false, `#${id} gives way to auto's choice`);
    assert.equal(shown.law.text, `auto chose the ${m[1]}`);
    assert.equal(shown['warmup-convention'].text, `auto chose ${m[3] === 'peak LR' ? 'at peak LR' : 'as run'}`);
    if (m[2] === 'fixed') assert.equal(shown.lambda.text, 'auto chose 0.999 (fixed)');
    if (m[2] === 'fitted') assert.match(shown.lambda.text, /^auto chose fitted: 0\.\d+$/);
    assert.match(await page.textContent('.fit-origin'), /^Fitted on stable-124m 0\.0 50K, ann124-0\.2 0\.2 25K · /);

    // The WSD-ratio view opens on the runs' decay and length: the cooldown answer.
    await page.click('#analyses-panel > summary');
    clicks++;
    await page.selectOption('#analysis-view', 'wsd-ratio');
    clicks++;
    await page.waitForFunction(
      () => /^At 50K steps/.test(document.querySelector('#analysis-answer').textContent),
      null,
      {
        timeout: 300000,
      },
    );
    const seconds = (Date.now() - started) / 1000;
    assert.match(
      await page.textContent('#analysis-answer'),
      /^At 50K steps the best WSD cooldown \(linear decay\) is /,
    );
    const wsd = JSON.parse(await page.inputValue('#analysis-options'));
    assert.deepEqual([wsd.totals, wsd.decay], [[50000], 'linear']);
    assert.equal(await page.inputValue('#analysis-form [data-option="decay"]'), 'linear');
    await page.selectOption('#analysis-view', 'anneal-function');
    await page.waitForFunction(() => /"total": 50000/.test(document.querySelector('#analysis-options').value));
    await page.click('#analyses-panel > summary');

    // One action adds nine cooldown fractions; the builder starts from the runs' 50K and 1e-4.
    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('#schedule-preset option').length > 10);
    await page.selectOption('#schedule-preset', 'cosine');
    assert.equal(await page.inputValue('#sf-total'), '50000', 'the run’s 50,000 steps, not its last logged 49,800');
    assert.equal(await page.inputValue('#sf-peak'), '0.0001', 'the peak as typed, without float noise');
    await page.selectOption('#sweep-field', 'decayFraction');
    assert.equal(await page.inputValue('#schedule-kind'), 'wsd');
    await page.selectOption('#sf-decay', 'linear');
    await page.fill('#sweep-values', '0.1 to 0.9 by 0.1');
    await page.waitForFunction(() => /^Adds 9 schedules/.test(document.querySelector('#sweep-info').textContent));
    assert.deepEqual(await escaping(page, ['#schedule-dialog']), [], `the builder at ${width} px`);
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden', timeout: 60000 });
    const fractions = ['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9'];
    await page.waitForFunction(
      () =>
        document.querySelectorAll('#answers-table tr[data-schedule-name]').length === 9
        && [...document.querySelectorAll('#answers-table td[data-metric="final"]')].every((td) => td.dataset.value),
      null,
      { timeout: 120000 },
    );
    assert.deepEqual(
      await page.$$eval('#answers-table tr[data-schedule-name]', (rs) => rs.map((r) => r.dataset.scheduleName)),
      fractions.map((f) => `WSD linear 50K, decay ${f}`),
    );

    // No text leaves its panel: the curve list, "Fitted on", the legends, the answers.
    for (const legend of await page.$$('.chart-legend:not([open]) > summary')) await legend.click();
    assert.deepEqual(
      await escaping(page, [
        '#curve-list',
        '#predict-list',
        '.fit-origin',
        '.fit-warning',
        '.chart-legend',
        '#answers-panel',
      ]),
      [],
      `after the fit and the sweep at ${width} px`,
    );

    // A curve renamed: shown so, its full name kept in the exports and the link.
    await page.click(`[aria-label="Rename ${STABLE}"]`);
    await page.fill('#curve-list .rename-input', 'constant 50K');
    await page.press('#curve-list .rename-input', 'Enter');
    await page.waitForFunction(
      (n) => document.querySelector(`#curve-list [data-curve-name="${n}"] .row-label`)?.textContent === 'constant 50K',
      STABLE,
    );
    assert.match(await page.textContent('.fit-origin'), /^Fitted on constant 50K, ann124-0\.2 0\.2 25K/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.deepEqual(
      exported.schedules.map((s) => [s.name, s.label]),
      [
        [STABLE, 'constant 50K'],
        [COOLDOWN, undefined],
      ],
    );
    await page.click('#share-button');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
    const payload = (await page.inputValue('#share-link')).split('#s=')[1];
    const link = JSON.parse(inflateRawSync(Buffer.from(payload, 'base64url')).toString('utf8'));
    assert.deepEqual(
      link.curves.map((c) => [c.name, c.label]),
      [
        [STABLE, 'constant 50K'],
        [COOLDOWN, undefined],
      ],
    );
    assert.deepEqual(errors, []);
    t.diagnostic(`${width} px: ${clicks} actions and ${seconds.toFixed(1)} s from the upload to the cooldown answer`);
    return { clicks, seconds };
  } finally {
    await context.close();
  }
}

test('the cooldown study at 1400 px: one question, a line per curve, readable names, auto’s choice in the settings, nine fractions in one action, the WSD ratios of the runs', async (t) => {
  const { clicks } = await theStudy(t, 1400);
  assert.equal(clicks, 5);
});

test('the cooldown study at 375 px: the same, every text within its panel', async (t) => {
  await theStudy(t, 375);
});
