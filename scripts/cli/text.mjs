// Text output of the command line: tables aligned in columns, and numbers as researchers read
// them (losses to 4 decimals, errors as percentages).

/** width is how many columns s takes on a terminal (one per code point). */
function width(s) {
  return [...s].length;
}

/** pad pads s with spaces to w columns, on the left when right is set. */
function pad(s, w, right) {
  const fill = ' '.repeat(Math.max(0, w - width(s)));
  return right ? fill + s : s + fill;
}

/**
 * table lays out rows (arrays of strings) under headers in columns two spaces apart. Columns
 * named in `right` (by index) are aligned right, as numbers are; trailing spaces are trimmed.
 */
export function table(headers, rows, { right = [], indent = '' } = {}) {
  const all = [headers, ...rows].map((r) => r.map((c) => (c === undefined || c === null ? '' : String(c))));
  const widths = headers.map((_, i) => Math.max(...all.map((r) => width(r[i] ?? ''))));
  const line = (r) =>
    indent
    + r
      .map((c, i) => pad(c ?? '', widths[i], right.includes(i)))
      .join('  ')
      .trimEnd();
  return all.map(line).join('\n');
}

/** isNum says whether x is a finite number. */
export const isNum = (x) => typeof x === 'number' && Number.isFinite(x);

/** loss writes a loss to 4 decimals ("—" when there is none). */
export function loss(x) {
  return isNum(x) ? x.toFixed(4) : '—';
}

/** percent writes a relative error as a percentage: 0.00186 -> "0.186%"; signed adds "+". */
export function percent(x, { digits = 3, signed = false } = {}) {
  if (!isNum(x)) return '—';
  const p = 100 * x;
  let s = Math.abs(p) >= 1e4 ? p.toExponential(1) : p.toFixed(digits);
  if (Number(s) === 0) s = (0).toFixed(digits); // no "-0.000"
  return `${signed && Number(s) > 0 ? '+' : ''}${s}%`;
}

/** r2 writes a coefficient of determination to 4 decimals ("—" when there is none). */
export function r2(x) {
  return isNum(x) ? x.toFixed(4) : '—';
}

/**
 * num writes a number with 4 significant digits, plainly between 1e-3 and 1e6 (2.628, 0.4300,
 * 20000) and in exponent form outside (2.000e-4); whole numbers are written whole.
 */
export function num(x, digits = 4) {
  if (!isNum(x)) return x === null || x === undefined ? '—' : String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return x.toExponential(digits - 1).replace(/\.?0+e/, 'e');
  return x
    .toPrecision(digits)
    .replace(/(\.\d*?[1-9])0+$|\.0+$/, '$1')
    .replace(/^(-?\d+)\.$/, '$1');
}

/** cell writes any value of an answer's table: numbers with num, lists joined, null as "—". */
export function cell(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return num(v);
  if (Array.isArray(v)) return v.map(cell).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** seconds writes a duration given in milliseconds: "18 ms", "2.4 s". */
export function seconds(ms) {
  if (!isNum(ms)) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** wrap breaks text into lines of at most width columns (words longer than that stay whole), each after indent. */
export function wrap(text, { width: max = 100, indent = '' } = {}) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && width(`${indent}${line} ${word}`) > max) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

/** plural writes "1 curve" / "3 curves". */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}
