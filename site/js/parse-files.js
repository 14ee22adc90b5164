// Reading loss curves from files, drops and pastes: lawcore's `parse` method does the parsing,
// so errors name the file, line and column.

/** curveName turns "runs/cosine_24000.csv" into "cosine_24000". */
export function curveName(fileName) {
  return fileName.replace(/^.*[\\/]/, '').replace(/\.(csv|tsv|txt|dat)$/i, '') || 'curve';
}

/**
 * parseCurve parses one file's text. The curve's schedule is the file's LR column when it has
 * one (an explicit schedule through the sampled points), else null: the user picks one.
 */
export async function parseCurve(client, fileName, text) {
  const { result, columns } = await client.call('parse', { name: fileName, text });
  const col = columns[0] || {};
  if (!col.steps || !col.loss || col.steps.length === 0) throw new Error(`${fileName}: no data rows`);
  const curve = {
    name: curveName(result.name || fileName),
    steps: col.steps,
    loss: col.loss,
    source: fileName,
    schedule: null,
    scheduleSource: 'builder',
  };
  if (result.hasLR && col.lr) {
    curve.lr = col.lr;
    curve.schedule = explicitSchedule(col.steps, col.lr);
    curve.scheduleSource = 'file';
  }
  return curve;
}

/** explicitSchedule joins the sampled (step, lr) points linearly; warmup comes from the settings. */
export function explicitSchedule(steps, lr) {
  return { kind: 'explicit', total: steps[steps.length - 1], steps: Array.from(steps), lr: Array.from(lr) };
}

/**
 * parseFiles parses every File; it returns the curves that parsed and the error messages of the
 * others, so that one bad file never stops the rest.
 */
export async function parseFiles(client, files) {
  const results = await Promise.allSettled([...files].map(async (file) => parseCurve(client, file.name, await file.text())));
  return {
    curves: results.filter((r) => r.status === 'fulfilled').map((r) => r.value),
    errors: results.filter((r) => r.status === 'rejected').map((r) => r.reason.message),
  };
}
