// The bundled examples: the paper's Fig. 2 (fit constant + cosine at 20K steps, predict five
// unseen 60K-step schedules, as in its Fig. 3) and the MultiPowerLaw release's nine curves.

/** FIG2_SETTINGS are the paper's: lambda 0.999, 500 warmup steps counted at the peak LR. */
export const FIG2_SETTINGS = {
  lambda: 0.999,
  fitLambda: false,
  warmupSteps: 500,
  warmupConvention: 'peak',
  huberDelta: 0.001,
  law: 'annealing',
  auto: false,
  priors: 'weak',
};

const PEAK = 2e-4;
const W = 500;

/** FIG3_PREDICTIONS are the unseen 60K-step schedules the paper predicts from the Fig. 2 fit. */
export const FIG3_PREDICTIONS = [
  { name: 'constant 60K', schedule: { kind: 'constant', total: 60000, peak: PEAK, warmup: W } },
  {
    name: 'cosine 60K (min 0.1×peak)',
    schedule: { kind: 'cosine', total: 60000, peak: PEAK, final: 0.1 * PEAK, warmup: W },
  },
  {
    name: 'multi-step 80/10/10 60K',
    schedule: {
      kind: 'multistep',
      total: 60000,
      peak: PEAK,
      warmup: W,
      stages: [0.8, 0.1, 0.1],
      levels: [1, 0.316, 0.1],
    },
  },
  {
    name: 'WSD 20% cosine 60K',
    schedule: { kind: 'wsd', total: 60000, peak: PEAK, final: 0, warmup: W, decay: 'cosine', decayFraction: 0.2 },
  },
  {
    name: 'cyclic 60K',
    schedule: {
      kind: 'cyclic',
      total: 60000,
      peak: PEAK,
      final: 0.1 * PEAK,
      warmup: W,
      stepSize: 7500,
      mode: 'triangular',
    },
  },
];

/**
 * fig2Data is the Fig. 2 file's fetch, started when the page loads (the first view shows it, and
 * it is 1 kB) so that it is there when the engine is; a failed fetch is tried again on use.
 */
let fig2Data = fetchFig2();
fig2Data.catch(() => {});

async function fetchFig2() {
  const response = await fetch('examples/paper-fig2.json');
  if (!response.ok) throw new Error(`examples/paper-fig2.json: HTTP ${response.status}`);
  return response.json();
}

/** loadFig2 fetches the Fig. 2 losses and returns its two curves (role fit) with their schedules. */
export async function loadFig2() {
  let d;
  try {
    d = await fig2Data;
  } catch {
    fig2Data = fetchFig2();
    d = await fig2Data;
  }
  const schedules = {
    constant: { kind: 'constant', total: d.total_steps, peak: d.eta_max, warmup: d.warmup },
    cosine: { kind: 'cosine', total: d.total_steps, peak: d.eta_max, final: d.eta_min, warmup: d.warmup },
  };
  return Object.entries(d.loss).map(([name, loss]) => ({
    name,
    role: 'fit',
    steps: Float64Array.from(d.steps),
    loss: Float64Array.from(loss),
    schedule: schedules[name],
    scheduleSource: 'builder',
    source: 'paper Fig. 2',
  }));
}

/** RELEASE_RUNS are the MultiPowerLaw release's nine runs; the release fits the first three and predicts the rest. */
export const RELEASE_RUNS = [
  ['cosine_24000', 'fit'],
  ['constant_24000', 'fit'],
  ['wsdcon_9', 'fit'],
  ['constant_72000', 'validate'],
  ['cosine_72000', 'validate'],
  ['wsd_20000_24000', 'validate'],
  ['wsdld_20000_24000', 'validate'],
  ['wsdcon_3', 'validate'],
  ['wsdcon_18', 'validate'],
];

/** RELEASE_SETTINGS: warmup of 2160 steps counted as run, which predicts these curves best. */
export const RELEASE_SETTINGS = {
  lambda: 0.999,
  fitLambda: false,
  warmupSteps: 2160,
  warmupConvention: 'actual',
  huberDelta: 0.001,
  law: 'annealing',
  auto: false,
  priors: 'weak',
};

/** fetchReleaseRuns returns the release's runs of one model size (25 or 100): [{name, file, text, role}]. */
export async function fetchReleaseRuns(size) {
  return Promise.all(
    RELEASE_RUNS.map(async ([name, role]) => {
      const file = `examples/mpl/csv_${size}/${name}.csv`;
      const response = await fetch(file);
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      return { name, file: `${name}.csv`, text: await response.text(), role };
    }),
  );
}
