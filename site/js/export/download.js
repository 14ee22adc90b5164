// Saving a file the page made: through an <a download> with a blob: URL (nothing is uploaded).

/** download saves blob under fileName. */
export function download(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** downloadJSON saves value as pretty-printed JSON. */
export function downloadJSON(value, fileName) {
  download(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }), fileName);
}
