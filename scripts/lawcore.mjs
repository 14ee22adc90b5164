#!/usr/bin/env node
// lawcore.mjs: the calculator's core from the command line, through the same lawcore.wasm and
// bridge as the page.
//
//   node scripts/lawcore.mjs <command> [arguments]      (--help lists the commands)
//
// Every method of the bridge is a command: import, fit, validate, predict, schedule, analyze,
// pairlr and schema; and laws and presets, which print those parts of the schema. import, fit,
// validate, analyze and laws print readable reports (--json: the answer as JSON); fit and
// validate take log files directly (--fit FILE... --validate FILE...) or a JSON request; the
// others print JSON. A JSON request is read from the file argument, or from stdin when there
// is none (or it is "-").
//
// As JSON, the large arrays of an answer (its columns) are merged in as plain arrays: into each
// curve of the result for `predict` and `import`, as each curve's `line` for `fit` (steps, lr,
// loss, s1Term, s2Term: a fit request is sent with "lines": true unless it says otherwise),
// into the top object for `schedule` (steps, lr). --no-columns leaves them out.
//
// Exit codes: 0 done; 1 bad input or any failure (the message on stderr); 2 bad usage.
// LAWCORE_WASM names another lawcore.wasm (default: build/wasm/lawcore.wasm next to this
// script's repository); wasm_exec.js is taken from the same directory, else from build/wasm.

import { existsSync, readFileSync } from 'node:fs';
import { UsageError, number, parseOptions, splitFileValue } from './cli/args.mjs';
import { formatJSON, mergeColumns, progressWriter, startLawcore } from './cli/bridge.mjs';
import { COMMANDS, commandUsage, usage } from './cli/help.mjs';
import { AmbiguityError, fitCurves, importLogs } from './cli/logs.mjs';
import {
  ambiguityText,
  analysisReport,
  fitReport,
  importReport,
  lawsReport,
  notesBlock,
  validateReport,
} from './cli/report.mjs';
import { isScheduleSpec, maxOf, parseScheduleSpec, schedulePeak } from './cli/schedule-spec.mjs';

/** The options of the commands that read log files (fit and validate). */
const LOG_OPTIONS = {
  '--fit': 'files',
  '--validate': 'files',
  '--schedule': 'list',
  '--size': 'list',
  '--from': 'list',
  '--column': 'value',
  '--runs': 'value',
  '--law': 'value',
  '--lambda': 'value',
  '--warmup': 'value',
  '--convention': 'value',
  '--priors': 'value',
  '--search': 'value',
  '--fixed': 'list',
  '--huber': 'value',
  '--points': 'value',
};

/** OPTIONS are each command's options, besides --json and --no-columns, which all take. */
const OPTIONS = {
  import: { '--column': 'value', '--runs': 'value' },
  fit: { ...LOG_OPTIONS, '--predict': 'list', '--auto': 'flag' },
  validate: { ...LOG_OPTIONS, '--laws': 'value', '--level': 'value' },
  analyze: { '--analysis': 'value' },
  predict: {},
  schedule: {},
  pairlr: {},
  laws: {},
  presets: {},
  schema: {},
};

/** Context is what a command runs with: its options and arguments, and lawcore (started once, when needed). */
class Context {
  constructor(command, { opts, positional, assignments }) {
    Object.assign(this, { command, opts, positional, assignments });
    this.started = null;
  }

  /** core starts lawcore.wasm the first time it is asked for. */
  core() {
    this.started ??= startLawcore();
    return this.started;
  }

  /**
   * call runs a method of the bridge, showing its progress on stderr when that is a terminal
   * (or with --progress).
   */
  async call(method, request, columns) {
    const core = await this.core();
    if (!this.opts.progress && !process.stderr.isTTY) return core.call(method, request, columns);
    const { onProgress, done } = progressWriter(method, process.stderr);
    let answer;
    try {
      answer = await core.call(method, request, columns, onProgress);
      return answer;
    } finally {
      done(answer !== undefined);
    }
  }

  /** json prints value as JSON, with the answer's columns merged in unless --no-columns. */
  json(method, result, columns) {
    const value = this.opts['no-columns'] ? result : mergeColumns(method, result, columns);
    try {
      return `${formatJSON(value)}\n`;
    } catch (err) {
      // a string past V8's longest (about 512 MB): millions of steps in every column
      if (!(err instanceof RangeError)) throw err;
      const points = (columns || []).reduce((n, col) => n + ((col && col.steps && col.steps.length) || 0), 0);
      throw new Error(
        `the answer's columns (${points.toLocaleString('en-US')} points) are too large to print as JSON: ask for fewer with "points" in the request, or leave them out with --no-columns`,
      );
    }
  }

  /** schema is lawcore's schema (asked once). */
  async schema() {
    this.schemaResult ??= (await this.call('schema', '{}')).result;
    return this.schemaResult;
  }
}

/**
 * readInput reads the request: the file named by the only positional argument, else stdin. Returns
 * {text, bytes, name}.
 */
async function readInput(ctx, { optional = false } = {}) {
  if (ctx.positional.length > 1) throw new UsageError(`too many arguments: ${ctx.positional.slice(1).join(' ')}`);
  const file = ctx.positional[0];
  if (file !== undefined && file !== '-') {
    let bytes;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new Error(`cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    }
    return { text: bytes.toString('utf8'), bytes, name: file.replace(/^.*[\\/]/, '') };
  }
  if (process.stdin.isTTY) {
    if (optional) return { text: '', bytes: Buffer.alloc(0), name: 'stdin' };
    throw new UsageError('no request file given and stdin is a terminal');
  }
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  return { text: bytes.toString('utf8'), bytes, name: 'stdin' };
}

/** parseRequest parses a JSON request, saying so when it is not JSON. */
function parseRequest(text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`the request is not JSON: ${err.message}`);
  }
}

/** choiceOf is the import choice of --column and --runs. */
function choiceOf(opts) {
  const choice = {};
  if (opts.column !== undefined) choice.column = opts.column;
  if (opts.runs !== undefined)
    choice.runs = opts.runs
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
  return choice;
}

/** importCommand lists the curves of log files, or answers an import request from stdin. */
async function importCommand(ctx) {
  const files = ctx.positional.filter((p) => p !== '-');
  let result;
  let columns;
  if (files.length) {
    ({ result, columns } = await importLogs(await ctx.core(), files, choiceOf(ctx.opts)));
  } else {
    const input = await readInput(ctx);
    const asRequest = input.text.trimStart().startsWith('{');
    const request = asRequest ? input.text : { name: input.name, choice: choiceOf(ctx.opts) };
    ({ result, columns } = await ctx.call('import', request, asRequest ? undefined : [new Uint8Array(input.bytes)]));
  }
  if (ctx.opts.json) return ctx.json('import', result, columns);
  return importReport(result, columns, files.length ? files : [result.name]);
}

/** importGroups imports the --fit and --validate files, each group as one import; an ambiguity is an error. */
async function importGroups(ctx) {
  const groups = [];
  for (const role of ['fit', 'validate']) {
    const args = ctx.opts[role];
    if (!args) continue;
    if (args.length === 0) throw new UsageError(`--${role} needs files`);
    const imported = await importLogs(await ctx.core(), args, choiceOf(ctx.opts));
    if (imported.result.ambiguity) throw new AmbiguityError(args, imported.result);
    groups.push({ role, args, imported });
  }
  return groups;
}

/** applySettings sets the fields of a fit request that the options give. */
function applySettings(req, opts) {
  if (opts.law !== undefined) req.law = opts.law;
  if (opts.auto) req.auto = true;
  if (opts.lambda !== undefined) req.lambda = opts.lambda === 'fit' ? 'fit' : number(opts.lambda, '--lambda');
  if (opts.warmup !== undefined) req.warmupSteps = number(opts.warmup, '--warmup');
  if (opts.convention !== undefined) {
    if (!['peak', 'actual'].includes(opts.convention))
      throw new UsageError(`--convention: peak or actual, not ${JSON.stringify(opts.convention)}`);
    req.warmupConvention = opts.convention;
  }
  if (opts.priors !== undefined) {
    if (!['weak', 'none'].includes(opts.priors))
      throw new UsageError(`--priors: weak or none, not ${JSON.stringify(opts.priors)}`);
    req.priors = opts.priors;
  }
  if (opts.search !== undefined) req.search = opts.search;
  if (opts.huber !== undefined) req.huberDelta = number(opts.huber, '--huber');
  if (opts.points !== undefined) req.points = number(opts.points, '--points');
  for (const f of opts.fixed || []) {
    const kv = splitFileValue(f);
    if (!kv) throw new UsageError(`--fixed: NAME=VALUE, not ${JSON.stringify(f)}`);
    req.fixed = { ...req.fixed, [kv.file]: number(kv.value, `--fixed ${kv.file}`) };
  }
  return req;
}

/**
 * fitRequest builds the request of fit and validate: from the --fit and --validate log files,
 * or from the JSON request; then the options' settings. Returns {request, columns, notes, peak}:
 * peak is the curves' peak LR, for --predict specs that leave it out.
 */
async function fitRequest(ctx) {
  const fromLogs = ctx.opts.fit || ctx.opts.validate;
  let request;
  let columns;
  let notes = [];
  let peak;
  if (fromLogs) {
    if (ctx.positional.length)
      throw new UsageError(`give either a request or --fit/--validate files, not both (${ctx.positional.join(' ')})`);
    if (!ctx.opts.fit) throw new UsageError('--validate needs curves to fit: give --fit FILE...');
    const groups = await importGroups(ctx);
    const warmup = ctx.opts.warmup === undefined ? undefined : number(ctx.opts.warmup, '--warmup');
    const read = fitCurves(groups, {
      schedules: ctx.opts.schedule,
      sizes: ctx.opts.size,
      froms: ctx.opts.from,
      warmup,
    });
    ({ columns, notes, peak } = read);
    request = { curves: read.curves };
    // as the page does: the warmup, unless given, is the one the learning rates show
    if (warmup === undefined && read.lrWarmup) {
      request.warmupSteps = read.lrWarmup.warmup;
      notes.push(`${read.lrWarmup.note.replace(/\.$/, '')} (--warmup sets it).`);
    }
  } else {
    for (const opt of ['schedule', 'size', 'from', 'column', 'runs']) {
      if (ctx.opts[opt] !== undefined) throw new UsageError(`--${opt} applies to log files (--fit, --validate)`);
    }
    request = parseRequest((await readInput(ctx)).text);
    if (!request || typeof request !== 'object' || Array.isArray(request))
      throw new Error('the request must be a JSON object');
    const peaks = (request.curves || []).map(
      (c) => (c && (schedulePeak(c.schedule) ?? (Array.isArray(c.lr) ? maxOf(c.lr) : null))) || 0,
    );
    peak = peaks.some((p) => p > 0) ? Math.max(...peaks) : undefined;
  }
  return { request: applySettings(request, ctx.opts), columns, notes, peak };
}

/**
 * predictSchedules predicts the --predict specs with a fit's law and parameters (or its members,
 * when auto averages laws), its warmup settings and band. Returns {preds, columns}: each prediction
 * gets bandHalf, the band's half-width at the last step, when the fit has a band.
 */
async function predictSchedules(ctx, res, peak) {
  const specs = ctx.opts.predict || [];
  if (specs.length === 0) return { preds: [], columns: [] };
  const curves = specs.map((spec) => {
    const { schedule, size } = parseScheduleSpec(spec, { peak });
    if (typeof schedule.peak !== 'number' && schedule.kind !== 'explicit') {
      throw new UsageError(`--predict ${JSON.stringify(spec)}: no peak LR is known from the curves: give peak=...`);
    }
    return size === undefined ? { name: spec, schedule } : { name: spec, schedule, size };
  });
  const request = {
    law: res.law,
    params: res.params,
    warmupSteps: res.settings.warmupSteps,
    warmupConvention: res.settings.warmupConvention,
    curves,
    points: ctx.opts.json ? (ctx.opts.points ? number(ctx.opts.points, '--points') : 2000) : 2,
    ...(res.band ? { band: res.band } : {}),
    ...(res.members ? { members: res.members } : {}), // auto's average of laws
  };
  const { result, columns } = await ctx.call('predict', request);
  const preds = Array.isArray(result) ? result : result.curves;
  preds.forEach((p, i) => {
    const col = columns[i] || {};
    if (col.lower && col.upper && col.lower.length)
      p.bandHalf = (col.upper[col.upper.length - 1] - col.lower[col.lower.length - 1]) / 2;
  });
  return { preds, columns };
}

/** fitCommand fits a law to log files or a request and reports it, with the --predict schedules. */
async function fitCommand(ctx) {
  const { request, columns, notes, peak } = await fitRequest(ctx);
  if (!('lines' in request)) request.lines = !!ctx.opts.json;
  if (!('intervals' in request)) request.intervals = true; // the report gives each parameter's interval
  const { result, columns: lines } = await withNotes(notes, () => ctx.call('fit', request, columns));
  const predicted = await predictSchedules(ctx, result, peak);
  if (ctx.opts.json) {
    const out = ctx.opts['no-columns'] ? result : mergeColumns('fit', result, lines);
    if (predicted.preds.length) {
      out.predictions = ctx.opts['no-columns']
        ? predicted.preds
        : mergeColumns('predict', predicted.preds, predicted.columns);
    }
    if (notes.length) out.importNotes = notes;
    return `${formatJSON(out)}\n`;
  }
  const law = (await ctx.schema()).laws.find((l) => l.name === result.law);
  return fitReport(result, { law, predictions: predicted.preds, notes });
}

/** validateCommand scores each law on each curve left out. */
async function validateCommand(ctx) {
  if (ctx.opts.predict) throw new UsageError('--predict belongs to fit');
  const { request, columns, notes } = await fitRequest(ctx);
  if (ctx.opts.laws !== undefined)
    request.laws = ctx.opts.laws
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
  if (ctx.opts.level !== undefined) request.level = number(ctx.opts.level, '--level');
  const { result } = await withNotes(notes, () => ctx.call('validate', request, columns));
  if (ctx.opts.json) return ctx.json('validate', notes.length ? { ...result, importNotes: notes } : result);
  return validateReport(result) + (notes.length ? `\n${notesBlock(notes, 'import notes')}\n` : '');
}

/**
 * withNotes runs a fit or validation of imported logs; when lawcore refuses it, the import's
 * notes (files skipped, curves left out) follow its message, for they are often the why.
 */
async function withNotes(notes, call) {
  try {
    return await call();
  } catch (err) {
    if (notes.length && err instanceof Error) err.message += `\n${notesBlock(notes, 'import notes')}`;
    throw err;
  }
}

/** optionValue reads the value of an analysis option: a number, a list with commas, true/false, JSON, or a word. */
function optionValue(text) {
  const t = text.trim();
  if (t.startsWith('[') || t.startsWith('{') || t.startsWith('"')) return parseRequest(t);
  const one = (s) => {
    if (s === 'true' || s === 'false') return s === 'true';
    if (s === 'null') return null;
    try {
      return number(s, '');
    } catch {
      return s;
    }
  };
  return t.includes(',') ? t.split(',').map((s) => one(s.trim())) : one(t);
}

/** setOption sets key (dotted: params.alpha) in obj to value. */
function setOption(obj, key, value) {
  const path = key.split('.');
  let at = obj;
  for (const k of path.slice(0, -1)) {
    if (!at[k] || typeof at[k] !== 'object') at[k] = {};
    at = at[k];
  }
  at[path[path.length - 1]] = value;
}

/** analyzeCommand runs an analysis from --analysis and key=value options, or a request. */
async function analyzeCommand(ctx) {
  let request = {};
  if (ctx.positional.length || (!ctx.opts.analysis && !process.stdin.isTTY)) {
    const input = await readInput(ctx, { optional: true });
    if (input.text.trim()) request = parseRequest(input.text);
  }
  if (ctx.opts.analysis !== undefined) request.analysis = ctx.opts.analysis;
  if (!request.analysis) throw new UsageError('no analysis named: give --analysis NAME (or a request with "analysis")');
  if (ctx.assignments.length) {
    const { result } = await ctx.call('analyze', { analysis: 'defaults' });
    const defaults = (result.defaults && result.defaults[request.analysis]) || {};
    for (const [key, text] of ctx.assignments) {
      let value = optionValue(text);
      if (Array.isArray(defaults[key]) && !Array.isArray(value)) value = [value];
      setOption(request, key, value);
    }
  }
  const { result } = await ctx.call('analyze', request);
  if (ctx.opts.json || request.analysis === 'defaults') return ctx.json('analyze', result);
  return analysisReport(request.analysis, result);
}

/** scheduleCommand prints a schedule's summary and its LR at every step, from a spec or a description. */
async function scheduleCommand(ctx) {
  const words = ctx.positional.join(' ');
  let request;
  if (ctx.positional.length && !existsSync(ctx.positional[0]) && isScheduleSpec(words)) {
    request = parseScheduleSpec(words).schedule;
  } else {
    request = (await readInput(ctx)).text;
  }
  const { result, columns } = await ctx.call('schedule', request);
  return ctx.json('schedule', result, columns);
}

/** predictCommand answers a predict request. */
async function predictCommand(ctx) {
  const { result, columns } = await ctx.call('predict', (await readInput(ctx)).text);
  return ctx.json('predict', result, columns);
}

/** pairlrCommand answers a pairlr request, sending each curve's steps (and an LR curve's lr) as columns. */
async function pairlrCommand(ctx) {
  const req = parseRequest((await readInput(ctx)).text);
  const curves = req && Array.isArray(req.curves) ? req.curves : [];
  const columns = curves.map((c) => {
    const col = {};
    for (const key of ['steps', 'lr']) {
      const values = c && c[key];
      if (c && key in c) delete c[key];
      if (Array.isArray(values)) col[key] = Float64Array.from(values);
    }
    return col;
  });
  const { result } = await ctx.call('pairlr', req, columns);
  return ctx.json('pairlr', result);
}

/** HANDLERS run each command and return what it prints. */
const HANDLERS = {
  import: importCommand,
  fit: fitCommand,
  validate: validateCommand,
  analyze: analyzeCommand,
  schedule: scheduleCommand,
  predict: predictCommand,
  pairlr: pairlrCommand,
  laws: async (ctx) => {
    const { laws } = await ctx.schema();
    return ctx.opts.json ? ctx.json('schema', laws) : lawsReport(laws);
  },
  presets: async (ctx) => ctx.json('schema', (await ctx.schema()).presets),
  schema: async (ctx) => ctx.json('schema', await ctx.schema()),
};

/** exit flushes stdout and stderr, then ends the process (the Go program never returns by itself). */
function exit(code) {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

/** fail prints a message to stderr and exits with code. */
function fail(code, message) {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  exit(code);
}

/** parseCommandLine returns {command, parsed} or {help: text} from the arguments. */
function parseCommandLine(argv) {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('no command given');
  if (command === '-h' || command === '--help') return { help: usage() };
  if (command === 'help') {
    if (rest.length === 0) return { help: usage() };
    if (!COMMANDS[rest[0]]) throw new UsageError(`unknown command ${JSON.stringify(rest[0])}`);
    return { help: COMMANDS[rest[0]].help };
  }
  if (!COMMANDS[command]) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  if (rest.includes('-h') || rest.includes('--help')) return { help: COMMANDS[command].help };
  const spec = { ...OPTIONS[command], '--json': 'flag', '--no-columns': 'flag', '--progress': 'flag' };
  return { command, parsed: parseOptions(rest, spec, { assignments: command === 'analyze' }) };
}

async function main() {
  const argv = process.argv.slice(2);
  let line;
  try {
    line = parseCommandLine(argv);
  } catch (err) {
    const command = COMMANDS[argv[0]] ? argv[0] : undefined;
    return fail(2, `lawcore: ${err.message}\n${command ? commandUsage(command) : usage()}`);
  }
  if (line.help) {
    process.stdout.write(`${line.help}\n`);
    return exit(0);
  }
  const ctx = new Context(line.command, line.parsed);
  try {
    process.stdout.write(await HANDLERS[line.command](ctx));
    exit(0);
  } catch (err) {
    if (err instanceof UsageError)
      return fail(2, `lawcore ${line.command}: ${err.message}\n${commandUsage(line.command)}`);
    if (err instanceof AmbiguityError)
      return fail(1, `lawcore ${line.command}: ${err.args.join(', ')}: ${ambiguityText(err.result.ambiguity)}`);
    fail(1, `lawcore ${line.command}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

main();
