// What the page says of the work it keeps in the browser: the line under the header (restored,
// a link opened over saved work, storage full, refused or unreadable) with its buttons, and
// the footer's note with "Forget my data". Drawn from the store's `workspace`.
import { $ } from './dom.js';
import { watch } from '../state/store.js';

/** BUTTONS maps each action a line may offer to its button. */
const BUTTONS = {
  'start-empty': '#workspace-start-empty',
  back: '#workspace-back',
  resume: '#workspace-resume',
  'this-tab': '#workspace-this-tab',
};

/**
 * showWorkspace keeps #workspace-line and the footer's #workspace-kept as the store says. on:
 * {startEmpty(), back(), resume(), forget(), dismiss()}. The footer carries data-saved-at (the
 * latest save's time, 0 for none) and data-saving ("1" while a save runs).
 */
export function showWorkspace(store, on) {
  $('#workspace-start-empty').addEventListener('click', () => on.startEmpty());
  $('#workspace-back').addEventListener('click', () => on.back());
  $('#workspace-resume').addEventListener('click', () => on.resume());
  $('#workspace-this-tab').addEventListener('click', () => on.resume());
  $('#workspace-close').addEventListener('click', () => on.dismiss());
  $('#forget-button').addEventListener('click', () => on.forget());
  watch(store, ['workspace'], ({ workspace: w }) => {
    const line = w.line;
    $('#workspace-line').hidden = !line;
    $('#workspace-line').classList.toggle('warning', !!line && line.kind === 'warning');
    $('#workspace-text').replaceChildren(
      ...(line ? line.text : []).map((t) => Object.assign(document.createElement('div'), { textContent: t })),
    );
    for (const [action, selector] of Object.entries(BUTTONS))
      $(selector).hidden = !line || !line.actions.includes(action);
    $('#workspace-kept').textContent = w.kept;
    $('#forget-button').hidden = !w.canForget;
    Object.assign($('#workspace-footer').dataset, { savedAt: String(w.savedAt || 0), saving: w.saving ? '1' : '' });
  });
}
