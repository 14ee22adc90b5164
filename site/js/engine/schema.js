// What the page knows of lawcore's vocabulary: the laws (their names, parameters, formulas and
// terms), the schedule kinds and their enumerations, the warmup conventions and roles, the
// presets and lawcore's limits. None of it is copied from Go by hand: it is lawcore's `schema`
// answer, written to wasm/schema.json by a Go test and bundled into the page at build (main.js),
// and setSchema fills these bindings (ES modules' exports are live, so every importer sees them
// filled) before anything that reads them runs.

/**
 * LAWS are the laws lawcore fits and predicts, by name, in its order: {label (in sentences),
 * params (the names of its parameters), symbols (name -> how formulas print it), meanings
 * (name -> what it is, in words), priors (name -> its weakly informative prior, {median, spread,
 * scale, source}, for the parameters that have one), formula,
 * terms (the names of s1Term and s2Term, the two parts of the loss below L0), convention (its
 * warmup convention), searches, needsSize}.
 */
export let LAWS = {};
/** LAW_NAMES are the laws' names, the annealing law first (laws that need model sizes are the analyses panel's). */
export let LAW_NAMES = [];
/** SIZE_LAWS are the laws that need each curve's model size. */
export let SIZE_LAWS = [];
/**
 * SCHEDULE_KINDS are lawcore's schedule kinds, in its order; SCHEDULE_CHOICES the values of their
 * enumerated fields.
 */
export let SCHEDULE_KINDS = [];
export let SCHEDULE_CHOICES = {};
/** WARMUP_CONVENTIONS: "peak" counts the warmup at the peak LR (the paper's), "actual" as run. */
export let WARMUP_CONVENTIONS = [];
/** ROLES a curve with data has in a fit: fitted, or held out and predicted. */
export let ROLES = [];
/** MULTI_POWER_SEARCHES: how the Multi-Power Law is fitted (the objective's minimum, or the release's procedure). */
export let MULTI_POWER_SEARCHES = [];
/** PRESETS are lawcore's named schedules: [{id, name, origin, schedule}]. */
export let PRESETS = [];
/**
 * MAX_SCHEDULE_STEPS: no schedule, nor the warmup setting, runs longer; MAX_IMPORT_BYTES: the
 * largest file `import` reads; MAX_LR: the largest learning rate lawcore takes (raw units).
 */
export let MAX_SCHEDULE_STEPS = 0;
export let MAX_IMPORT_BYTES = 0;
export let MAX_LR = 0;

/** setSchema takes lawcore's `schema` answer. */
export function setSchema(s) {
  LAWS = Object.fromEntries(
    s.laws.map((l) => [
      l.name,
      {
        label: l.title,
        params: l.params.map((p) => p.name),
        symbols: Object.fromEntries(l.params.map((p) => [p.name, p.symbol])),
        meanings: Object.fromEntries(l.params.map((p) => [p.name, p.meaning || ''])),
        priors: Object.fromEntries(l.params.filter((p) => p.prior).map((p) => [p.name, p.prior])),
        formula: l.formula,
        terms: l.terms.map((t) => t.label),
        convention: l.convention,
        searches: l.searches,
        needsSize: !!l.needsSize,
      },
    ]),
  );
  LAW_NAMES = s.laws.filter((l) => !l.needsSize).map((l) => l.name);
  SIZE_LAWS = s.laws.filter((l) => l.needsSize).map((l) => l.name);
  SCHEDULE_KINDS = s.kinds;
  SCHEDULE_CHOICES = s.choices;
  WARMUP_CONVENTIONS = s.conventions;
  ROLES = s.roles;
  MULTI_POWER_SEARCHES = (s.laws.find((l) => l.name === 'multi-power') || { searches: ['optimum'] }).searches;
  PRESETS = s.presets;
  MAX_SCHEDULE_STEPS = s.limits.maxScheduleSteps;
  MAX_IMPORT_BYTES = s.limits.maxImportBytes;
  MAX_LR = s.limits.maxLR;
}
