// The engine client: every call to lawcore (through the worker protocol of lawclient.js) is
// made here, and every request is built here, from the page's curves, settings and parameters.
// The bridge's request format is known to this module alone (laws by name as `law`, their
// parameters by name as `params`, schedules' points as columns), so that a change of that
// format is an edit of this file. Answers come back in the page's shapes: a line is
// {steps, lr, loss, s1Term, s2Term}.
import { scheduleForRequest, scheduleColumns } from './schedule-columns.js';
import { windowOf } from '../schedules/curve-facts.js';

/** FIT_LINE_POINTS thins each fitted line the fit returns to about this many steps (they are drawn). */
const FIT_LINE_POINTS = 2000;

/** curveColumns are a curve's arrays that cross as columns: its data and its schedule's points. */
const curveColumns = (c) => ({ steps: c.steps, loss: c.loss, ...scheduleColumns(c.schedule) });

/**
 * curveRequest is how a curve with data appears in a fit request (its arrays go as columns),
 * its window from the end of the warmup that warmupSteps (the setting) gives it.
 */
const curveRequest = (c, warmupSteps) => {
  const { from } = windowOf(c, warmupSteps);
  return { name: c.name, role: c.role, schedule: scheduleForRequest(c.schedule), ...(from > 0 ? { from } : {}) };
};

/** plain is a typed array (or array) as a JSON array. */
const plain = (a) => (a ? Array.from(a) : a);

/**
 * refitRequest is the fit an analysis refits (the λ analysis, for each λ) as JSON: its curves
 * with their points and schedules inline (analyze takes no columns), and the fit's settings.
 */
function refitRequest({ curves, settings }) {
  return {
    curves: curves.map((c) => {
      const s = c.schedule;
      const schedule = s && (s.lr || s.steps) ? { ...s, lr: plain(s.lr), steps: plain(s.steps) } : s;
      return {
        ...curveRequest(c, settings.warmupSteps),
        role: 'fit',
        steps: plain(c.steps),
        loss: plain(c.loss),
        schedule,
      };
    }),
    warmupSteps: settings.warmupSteps,
    ...(settings.warmupConvention ? { warmupConvention: settings.warmupConvention } : {}),
    huberDelta: settings.huberDelta,
    priors: settings.priors || 'weak',
  };
}

/** lineOf is a line of the answer's columns in the page's shape. */
const lineOf = (col = {}) => ({ steps: col.steps, lr: col.lr, loss: col.loss, s1Term: col.s1Term, s2Term: col.s2Term });

/**
 * createEngine wraps a LawClient. Its methods resolve to the page's shapes and reject with the
 * bridge's Error; on(event, fn) forwards the client's events ("ready", "restart", "memory", "loading",
 * "failed") with their detail. ready resolves to lawcore's version once it is loaded. The page
 * knows lawcore's schema from the build (wasm/schema.json, main.js), not from a call here.
 */
export function createEngine(client) {
  const call = (method, request, columns, onProgress) => client.call(method, request, columns, onProgress);
  const ready = client.ready;
  ready.catch(() => {});
  return {
    ready,
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
     * {response, lines: Map name -> line}, the lines fitted (or, held out, predicted). With
     * settings.auto the engine picks the law and its settings by held-out error: the
     * response's law says which.
     */
    async fit(law, curves, settings, onProgress) {
      const request = {
        law,
        curves: curves.map((c) => curveRequest(c, settings.warmupSteps)),
        lambda: settings.fitLambda && law === 'annealing' ? 'fit' : settings.lambda,
        warmupSteps: settings.warmupSteps,
        ...(settings.auto ? {} : { warmupConvention: settings.warmupConvention }),
        huberDelta: settings.huberDelta,
        priors: settings.priors || 'weak',
        lines: true,
        points: FIT_LINE_POINTS,
        // each parameter's 90% interval, and the jackknife's refitted parameters behind it
        // (response.replicates), from which the analyses say which choices the fit cannot tell apart
        intervals: true,
        ...(settings.auto ? { auto: true } : {}),
        ...(law === 'multi-power' && settings.mplSearch !== 'optimum' ? { search: settings.mplSearch } : {}),
      };
      const { result, columns } = await call('fit', request, curves.map(curveColumns), onProgress);
      const lines = new Map(result.curves.map((c, i) => [c.name, lineOf(columns[i])]));
      return { response: result, lines };
    },

    /**
     * validate leaves each curve out in turn, fits each of laws on the others and predicts it:
     * {rows: [{curve, law, metrics}], summaries: [{law, mean, bandLevel, bandHalfWidth}], elapsedMs}.
     */
    async validate(laws, curves, settings, level, onProgress) {
      const request = {
        curves: curves.map((c) => ({ ...curveRequest(c, settings.warmupSteps), role: 'fit' })),
        lambda: settings.fitLambda ? 'fit' : settings.lambda,
        warmupSteps: settings.warmupSteps,
        warmupConvention: settings.warmupConvention,
        huberDelta: settings.huberDelta,
        priors: settings.priors || 'weak',
        laws,
        level,
      };
      return (await call('validate', request, curves.map(curveColumns), onProgress)).result;
    },

    /**
     * predict computes law's line for each item ({name, schedule, size?: the model size, for
     * the size law}) with {params, settings}, or with the weighted average of members (an auto
     * fit's, each {law, warmupConvention, params, weight}) when given, thinned
     * to about points steps (0: every step), and with band (lawcore's, from a fit or a
     * validation) the band's lower and upper at each step. It resolves to Map name ->
     * {schedule, ...line, lower?, upper?, finalLoss, warning?} (warning: lawcore's, when the loss
     * falls to 0 or below).
     */
    async predict(law, { params, settings, members }, items, points = 0, band = null) {
      const request = {
        law,
        params,
        ...(members ? { members } : {}),
        warmupSteps: settings.warmupSteps,
        warmupConvention: settings.warmupConvention,
        curves: items.map((c) => ({
          name: c.name,
          schedule: scheduleForRequest(c.schedule),
          ...(c.size ? { size: c.size } : {}),
        })),
        ...(points ? { points } : {}),
        ...(band ? { band } : {}),
      };
      const { result, columns } = await call(
        'predict',
        request,
        items.map((c) => scheduleColumns(c.schedule)),
      );
      return new Map(
        result.curves.map((r, i) => [
          r.name,
          {
            schedule: items[i].schedule,
            ...columns[i],
            finalLoss: r.finalLoss,
            ...(r.warning ? { warning: r.warning } : {}),
          },
        ]),
      );
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
     * importFolder reads a run folder with lawcore's `import`: paths are the files' paths
     * relative to the folder (its directories say which run a file belongs to), bytes their
     * contents (Uint8Array, one per path, sent as they are). It resolves to {result, columns}
     * as the bridge answers.
     */
    importFolder(paths, bytes, choice = {}) {
      return call('import', { paths, choice }, bytes);
    },

    /**
     * agreeColumns settles the loss column of the files of one upload: files are [{name, chosen,
     * candidates}] (each file's loss candidates as its own import answered them); it resolves to
     * lawcore's importer.Agreement, {column, reason, ask, message, columns, files (each file's
     * column), notes}.
     */
    async agreeColumns(files) {
      return (await call('agree', { files })).result;
    },

    /**
     * pairLearningRates asks which learning-rate curve belongs to which loss curve: curves are
     * {name, file, run, steps, lr?, isLoss}; it resolves to {pairs: [{loss, lr, keep?, reach?}]
     * (indices; keep: the loss points kept, [from, to); reach: learning rates [{step, lr}] to add,
     * continuing the file's to a loss one logging interval outside them), notes}.
     */
    async pairLearningRates(curves) {
      const request = {
        curves: curves.map((c) => ({
          name: c.name,
          file: c.file || '',
          run: c.run || '',
          hasLoss: c.isLoss,
          hasLR: !c.isLoss,
        })),
      };
      return (
        await call(
          'pairlr',
          request,
          curves.map((c) => (c.isLoss || !c.lr ? { steps: c.steps } : { steps: c.steps, lr: c.lr })),
        )
      ).result;
    },

    /** schedule expands a schedule description: {result: {total, peak, final, warmup}, steps, lr}. */
    async schedule(description) {
      const { result, columns } = await call('schedule', description);
      return { result, steps: columns[0] && columns[0].steps, lr: columns[0] && columns[0].lr };
    },

    /**
     * analyze runs one of the paper's analyses with options; setup ({law, params, peak, warmup,
     * warmupConvention, replicates?, members?, band?, fit?}: an auto fit's average and the band
     * its predictions carry; fit: {curves, settings}, the curves the λ analysis refits) is left
     * out for analyses that take none (null). An option set in
     * options (a peak LR typed in the form) wins over the setup's. With replicates (a fit's
     * jackknife parameter sets), the analyses that compare choices give each its ± and a verdict.
     * onProgress(fraction) hears how much of the analysis is done.
     */
    async analyze(analysis, options, setup, points = 400, onProgress = undefined) {
      const request = { analysis };
      if (setup)
        Object.assign(request, {
          law: setup.law,
          params: setup.params,
          peak: setup.peak,
          warmup: setup.warmup,
          warmupConvention: setup.warmupConvention,
          points,
        });
      if (setup && setup.replicates) request.replicates = setup.replicates;
      if (setup && setup.members) request.members = setup.members;
      if (setup && setup.band) request.band = setup.band;
      if (setup && setup.fit) request.fit = refitRequest(setup.fit);
      Object.assign(request, options);
      return (await call('analyze', request, undefined, onProgress)).result;
    },

    /** analysisDefaults are every analysis's options as lawcore defaults them: {name: options}. */
    async analysisDefaults() {
      return (await call('analyze', { analysis: 'defaults' })).result.defaults;
    },

    /**
     * sizefit fits the model-size law to curves tagged with their size; it resolves to
     * {response, lines: Map name -> {steps, loss}} (each curve's fitted line at its own size).
     * onProgress(fraction) hears how much of the fit is done.
     */
    async sizefit(curves, { lambda, warmupSteps, warmupConvention, huberDelta, points }, onProgress = undefined) {
      const request = {
        law: 'size',
        curves: curves.map((c) => ({ ...curveRequest(c, warmupSteps), size: c.size })),
        lambda,
        warmupSteps,
        warmupConvention,
        huberDelta,
        lines: true,
        points,
      };
      const { result, columns } = await call('fit', request, curves.map(curveColumns), onProgress);
      return { response: result, lines: new Map(result.curves.map((c, i) => [c.name, lineOf(columns[i])])) };
    },
  };
}
