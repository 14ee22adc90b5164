// Help texts of the command line: `lawcore --help`, `lawcore help COMMAND`, `lawcore COMMAND --help`.

const CMD = 'node scripts/lawcore.mjs';

/** SPECS explains the compact schedule specs (shared by fit, validate and schedule). */
const SPECS = `Schedule specs: "<kind> [numbers] [key=value...]", or a schedule description in JSON.
  "constant 20000"               constant LR for 20000 steps (60k and 1.5M also read)
  "cosine 60000 final=2e-5"      cosine from the peak to final (default 0)
  "wsd 0.2 60000 decay=1-sqrt"   warmup-stable-decay: decay fraction, then total steps;
                                 decay=cosine|linear|1-sqrt|1-square|exponential|half-life
  "linear 30000"                 linear from the peak to final
  "cosine 60000 cycles=4"        4 cosines with hard restarts (Hugging Face's num_cycles)
  "cyclic 60000 stepSize=7500 final=2e-5 start=base warmup=0"
                                 PyTorch's CyclicLR (from its base; start=peak goes down first)
  "multistep 60000 stages=0.8,0.1,0.1 levels=1,0.316,0.1 drop=at"
                                 levels begin on their boundary steps (MultiStepLR's milestones;
                                 drop=after, the default, begins them the step after)
  also inverse-sqrt, polynomial, one-cycle (key=value for their fields, lists with commas).
  peak=3e-4 sets the peak LR (default: the curves' peak, from their learning rates or specs);
  warmup=500 the warmup steps (default: --warmup); size=25e6 the model size of a prediction.`;

/** COMMANDS holds each command's one-line summary and its help. */
export const COMMANDS = {
  import: {
    summary: 'list the loss curves found in log files or folders',
    help: `usage: ${CMD} import FILE|FOLDER... [--column NAME] [--runs a,b] [--json]
       ${CMD} import < request.json

Reads training logs as the page does: CSV/TSV, W&B exports, TensorBoard CSV/JSON and event
files (events.out.tfevents.*), trainer_state.json, Megatron/nanoGPT logs, MLflow metric files,
Lightning metrics.csv, gzip and zip. One file is read alone; several files or a folder are read
as a run folder (each run's loss paired with its learning rates). Prints a table of the curves:
name, format, points, first and last step, loss column, learning rates, files; then the notes.

When a file holds several loss columns or runs, it prints the question and the choices:
  --column NAME   the loss column (any column of the file may be named)
  --runs a,b      the runs to read
  --json          the raw answer, with each curve's steps, loss and lr as arrays

Without files, the request ({"name", "text"}) is read from stdin.

Example:
  ${CMD} import runs/cosine/events.out.tfevents.1700000000 metrics.csv`,
  },
  fit: {
    summary: 'fit a law to loss curves (log files or a JSON request) and predict schedules',
    help: `usage: ${CMD} fit --fit FILE... [--validate FILE...] [--schedule SPEC|FILE=SPEC]...
                     [--predict SPEC]... [options]
       ${CMD} fit [request.json] [--predict SPEC]... [options]

Fits a law to training loss curves and prints a report: the law and its parameters, the
objective and search, each curve's R², PredE, WorstE and final error, and the predicted final
loss of each --predict schedule (± its band when the fit has one).

Curves come from log files (read as \`import\` reads them), or from a fit request in JSON
(docs/api.md#fit-request; a file, or stdin).
  --fit FILE...        files or folders whose curves are fitted
  --validate FILE...   files or folders whose curves are only predicted and scored
  --schedule SPEC      the schedule of every curve without learning rates in its file
  --schedule FILE=SPEC the schedule of that file's curves (before their own learning rates)
  --size N|FILE=N      the model size N of the curves (the size law)
  --from STEP|FILE=STEP  fit from this step (0: every point); by default from the end of
                       the warmup its learning rates (or schedule) show, as in the page
  --column NAME, --runs a,b   settle a file's question (see \`import\`)
  --predict SPEC       a schedule to predict with the fitted law (repeatable)
  --law NAME           annealing (default), multi-power, lr-weighted, s2-power, size
  --auto               choose the law and its settings by held-out error; prints every
                       candidate's held-out error, standard error and in-sample error
  --lambda 0.999|fit   the decay factor, held at a value or fitted
  --warmup N           warmup steps (of learning-rate files, and of specs without warmup=);
                       by default the step at which the first learning-rate column peaks
  --convention peak|actual   count the warmup at the peak LR (the paper's) or as run
  --priors weak|none   weakly informative priors on what the curves leave open (default),
                       or the curves alone
  --search optimum|release   --fixed NAME=VALUE   --huber DELTA
  --points N           thin the lines of --json to about N steps
  --json               the raw answer (curves' fitted lines as arrays, predictions)
  --no-columns         with --json, leave the arrays out

${SPECS}

Examples:
  ${CMD} fit --fit a.tfevents --validate b.csv --predict "wsd 0.2 60000"
  ${CMD} fit --fit constant.csv cosine.csv --warmup 500 \\
      --schedule constant.csv="constant 20000 peak=2e-4" --schedule cosine.csv="cosine 20000 peak=2e-4" \\
      --predict "cosine 60000" --auto`,
  },
  validate: {
    summary: 'leave each curve out in turn and score each law on it',
    help: `usage: ${CMD} validate --fit FILE... [--laws a,b] [--level 0.9] [fit's options] [--json]
       ${CMD} validate [request.json] [--laws a,b] [--level 0.9] [--json]

Fits each law on all curves but one and predicts the one left out, for every curve; prints each
curve's held-out metrics under each law, each law's mean and its prediction band (the
half-width that holds --level of the held-out points). The request is a fit request plus
"laws" and "level"; log files are given as to \`fit\` (--validate curves are used too).

Example:
  ${CMD} validate --fit runs/ --laws annealing,multi-power`,
  },
  predict: {
    summary: 'predict loss curves of schedules from given parameters (JSON)',
    help: `usage: ${CMD} predict [request.json] [--no-columns]

Reads a predict request (docs/api.md#predict-request; a file, or stdin) and prints the answer as
JSON: each curve's total and final loss, with its steps, lr, loss, s1Term and s2Term (and lower
and upper with a band) as arrays.

Example:
  echo '{"params":{"L0":2.628,"A":0.43,"alpha":0.55,"C":0.411,"lambda":0.999},"warmupSteps":500,
        "curves":[{"name":"cosine","schedule":{"kind":"cosine","total":60000,"peak":2e-4}}],
        "points":100}' | ${CMD} predict`,
  },
  schedule: {
    summary: "a schedule's learning rate at every step (a spec or JSON)",
    help: `usage: ${CMD} schedule [request.json | SPEC] [--no-columns]

Prints {total, peak, final, warmup} and the LR of steps 0..total (steps, lr) as JSON. The
schedule is a description in JSON (a file, or stdin), or a spec.

${SPECS}

Example:
  ${CMD} schedule "wsd 0.2 10000 peak=3e-4 warmup=500" --no-columns`,
  },
  analyze: {
    summary: "run one of the paper's analyses (WSD ratio, cosine cycle, optimiser, ...)",
    help: `usage: ${CMD} analyze --analysis NAME [key=value...] [--json]
       ${CMD} analyze [request.json] [key=value...] [--json]

Runs an analysis from given parameters (docs/api.md#analyses) and prints its setup and table;
--json prints the whole answer (curves and series). Options are key=value: numbers, lists with
commas (totals=50000,100000), words (decay=linear), and fields of objects with dots
(params.alpha=0.5). Options left out take the paper's setting with its Fig. 2 parameters.
Analyses: decomposition, cosine-cycle, constant-vs-cosine, wsd-ratio, anneal-function, rewarmup,
lambda, optimize, chinchilla, compute, size-drop (the model-size law's annealing drop against N),
and paper (each of the paper's claims with the law's verdict under its Fig. 2 parameters);
"--analysis defaults" lists every option.

Example:
  ${CMD} analyze --analysis wsd-ratio totals=50000,100000 decay=linear
  ${CMD} analyze --analysis paper`,
  },
  laws: {
    summary: 'list the laws with their parameters and formulas',
    help: `usage: ${CMD} laws [--json]

Lists every law: name, title, formula, the warmup convention it counts by default, its reference
and its parameters (symbol, default, held or fitted, domain, meaning). --json prints the
schema's laws as they are.

Example:
  ${CMD} laws`,
  },
  presets: {
    summary: "the schedules of the page's presets (JSON)",
    help: `usage: ${CMD} presets

Prints the preset schedules as JSON: [{id, name, origin, schedule}].

Example:
  ${CMD} presets`,
  },
  schema: {
    summary: 'what the engine knows: laws, kinds, presets, analyses, limits (JSON)',
    help: `usage: ${CMD} schema

Prints lawcore's schema as JSON: version, methods, laws, schedule kinds, decay shapes, presets,
analyses, limits and defaults.

Example:
  ${CMD} schema`,
  },
  pairlr: {
    summary: 'which learning-rate curve belongs to which loss curve (JSON)',
    help: `usage: ${CMD} pairlr [request.json]

Reads {curves: [{name, file, run, hasLoss, hasLR, steps}]} (as \`import --json\` describes
curves; steps are sent as columns) and prints {pairs: [{loss, lr}], notes}.

Example:
  ${CMD} pairlr pair.json`,
  },
};

/** usage is the overall help: every command with its summary, the exit codes and where to read more. */
export function usage() {
  const names = Object.keys(COMMANDS);
  const w = Math.max(...names.map((n) => n.length));
  const lines = names.map((n) => `  ${n.padEnd(w)}  ${COMMANDS[n].summary}`);
  return `usage: ${CMD} <command> [arguments]

The calculator's core (lawcore.wasm) from the command line: read training logs, fit loss-curve
laws (the scaling law with learning-rate annealing, the Multi-Power Law, the paper's variants,
the model-size law) and predict other learning-rate schedules.

Commands:
${lines.join('\n')}
  help CMD  explain a command, with an example

Examples:
  ${CMD} import runs/
  ${CMD} fit --fit a.tfevents --validate b.csv --predict "wsd 0.2 60000"
  ${CMD} fit --fit runs/ --schedule "cosine 20000 peak=2e-4" --auto --predict "cosine 60000"
  ${CMD} analyze --analysis optimize total=60000

Every command shows its progress on stderr when that is a terminal (--progress: anywhere, a
line at each tenth). Exit codes: 0 done; 1 bad input (lawcore's message names the file, line or
field); 2 bad usage.
LAWCORE_WASM names another lawcore.wasm (default build/wasm/lawcore.wasm: \`make build\`).`;
}

/** commandUsage is the first line of a command's help, shown after a usage error. */
export function commandUsage(command) {
  const c = COMMANDS[command];
  return c ? `${c.help.split('\n\n')[0]}\n(${CMD} help ${command} explains more)` : usage().split('\n')[0];
}
