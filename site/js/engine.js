// The engine client: every call to lawcore (through the worker protocol of lawclient.js) is
// made here, and every request is built here, from the page's curves, settings and parameters.
// The bridge's request format is known to this module alone (laws named by `model`, the
// annealing law's parameters as `params` and the Multi-Power Law's as `multiPower`, schedules'
// points as columns), so that a change of that format is an edit of this file. Answers come
// back in the page's shapes: a line is {steps, lr, loss, s1Term, s2Term}.
import { scheduleForRequest, scheduleColumns } from './schedule-columns.js';

/** FIT_LINE_POINTS thins each fitted line the fit returns to about this many steps (they are drawn). */
const FIT_LINE_POINTS = 2000;

/** curveColumns are a curve's arrays that cross as columns: its data and its schedule's points. */
const curveColumns = (c) => ({ steps: c.steps, loss: c.loss, ...scheduleColumns(c.schedule) });

/** curveRequest is how a curve with data appears in a fit request (its arrays go as columns). */
const curveRequest = (c) => ({ name: c.name, role: c.role, schedule: scheduleForRequest(c.schedule) });

/** withLaw adds what names law to a fit or predict request (the annealing law is the default). */
function withLaw(request, law, params) {
  if (law === 'annealing') return params ? { ...request, params } : request;
  if (law === 'multi-power') return { ...request, model: law, ...(params ? { multiPower: params } : {}) };
  throw new Error(`unknown law "${law}"`);
}

/** curvesOf takes the per-curve results of `predict`: an array (README) or {curves} (bridge). */
const curvesOf = (result) => (Array.isArray(result) ? result : (result && result.curves) || []);

/**
 * createEngine wraps a LawClient. Its methods resolve to the page's shapes and reject with the
 * bridge's Error; on(event, fn) forwards the client's events ("ready", "restart", "memory",
 * "failed") with their detail.
 */
export function createEngine(client) {
  const call = (method, request, columns, onProgress) => client.call(method, request, columns, onProgress);
  return {
    ready: client.ready,
    get version() {
      return client.version;
    },
    on(event, fn) {
      client.addEventListener(event, (e) => fn(e.detail));
    },
    /** cancel stops the running fit or validation (its promise rejects with "cancelled"). */
    cancel() {
      client.cancel();
    },

    /**
     * fit fits law to curves (every one with a schedule) with settings. It resolves to
     * {response, lines: Map name -> line}, the lines fitted (or, held out, predicted).
     */
    async fit(law, curves, settings, onProgress) {
      const request = {
        curves: curves.map(curveRequest),
        lambda: settings.fitLambda && law === 'annealing' ? 'fit' : settings.lambda,
        warmupSteps: settings.warmupSteps,
        warmupConvention: settings.warmupConvention,
        huberDelta: settings.huberDelta,
        points: FIT_LINE_POINTS,
        ...(law === 'annealing' && settings.auto ? { auto: true } : {}),
        ...(law === 'multi-power' ? { search: settings.mplSearch } : {}),
      };
      const { result, columns } = await call('fit', withLaw(request, law), curves.map(curveColumns), onProgress);
      const lines = new Map(result.curves.map((c, i) => {
        const col = columns[i] || {};
        return [c.name, { steps: col.steps, lr: col.lr, loss: col.fitted, s1Term: col.s1Term, s2Term: col.s2Term }];
      }));
      return { response: result, lines };
    },

    /**
     * validate leaves each curve out in turn, fits each of laws on the others and predicts it:
     * {rows: [{curve, law, metrics}], summaries: [{law, mean, bandLevel, bandHalfWidth}], elapsedMs}.
     */
    async validate(laws, curves, settings, level, onProgress) {
      const request = {
        curves: curves.map((c) => ({ ...curveRequest(c), role: 'fit' })),
        lambda: settings.fitLambda ? 'fit' : settings.lambda,
        warmupSteps: settings.warmupSteps,
        warmupConvention: settings.warmupConvention,
        huberDelta: settings.huberDelta,
        ...(settings.auto && laws.includes('annealing') ? { auto: true } : {}),
        models: laws,
        level,
      };
      const { result } = await call('validate', request, curves.map(curveColumns), onProgress);
      const named = ({ model, ...rest }) => ({ law: model, ...rest });
      return { ...result, rows: result.rows.map(named), summaries: result.summaries.map(named) };
    },

    /**
     * predict computes law's line for each item ({name, schedule}) with {params, settings}, thinned
     * to about points steps (0: every step). It resolves to Map name -> {schedule, ...line, finalLoss}.
     */
    async predict(law, { params, settings }, items, points = 0) {
      const request = withLaw({
        warmupSteps: settings.warmupSteps,
        warmupConvention: settings.warmupConvention,
        curves: items.map((c) => ({ name: c.name, schedule: scheduleForRequest(c.schedule) })),
        ...(points ? { points } : {}),
      }, law, params);
      const { result, columns } = await call('predict', request, items.map((c) => scheduleColumns(c.schedule)));
      return new Map(curvesOf(result).map((r, i) => [r.name, { schedule: items[i].schedule, ...columns[i], finalLoss: r.finalLoss }]));
    },

    /**
     * importFile reads one file with lawcore's `import`: content is its text (a paste) or its bytes
     * (a file, sent as they are). It resolves to {result, columns} as the bridge answers.
     */
    importFile(name, content, choice = {}) {
      const bytes = content instanceof Uint8Array;
      return call('import', { name, choice, ...(bytes ? {} : { text: content }) }, bytes ? [content] : undefined);
    },

    /**
     * pairLearningRates asks which learning-rate curve belongs to which loss curve: curves are
     * {name, file, run, steps, isLoss}; it resolves to {pairs: [{loss, lr}] (indices), notes}.
     */
    async pairLearningRates(curves) {
      const request = { curves: curves.map((c) => ({ name: c.name, file: c.file || '', run: c.run || '', hasLoss: c.isLoss, hasLR: !c.isLoss })) };
      return (await call('pairlr', request, curves.map((c) => ({ steps: c.steps })))).result;
    },

    /** schedule expands a schedule description: {result: {total, peak, final, warmup}, steps, lr}. */
    async schedule(description) {
      const { result, columns } = await call('schedule', description);
      return { result, steps: columns[0] && columns[0].steps, lr: columns[0] && columns[0].lr };
    },

    /** presets are lawcore's named schedules: [{id, name, origin, schedule}]. */
    async presets() {
      const { result } = await call('presets', {});
      // README: an array of presets; the bridge wraps it as {presets, kinds, ...}: take either.
      return (Array.isArray(result) ? result : result && result.presets) || [];
    },

    /**
     * analyze runs one of the paper's analyses with options; setup ({params, peak, warmup,
     * warmupConvention}) is left out for analyses that take none (null).
     */
    async analyze(analysis, options, setup, points = 400) {
      const request = { analysis, ...options };
      if (setup) Object.assign(request, { params: setup.params, peak: setup.peak, warmup: setup.warmup, warmupConvention: setup.warmupConvention, points });
      return (await call('analyze', request)).result;
    },

    /** analysisDefaults are every analysis's options as lawcore defaults them: {name: options}. */
    async analysisDefaults() {
      return (await call('analyze', { analysis: 'defaults' })).result.defaults;
    },

    /**
     * sizefit fits the model-size law to curves tagged with their size; it resolves to
     * {response, lines: Map name -> {steps, loss}} (each curve's fitted line at its own size).
     */
    async sizefit(curves, { lambda, warmupSteps, warmupConvention, huberDelta, points }) {
      const request = {
        curves: curves.map((c) => ({ ...curveRequest(c), size: c.size })),
        lambda, warmupSteps, warmupConvention, huberDelta, points,
      };
      const { result, columns } = await call('sizefit', request, curves.map(curveColumns));
      return { response: result, lines: new Map(result.curves.map((c, i) => [c.name, { steps: columns[i].steps, loss: columns[i].fitted }])) };
    },
  };
}
