// The fit settings and the parameters entered by hand: their defaults, which laws a setting
// asks for, and the checks of what was typed (pure: the forms hand in their raw text), each
// throwing an Error that names the field.
import { LAW_NAMES, LAWS, MAX_SCHEDULE_STEPS } from '../engine/schema.js';
import { parseDecimal, steps } from '../common/format.js';

/**
 * DEFAULT_SETTINGS are a user's own curves': auto (the law and its settings picked by held-out
 * error), and when auto is unticked the paper's lambda 0.999, 500 warmup steps counted at the
 * peak LR; weakly informative priors on the parameters one run cannot determine (lawcore's
 * Param.prior, shown in the law panel). The examples keep their papers' settings, auto off
 * (examples.js).
 */
export const DEFAULT_SETTINGS = {
  lambda: 0.999,
  fitLambda: false,
  warmupSteps: 500,
  warmupConvention: 'peak',
  huberDelta: 0.001,
  law: 'annealing',
  auto: true,
  mplSearch: 'optimum',
  priors: 'weak',
};

/** lawChoices are the values of the law setting: one law, or the annealing law and the Multi-Power Law side by side. */
export const lawChoices = () => [...LAW_NAMES, 'both'];

/** lawsOf is the list of laws the settings fit. */
export function lawsOf(settings) {
  return settings.law === 'both' ? ['annealing', 'multi-power'] : [settings.law || 'annealing'];
}

/**
 * parseSettings checks the settings form. fields: {lambda, warmupSteps, huberDelta} as
 * {value, badInput} (the text typed, and whether the browser found it no number), the others as
 * read. With lambda fitted, the lambda typed is not read and previousLambda is kept.
 */
export function parseSettings(fields, previousLambda) {
  const num = (field, label, ok) => {
    const { value, badInput } = fields[field];
    const x = parseDecimal(value);
    // A number input holds '' when what was typed is not a number.
    if (Number.isNaN(x))
      throw new Error(
        `${label}: ${value.trim() || badInput ? `"${value}" is` : 'the field is empty, or holds'} not a number.`,
      );
    if (!ok(x)) throw new Error(`${label}: ${x} is out of range.`);
    return x;
  };
  return {
    lambda: fields.fitLambda ? previousLambda : num('lambda', 'λ (between 0 and 1)', (x) => x > 0 && x < 1),
    fitLambda: fields.fitLambda,
    warmupSteps: num(
      'warmupSteps',
      `Warmup steps (a whole number from 0 to ${steps(MAX_SCHEDULE_STEPS)})`,
      (x) => x >= 0 && x <= MAX_SCHEDULE_STEPS && Number.isInteger(x),
    ),
    warmupConvention: fields.warmupConvention,
    huberDelta: num('huberDelta', 'Huber δ (> 0)', (x) => x > 0),
    law: fields.law,
    auto: fields.auto,
    mplSearch: fields.mplSearch,
    priors: fields.priors,
  };
}

/**
 * parseManualParams checks a law's parameters typed by hand (the annealing law's by default):
 * {name: text} -> {name: number}.
 */
export function parseManualParams(texts, law = 'annealing') {
  const params = {};
  for (const k of LAWS[law].params) {
    const raw = String(texts[k] ?? '').trim();
    const x = parseDecimal(raw);
    if (Number.isNaN(x)) throw new Error(`Parameter ${k}: "${raw}" is not a number.`);
    if (k === 'lambda' ? !(x > 0 && x < 1) : x < 0)
      throw new Error(`Parameter ${k}: ${x} is out of range (${k === 'lambda' ? 'between 0 and 1' : 'zero or more'}).`);
    params[k] = x;
  }
  return params;
}

/** sameSettings says whether two settings objects hold the same values. */
export function sameSettings(a, b) {
  return Object.keys({ ...a, ...b }).every((k) => a[k] === b[k]);
}

/** CONVENTION_WORDS name the warmup conventions as the settings form does. */
const CONVENTION_WORDS = { peak: 'at peak LR', actual: 'as run' };

/** lambdaWords says a decay factor as a candidate of auto's has it: 0.999 (fixed), or fitted (its value). */
function lambdaWords(lambda, fitted) {
  if (lambda === 'fit') return Number.isFinite(fitted) ? `fitted: ${Number(fitted.toPrecision(6))}` : 'fitted';
  return Number.isFinite(lambda) ? `${lambda} (fixed)` : '';
}

/** listed joins distinct words: "a", "a and b", "a, b and c". */
function listed(words) {
  const u = [...new Set(words.filter(Boolean))];
  return u.length <= 1 ? u[0] || '' : `${u.slice(0, -1).join(', ')} and ${u[u.length - 1]}`;
}

/**
 * autoChose says what an auto fit chose for the settings it picks, as the settings form shows
 * them in place of the fields auto does not read: {law, lambda, convention, search} (texts; ''
 * where the choice holds none, as λ for a law without one); null for a fit auto did not make.
 * An average of laws names its members' choices together.
 */
export function autoChose(fit) {
  const r = fit && fit.response;
  if (!r || !r.auto) return null;
  const label = (law) => (LAWS[law] ? LAWS[law].label : law);
  const members = r.members && r.members.length > 1 ? r.members : null;
  const picks = members || [{ ...r.auto.chosen, params: r.params }];
  const lambda = listed(picks.map((m) => lambdaWords(m.lambda, m.params && m.params.lambda)));
  const convention = listed(picks.map((m) => CONVENTION_WORDS[m.warmupConvention] || m.warmupConvention));
  const mpl = picks.filter((m) => m.law === 'multi-power');
  const search = listed(mpl.map((m) => (m.search === 'release' ? 'release procedure' : 'objective minimum')));
  return {
    law: members
      ? `an average of ${members.length} laws, led by the ${label(members[0].law)}`
      : `the ${label(r.auto.chosen.law)}`,
    lambda:
      members && picks.some((m) => m.lambda === undefined) && lambda ? `${lambda} (the laws that have one)` : lambda,
    convention:
      members && new Set(picks.map((m) => m.warmupConvention)).size > 1
        ? `${convention} (each law its own)`
        : convention,
    search: search || (mpl.length ? 'objective minimum' : ''),
  };
}
