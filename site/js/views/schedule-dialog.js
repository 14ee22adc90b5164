// The schedule builder: a dialog that edits a schedule description field by field (or as JSON),
// offers lawcore's presets, previews the LR curve lawcore expands, and takes the learning rates
// of a file. What needs lawcore goes through the service it is given (controllers/schedules.js).
import { $, h } from './dom.js';
import { kinds, fieldsOf, fitPreset, takesWarmupSetting } from '../schedules/schedule-kinds.js';
import { scheduleProblems } from '../schedules/curve-facts.js';
import * as fmt from '../common/format.js';
import { createChart } from '../charts/chart-factory.js';
import { askImport } from './import-dialog.js';
import { SWEEPS, sweepValues, sweepSchedules, sweepName } from '../schedules/sweep.js';

/**
 * service: {expand(desc) -> {result, steps, lr}, presets() -> [...], learningRates(file, ask) ->
 * {schedule, run} or {skipped}, onRestart(fn)}.
 */
let service = null;
let presets = [];
let preview = null;
let previewTimer = 0;
/** previewSeq counts the previews asked for and the errors since: only the latest shows. */
let previewSeq = 0;
let defaults = {};
/** fromFile names the file whose learning rates the fields hold, until they are edited. */
let fromFile = null;
/** session counts the dialog's openings: a Save still checking when the dialog closed must not close the next one. */
let session = 0;
/** jsonError says why the JSON editor's text is not a schedule ('' when it is, or was not edited). */
let jsonError = '';
/**
 * jsonDesc is the JSON editor's description when it was edited last (else null): what its
 * preview checked and Save saves. The fields show what they can of it, but a value they cannot
 * hold (a decay shape not among the choices, a key of no field) is not lost to them.
 */
let jsonDesc = null;
/**
 * run is the run a schedule is built for: {total, peak, warmup (where a new schedule starts),
 * data ({total, peak, warmup}: what a curve's data says, each null when it does not), from
 * (where they come from, in words), curve (the curve with data whose schedule this is, or
 * null)}. A preset takes them.
 */
let run = { curve: null, data: {} };
/**
 * presetWarmup is the warmup the last preset wrote as its own (a cyclic schedule's 0), or the
 * 0 of the schedule the dialog opened on (a new schedule starts from the last one's: a cyclic
 * one's 0 is no warmup of the run), not the run's, until the field is edited (else null): the
 * next preset takes the run's warmup instead.
 */
let presetWarmup = null;

/** initScheduleDialog wires the dialog once; presets are fetched through the service when lawcore is ready. */
export function initScheduleDialog(scheduleService, ready) {
  service = scheduleService;
  preview = createChart($('#schedule-preview'), { compact: true });
  const kind = $('#schedule-kind');
  for (const [key, k] of Object.entries(kinds())) kind.append(h('option', { value: key, text: k.label }));
  kind.addEventListener('change', () => {
    fromFile = null;
    const desc = safeRead();
    renderFields(kind.value);
    writeFields({ ...desc, kind: kind.value });
    changed();
  });
  $('#schedule-fields').addEventListener('input', edited);
  $('#schedule-fields').addEventListener('change', edited);
  $('#schedule-from-file').addEventListener('click', () => $('#schedule-file').click());
  $('#schedule-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) readLRFile(file);
  });
  $('#schedule-json').addEventListener('input', () => {
    fromFile = null;
    let desc;
    try {
      desc = JSON.parse($('#schedule-json').value);
    } catch {
      return jsonProblem('The JSON is not valid yet.');
    }
    if (!desc || typeof desc !== 'object' || Array.isArray(desc))
      return jsonProblem('The JSON must be an object, such as {"kind": "cosine", ...}.');
    if (!Object.hasOwn(kinds(), desc.kind))
      return jsonProblem(`Unknown kind ${JSON.stringify(desc.kind)}: one of ${Object.keys(kinds()).join(', ')}.`);
    jsonError = '';
    jsonDesc = desc;
    kind.value = desc.kind;
    renderFields(desc.kind);
    writeFields(desc);
    schedulePreview(desc);
  });
  $('#schedule-preset').addEventListener('change', () => {
    const p = presets.find((x) => x.id === $('#schedule-preset').value);
    if (!p) return;
    fromFile = null;
    const desc = safeRead();
    if (presetWarmup !== null && desc.warmup === presetWarmup) delete desc.warmup;
    const schedule = fitPreset(p.schedule, presetRun(desc));
    presetWarmup = p.schedule.warmup === 0 ? 0 : null;
    kind.value = schedule.kind;
    renderFields(schedule.kind);
    writeFields(schedule);
    const nameInput = $('#schedule-name');
    if (!nameInput.disabled && (!nameInput.value || nameInput.dataset.auto === 'true')) {
      nameInput.value = p.name;
      nameInput.dataset.auto = 'true';
    }
    $('#schedule-origin').textContent =
      `${p.origin ? `As in ${p.origin}; ` : ''}${run.from ? `total, peak and warmup from ${run.from}.` : 'total, peak and warmup as they were.'}`;
    changed();
  });
  $('#schedule-name').addEventListener('input', (e) => {
    e.target.dataset.auto = 'false';
    if (sweepField()) showSweep(jsonDesc || safeRead());
  });
  $('#sweep-field').addEventListener('change', () => {
    // a decay fraction is a WSD schedule's: the kind follows, keeping the other fields
    const wanted = SWEEPS[$('#sweep-field').value]?.kind;
    if (wanted && kind.value !== wanted) {
      fromFile = null;
      const desc = safeRead();
      kind.value = wanted;
      renderFields(wanted);
      writeFields({ ...desc, kind: wanted });
    }
    changed();
  });
  $('#sweep-values').addEventListener('input', changed);
  $('#schedule-form').addEventListener('submit', onSubmit);
  $('#schedule-cancel').addEventListener('click', () => $('#schedule-dialog').close('cancel'));
  ready.then(loadPresets, () => {});
  service.onRestart(() => ready.then(loadPresets, () => {}));
}

async function loadPresets() {
  if (presets.length) return;
  try {
    presets = await service.presets();
  } catch (err) {
    console.warn('presets:', err.message);
    return;
  }
  const select = $('#schedule-preset');
  select.replaceChildren(
    h('option', { value: '', text: presets.length ? 'Choose a preset…' : 'No presets' }),
    ...presets.map((p) => h('option', { value: p.id, text: p.name, title: p.origin || '' })),
  );
}

/**
 * presetRun is the total, peak and warmup a preset is given: for a curve with data, what its
 * data says (its last step; its LR column's peak and warmup), else what the fields hold (desc),
 * else the run's defaults.
 */
function presetRun(desc) {
  const pick = (key) => [run.data[key], desc[key], run[key]].find((x) => typeof x === 'number' && Number.isFinite(x));
  return { total: pick('total'), peak: pick('peak'), warmup: pick('warmup') };
}

/**
 * editSchedule opens the builder. It resolves to {name, schedule} when saved, or null.
 * name: null hides the name field. fallback: fields the fit fills in (warmup), for the preview.
 * forRun: {total, peak, warmup, data, from, curve}: the run the schedule is for (see run); the
 * schedule starts from it when there is none yet. sweep: the builder may add a family of
 * schedules (sweep.js), and then resolves to {name, schedule, sweep: [{name, schedule}]}.
 */
export function editSchedule({ title, name = null, schedule = null, fallback = {}, forRun = {}, sweep = false }) {
  const dialog = $('#schedule-dialog');
  defaults = fallback;
  run = { curve: null, ...forRun, data: forRun.data || {} };
  $('#schedule-dialog-title').textContent = title;
  const nameInput = $('#schedule-name');
  nameInput.closest('label').hidden = name === null;
  nameInput.disabled = name === null;
  nameInput.value = name || '';
  nameInput.dataset.auto = String(!name);
  $('#schedule-preset').value = '';
  $('#schedule-sweep').hidden = !sweep;
  $('#sweep-field').value = '';
  $('#sweep-values').value = '';
  $('#sweep-info').textContent = '';
  $('#schedule-save').textContent = 'Save';
  presetWarmup = schedule && schedule.warmup === 0 ? 0 : null;
  $('#schedule-origin').textContent = run.from ? `Presets take total, peak and warmup from ${run.from}.` : '';
  const desc =
    schedule || fitPreset({ kind: 'cosine', total: 60000, peak: 2e-4, final: 0, warmup: 500 }, presetRun({}));
  fromFile = null;
  $('#schedule-kind').value = desc.kind;
  renderFields(desc.kind);
  writeFields(desc);
  $('#schedule-json').value = JSON.stringify(desc, null, 1);
  jsonError = '';
  jsonDesc = null;
  session++;
  showInfo('', false);
  dialog.returnValue = '';
  dialog.showModal();
  schedulePreview(desc);
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        if (dialog.returnValue !== 'save') return resolve(null);
        const result = JSON.parse(dialog.dataset.result);
        resolve({
          name: nameInput.disabled ? null : nameInput.value.trim(),
          schedule: result.schedule,
          ...(result.sweep ? { sweep: result.sweep } : {}),
          fromFile,
        });
      },
      { once: true },
    );
  });
}

async function onSubmit(event) {
  event.preventDefault();
  const dialog = $('#schedule-dialog');
  const nameInput = $('#schedule-name');
  const mine = session;
  const sweeping = sweepField();
  if (!sweeping && !nameInput.disabled && !nameInput.value.trim()) return showInfo('Give the schedule a name.', true);
  if (jsonError)
    return showInfo(`Edit as JSON: ${jsonError} Fix it, or change a field above to start again from the fields.`, true);
  let desc = jsonDesc;
  let family = null;
  try {
    desc ||= readFields();
    if (sweeping) family = sweepOf(desc);
  } catch (err) {
    return showInfo(err.message, true);
  }
  // every schedule of a sweep is checked, as one schedule is
  for (const one of family || [{ schedule: desc }]) {
    try {
      await service.expand(withFallback(one.schedule));
    } catch (err) {
      if (mine === session) showProblem(`${family ? `${one.name}: ` : ''}${err.message}`, one.schedule, true);
      return;
    }
  }
  if (mine !== session || !dialog.open) return; // cancelled, or reopened, while lawcore checked it
  dialog.dataset.result = JSON.stringify(family ? { schedule: family[0].schedule, sweep: family } : { schedule: desc });
  dialog.close('save');
}

/** sweepField is the field the sweep varies ('' for none: one schedule). */
function sweepField() {
  return $('#schedule-sweep').hidden ? '' : $('#sweep-field').value;
}

/** sweepOf is the family of schedules the sweep adds from desc; it throws saying what is wrong. */
function sweepOf(desc) {
  const field = sweepField();
  const values = sweepValues(field, $('#sweep-values').value);
  const named = $('#schedule-name').dataset.auto === 'true' ? '' : $('#schedule-name').value;
  return sweepSchedules(desc, named, field, values);
}

/**
 * readLRFile fills the fields with the learning rates of a file (lawcore's import, read as
 * learning rates): an explicit schedule through its points. A file of several runs asks which.
 */
async function readLRFile(file) {
  showInfo(`Reading ${file.name}…`, false);
  try {
    // One schedule: of a file of several runs, the first run chosen.
    const askOneRun = async (ambiguity, name) => {
      const choice = await askImport(ambiguity, name);
      return choice && { ...choice, runs: choice.runs && choice.runs.slice(0, 1) };
    };
    const { schedule: desc, run, skipped } = await service.learningRates(file, askOneRun);
    if (skipped) return showInfo(`${file.name}: skipped.`, false);
    $('#schedule-kind').value = desc.kind;
    renderFields(desc.kind);
    writeFields(desc);
    changed();
    fromFile = file.name;
    $('#schedule-origin').textContent =
      `The learning rates of ${file.name}${run ? `, run ${run}` : ''}: ${fmt.steps(desc.steps.length)} points, steps ${fmt.steps(desc.steps[0])}–${fmt.steps(desc.total)}.`;
  } catch (err) {
    showInfo(err.message, true);
  }
}

/** edited: a field changed by hand, so the schedule is no longer a file's. */
function edited(e) {
  fromFile = null;
  if (e && e.target && e.target.name === 'warmup') presetWarmup = null;
  changed();
}

function renderFields(kind) {
  const box = $('#schedule-fields');
  box.replaceChildren();
  for (const f of fieldsOf(kind)) {
    const id = `sf-${f.key}`;
    let input;
    if (f.type === 'select') {
      // lawcore's default is the first of its choices: say which.
      input = h(
        'select',
        { id, name: f.key },
        h('option', { value: '', text: f.options.length ? `default (${f.options[0]})` : 'default' }),
        f.options.map((o) => h('option', { value: o, text: o })),
      );
    } else if (f.type === 'json') {
      input = h('textarea', { id, name: f.key, rows: 5, spellcheck: 'false' });
    } else {
      input = h('input', {
        id,
        name: f.key,
        type: 'text',
        inputmode: f.type === 'list' ? 'text' : 'decimal',
        autocomplete: 'off',
        spellcheck: 'false',
      });
    }
    input.dataset.type = f.type;
    const wide = f.type === 'list' || f.type === 'json';
    box.append(
      h(
        'label',
        { class: wide ? 'field wide' : 'field', for: id },
        h('span', { class: 'field-label', text: f.label + (f.required ? ' *' : '') }),
        input,
        f.hint ? h('small', { class: 'hint', text: f.hint }) : null,
      ),
    );
  }
}

function writeFields(desc) {
  for (const el of $('#schedule-fields').querySelectorAll('[name]')) {
    const v = desc[el.name];
    if (v === undefined || v === null) el.value = '';
    else if (el.dataset.type === 'list') el.value = v.join(', ');
    else if (el.dataset.type === 'json') el.value = JSON.stringify(v, null, 1);
    else el.value = String(v);
  }
}

/** readFields turns the form into a description; empty fields are left out (lawcore's defaults). */
function readFields() {
  const desc = { kind: $('#schedule-kind').value };
  for (const el of $('#schedule-fields').querySelectorAll('[name]')) {
    const raw = el.value.trim();
    if (raw === '') continue;
    const label = el.closest('label').querySelector('.field-label').textContent.replace(' *', '');
    switch (el.dataset.type) {
      case 'int':
      case 'number': {
        const x = fmt.parseDecimal(raw);
        if (Number.isNaN(x)) throw new Error(`${label}: "${raw.slice(0, 40)}" is not a number.`);
        if (el.dataset.type === 'int' && !Number.isInteger(x))
          throw new Error(`${label}: ${raw.slice(0, 40)} is not a whole number.`);
        desc[el.name] = x;
        break;
      }
      case 'list': {
        const xs = raw
          .split(/[\s,;]+/)
          .filter(Boolean)
          .map(fmt.parseDecimal);
        const bad = xs.findIndex((x) => Number.isNaN(x));
        if (bad >= 0) throw new Error(`${label}: item ${bad + 1} is not a number.`);
        desc[el.name] = xs;
        break;
      }
      case 'json':
        try {
          desc[el.name] = JSON.parse(raw);
        } catch (err) {
          throw new Error(`${label}: ${err.message}`);
        }
        break;
      default:
        desc[el.name] = raw;
    }
  }
  return desc;
}

function safeRead() {
  try {
    return readFields();
  } catch {
    return { kind: $('#schedule-kind').value };
  }
}

function withFallback(desc) {
  const out = { ...desc };
  if (takesWarmupSetting(out) && defaults.warmup !== undefined) out.warmup = defaults.warmup;
  return out;
}

function changed() {
  jsonError = '';
  jsonDesc = null;
  let desc;
  try {
    desc = readFields();
  } catch (err) {
    clearTimeout(previewTimer);
    previewSeq++;
    return showInfo(err.message, true);
  }
  $('#schedule-json').value = JSON.stringify(desc, null, 1);
  schedulePreview(showSweep(desc));
}

/**
 * showSweep says what the sweep adds from desc (its names, or what is wrong with its values) and
 * returns the schedule to preview: the sweep's first, else desc.
 */
function showSweep(desc) {
  const field = sweepField();
  const info = $('#sweep-info');
  const save = $('#schedule-save');
  save.textContent = 'Save';
  if (!field) {
    info.textContent = '';
    return desc;
  }
  // a name the page wrote (a preset's) gives way to what the sweep's names start with
  const nameInput = $('#schedule-name');
  if (nameInput.dataset.auto === 'true') nameInput.value = sweepName(desc, field);
  try {
    const family = sweepOf(desc);
    const names = family.map((f) => f.name);
    const shown = names.length > 4 ? [...names.slice(0, 2), '…', names[names.length - 1]] : names;
    info.textContent = `Adds ${family.length} schedule${family.length === 1 ? '' : 's'}: ${shown.join('; ')}.`;
    save.textContent = `Add ${family.length}`;
    return family[0].schedule;
  } catch (err) {
    info.textContent = $('#sweep-values').value.trim()
      ? err.message
      : `Type the ${SWEEPS[field].label}s: each makes a schedule named “${sweepName(desc, field)}, …”.`;
    return desc;
  }
}

/** jsonProblem reports what is wrong with the JSON editor's text, and stops a pending preview. */
function jsonProblem(text) {
  jsonError = text;
  clearTimeout(previewTimer);
  previewSeq++;
  showInfo(text, true);
}

function schedulePreview(desc) {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => drawPreview(desc), 200);
}

/** drawPreview asks lawcore for the per-step LR of the description and draws it small. */
async function drawPreview(desc) {
  const seq = ++previewSeq;
  let answer;
  try {
    answer = await service.expand(withFallback(desc));
  } catch (err) {
    if (seq === previewSeq) showProblem(err.message, desc);
    return;
  }
  if (seq !== previewSeq) return; // the fields changed since: a newer preview or error stands
  const { result, steps, lr } = answer;
  const info = [
    `${fmt.steps(result.total)} steps`,
    `peak ${fmt.lr(result.peak)}`,
    `final ${fmt.lr(result.final)}`,
    `warmup ${fmt.steps(result.warmup)}`,
  ];
  // A curve's schedule is checked against the curve's data: flagged here, before it is saved.
  const problems =
    run.curve && !fromFile
      ? scheduleProblems({ ...run.curve, schedule: desc, scheduleSource: 'builder' }, { steps, lr })
      : [];
  showInfo(info.join(' · '), false, problems.length ? `Check: ${problems.map((x) => x.text).join('; ')}.` : '');
  if (!steps) return;
  preview.update({
    height: 140,
    yTicks: fmt.lr,
    lines: [{ label: 'learning rate', color: '#0072b2', width: 1.5, x: steps, y: lr }],
  });
}

/**
 * showProblem says what keeps lawcore from drawing the schedule, in the form's words: its
 * field paths ("schedule.decayFraction") become the fields' labels, and a field that is only
 * empty so far is asked for rather than reported as an error (an error once Save is pressed).
 */
function showProblem(message, desc, submitted = false) {
  const fields = [...$('#schedule-fields').querySelectorAll('[name]')];
  const labelOf = (key) => {
    const el = fields.find((f) => f.name === key);
    return el ? el.closest('label').querySelector('.field-label').textContent.replace(' *', '') : null;
  };
  const m = /^schedule\.(\w+)(\[\d+\])?: (.*)$/s.exec(message);
  const key = m && m[1];
  const label = key && labelOf(key);
  if (label && desc && desc[key] === undefined) return showInfo(`Fill in ${label}${hintOf(key)}.`, submitted);
  showInfo(
    label
      ? `${label}: ${m[3].replace(/ \(or give (\w+)\)/, (all, other) => (labelOf(other) ? ` (or give ${labelOf(other)})` : all))}`
      : message,
    true,
  );
}

/** hintOf is a field's hint in parentheses (or ''). */
function hintOf(key) {
  const el = $('#schedule-fields').querySelector(`[name="${key}"]`);
  const hint = el && el.closest('label').querySelector('.hint');
  return hint ? ` (${hint.textContent})` : '';
}

/** showInfo shows what lawcore says of the schedule (an error, or its summary) and, after it, a warning. */
function showInfo(text, isError, warning = '') {
  const el = $('#schedule-info');
  el.textContent = text;
  el.classList.toggle('error', isError);
  const warn = $('#schedule-warning');
  warn.textContent = warning;
  warn.hidden = !warning;
}
