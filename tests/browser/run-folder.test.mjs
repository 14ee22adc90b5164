// A whole run folder, picked with the folder button or dropped, goes to lawcore in one import:
// a TensorBoard event file (written here in the real format: TFRecord framing, masked CRC-32C,
// Event protos with simple_value scalars) with the loss and LR of the paper's Fig. 2 cosine run,
// and a Lightning metrics.csv (sparse rows, `lr-AdamW`) in another run directory with its
// constant run. Both runs become curves whose schedules are their learning rates, the files that
// hold no log are listed as skipped, and the two fit to the paper's parameters.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useServerAndBrowser, openPage, waitForFit, messageText, params, curveNames, EXAMPLES } from './harness.mjs';
import { eventFile } from '../tfevents.mjs';

const env = useServerAndBrowser(before, after);
let tmp;
before(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'run-folder-'));
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** The Fig. 2 schedules (500 warmup steps, then 2e-4 held or cosine to 0 at 20,000), by their closed forms. */
const cosineLR = (s) => (s < 500 ? (2e-4 * s) / 500 : 1e-4 * (1 + Math.cos((Math.PI * (s - 500)) / 19500)));
const constantLR = (s) => (s < 500 ? (2e-4 * s) / 500 : 2e-4);

/**
 * writeRunFolder writes dir/runs: cosine/ (an event file with train/loss every 1000 steps and
 * train/lr every 10, and a config.yaml) and lightning_logs/version_0/ (metrics.csv with the LR
 * and the loss on rows of their own, an hparams.yaml, and a checkpoint). It returns the folder.
 */
async function writeRunFolder(dir) {
  const fig2 = JSON.parse(await readFile(path.join(EXAMPLES, 'paper-fig2.json'), 'utf8'));
  const lossAt = (name) => new Map(fig2.steps.map((s, i) => [s, fig2.loss[name][i]]));
  const steps = Array.from({ length: 2001 }, (_, i) => i * 10);
  const root = path.join(dir, 'runs');
  const put = async (rel, data) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), data);
  };
  const cosine = lossAt('cosine');
  await put(
    'cosine/events.out.tfevents.1700000000.host.1.0',
    eventFile(steps, { 'train/loss': steps.map((s) => cosine.get(s) ?? null), 'train/lr': steps.map(cosineLR) }),
  );
  await put('cosine/config.yaml', 'schedule: cosine\npeak: 2.0e-4\n');
  const constant = lossAt('constant');
  const rows = ['epoch,step,lr-AdamW,train_loss'];
  for (const s of steps) {
    rows.push(`0,${s},${constantLR(s)},`);
    if (constant.has(s)) rows.push(`0,${s},,${constant.get(s)}`);
  }
  await put('lightning_logs/version_0/metrics.csv', `${rows.join('\n')}\n`);
  await put('lightning_logs/version_0/hparams.yaml', 'lr: 0.0002\n');
  await put('lightning_logs/version_0/checkpoints/epoch=0-step=20000.ckpt', Buffer.alloc(4096, 7));
  return root;
}

const rowText = (page, name) => page.textContent(`#curve-list [data-curve-name="${name}"]`);

/** checkFolderRead checks that the folder's two runs came in with their LR, and the skipped files are listed. */
async function checkFolderRead(page) {
  await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2, null, {
    timeout: 60000,
  });
  assert.deepEqual(await curveNames(page), ['cosine train/loss', 'lightning_logs/version_0 train_loss']);
  assert.match(await rowText(page, 'cosine train/loss'), /20 points, steps 1,000–20,000 · LR from the file/);
  assert.match(
    await rowText(page, 'lightning_logs/version_0 train_loss'),
    /20 points, steps 1,000–20,000 · LR from the file/,
  );
  const message = await messageText(page);
  for (const skipped of ['cosine/config.yaml', 'version_0/hparams.yaml', 'epoch=0-step=20000.ckpt']) {
    assert.ok(message.includes(skipped), `the skipped ${skipped} is not listed in: ${message}`);
  }
  assert.match(await page.textContent('#status'), /Added 2 curve\(s\)\./);
}

test('a run folder picked with the folder button: both runs with their LR as schedule, the rest listed, and a fit', async () => {
  const root = await writeRunFolder(tmp);
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#clear-curves');
    await page.setInputFiles('#folder-input', root);
    await checkFolderRead(page);

    // The schedules are the runs' learning rates: the fit with the paper's setting (auto, the
    // default for one's own curves, may pick another law) finds the paper's parameters.
    await page.uncheck('#auto');
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 2 curve/.test(document.querySelector('#status').textContent), null, {
      timeout: 60000,
    });
    await waitForFit(page);
    const p = await params(page);
    const paper = { L0: 2.628, A: 0.43, C: 0.411, alpha: 0.55 };
    for (const [k, v] of Object.entries(paper))
      assert.ok(Math.abs(Number(p[k]) - v) <= 0.002, `${k} = ${p[k]}, the paper's ${v}`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a run folder dropped (a real directory drop) goes as one folder; a file dropped with it goes alone', async () => {
  const root = await writeRunFolder(path.join(tmp, 'dropped'));
  const loose = path.join(tmp, 'loose-run.csv');
  await writeFile(loose, 'step,lr,loss\n1000,2e-4,3.6\n2000,2e-4,3.3\n3000,2e-4,3.2\n');
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#clear-curves');
    // Chromium's own drag and drop, through the DevTools protocol: the page receives a
    // directory entry to walk, as from a file manager (a DataTransfer built in the page cannot
    // hold one).
    const cdp = await context.newCDPSession(page);
    const box = await page.locator('#drop-zone').boundingBox();
    const at = { x: box.x + 20, y: box.y + 20 };
    const data = { items: [], files: [root], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop'])
      await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
    await checkFolderRead(page);

    // A folder and a file dropped together: the folder as a folder, the file as a file.
    await page.click('#clear-curves');
    const both = { items: [], files: [root, loose], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop'])
      await cdp.send('Input.dispatchDragEvent', { type, ...at, data: both });
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3, null, {
      timeout: 60000,
    });
    assert.deepEqual((await curveNames(page)).sort(), [
      'cosine train/loss',
      'lightning_logs/version_0 train_loss',
      'loose-run',
    ]);
    assert.match(await page.textContent('#status'), /Added 3 curve\(s\)\./);
    assert.match(await messageText(page), /cosine\/config\.yaml/, "the folder's notes are shown with the file's curve");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
