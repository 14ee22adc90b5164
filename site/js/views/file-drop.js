// Files, folders and text coming in outside the file inputs: dropped anywhere on the page
// (which is marked "dragging" meanwhile), or pasted anywhere outside a form field and the
// dialogs.
import { $ } from './dom.js';
import { splitDrop, walkDirectories } from '../import/folder-files.js';

const isTyping = (target) =>
  target instanceof HTMLElement && target.closest('input, textarea, select, [contenteditable]') !== null;

/**
 * acceptDrops calls onFiles(files) for files dropped, onFolder(promise of a folder (see
 * folder-files.js), files dropped beside it) for directories dropped, and onFiles or
 * onText(text) for a paste.
 */
export function acceptDrops({ onFiles, onFolder, onText }) {
  let depth = 0;
  document.addEventListener('dragenter', (e) => {
    if (![...(e.dataTransfer?.types || [])].includes('Files')) return;
    depth++;
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) document.body.classList.remove('dragging');
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    document.body.classList.remove('dragging');
    // Directories go as one folder (their runs read together); loose files one by one.
    const { directories, files } = splitDrop(e.dataTransfer);
    if (directories.length) onFolder(walkDirectories(directories), files);
    else if (files.length) onFiles(files);
  });
  document.addEventListener('paste', (e) => {
    if (isTyping(e.target) || $('#schedule-dialog').open || $('#import-dialog').open) return;
    const files = [...(e.clipboardData?.files || [])];
    if (files.length) return onFiles(files);
    const text = e.clipboardData?.getData('text/plain') || '';
    if (text.trim()) {
      e.preventDefault();
      onText(text);
    }
  });
}
