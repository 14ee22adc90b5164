// A loss file and a learning-rate file merged on step: dropped together (TensorBoard downloads of
// one run's loss and learning-rate tags), or the learning rates chosen in a curve's schedule
// dialog. The merged schedule drives the fit: the paper's Fig. 2 cosine curve with its LR logged
// every 10 steps fits to the paper's parameters.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  useServerAndBrowser,
  openPage,
  waitForFit,
  messageText,
  params,
  EXAMPLES,
  curveNames,
  keepExample,
} from './harness.mjs';

const env = useServerAndBrowser(before, after);

const PAPER = { L0: '2.628', A: '0.430', C: '0.411', alpha: '0.550' };
const rowText = (page, name) => page.textContent(`#curve-list [data-curve-name="${name}"]`);

/** fig2Cosine is the paper's Fig. 2 cosine curve: {steps, loss}. */
async function fig2Cosine() {
  const fig2 = JSON.parse(await readFile(path.join(EXAMPLES, 'paper-fig2.json'), 'utf8'));
  return { steps: fig2.steps, loss: fig2.loss.cosine };
}

/**
 * cosineLR is the Fig. 2 cosine schedule (2e-4 to 0 over 20,000 steps after a 500-step linear
 * warmup) at every 10th step, computed here by its closed form.
 */
function cosineLR() {
  const rows = [];
  for (let s = 0; s <= 20000; s += 10) {
    const lr = s < 500 ? (2e-4 * s) / 500 : 1e-4 * (1 + Math.cos((Math.PI * (s - 500)) / 19500));
    rows.push([s, lr]);
  }
  return rows;
}

/** tensorBoardCSV writes rows of [step, value] as TensorBoard's scalar download. */
const tensorBoardCSV = (rows) =>
  `Wall time,Step,Value\n${rows.map(([s, v], i) => `${1700000000 + i * 3.5},${s},${v}`).join('\n')}\n`;

/** removeCurve removes a curve with its ✕ button. */
async function removeCurve(page, name) {
  await page.click(`#curve-list [data-curve-name="${name}"] button.remove`);
  await page.waitForFunction((n) => !document.querySelector(`#curve-list [data-curve-name="${n}"]`), name);
}

/**
 * dropCosineWithLR drops, beside the fitted example's constant curve (its cosine removed), the
 * Fig. 2 cosine loss and the learning rates lrRows ([step, lr]) as one run's two TensorBoard
 * downloads, and waits for them to be a curve.
 */
async function dropCosineWithLR(page, lrRows) {
  await waitForFit(page);
  await keepExample(page);
  await removeCurve(page, 'cosine');
  const { steps, loss } = await fig2Cosine();
  await page.setInputFiles('#file-input', [
    {
      name: 'run-cosine-tag-eval_loss.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(tensorBoardCSV(steps.map((s, i) => [s, loss[i]]))),
    },
    { name: 'run-cosine-tag-learning_rate.csv', mimeType: 'text/csv', buffer: Buffer.from(tensorBoardCSV(lrRows)) },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2);
}

/** fitAndWait fits and waits for the status to say so. */
async function fitAndWait(page) {
  await page.click('#fit-button');
  await page.waitForFunction(() => /^Fitted 2 curve/.test(document.querySelector('#status').textContent));
}

test('a loss file and its learning-rate file dropped together are merged on step, and fit as the paper', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await dropCosineWithLR(page, cosineLR());
    assert.deepEqual(await curveNames(page), ['constant', 'cosine eval_loss']);
    assert.match(
      await rowText(page, 'cosine eval_loss'),
      /20 points, steps 1,000–20,000 · LR from run-cosine-tag-learning_rate\.csv/,
    );
    assert.match(
      await messageText(page),
      /cosine eval_loss: the schedule is the learning rates of run-cosine-tag-learning_rate\.csv/,
    );

    await fitAndWait(page);
    assert.deepEqual(await params(page), PAPER);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("learning rates that stop short of the loss's last step are still its schedule: the loss after them is left out, with a note", async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    // the learning rate downloaded up to step 19,000 only: the loss at 20,000 has none
    await dropCosineWithLR(
      page,
      cosineLR().filter(([st]) => st <= 19000),
    );
    assert.match(
      await rowText(page, 'cosine eval_loss'),
      /19 points, steps 1,000–19,000 · LR from run-cosine-tag-learning_rate\.csv/,
    );
    assert.match(
      await messageText(page),
      /"cosine eval_loss": left out 1 loss at step 20000, outside the steps its learning rates from run-cosine-tag-learning_rate\.csv are logged at \(0 to 19000\)/,
    );
    await fitAndWait(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('learning rates logged from one interval after the loss starts (a cooldown branched off) are continued to it, with a note', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    // the learning rate from step 1,010 on (every 10 steps); the loss from step 1,000
    await dropCosineWithLR(
      page,
      cosineLR().filter(([st]) => st >= 1010),
    );
    assert.match(
      await rowText(page, 'cosine eval_loss'),
      /20 points, steps 1,000–20,000 · LR from run-cosine-tag-learning_rate\.csv/,
    );
    const lr1000 = 1e-4 * (1 + Math.cos((Math.PI * 500) / 19500));
    const said = (await messageText(page)).match(
      /the learning rate at step 1000 \(a loss before the first logged learning rate, at step 1010\) ([\d.e-]+), continuing the logged ones linearly/,
    );
    assert.ok(said, await messageText(page));
    // continued linearly over one interval of the cosine: the schedule's own value there, to
    // the note's four digits
    assert.ok(Math.abs(Number(said[1]) - lr1000) < 1e-7, `${said[1]} against ${lr1000}`);
    await fitAndWait(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a curve takes its learning rates from a file chosen in its schedule dialog', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    await removeCurve(page, 'cosine');
    const { steps, loss } = await fig2Cosine();
    const csv = `step,val_loss\n${steps.map((s, i) => `${s},${loss[i]}`).join('\n')}\n`;
    await page.setInputFiles('#file-input', [
      { name: 'my-cosine.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
    ]);
    const row = page.locator('#curve-list [data-curve-name="my-cosine"]');
    await row.waitFor();
    assert.match(await row.textContent(), /needs a schedule/);

    await row.getByRole('button', { name: /Schedule/ }).click();
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    // A W&B export of the learning rate with two runs: the dialog asks which run.
    const wandb =
      'Step,cosine - lr,cosine - lr__MIN,cosine - lr__MAX,other - lr,other - lr__MIN,other - lr__MAX\n'
      + cosineLR()
        .map(([s, lr]) => [s, lr, lr, lr, 1e-4, 1e-4, 1e-4].join(','))
        .join('\n')
      + '\n';
    await page.setInputFiles('#schedule-file', [
      { name: 'wandb_lr.csv', mimeType: 'text/csv', buffer: Buffer.from(wandb) },
    ]);
    await page.locator('#import-dialog').waitFor({ state: 'visible' });
    await page.uncheck('#import-options input[value="other"]');
    await page.click('#import-ok');
    await page.waitForFunction(() =>
      /wandb_lr\.csv, run cosine: 2,001 points, steps 0–20,000/.test(
        document.querySelector('#schedule-origin').textContent,
      ),
    );
    assert.equal(await page.inputValue('#schedule-kind'), 'explicit');
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() =>
      /LR from wandb_lr\.csv/.test(document.querySelector('#curve-list [data-curve-name="my-cosine"]').textContent),
    );

    await fitAndWait(page);
    assert.deepEqual(await params(page), PAPER);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('learning rates that cannot be placed say why, and nothing changes', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    const short = tensorBoardCSV([
      [0, 0],
      [100, 1e-4],
      [200, 2e-4],
    ]);
    // they span two of its five points: too few to be its schedule
    const lossRows = tensorBoardCSV([
      [100, 4],
      [200, 3.8],
      [300, 3.7],
      [400, 3.6],
      [500, 3.5],
    ]);
    await page.setInputFiles('#file-input', [
      { name: 'run-a-tag-loss.csv', mimeType: 'text/csv', buffer: Buffer.from(lossRows) },
      { name: 'run-a-tag-lr.csv', mimeType: 'text/csv', buffer: Buffer.from(short) },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3);
    assert.match(
      await messageText(page),
      /run-a-tag-lr\.csv: the learning rates cover steps 0 to 200, but "a loss" has step 500: not merged/,
    );
    assert.match(await rowText(page, 'a loss'), /needs a schedule/);

    // Given alone, learning rates go to the one curve still waiting for a schedule; here two wait.
    await page.setInputFiles('#file-input', [
      { name: 'b.csv', mimeType: 'text/csv', buffer: Buffer.from('step,loss\n100,4\n200,3.9\n') },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 4);
    await page.setInputFiles('#file-input', [
      { name: 'lr.csv', mimeType: 'text/csv', buffer: Buffer.from('step,lr\n0,0\n500,1e-4\n') },
    ]);
    await page.waitForFunction(() =>
      /lr\.csv holds learning rates only, and which loss curve they belong to is not clear/.test(
        document.querySelector('#message').textContent,
      ),
    );
    assert.match(await rowText(page, 'a loss'), /needs a schedule/);
    assert.match(await rowText(page, 'b'), /needs a schedule/);
    // With one of them removed, the same file finds its curve.
    await removeCurve(page, 'a loss');
    await page.setInputFiles('#file-input', [
      { name: 'lr.csv', mimeType: 'text/csv', buffer: Buffer.from('step,lr\n0,0\n500,1e-4\n') },
    ]);
    await page.waitForFunction(() =>
      /LR from lr\.csv/.test(document.querySelector('#curve-list [data-curve-name="b"]').textContent),
    );
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'b']);
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
