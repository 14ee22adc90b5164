// Raw logs chosen as files in the page, as a researcher has them: a zip of TensorBoard run
// directories (event files written in the real format, a note beside them), the same runs as a
// .tar.gz, a gzipped CSV export, and an MLflow tracking folder
// (mlruns/<experiment>/<run>/metrics/<key>: lines "timestamp value step") picked with the folder
// button. Each is read by lawcore's importer in the page; the runs with learning rates fit to the
// paper's Fig. 2 parameters, and a file the importer cannot use is listed, not fatal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useServerAndBrowser, openPage, waitForFit, messageText, params, curveNames, EXAMPLES } from './harness.mjs';
import { eventFile } from '../tfevents.mjs';
import { zipFile } from '../zipfile.mjs';

const env = useServerAndBrowser(before, after);
let tmp;
before(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'raw-logs-'));
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** The Fig. 2 schedules by their closed forms (500 warmup steps, 2e-4 held or cosine to 0 at 20,000). */
const LR = {
  constant: (s) => (s < 500 ? (2e-4 * s) / 500 : 2e-4),
  cosine: (s) => (s < 500 ? (2e-4 * s) / 500 : 1e-4 * (1 + Math.cos((Math.PI * (s - 500)) / 19500))),
};
const PAPER = { L0: 2.628, A: 0.43, C: 0.411, alpha: 0.55 };

/** fig2 is the paper's Fig. 2 data: {steps, loss: {constant, cosine}}. */
const fig2 = async () => JSON.parse(await readFile(path.join(EXAMPLES, 'paper-fig2.json'), 'utf8'));

/** LR_STEPS are the steps at which the runs log their learning rate (every 50). */
const LR_STEPS = Array.from({ length: 401 }, (_, i) => i * 50);

async function fitsThePaper(page, n) {
  // the paper's setting (auto, the default for one's own curves, may pick another law)
  await page.uncheck('#auto');
  await page.click('#fit-button');
  await page.waitForFunction(
    (k) => new RegExp(`^Fitted ${k} curve`).test(document.querySelector('#status').textContent),
    n,
    { timeout: 60000 },
  );
  await waitForFit(page);
  const p = await params(page);
  for (const [k, v] of Object.entries(PAPER))
    assert.ok(Math.abs(Number(p[k]) - v) <= 0.002, `${k} = ${p[k]}, the paper's ${v}`);
}

const rowText = (page, name) => page.textContent(`#curve-list [data-curve-name="${name}"]`);

/**
 * bothRunsWithLR checks that the Fig. 2 runs came in (named from run + suffix), each with its 20
 * points and its learning rates from the file, and returns the curves' names.
 */
async function bothRunsWithLR(page, suffix = '') {
  const names = await curveNames(page);
  for (const run of ['constant', 'cosine']) {
    const name = names.find((n) => n.startsWith(run + suffix));
    assert.ok(name, `${run}: ${names}`);
    assert.match(await rowText(page, name), /20 points, steps 1,000–20,000 · LR from the file/);
  }
  return names;
}

test("a zip of TensorBoard runs and a gzipped CSV, chosen as files: curves with their LR, the note skipped, the paper's fit", async () => {
  const d = await fig2();
  const members = {};
  for (const run of ['constant', 'cosine']) {
    const loss = new Map(d.steps.map((s, i) => [s, d.loss[run][i]]));
    members[`${run}/events.out.tfevents.1700000000.host.1.0`] = eventFile(LR_STEPS, {
      'train/loss': LR_STEPS.map((s) => loss.get(s) ?? null),
      'train/lr': LR_STEPS.map(LR[run]),
    });
  }
  members['README.txt'] = 'two runs of the Fig. 2 study\n';
  const zip = path.join(tmp, 'fig2-runs.zip');
  await writeFile(zip, zipFile(members));
  const gz = path.join(tmp, 'constant-export.csv.gz');
  await writeFile(
    gz,
    gzipSync(`Wall time,Step,Value\n${d.steps.map((s, i) => `1700000000.5,${s},${d.loss.constant[i]}`).join('\n')}\n`),
  );

  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#clear-curves');
    await page.setInputFiles('#file-input', [zip]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2, null, {
      timeout: 60000,
    });
    const names = await bothRunsWithLR(page);
    assert.equal(names.length, 2);
    assert.match(await messageText(page), /README\.txt/, 'the note in the zip is listed as skipped');
    await fitsThePaper(page, 2);

    // The gzipped export: its 20 losses, no LR (the status asks for a schedule).
    await page.setInputFiles('#file-input', [gz]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3, null, {
      timeout: 60000,
    });
    const added = (await curveNames(page)).find((n) => !names.includes(n));
    assert.match(added, /constant-export/);
    assert.match(await rowText(page, added), /20 points, steps 1,000–20,000/);
    assert.match(
      await page.textContent('#status'),
      /Added 1 curve\(s\)\. Without learning rates: give constant-export/,
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("a .tar.gz of TensorBoard run folders, as tar makes it: each run with its LR, the paper's fit", async () => {
  const d = await fig2();
  const root = path.join(tmp, 'tar-runs');
  for (const run of ['constant', 'cosine']) {
    const loss = new Map(d.steps.map((s, i) => [s, d.loss[run][i]]));
    await mkdir(path.join(root, 'runs', run), { recursive: true });
    await writeFile(
      path.join(root, 'runs', run, 'events.out.tfevents.1700000000.host.1.0'),
      eventFile(LR_STEPS, {
        'train/loss': LR_STEPS.map((s) => loss.get(s) ?? null),
        'train/lr': LR_STEPS.map(LR[run]),
      }),
    );
  }
  const tgz = path.join(tmp, 'fig2-runs.tar.gz');
  execFileSync('tar', ['-czf', tgz, '-C', root, 'runs']);
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#clear-curves');
    // on the empty page a warmup that is not the runs': their learning rates set it
    await page.fill('#warmup-steps', '0');
    await page.dispatchEvent('#warmup-steps', 'change');
    await page.setInputFiles('#file-input', [tgz]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2, null, {
      timeout: 60000,
    });
    assert.equal(await page.inputValue('#warmup-steps'), '500');
    assert.match(
      await messageText(page),
      /Warmup steps set to 500: the learning rates of \S+ reach their peak there\./,
    );
    await bothRunsWithLR(page);
    await fitsThePaper(page, 2);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("an MLflow tracking folder picked with the folder button: each run's loss with its lr, the paper's fit", async () => {
  const d = await fig2();
  const root = path.join(tmp, 'mlruns');
  for (const run of ['constant', 'cosine']) {
    const dir = path.join(root, '0', `${run}0123abcd`, 'metrics');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'loss'),
      `${d.steps.map((s, i) => `${1700000000000 + s} ${d.loss[run][i]} ${s}`).join('\n')}\n`,
    );
    await writeFile(
      path.join(dir, 'lr'),
      `${LR_STEPS.map((s) => `${1700000000000 + s} ${LR[run](s)} ${s}`).join('\n')}\n`,
    );
    await mkdir(path.join(root, '0', `${run}0123abcd`, 'params'), { recursive: true });
    await writeFile(path.join(root, '0', `${run}0123abcd`, 'params', 'lr'), '0.0002');
  }
  await writeFile(path.join(root, '0', 'meta.yaml'), 'name: Default\n');
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#clear-curves');
    await page.setInputFiles('#folder-input', root);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2, null, {
      timeout: 60000,
    });
    await bothRunsWithLR(page, '0123abcd');
    await fitsThePaper(page, 2);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
