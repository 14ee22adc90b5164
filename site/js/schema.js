// What the page knows of lawcore's vocabulary: the laws (their names, parameters, formulas and
// terms), the schedule kinds and their enumerations, the warmup conventions and roles, and
// lawcore's limits. They are copies of Go constants: the engine will provide them (its `schema`
// answer), and when it does, this module is the one place that reads that answer instead.

/** MAX_SCHEDULE_STEPS is lawcore.MaxScheduleSteps: no schedule, nor the warmup setting, runs longer. */
export const MAX_SCHEDULE_STEPS = 10_000_000;

/** MAX_IMPORT_BYTES is lawcore.MaxImportBytes, the largest file `import` reads. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/** SCHEDULE_KINDS are lawcore.Kinds, in lawcore's order. */
export const SCHEDULE_KINDS = ['constant', 'linear', 'cosine', 'wsd', 'multistep', 'cyclic', 'inverse-sqrt', 'polynomial', 'one-cycle', 'concat', 'explicit'];

/** SCHEDULE_CHOICES are the values of a schedule description's enumerated fields, by field. */
export const SCHEDULE_CHOICES = {
  decay: ['cosine', 'linear', '1-sqrt', '1-square', 'exponential', 'half-life'], // lawcore.DecayShapes
  after: ['hold', 'continue', 'restart'],
  mode: ['triangular', 'triangular2'],
  anneal: ['cos', 'linear'],
};

/** WARMUP_CONVENTIONS: "peak" counts the warmup at the peak LR (the paper's), "actual" as run. */
export const WARMUP_CONVENTIONS = ['peak', 'actual'];

/** ROLES a curve with data has in a fit: fitted, or held out and predicted. */
export const ROLES = ['fit', 'validate'];

/** MULTI_POWER_SEARCHES: how the Multi-Power Law is fitted (the objective's minimum, or the release's procedure). */
export const MULTI_POWER_SEARCHES = ['optimum', 'release'];

/**
 * LAWS are the laws lawcore fits and predicts, by name, in the order the page draws and lists
 * them: label (in sentences), params (the names of its parameters), formula (as exported), and
 * terms (the names of s1Term and s2Term, the two parts of the loss below L0).
 */
export const LAWS = {
  annealing: {
    label: 'annealing law',
    params: ['L0', 'A', 'alpha', 'C', 'lambda'],
    formula: 'L(s) = L0 + A*S1(s)^(-alpha) - C*S2(s); S1 = sum eta_i; m_i = lambda*m_{i-1} + (eta_{i-1} - eta_i); S2 = sum m_i',
    terms: ['A·S1^−α', 'C·S2'],
  },
  'multi-power': {
    label: 'Multi-Power Law',
    params: ['L0', 'A', 'alpha', 'B', 'C', 'beta', 'gamma'],
    formula: 'L(t) = L0 + A*(S1(t)+S_W)^(-alpha) - LD(t); LD(t) = B * sum_k (eta_{k-1} - eta_k) * (1 - (C*eta_k^(-gamma)*S_k(t) + 1)^(-beta))',
    terms: ['A·(S1+S_W)^−α', 'LD'],
  },
};

/** LAW_NAMES are the laws' names, the annealing law first. */
export const LAW_NAMES = Object.keys(LAWS);
