// Undo: the changes that can be undone (a removal, "clear all", an example loaded over the view),
// kept as a stack and offered in the undo bar, the latest first.
import { $ } from './dom.js';

/** MAX_UNDO is how many changes are kept; older ones can no longer be undone. */
const MAX_UNDO = 20;
/** stack holds {text, restore, focusLabel}, the latest last. */
const stack = [];
let redraw = () => {};

/** initUndo wires the Undo button; afterUndo redraws the page once a change is undone. */
export function initUndo(afterUndo) {
  redraw = afterUndo;
  $('#undo-button').addEventListener('click', undo);
}

/**
 * offerUndo puts a change on the stack: restore puts it back. After the undo, the focus goes to
 * the control whose aria-label is focusLabel (the restored row's), when there is one.
 */
export function offerUndo(text, restore, focusLabel = null) {
  stack.push({ text, restore, focusLabel });
  if (stack.length > MAX_UNDO) stack.shift();
  show();
}

function show() {
  const top = stack[stack.length - 1];
  $('#undo-bar').hidden = !top;
  if (top) $('#undo-text').textContent = stack.length > 1 ? `${top.text} (${stack.length} changes to undo)` : top.text;
}

function undo() {
  const top = stack.pop();
  if (!top) return;
  top.restore();
  show();
  redraw();
  const target = top.focusLabel && document.querySelector(`[aria-label="${CSS.escape(top.focusLabel)}"]`);
  if (target) target.focus();
  else if (!$('#undo-bar').hidden) $('#undo-button').focus();
}
