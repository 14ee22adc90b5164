// Security: names from files and share links are shown as text and run nothing; a whole session
// makes requests to the site's own origin only; the corpus of bad files (lawcore/importer/badinput, the
// one Go's TestBadInputCorpus imports) is refused file by file, each with lawcore's own message
// (naming the file, and its line where there is one), keeping the curves loaded. A million-row
// file loading is in memory.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  useServerAndBrowser,
  openPage,
  waitForFit,
  messageText,
  encodeIn,
  ROOT,
  curveNames,
  keepExample,
  saveSchedule,
} from './harness.mjs';

const env = useServerAndBrowser(before, after);

const XSS = '<img src=x onerror=alert(1)>';

/**
 * writeBadCorpus writes the bad-input corpus into dir with $BADCORPUS_BIN (a prebuilt
 * scripts/badcorpus) when set, else `go run ./scripts/badcorpus`, and returns its index:
 * [{name, want}], want being a part every message about the file must contain.
 */
async function writeBadCorpus(dir) {
  const [command, args] = process.env.BADCORPUS_BIN
    ? [process.env.BADCORPUS_BIN, []]
    : ['go', ['run', './scripts/badcorpus']];
  await promisify(execFile)(command, [...args, '-out', dir], { cwd: ROOT });
  return JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8'));
}

/**
 * lawcoreVerdicts is what lawcore itself answers for each file of the corpus in dir (imported by
 * lawcore.wasm under node, in a child process: tests/browser/corpus-verdicts.mjs):
 * {name: {error} | {ask} | {curves}}.
 */
async function lawcoreVerdicts(dir) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'tests/browser/corpus-verdicts.mjs'), dir],
    { cwd: ROOT, maxBuffer: 16 << 20 },
  );
  return JSON.parse(stdout);
}

/** withTempDir runs body(dir) with a fresh temporary directory, removed afterwards. */
async function withTempDir(body) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lawcalc-'));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** noMarkupFromNames: no element the names could have made exists, and no dialog opened. */
async function assertInert(page, dialogs) {
  assert.deepEqual(dialogs, [], 'a dialog opened');
  assert.equal(await page.locator('img[src="x"], body img[onerror]').count(), 0, 'the name became an element');
  assert.equal(await page.evaluate(() => window.__xss), undefined);
}

test('a run name with markup, from a W&B export and from a share link, is shown as text', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const dialogs = [];
  context.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on('dialog', () => {}); // handled on the context
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    await page.setInputFiles('#file-input', [
      { name: 'wandb.csv', mimeType: 'text/csv', buffer: Buffer.from(`Step,${XSS} - loss\n1,3.5\n2,3.4\n`) },
    ]);
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('#curve-list [data-curve-name]')].some((r) => r.dataset.curveName === n),
      XSS,
    );
    assert.ok((await curveNames(page)).includes(XSS));
    // Shown as text in its row and in the chart legend.
    const rowName = await page.$$eval('#curve-list .row-name', (els) => els.map((e) => e.textContent));
    assert.ok(rowName.includes(XSS));
    await page.waitForFunction((n) => (document.querySelector('#chart-loss').dataset.series || '').includes(n), XSS);
    assert.ok((await page.textContent('#chart-loss')).includes(XSS), 'the legend shows the name as text');
    // Exports carry it as data too: SVG escapes it.
    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-svg="loss"]')]);
    const text = (await import('node:fs')).readFileSync(await svg.path(), 'utf8');
    assert.ok(!text.includes('<img'), 'the SVG holds the name unescaped');
    assert.ok(text.includes('&lt;img src=x onerror=alert(1)&gt;'));
    await page.waitForTimeout(300);
    await assertInert(page, dialogs);

    // The same name in a share link, as a curve and as a schedule to predict.
    const view = {
      v: 1,
      settings: {
        lambda: 0.999,
        fitLambda: false,
        warmupSteps: 0,
        warmupConvention: 'peak',
        huberDelta: 0.001,
        law: 'annealing',
        auto: false,
      },
      params: { L0: 2.6, A: 0.43, alpha: 0.55, C: 0.41, lambda: 0.999 },
      source: 'manual',
      curves: [
        {
          name: XSS,
          role: 'fit',
          schedule: { kind: 'constant', total: 2, peak: 2e-4 },
          steps: [1, 2],
          loss: [3.5, 3.4],
        },
      ],
      predictions: [{ name: `${XSS} 2`, schedule: { kind: 'cosine', total: 1000, peak: 2e-4, final: 0 } }],
    };
    const payload = await encodeIn(page, JSON.stringify(view));
    const p2 = await context.newPage();
    p2.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await p2.goto(`${env.url}#s=${payload}`);
    await p2.waitForFunction(() => document.querySelector('#predict-list [data-schedule-name]')?.dataset.finalLoss);
    assert.deepEqual(await curveNames(p2), [XSS]);
    assert.deepEqual(await p2.$$eval('#predict-list .row-name', (els) => els.map((e) => e.textContent)), [`${XSS} 2`]);
    assert.ok((await p2.textContent('#chart-loss')).includes(`${XSS} 2`));
    await p2.waitForTimeout(300);
    await assertInert(p2, dialogs);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a whole session requests only the site’s own origin', async () => {
  const context = await env.browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const origin = new URL(env.url).origin;
  const page = await context.newPage();
  try {
    await page.goto(env.url);
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    await page.fill('#lambda', '0.998');
    await page.dispatchEvent('#lambda', 'change');
    await page.click('#fit-button');
    await page.waitForFunction(() => document.querySelector('#param-lambda').textContent.trim() === '0.998');
    await waitForFit(page);
    // Upload a file (with an LR column: it is predicted straight away).
    const csv = 'step,lr,loss\n1000,2e-4,3.67\n2000,2e-4,3.33\n3000,2e-4,3.2\n';
    await page.setInputFiles('#file-input', [{ name: 'upload.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }]);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#curve-list [data-curve-name]')].some((r) => r.dataset.curveName === 'upload'),
    );
    // Predict a new schedule.
    await saveSchedule(page, '#add-prediction', { preset: 'wsd-1-sqrt-20' });
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('#predict-list [data-schedule-name]')];
      return rows.length === 6 && rows.every((r) => r.dataset.finalLoss !== '');
    });
    // The analyses.
    await page.click('#analyses-panel > summary');
    await page.waitForFunction(
      () =>
        document.querySelector('#analysis-table:not([hidden]) tbody tr')
        || document.querySelector('#chart-analysis canvas'),
      null,
      { timeout: 30000 },
    );
    // Every export, and a share link.
    for (const sel of ['#export-json', '#export-csv', '[data-png="loss"]', '[data-svg="loss"]']) {
      await Promise.all([page.waitForEvent('download'), page.click(sel)]);
    }
    await page.click('#share-button');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
    await page.goto(await page.inputValue('#share-link'));
    await waitForFit(page);
    await page.waitForTimeout(500);

    assert.ok(requests.length > 5, `only ${requests.length} requests seen`);
    const foreign = requests.filter((u) => {
      const url = new URL(u);
      if (url.protocol === 'blob:') return new URL(url.pathname).origin !== origin;
      if (url.protocol === 'data:') return false; // no network
      return url.origin !== origin;
    });
    assert.deepEqual(foreign, [], 'requests to another origin');
  } finally {
    await context.close();
  }
});

test('a corpus of bad files: each refused with lawcore’s own message, naming it (and its line); loaded curves stay', (t) =>
  withTempDir(async (dir) => {
    const corpus = await writeBadCorpus(dir);
    assert.ok(corpus.length >= 40, `the corpus has ${corpus.length} files`);
    const verdicts = await lawcoreVerdicts(dir);
    const { context, page, errors } = await openPage(env.browser, env.url);
    const dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    try {
      await waitForFit(page);
      await keepExample(page); // the files below go beside the example
      const before = await curveNames(page);
      assert.deepEqual(before, ['cosine', 'constant']);
      for (const { name, want } of corpus) {
        await page.evaluate(() => {
          document.querySelector('#message-close').click();
          document.querySelector('#status').textContent = '';
        });
        const started = performance.now();
        // By path: Playwright refuses buffers over 50 MB, and the page reads the file as a user's.
        await page.setInputFiles('#file-input', path.join(dir, name));
        await page.waitForFunction(
          () => !document.querySelector('#message').hidden || document.querySelector('#import-dialog').open,
          null,
          { timeout: 120000 },
        );
        // A file that leaves the column or run open is a question to the user (as in Go's test):
        // it must name the file; cancelled, the file is skipped with a message naming it.
        const asked = await page.evaluate(() => document.querySelector('#import-dialog').open);
        if (asked) {
          assert.ok(
            (await page.textContent('#import-dialog-title')).includes(name),
            `${name}: the question does not name the file`,
          );
          await page.click('#import-cancel');
          await page.waitForSelector('#message:not([hidden])');
        }
        const seconds = (performance.now() - started) / 1000;
        if (seconds > 1) t.diagnostic(`${name}: ${seconds.toFixed(1)} s in the page`);
        const text = await messageText(page);
        assert.ok(text.includes(name), `${name}: the message does not name the file: ${text}`);
        assert.equal(await page.getAttribute('#message', 'role'), 'alert');
        if (want && !asked) assert.ok(text.includes(want), `${name}: the message lacks "${want}": ${text}`);
        // The same verdict as lawcore's: a file it refuses is refused with its very message (one
        // line of the page's), a file it asks about is asked about, a file it reads is left out.
        const said = verdicts[name];
        const lines = await page.$$eval('#message-text > div', (divs) => divs.map((d) => d.textContent));
        if (said.error) {
          assert.ok(!asked, `${name}: lawcore refuses it (${said.error}), the page asked`);
          assert.ok(
            said.error.startsWith(`${name}: `) && said.error.includes(want),
            `${name}: lawcore's message breaks Go's expectations: ${said.error}`,
          );
          assert.ok(
            lines.includes(said.error),
            `${name}: the page says ${JSON.stringify(lines)}, lawcore ${JSON.stringify(said.error)}`,
          );
        } else if (said.ask) {
          assert.ok(asked, `${name}: lawcore asks (${said.ask}), the page did not`);
        } else {
          assert.ok(
            lines.some((l) => l.startsWith(`${name}: `) && /left out/.test(l)),
            `${name}: lawcore reads it (nothing to fit), the page says ${JSON.stringify(lines)}`,
          );
        }
        if (/line \d/.test(text))
          assert.match(text, new RegExp(`${escapeRegExp(name)}: line \\d+`), `${name}: ${text}`);
        assert.deepEqual(await curveNames(page), before, `${name}: the loaded curves changed`);
        assert.equal(await page.textContent('#param-L0'), '2.628', name);
      }
      // The page still works: a good file is added and fitted alongside.
      await page.evaluate(() => document.querySelector('#message-close').click());
      await page.setInputFiles('#file-input', [
        {
          name: 'fine.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from('step,lr,loss\n1000,2e-4,3.67\n2000,2e-4,3.33\n3000,2e-4,3.2\n'),
        },
      ]);
      await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3);
      assert.deepEqual(dialogs, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }));
