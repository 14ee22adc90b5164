// The raw logs of the dev cooldown study (lawcore/internal/testcurves/testdata/lrsched-124m-lr1e-4,
// Schaipp et al. 2025, MIT: its LICENSE is beside them) as their authors' scripts wrote them:
// each file named after its run (about 135 characters), val_loss every 200 steps, train_loss and
// train_lr every 50 (the learning rate in single precision, as a float32 optimizer logs it:
// 1e-4 reads back as 9.999999747378752e-5), and the one-point final_val_loss of the larger
// evaluation at the end, which the original logs carry as a series of its own (the repository's
// copies keep its value without a step). Not a test: the browser tests write them with studyLogs.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.mjs';

/** STUDY is the repository's copy of the study's logs. */
export const STUDY = path.join(ROOT, 'lawcore/internal/testcurves/testdata/lrsched-124m-lr1e-4');

/**
 * studyLogs writes the logs of the study's files (['stable-50k.json', ...]) into dir, each
 * under its run's name with final_val_loss as a series of one point at the run's last step, and
 * returns their paths in the order given.
 */
export function studyLogs(dir, files) {
  return files.map((file) => {
    const run = JSON.parse(readFileSync(path.join(STUDY, file), 'utf8'));
    run.final = { iter: [run.config.iterations], final_val_loss: run.final_val_loss };
    run.train.train_lr = run.train.train_lr.map(Math.fround);
    const out = path.join(dir, `${run.name}.json`);
    writeFileSync(out, JSON.stringify(run));
    return out;
  });
}
