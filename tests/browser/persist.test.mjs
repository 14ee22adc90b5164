// The user's work is kept in the browser (site/js/persistence/persist.js, workspace-db.js,
// controllers/workspace.js): curves, roles, schedules, settings and the fit come back after a
// reload, and after the browser is killed in the middle of a save the previous save comes back
// whole; a store of an older format migrates, a newer one is left alone, a corrupted one is
// dropped saying what; full storage, or none at all (private browsing), leaves the page
// working and saying so; "Forget my data" forgets; a share link wins over the saved work
// without replacing it; two tabs do not save over each other's work unasked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import {
  useServerAndBrowser,
  openPage,
  waitForFit,
  curveNames,
  encodeIn,
  CHROMIUM,
  CHROMIUM_ARGS,
  keepExample,
  saveSchedule,
  setAnalysisJSON,
  KEPT_EXAMPLE_DB,
} from './harness.mjs';

const env = useServerAndBrowser(before, after);

/** savedAt is the time of the page's latest save (0: none yet). */
const savedAt = (page) => page.evaluate(() => Number(document.querySelector('#workspace-footer').dataset.savedAt));

/** waitSaved waits for a save completed after `since` (a savedAt) with no other save running. */
async function waitSaved(page, since = 0, timeout = 60000) {
  await page.waitForFunction(
    (t) => {
      const f = document.querySelector('#workspace-footer').dataset;
      return Number(f.savedAt) > t && !f.saving;
    },
    since,
    { timeout },
  );
  return savedAt(page);
}

/** pageNow is the page's clock: a save whose savedAt is later holds every change made before. */
const pageNow = (page) => page.evaluate(() => Date.now() - 1);

/** lineText is the workspace line's text ('' when hidden). */
const lineText = (page) =>
  page.evaluate(() => {
    const l = document.querySelector('#workspace-line');
    return l.hidden ? '' : document.querySelector('#workspace-text').textContent;
  });

/** reloadRestored reloads the page and waits until it has said what it read back and is fitted. */
async function reloadRestored(page) {
  await page.reload();
  await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
  await waitForFit(page);
}

/**
 * view reads what the page shows of the work: curves (name, role, summary), schedules to predict,
 * settings, parameters.
 */
async function view(page) {
  return page.evaluate(() => ({
    curves: [...document.querySelectorAll('#curve-list [data-curve-name]')].map((r) => [
      r.dataset.curveName,
      r.dataset.role,
      r.querySelector('.row-sub').textContent,
    ]),
    predictions: [...document.querySelectorAll('#predict-list [data-schedule-name]')].map((r) => [
      r.dataset.scheduleName,
      r.querySelector('.row-sub')?.textContent || '',
    ]),
    settings: ['#lambda', '#warmup-steps', '#warmup-convention', '#huber-delta', '#law'].map(
      (s) => document.querySelector(s).value,
    ),
    params: ['L0', 'A', 'C', 'alpha', 'lambda'].map((k) => document.querySelector(`#param-${k}`).textContent.trim()),
    origin: [...document.querySelectorAll('#equation .fit-origin')].map((p) => p.textContent).join(' | '),
    stale: !document.querySelector('#stale-note').hidden,
  }));
}

/** setField types value into a settings field as a user does. */
async function setField(page, selector, value) {
  await page.fill(selector, value);
  await page.dispatchEvent(selector, 'change');
}

/** pasteCurve adds a curve from CSV text under name. */
async function pasteCurve(page, name, csv) {
  await keepExampleIfShown(page);
  await page.evaluate(() => {
    document.querySelector('details.paste').open = true;
  });
  await page.fill('#paste-text', csv);
  await page.fill('#paste-name', name);
  await page.click('#paste-add');
  await page.waitForFunction((n) => document.querySelector(`#curve-list [data-curve-name="${n}"]`), name);
}

/**
 * keepExampleIfShown keeps the example as the user's view when it is shown, so that the work a
 * test adds goes beside it (the user's first curves would otherwise replace it).
 */
async function keepExampleIfShown(page) {
  if (await page.isVisible('#example-note')) await keepExample(page);
}

/** csvRun is a short WSD-like run with an LR column: steps step..n*step. */
function csvRun(n, step = 100, lossAt = (s) => 2.6 + 1.2 / Math.sqrt(s / 100)) {
  const rows = ['step,lr,loss'];
  for (let i = 1; i <= n; i++) {
    const s = i * step;
    rows.push(
      `${s},${(i < 0.8 * n ? 2e-4 : 2e-4 * (1 - (i - 0.8 * n) / (0.25 * n))).toExponential(4)},${lossAt(s).toFixed(5)}`,
    );
  }
  return `${rows.join('\n')}\n`;
}

/**
 * saveMyRun adds a run of the user's beside the example once it is fitted, waits until it is
 * saved, and returns the view then (mine) and the save's time (saved).
 */
async function saveMyRun(page) {
  await waitForFit(page);
  await pasteCurve(page, 'my run', csvRun(40));
  const saved = await waitSaved(page);
  return { mine: await view(page), saved };
}

/** backBringsBack presses "Back to my saved work" and checks that the saved curves (mine's) are back. */
async function backBringsBack(page, mine) {
  await page.click('#workspace-back');
  await waitForFit(page);
  assert.deepEqual((await view(page)).curves, mine.curves);
}

/** onOrigin runs fn in a page of the site's origin where the calculator does not run (its icon). */
async function onOrigin(context, fn, arg) {
  const page = await context.newPage();
  try {
    await page.goto(`${env.url}favicon.svg`);
    return await page.evaluate(fn, arg);
  } finally {
    await page.close();
  }
}

test('load curves, reload: everything is back (names, roles, schedules, settings, the fit), and Start empty undoes', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    assert.equal(await lineText(page), '', 'nothing restored on a first visit');
    assert.equal(await savedAt(page), 0, 'the example alone is not saved');
    // The user's work: a curve with its learning rates, a role changed, a schedule to predict,
    // settings, and a fit of it all.
    await pasteCurve(page, 'my wsd run', csvRun(60));
    await page.selectOption('#curve-list [data-curve-name="constant"] .role-select', 'validate');
    await saveSchedule(page, '#add-prediction', { preset: 'wsd-1-sqrt-20', name: 'my plan' });
    await setField(page, '#warmup-steps', '300');
    await setField(page, '#huber-delta', '0.002');
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 2 curve/.test(document.querySelector('#status').textContent));
    await waitForFit(page);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#predict-list [data-schedule-name]')].every((r) => r.dataset.finalLoss),
    );
    // a setting changed after the fit: the fit is stale, and must come back stale
    const savedBefore = await savedAt(page);
    await setField(page, '#lambda', '0.998');
    await page.waitForSelector('#stale-note:not([hidden])');
    // the save of this change (an earlier one, of part of the work, does not count)
    await waitSaved(page, savedBefore);
    const before = await view(page);
    assert.equal(before.curves.length, 3);
    assert.ok(before.predictions.some(([n]) => n === 'my plan'));

    await reloadRestored(page);
    assert.match(
      await lineText(page),
      /^Restored your work from .*: 3 curves, 6 schedules to predict and the fit of the annealing law\.$/,
    );
    assert.deepEqual(await view(page), before);
    const finals = await page.$$eval('#predict-list [data-schedule-name]', (rows) =>
      rows.map((r) => r.dataset.finalLoss),
    );
    assert.ok(finals.every(Boolean), 'the schedules are predicted');
    assert.equal(await savedAt(page), 0, 'nothing is saved again until the work changes');

    // Start empty: the page is empty; Undo brings the work back.
    await page.click('#workspace-start-empty');
    assert.deepEqual(await curveNames(page), []);
    assert.equal(await lineText(page), '');
    await page.click('#undo-button');
    await waitForFit(page);
    assert.deepEqual(await view(page), before);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a change made just before a reload is kept: the save waiting for its delay is made as the page goes', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await saveMyRun(page);
    // Each change is reloaded at once, well inside the 400 ms a save waits for more changes:
    // the page saves what waits as it goes (pagehide). It lost both before.
    await pasteCurve(page, 'second run', csvRun(30));
    await reloadRestored(page);
    assert.deepEqual((await curveNames(page)).slice(-2), ['my run', 'second run']);
    await setField(page, '#huber-delta', '0.01');
    await reloadRestored(page);
    assert.equal(await page.inputValue('#huber-delta'), '0.01');
    assert.deepEqual((await curveNames(page)).slice(-2), ['my run', 'second run']);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a validation comes back after a reload: its table, and its band on the predictions', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await saveMyRun(page);
    await page.uncheck('#auto');
    await page.click('#fit-button');
    await page.waitForFunction(
      () =>
        /^Fitted /.test(document.querySelector('#status').textContent) && !document.body.classList.contains('fitting'),
      null,
      { timeout: 60000 },
    );
    await waitSaved(page, await pageNow(page));
    // validated after a reload, when nothing else has changed since: the validation alone is
    // work to save (it was not: the reload after it lost it without a word)
    await reloadRestored(page);
    await page.click('#validate-button');
    await page.waitForFunction(() => !document.querySelector('#validate-result').hidden, null, { timeout: 120000 });
    // a save begun after the answer holds it (one begun between the click and the answer,
    // which a loaded machine makes likely, does not)
    await waitSaved(page, await pageNow(page));
    const shown = () =>
      page.evaluate(() => ({
        table: [...document.querySelectorAll('#validate-table td[data-metric]')].map((td) => td.dataset.value),
        note:
          document.querySelector('#answers-note').textContent.match(/± is the .*?prediction band [^,.]*/)?.[0] || '',
        bands: [...document.querySelectorAll('#answers-table td[data-band]')].map((td) => td.dataset.band),
      }));
    const before = await shown();
    assert.ok(before.table.length > 0);
    assert.match(before.note, /of the validation$/);
    assert.ok(
      before.bands.length && before.bands.every(Boolean),
      'every schedule to predict has its ± of the validation',
    );

    await reloadRestored(page);
    await page.waitForFunction(() => !document.querySelector('#validate-result').hidden);
    assert.deepEqual(await shown(), before);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a million-point workspace saves and restores', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lawcalc-persist-'));
  const file = path.join(dir, 'million.csv');
  writeFileSync(
    file,
    csvRun(1_000_000, 1, (s) => 2.5 + 0.5 / Math.sqrt(s)),
  );
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExampleIfShown(page);
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="million"]'), null, {
      timeout: 120000,
    });
    const started = Date.now();
    await waitSaved(page, 0, 120000);
    t.diagnostic(`saved within ${Date.now() - started} ms of being listed`);
    const before = await view(page);
    assert.match(before.curves[2][2], /^1000000 points/);
    const loadedAt = Date.now();
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="million"]'), null, {
      timeout: 120000,
    });
    t.diagnostic(`reloaded and listed in ${Date.now() - loadedAt} ms`);
    await waitForFit(page);
    assert.deepEqual(await view(page), before);
    // The restored points are the file's: the curve fits as before.
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 3 curve/.test(document.querySelector('#status').textContent), null, {
      timeout: 180000,
    });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * launchProfile starts Chromium on a profile kept on disk (userDataDir) with the DevTools port,
 * so that the test can kill it as a crash would; it returns {browser, context, kill}.
 */
async function launchProfile(userDataDir) {
  const child = spawn(
    CHROMIUM,
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const ws = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('chromium printed no DevTools address in 30 s')), 30000);
    createInterface({ input: child.stderr }).on('line', (line) => {
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`chromium exited with ${code}`)));
  });
  const browser = await chromium.connectOverCDP(ws);
  const exited = new Promise((r) => child.once('exit', r));
  return {
    browser,
    context: browser.contexts()[0],
    // The whole process group goes, as in a crash: a renderer or helper left behind would
    // still be writing to the profile when the next browser opens it or the test removes it.
    async kill() {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch (e) {
        if (e.code !== 'ESRCH') throw e; // already gone
      }
      await exited;
    },
  };
}

test('the browser killed in the middle of a save: the previous save comes back whole', async () => {
  const profile = mkdtempSync(path.join(tmpdir(), 'lawcalc-profile-'));
  let run = await launchProfile(profile);
  try {
    let page = await run.context.newPage();
    await page.goto(env.url);
    await waitForFit(page);
    await pasteCurve(page, 'first run', csvRun(40));
    await setField(page, '#lambda', '0.997');
    await waitSaved(page, await pageNow(page)); // a save of the work as it is now
    const saved = await view(page);

    // The next save stops as its record is being written (its arrays already put in the same
    // transaction), and the browser is killed there, as a crash would.
    await page.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (...args) {
        if (this.name === 'workspace') {
          console.log('mid-save');
          const until = Date.now() + 20000;
          while (Date.now() < until) {
            /* the transaction cannot commit while this runs */
          }
        }
        return put.apply(this, args);
      };
    });
    const midSave = new Promise((resolve) =>
      page.on('console', (m) => {
        if (m.text() === 'mid-save') resolve();
      }),
    );
    await pasteCurve(
      page,
      'second run',
      csvRun(50, 100, (s) => 2.7 + 1 / Math.sqrt(s / 100)),
    );
    await setField(page, '#lambda', '0.995');
    await midSave;
    await run.kill();

    run = await launchProfile(profile);
    page = await run.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(env.url);
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden, null, { timeout: 60000 });
    await waitForFit(page);
    assert.match(await lineText(page), /^Restored your work/);
    assert.deepEqual(await view(page), saved, 'the state of the save before the kill');
    assert.ok(!(await curveNames(page)).includes('second run'));
    assert.deepEqual(errors, []);
  } finally {
    await run.browser.close().catch(() => {});
    await run.kill().catch(() => {});
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
});

test('a store written by format 1 (the first layout) migrates', async () => {
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  try {
    // Version 1 of the database: the store `workspace` alone, the points inside the record.
    await onOrigin(
      context,
      () =>
        new Promise((resolve, reject) => {
          const open = indexedDB.open('annealing-calculator', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('workspace');
          open.onsuccess = () => {
            const tx = open.result.transaction('workspace', 'readwrite');
            tx.objectStore('workspace').put(
              {
                format: 1,
                savedAt: Date.UTC(2025, 0, 2, 3, 4),
                settings: {
                  lambda: 0.995,
                  fitLambda: false,
                  warmupSteps: 200,
                  warmupConvention: 'actual',
                  huberDelta: 0.001,
                },
                curves: [
                  {
                    name: 'old run',
                    role: 'fit',
                    schedule: { kind: 'cosine', total: 4000, peak: 2e-4, final: 2e-5, warmup: 200 },
                    steps: Float64Array.from({ length: 40 }, (_, i) => (i + 1) * 100),
                    loss: Float64Array.from({ length: 40 }, (_, i) => 2.6 + 1.2 / Math.sqrt(i + 1)),
                  },
                ],
                predictions: [
                  { name: 'old plan', schedule: { kind: 'constant', total: 8000, peak: 2e-4, warmup: 200 } },
                ],
              },
              'current',
            );
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
          open.onerror = () => reject(open.error);
        }),
    );
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(env.url);
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    assert.match(await lineText(page), /^Restored your work from .*: 1 curve and 1 schedule to predict\.$/);
    assert.deepEqual(await curveNames(page), ['old run']);
    const v = await view(page);
    assert.deepEqual(v.settings, ['0.995', '200', 'actual', '0.001', 'annealing']);
    assert.match(v.curves[0][2], /^40 points, steps 100–4,000 · cosine/);
    await page.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name="old plan"]'));
    // It fits, and the next save writes the current format (the points apart).
    await page.click('#fit-button');
    await waitForFit(page);
    await waitSaved(page);
    const stored = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open('annealing-calculator');
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(['workspace', 'arrays']);
            const rec = tx.objectStore('workspace').get('current');
            const n = tx.objectStore('arrays').count();
            tx.oncomplete = () => {
              resolve({
                version: db.version,
                format: rec.result.format,
                steps: rec.result.curves[0].steps,
                arrays: n.result,
              });
              db.close();
            };
          };
        }),
    );
    assert.equal(stored.version, 2);
    assert.equal(stored.format, 3);
    assert.equal(stored.arrays > 0, true);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a store of a newer version is left alone, and this tab does not save over it', async () => {
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  try {
    await onOrigin(
      context,
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open('annealing-calculator', 7);
          open.onupgradeneeded = () => open.result.createObjectStore('future');
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
        }),
    );
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(env.url);
    await waitForFit(page);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant'], 'the example');
    assert.match(
      await lineText(page),
      /written by a newer version of this page\. It is left as it is, and this tab will not save over it/,
    );
    await setField(page, '#lambda', '0.998');
    await page.waitForTimeout(1200);
    assert.equal(await savedAt(page), 0);
    // Forget my data drops it.
    await page.click('#forget-button');
    await page.waitForFunction(() => /^Forgotten/.test(document.querySelector('#workspace-text').textContent));
    const names = await onOrigin(context, async () => (await indexedDB.databases()).map((d) => d.name));
    assert.deepEqual(names, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a corrupted store: the page starts clean saying what was dropped; a damaged curve alone is dropped by name', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await pasteCurve(page, 'keeper', csvRun(40));
    await pasteCurve(page, 'damaged', csvRun(80));
    await waitSaved(page, await pageNow(page)); // a save holding both curves

    // One curve's points gone from the store: that curve is dropped, named; the rest is back.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open('annealing-calculator');
          open.onsuccess = () => {
            const tx = open.result.transaction(['workspace', 'arrays'], 'readwrite');
            const get = tx.objectStore('workspace').get('current');
            get.onsuccess = () =>
              tx.objectStore('arrays').delete(get.result.curves.find((c) => c.name === 'damaged').loss.$a);
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        }),
    );
    await reloadRestored(page);
    const text = await lineText(page);
    assert.match(text, /^Restored your work from .*: 3 curves/);
    assert.match(
      text,
      /Dropped what could not be read: damaged \(curves\[3\]\.loss: its points are missing from the store\)/,
    );
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'keeper']);

    // The record itself garbage: the page starts clean (the example), saying what was dropped.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open('annealing-calculator');
          open.onsuccess = () => {
            const tx = open.result.transaction(['workspace'], 'readwrite');
            tx.objectStore('workspace').put(
              { format: 2, savedAt: 'yesterday', curves: [{ name: 'keeper' }, { name: 42 }], predictions: 'x' },
              'current',
            );
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        }),
    );
    await reloadRestored(page);
    assert.match(
      await lineText(page),
      /^Your saved work could not be read \(it holds no list of curves\), so the page starts clean\. Dropped: 2 curves \(keeper, \?\)\.$/,
    );
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.equal(await page.getAttribute('#workspace-line', 'class'), 'message notice workspace-line warning');
    // ...and the store was emptied: the next visit is a first one.
    await page.reload();
    await waitForFit(page);
    assert.equal(await lineText(page), '');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/**
 * QUOTA_SCRIPT makes the browser's storage refuse (QuotaExceededError, as a full disk does) every
 * array longer than window.__quotaLimit numbers (small curves and the fit's lines fit, a big
 * curve does not), and with __quotaLimit < 0 every write.
 */
const QUOTA_SCRIPT = `(() => {
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (value, ...rest) {
    const limit = window.__quotaLimit;
    if (limit < 0 || (this.name === 'arrays' && value && value.length > limit)) {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    }
    return put.call(this, value, ...rest);
  };
  window.__quotaLimit = 2500;
})();`;

test('storage full: the page says so, keeps working, and keeps what fits (settings, names and schedules first)', async () => {
  const context = await env.browser.newContext({ serviceWorkers: 'block', viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(QUOTA_SCRIPT);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(env.url);
    await waitForFit(page);
    await pasteCurve(page, 'small run', csvRun(40));
    await waitSaved(page);
    assert.equal(await lineText(page), '', 'small arrays fit');
    // A curve of 3,000 points does not fit.
    await keepExampleIfShown(page);
    await page.setInputFiles('#file-input', [
      { name: 'big run.csv', mimeType: 'text/csv', buffer: Buffer.from(csvRun(3000, 10)) },
    ]);
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="big run"]'));
    const beforeLambda = await pageNow(page);
    await setField(page, '#lambda', '0.998');
    await page.waitForFunction(() =>
      /storage for this page is full/.test(document.querySelector('#workspace-text').textContent),
    );
    const text = await lineText(page);
    assert.match(
      text,
      /the settings, the schedules and the curves' names are kept, but not the points of big run \(3,000 points\), nor the fit\. After a reload they come back as schedules to predict\./,
    );
    await waitSaved(page, beforeLambda); // what fits, with the λ typed
    // The page works on: it fits all four curves.
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 4 curve/.test(document.querySelector('#status').textContent), null, {
      timeout: 60000,
    });
    await waitForFit(page);

    // What was kept comes back: the small curve with its points, the big one as its schedule.
    await page.reload();
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'small run']);
    assert.equal(await page.textContent('#param-L0'), '–', 'the fit was not kept');
    assert.equal(await page.inputValue('#lambda'), '0.998');
    await page.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name="big run"]'));
    assert.match(
      await lineText(page),
      /big run: its 3,000 points were not kept \(the browser's storage was full\); its schedule is predicted/,
    );

    // Nothing fits at all: the previous save stays, and the page still works.
    await page.evaluate(() => {
      window.__quotaLimit = -1;
    });
    await setField(page, '#warmup-steps', '100');
    await page.waitForFunction(() =>
      /this change could not be saved/.test(document.querySelector('#workspace-text').textContent),
    );
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 3 curve/.test(document.querySelector('#status').textContent), null, {
      timeout: 60000,
    });
    // Space again: the next change saves everything, and the warning goes.
    await page.evaluate(() => {
      window.__quotaLimit = Infinity;
    });
    await setField(page, '#warmup-steps', '150');
    await page.waitForFunction(() => document.querySelector('#workspace-line').hidden);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('storage full for real (Chromium’s quota for the origin lowered): the same', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    // The page keeps no example as fitted here (its database cannot be opened): with one written
    // (or deleted) before the quota is lowered, Chromium now and then let a save over the new
    // quota through, its count of the origin's usage behind.
    await context.addInitScript((blocked) => {
      const open = IDBFactory.prototype.open;
      IDBFactory.prototype.open = function (name, version) {
        if (name === blocked) throw new DOMException('not in this test', 'SecurityError');
        return open.call(this, name, version);
      };
    }, KEPT_EXAMPLE_DB);
    await page.reload();
    await waitForFit(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(env.url).origin, quotaSize: 2 * 2 ** 20 });
    await keepExampleIfShown(page);
    await page.setInputFiles('#file-input', [
      { name: 'long run.csv', mimeType: 'text/csv', buffer: Buffer.from(csvRun(200_000, 1)) },
    ]);
    await page.waitForFunction(
      () => /storage for this page is full/.test(document.querySelector('#workspace-text').textContent),
      null,
      { timeout: 60000 },
    );
    assert.match(await lineText(page), /but not the points of long run \(200,000 points\), nor the fit/);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'long run']);
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name="long run"]'));
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('storage refused (private browsing): the page works as before and says it will not remember', async () => {
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  await context.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(env.url);
    await waitForFit(page);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.match(
      await lineText(page),
      /^This browser does not let the page keep data \(private browsing, or storage turned off\): the page works as usual, but will not remember your work after a reload\.$/,
    );
    assert.match(await page.textContent('#workspace-kept'), /Not kept/);
    assert.equal(await page.isHidden('#forget-button'), true);
    await pasteCurve(page, 'a run', csvRun(40));
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 3 curve/.test(document.querySelector('#status').textContent));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Forget my data empties the store: the next visit starts from the example', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await pasteCurve(page, 'private run', csvRun(40));
    await waitSaved(page);
    await page.click('#forget-button');
    await page.waitForFunction(() => /^Forgotten/.test(document.querySelector('#workspace-text').textContent));
    const stored = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open('annealing-calculator');
          open.onsuccess = () => {
            const tx = open.result.transaction(['workspace', 'arrays']);
            const a = tx.objectStore('workspace').count();
            const b = tx.objectStore('arrays').count();
            tx.oncomplete = () => {
              resolve(a.result + b.result);
              open.result.close();
            };
          };
        }),
    );
    assert.equal(stored, 0);
    // This tab stores nothing more...
    await setField(page, '#lambda', '0.998');
    await page.waitForTimeout(1200);
    await page.reload();
    await waitForFit(page);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.equal(await lineText(page), '');
    assert.equal(await page.inputValue('#lambda'), '0.999');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('an example loaded over saved work does not replace it: a reload brings the work back', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    const { mine, saved } = await saveMyRun(page);
    await page.click('#example-fig2');
    await page.waitForFunction(() => !document.querySelector('#example-note').hidden);
    await waitForFit(page);
    await page.waitForTimeout(3000); // past the save delay
    assert.equal(await savedAt(page), saved, 'no save of the example');
    // changed, it is still a look: the saved work stays, and the page says so
    await saveSchedule(page, '#add-prediction', { preset: 'cosine', name: 'a look' });
    await page.waitForFunction(() =>
      /Your changes to .* are not kept: your saved work is/.test(document.querySelector('#workspace-line').textContent),
    );
    await page.waitForTimeout(3000);
    assert.equal(await savedAt(page), saved, 'no save of the example changed');
    await reloadRestored(page);
    assert.deepEqual(await view(page), mine);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("the example of a first visit, changed, is the user's work: a schedule added to it comes back after a reload, the example with it", async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.waitForFunction(() => !document.querySelector('#example-note').hidden);
    const before = await pageNow(page);
    await saveSchedule(page, '#add-prediction', { preset: 'cosine', name: 'my cosine' });
    await waitSaved(page, before);
    const shown = await view(page);
    assert.ok(
      shown.predictions.some(([name]) => name === 'my cosine'),
      JSON.stringify(shown.predictions),
    );
    await reloadRestored(page);
    assert.deepEqual(await view(page), shown, 'the schedule added is back (it was lost)');
    // still the example: a file chosen now replaces its curves, as on a first visit
    assert.equal(await page.isHidden('#example-note'), false);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the x axis counted in tokens is work: changed alone, it is saved and comes back', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    const { saved } = await saveMyRun(page);
    await page.selectOption('#x-unit', 'tokens');
    await setField(page, '#tokens-per-step', '524288');
    await waitSaved(page, saved);
    await reloadRestored(page);
    assert.equal(await page.inputValue('#x-unit'), 'tokens');
    assert.equal(await page.inputValue('#tokens-per-step'), '524288');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('two tabs: a save in one stops the other saving over it, until the user asks that tab to save its own', async () => {
  const { context, page: first, errors } = await openPage(env.browser, env.url);
  try {
    const { saved } = await saveMyRun(first);
    const second = await context.newPage();
    second.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    await second.goto(env.url);
    await second.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    await waitForFit(second);
    // the second tab saves a change of its own: the first hears of it and stops saving
    const since = await pageNow(second);
    await setField(second, '#lambda', '0.998');
    const secondSaved = await waitSaved(second, since);
    await first.waitForFunction(() =>
      /^Another tab of this page saved its work at /.test(document.querySelector('#workspace-text').textContent),
    );
    assert.ok(await first.isVisible('#workspace-this-tab'), 'the first tab offers to save its own work');
    await pasteCurve(first, 'second run', csvRun(30));
    await first.waitForTimeout(1500); // past the save delay
    assert.equal(await savedAt(first), saved, "the first tab saved nothing over the second's work");
    await second.reload();
    await waitForFit(second);
    assert.equal(await second.inputValue('#lambda'), '0.998', "the second tab's work is the one kept");
    assert.ok(!(await curveNames(second)).includes('second run'));
    // the user asks the first tab to save its work: it does, and the second tab now stops
    const before = await pageNow(first);
    await first.click('#workspace-this-tab');
    await waitSaved(first, before);
    await second.waitForFunction(() =>
      /^Another tab of this page saved its work at /.test(document.querySelector('#workspace-text').textContent),
    );
    await second.reload();
    await waitForFit(second);
    assert.ok((await curveNames(second)).includes('second run'), "the first tab's work is the one kept now");
    assert.ok(secondSaved > saved);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** planLinkURL is a share link (encoded in page) to a view of one schedule predicted with parameters given by hand. */
async function planLinkURL(page) {
  const link = {
    v: 2,
    settings: {
      lambda: 0.999,
      fitLambda: false,
      warmupSteps: 0,
      warmupConvention: 'peak',
      huberDelta: 0.001,
      law: 'annealing',
      auto: false,
      mplSearch: 'optimum',
    },
    params: { L0: 2.5, A: 0.5, alpha: 0.5, C: 0.4, lambda: 0.999 },
    source: 'manual',
    curves: [],
    predictions: [{ name: 'linked plan', schedule: { kind: 'cosine', total: 10000, peak: 2e-4, final: 0 } }],
  };
  return `${env.url}#s=${await encodeIn(page, JSON.stringify(link))}`;
}

test('a share link wins over the saved work, which is kept until the link’s view is changed and can be brought back', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    const { mine } = await saveMyRun(page);

    const linkURL = await planLinkURL(page);
    // A new visit (not a change of the hash in this one).
    await page.goto('about:blank');
    await page.goto(linkURL);
    await page.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name="linked plan"]'));
    assert.deepEqual(await curveNames(page), []);
    // The line comes once the stored work is read, which may finish after the link's view shows.
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    assert.match(
      await lineText(page),
      /^You opened a shared link\. Your saved work \(3 curves, 5 schedules to predict and the fit of the annealing law, saved .*\) is kept: it is replaced only once you change this view\.$/,
    );
    // Untouched, the link's view replaces nothing: the saved work comes back on the next visit.
    await page.goto(env.url);
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    await waitForFit(page);
    assert.deepEqual(await view(page), mine);

    // Changed, it does; "Back to my saved work" still brings the earlier work back in that tab.
    await page.goto('about:blank');
    await page.goto(linkURL);
    await page.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name="linked plan"]'));
    await setField(page, '#warmup-steps', '100');
    await page.waitForFunction(() =>
      /was replaced by this view/.test(document.querySelector('#workspace-text').textContent),
    );
    await backBringsBack(page, mine);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/**
 * holdFirstCall (an init script) holds the page's first lawcore call of method until the test
 * calls globalThis.releaseHeld(): the start-up view is then on screen with its fit or
 * predictions still to come, for as long as the test needs.
 */
function holdFirstCall(method) {
  let client = null;
  const held = new Promise((resolve) => {
    globalThis.releaseHeld = resolve;
  });
  Object.defineProperty(globalThis, 'lawcoreClient', {
    configurable: true,
    get: () => client,
    set: (c) => {
      client = c;
      const call = c.call.bind(c);
      let first = true;
      c.call = async (m, ...rest) => {
        if (m === method && first) {
          first = false;
          globalThis.callHeld = true;
          await held;
        }
        return call(m, ...rest);
      };
    },
  });
}

test('a change made while the start-up view is still predicted or fitted is saved: a field of a link’s view, a file on the example', async () => {
  // A link's view, its predictions held: the warmup changed meanwhile is saved with the view.
  let context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
  try {
    await context.addInitScript(holdFirstCall, 'predict');
    const page = await context.newPage();
    await page.goto(env.url);
    const linkURL = await planLinkURL(page);
    await page.goto('about:blank');
    await page.goto(linkURL);
    await page.waitForFunction(
      () => globalThis.callHeld && document.querySelector('#predict-list [data-schedule-name="linked plan"]'),
    );
    await setField(page, '#warmup-steps', '100');
    await page.evaluate(() => globalThis.releaseHeld());
    await waitSaved(page);
    await page.goto(env.url);
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    assert.match(await lineText(page), /^Restored your work from .*: 1 schedule to predict/);
    assert.equal(await page.inputValue('#warmup-steps'), '100');
  } finally {
    await context.close();
  }

  // The example, its fit held: a file chosen meanwhile replaces it and is saved.
  context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
  try {
    await context.addInitScript(holdFirstCall, 'fit');
    const page = await context.newPage();
    await page.goto(env.url);
    await page.waitForFunction(
      () => globalThis.callHeld && document.querySelector('#curve-list [data-curve-name="cosine"]'),
    );
    await page.setInputFiles('#file-input', [
      { name: 'my-run.csv', mimeType: 'text/csv', buffer: Buffer.from(csvRun(40)) },
    ]);
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="my-run"]'));
    await page.evaluate(() => globalThis.releaseHeld());
    await waitSaved(page);
    await page.reload();
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    assert.match(await lineText(page), /^Restored your work from .*: 1 curve/);
    assert.deepEqual(await curveNames(page), ['my-run']);
  } finally {
    await context.close();
  }
});

/**
 * holdStorage (an init script) holds the answer to the page's opening of its IndexedDB until
 * the test calls globalThis.releaseStorage(): the stored work is then still being read at
 * start-up for as long as the test needs (a large store on a slow disk).
 */
function holdStorage() {
  const open = IDBFactory.prototype.open;
  const released = new Promise((resolve) => {
    globalThis.releaseStorage = resolve;
  });
  IDBFactory.prototype.open = function holdOpen(...args) {
    const request = open.apply(this, args);
    const handlers = {};
    // the upgrade runs at once (it must, inside its transaction); success and error wait
    request.onupgradeneeded = (e) => handlers.upgradeneeded?.(e);
    request.onsuccess = (e) => released.then(() => handlers.success?.(e));
    request.onerror = (e) => {
      e.preventDefault();
      released.then(() => handlers.error?.(e));
    };
    return new Proxy(request, {
      set(target, key, value) {
        if (/^on(upgradeneeded|success|error)$/.test(key)) handlers[key.slice(2)] = value;
        else target[key] = value;
        return true;
      },
      get(target, key) {
        const value = target[key];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
}

test('a curve added while the saved work or the example is still being read stays and is saved; the saved work is kept aside and comes back', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    const { mine } = await saveMyRun(page);
    await context.addInitScript(holdStorage);
    await page.goto('about:blank');
    await page.goto(env.url);
    await pasteCurve(page, 'quick run', csvRun(30));
    await page.evaluate(() => globalThis.releaseStorage());
    await page.waitForFunction(() => !document.querySelector('#workspace-line').hidden);
    assert.match(
      await lineText(page),
      /^Your saved work \(3 curves, 5 schedules to predict and the fit of the annealing law, saved .*\) was still being read when you added yours: it is kept aside/,
    );
    assert.deepEqual(await curveNames(page), ['quick run']);
    // The user's curve is their work: saved, it replaces the stored work, which Back still brings back.
    await waitSaved(page);
    assert.match(await lineText(page), /was replaced by this view/);
    await backBringsBack(page, mine);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }

  // With nothing stored, the same while the example's file is still on its way: the example
  // does not replace the user's curve.
  const fresh = await openPage(env.browser, 'about:blank');
  try {
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await fresh.page.route('**/examples/paper-fig2.json', async (route) => {
      await held;
      await route.continue();
    });
    await fresh.page.goto(env.url);
    await pasteCurve(fresh.page, 'quick run', csvRun(30));
    release();
    await waitSaved(fresh.page);
    assert.deepEqual(await curveNames(fresh.page), ['quick run']);
    assert.equal(await fresh.page.isVisible('#example-note'), false);
  } finally {
    await fresh.context.close();
  }
});

test('the Analyses panel’s choices are work: the panel open on a view with options set comes back after a reload, and computes', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    const { saved } = await saveMyRun(page);
    await setAnalysisJSON(page, 'lambda', '{"lambdas": [0.99, 0.995], "totals": [30000]}', /"lambdas"/);
    const computed = () =>
      document.querySelector('#analysis-result').dataset.view === 'lambda'
      && !document.querySelector('#analysis-table').hidden
      && !/Computing/.test(document.querySelector('#analysis-status').textContent);
    await page.waitForFunction(computed, null, { timeout: 60000 });
    const table = await page.textContent('#analysis-table');
    await waitSaved(page, saved);
    await reloadRestored(page);
    assert.equal(
      await page.evaluate(() => document.querySelector('#analyses-panel').open),
      true,
      'the panel is open again',
    );
    assert.equal(await page.inputValue('#analysis-view'), 'lambda');
    await page.waitForFunction(computed, null, { timeout: 60000 });
    assert.deepEqual(JSON.parse(await page.inputValue('#analysis-options')).lambdas, [0.99, 0.995]);
    assert.equal(await page.textContent('#analysis-table'), table, 'the same answer, computed again');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
