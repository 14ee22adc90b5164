// A schedule kept without its curve's data: a share link without the data (share/share-view.js)
// and a stored workspace whose points did not fit (persistence/persist.js) keep each curve's
// schedule, an LR file's thinned to what the charts draw.
import { drawnIndices } from '../common/series.js';

/** MAX_THIN_POINTS is the most points of an explicit schedule kept without its curve's data. */
const MAX_THIN_POINTS = 2000;

/**
 * thinSchedule keeps at most MAX_THIN_POINTS points of an explicit schedule (a file's LR column;
 * the lowest and highest of each run, as the charts draw it), so that a view without the
 * curves' data stays small; other schedules are descriptions and stay as they are.
 */
export function thinSchedule(schedule) {
  const keep =
    schedule && schedule.kind === 'explicit' && Array.isArray(schedule.steps)
      ? drawnIndices(schedule.lr, MAX_THIN_POINTS)
      : null;
  if (!keep) return schedule || null;
  return { ...schedule, steps: keep.map((k) => schedule.steps[k]), lr: keep.map((k) => schedule.lr[k]) };
}
