// An explicit schedule (an LR file's points, up to millions) crosses to lawcore as two columns,
// scheduleSteps and scheduleLR, instead of inside the request's JSON: as JSON a million points
// take seconds to write and read, during which a fit can show no progress and not be cancelled.

/** isExplicitWithPoints says whether a schedule carries its LR points. */
const isExplicitWithPoints = (s) => !!s && s.kind === 'explicit' && !!s.lr && s.lr.length > 0;

/** scheduleForRequest is the schedule as the request's JSON carries it: without its points. */
export function scheduleForRequest(schedule) {
  if (!isExplicitWithPoints(schedule)) return schedule;
  const { steps, lr, ...rest } = schedule;
  return rest;
}

/** scheduleColumns are the columns that carry the schedule's points ({} for other schedules). */
export function scheduleColumns(schedule) {
  if (!isExplicitWithPoints(schedule)) return {};
  return schedule.steps ? { scheduleSteps: schedule.steps, scheduleLR: schedule.lr } : { scheduleLR: schedule.lr };
}
