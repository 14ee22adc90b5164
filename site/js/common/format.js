// Numbers on the page: formatting parameters, learning rates, steps and metrics, and reading
// numbers typed in fields.

/** fixed formats x with d decimals, or an en dash when it is not a finite number. */
export function fixed(x, d = 3) {
  return Number.isFinite(x) ? x.toFixed(d) : '–';
}

/** lr formats a learning rate compactly: 2e-4, 3.16e-5, 0 (and 0 for rounding noise below 1e-12). */
export function lr(x) {
  if (!Number.isFinite(x)) return '–';
  if (Math.abs(x) < 1e-12) return '0';
  const [mant, exp] = x.toExponential(3).split('e');
  return `${String(Number(mant))}e${Number(exp)}`;
}

/** steps formats a step count with thousands separators: 60,000. */
export function steps(x) {
  return Number.isFinite(x) ? grouped(Math.round(x)) : '–';
}

/**
 * grouped writes an integer with thousands separators (60,000; -1,234), as en-US does, without
 * Intl: a page's first use of Intl (toLocaleString included) loads ICU's locale data, 90 ms of a
 * cold first view's main thread on the test machine.
 */
export function grouped(n) {
  const digits = String(Math.abs(n));
  if (!/^\d+$/.test(digits)) return String(n); // not an integer, or past 1e21
  const text = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${text}` : text;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n) => String(n).padStart(2, '0');
/** hour12 is a local time's hour on a 12-hour clock and its AM or PM. */
const hour12 = (d) => [d.getHours() % 12 || 12, d.getHours() < 12 ? 'AM' : 'PM'];

/**
 * dateTime writes a moment (ms since the epoch) in local time as en-US's medium date and short
 * time do (Nov 29, 2026, 7:06 PM), without Intl: a returning visitor's first view says when
 * their work was saved, and a first use of Intl's dates cost 18-43 ms of the main thread here.
 */
export function dateTime(t) {
  const d = new Date(t);
  const [h, half] = hour12(d);
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}, ${h}:${twoDigits(d.getMinutes())} ${half}`;
}

/** clock writes a moment's local time of day as en-US does with two digits each (07:06:40 PM), without Intl. */
export function clock(t) {
  const d = new Date(t);
  const [h, half] = hour12(d);
  return `${twoDigits(h)}:${twoDigits(d.getMinutes())}:${twoDigits(d.getSeconds())} ${half}`;
}

/**
 * tick formats an axis value as uPlot's default labels do in en-US, without Intl: grouped, at most
 * three decimals (20,000; 2.5; 0.125).
 */
export function tick(x) {
  if (!Number.isFinite(x)) return '';
  const [whole, decimals] = Math.abs(x).toFixed(3).split('.');
  const text = grouped(Number(whole)) + (/[1-9]/.test(decimals) ? `.${decimals.replace(/0+$/, '')}` : '');
  return x < 0 && text !== '0' ? `-${text}` : text;
}

/** sig formats x with n significant digits, switching to exponent form for tiny values. */
export function sig(x, n = 4) {
  if (!Number.isFinite(x)) return '–';
  if (x !== 0 && Math.abs(x) < 1e-4) return x.toExponential(n - 1);
  return String(Number(x.toPrecision(n)));
}

/** bytes formats a size: "850 B", "12 KB", "4.8 MB". */
export function bytes(n) {
  if (!Number.isFinite(n)) return '–';
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${Number((n / 2 ** 20).toPrecision(n < 10 * 2 ** 20 ? 2 : 3))} MB`;
}

/** pct formats a fraction as a percentage with n significant digits: 0.00133 -> "0.133%". */
export function pct(x, n = 3) {
  return Number.isFinite(x) ? `${sig(100 * x, n)}%` : '–';
}

/** ms formats a duration in milliseconds as "850 ms" or "1.24 s". */
export function ms(x) {
  if (!Number.isFinite(x)) return '–';
  return x < 1000 ? `${Math.round(x)} ms` : `${(x / 1000).toFixed(2)} s`;
}

/**
 * parseDecimal reads a number as typed in a field: decimal, optionally with an exponent (3e-4),
 * and finite. It returns NaN for anything else ("0x10", "1e400", "3,5", "").
 */
export function parseDecimal(text) {
  const t = String(text).trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return NaN;
  const x = Number(t);
  return Number.isFinite(x) ? x : NaN;
}

/** SCALE multiplies a count typed with a suffix, as researchers write them: 30k steps, 4M tokens, 1.3B parameters. */
const SCALE = { k: 1e3, m: 1e6, b: 1e9, t: 1e12 };

/**
 * parseCount reads a count as typed in a field: a decimal (parseDecimal), with thousands
 * separators (20,000 or 20 000) or a k, M, B or T suffix (30k, 1.3B). It returns NaN for
 * anything else ("2,7", "abc", "").
 */
export function parseCount(text) {
  const t = String(text)
    .trim()
    .replace(/[,_\s\u00a0\u202f](?=\d{3}(\D|$))/g, '');
  const m = /^(.*?)\s*([kmbt])?$/i.exec(t);
  return parseDecimal(m[1]) * (m[2] ? SCALE[m[2].toLowerCase()] : 1);
}

/**
 * plainNumber writes a number read from a log as a person would type it: a learning rate of 0.002
 * computed or logged in single precision (0.001999999979446888) is 0.002, the shortest decimal
 * of at most seven significant digits within two parts in ten million (single precision's
 * resolution); anything else as JavaScript writes it. For numbers from data, not typed ones.
 */
export function plainNumber(x) {
  if (!Number.isFinite(x) || x === 0) return String(x);
  for (let p = 1; p <= 7; p++) {
    const near = Number(x.toPrecision(p));
    if (Math.abs(near - x) <= 2e-7 * Math.abs(x)) return String(near);
  }
  return String(x);
}

/** plainValue is plainNumber as a number: 0.001999999979446888 as 0.002. */
export const plainValue = (x) => Number(plainNumber(x));
