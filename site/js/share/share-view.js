// The page's view as a share link holds it (docs/api.md#share-links), both ways: shareView writes
// the link's JSON from the page state, linkView turns a checked link into what the page loads.
// The link format names the annealing law's parameters `params` and the Multi-Power Law's
// `multiPower`. Pure: no DOM.
import { SHARE_VERSION } from './share.js';
import { DEFAULT_SETTINGS } from '../state/settings.js';
import { paramsOf } from '../state/selectors.js';
import { thinSchedule } from '../schedules/thin-schedule.js';
import { viewById } from '../analysis/analysis-views.js';

/** LINK_KEYS maps each law to the link's field of its parameters. */
const LINK_KEYS = { annealing: 'params', 'multi-power': 'multiPower' };

/**
 * shareView is the page's view as a share link's JSON: with the curves' data, or (withData false)
 * their schedules only.
 */
export function shareView(state, withData) {
  const chart = chartCounted(state.chart);
  const finite = (params) => Object.fromEntries(Object.entries(params).filter(([, x]) => Number.isFinite(x)));
  const annealing = paramsOf(state, 'annealing');
  const multiPower = paramsOf(state, 'multi-power');
  return {
    v: SHARE_VERSION,
    settings: {
      ...DEFAULT_SETTINGS,
      ...state.settings,
      law: state.settings.law || 'annealing',
      auto: !!state.settings.auto,
    },
    [LINK_KEYS.annealing]: annealing ? finite(annealing.params) : null,
    ...(multiPower ? { [LINK_KEYS['multi-power']]: finite(multiPower.params) } : {}),
    // a fit of a law whose parameters a link does not carry (the LR-weighted law, S2^ζ, an
    // average) is still a fit: the page opening the link fits its data again
    source:
      annealing || multiPower ? (state.manual ? 'manual' : 'fit') : Object.keys(state.fits || {}).length ? 'fit' : null,
    curves: state.curves.map((c) => ({
      name: c.name,
      // the name the user gave it, shown instead (the full name stays the curve's)
      ...(c.label ? { label: c.label } : {}),
      role: c.role,
      schedule: withData ? c.schedule || null : thinSchedule(c.schedule),
      ...(withData ? { steps: Array.from(c.steps), loss: Array.from(c.loss) } : {}),
      // the fit window the user set (a default window is the receiving page's own default)
      ...(withData && Number.isFinite(c.from) ? { from: c.from } : {}),
      // a list of LRs typed in the builder is no file's LR column (the page opening the link
      // takes an explicit schedule for one otherwise, and calls it "LR from the file")
      ...(withData && c.schedule && c.schedule.kind === 'explicit' && c.scheduleSource !== 'file'
        ? { scheduleSource: 'builder' }
        : {}),
    })),
    predictions: state.predictions.map((p) => ({ name: p.name, schedule: p.schedule })),
    // how the charts count x, when not in steps (a link opened in steps keeps the page's own)
    ...(chart ? { chart } : {}),
    // the Analyses panel when it is open: its view, with the options set for it
    ...(state.analysis && state.analysis.open ? { analysis: sharedAnalysis(state.analysis) } : {}),
  };
}

/** sharedAnalysis is the open Analyses panel as a link holds it: its view, the options set for it, the unseen N. */
function sharedAnalysis(a) {
  const v = viewById(a.view);
  const options = v.analysis && a.options ? a.options[v.analysis] : undefined;
  return { view: v.id, ...(options ? { options } : {}), ...(v.sizefit ? { sizeTarget: a.sizeTarget } : {}) };
}

/**
 * chartCounted is how the chart counts x ({xUnit, tokensPerStep, modelSize}), or null for steps
 * with nothing entered.
 */
function chartCounted(chart) {
  const c = { xUnit: chart.xUnit, tokensPerStep: chart.tokensPerStep ?? null, modelSize: chart.modelSize ?? null };
  return c.xUnit === 'steps' && c.tokensPerStep === null && c.modelSize === null ? null : c;
}

/**
 * linkView is what the page opens from a checked link: {settings, curves (with data),
 * predictions (a curve without data comes back as a schedule to predict), notes (what was
 * left out), refit (the link's parameters came from a fit of its data: fit again), manual (the
 * parameters to use otherwise: {params: {law: params}, settings, from}, or null)}.
 */
export function linkView(link) {
  const curves = [];
  const predictions = [];
  const notes = [];
  for (const c of link.curves) {
    if (c.steps) {
      curves.push({
        name: c.name,
        ...(c.label ? { label: c.label } : {}),
        role: c.role,
        steps: c.steps,
        loss: c.loss,
        schedule: c.schedule,
        ...(c.from !== undefined ? { from: c.from } : {}),
        scheduleSource: c.scheduleSource || (c.schedule && c.schedule.kind === 'explicit' ? 'file' : 'builder'),
        source: 'shared link',
      });
    } else if (c.schedule) {
      predictions.push({ name: c.name, schedule: c.schedule });
      notes.push(`${c.name}: the link holds no data for this curve; its schedule is predicted.`);
    } else {
      notes.push(`${c.name}: the link holds neither data nor a schedule for this curve; it is left out.`);
    }
  }
  predictions.push(...link.predictions.map((p) => ({ name: p.name, schedule: p.schedule })));
  const canFit = curves.some((c) => c.role === 'fit') && curves.every((c) => c.schedule);
  const params = {};
  for (const [law, key] of Object.entries(LINK_KEYS)) if (link[key]) params[law] = link[key];
  if (params.annealing) {
    const p = params.annealing;
    params.annealing = { L0: p.L0, A: p.A, alpha: p.alpha, C: p.C, lambda: p.lambda };
  }
  const refit = link.source === 'fit' && canFit;
  if (link.source === 'fit' && !canFit && !Object.keys(params).length) {
    notes.push(
      'The link was made from a fit its data would give again, but it holds no curve with data and a schedule to fit: add the curves, then press Fit.',
    );
  }
  const manual =
    !refit && Object.keys(params).length
      ? { params, settings: { ...link.settings }, from: link.source === 'fit' ? 'link' : 'hand' }
      : null;
  return {
    settings: link.settings,
    curves,
    predictions,
    notes,
    refit,
    manual,
    chart: link.chart || null,
    analysis: linkedAnalysis(link.analysis),
  };
}

/** linkedAnalysis is a link's Analyses panel as the store's choices (the panel open on its view), or null. */
function linkedAnalysis(a) {
  if (!a) return null;
  const v = viewById(a.view);
  return {
    open: true,
    view: v.id,
    options: a.options && v.analysis ? { [v.analysis]: a.options } : {},
    ...(a.sizeTarget !== undefined ? { sizeTarget: a.sizeTarget } : {}),
  };
}
