// Colours: a qualitative palette for curves and the page's light/dark colours for the plots.

/**
 * PALETTE is Okabe-Ito extended: distinguishable for colour-blind readers, on light and dark;
 * the colours most alike (two blues, two yellows, two greens) come twelve apart, so that the
 * first twelve curves of a page never share a look.
 */
export const PALETTE = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#d55e00',
  '#cc79a7',
  '#56b4e9',
  '#8c6d31',
  '#7f3c8d',
  '#e73f74',
  '#11a579',
  '#4b4b8f',
  '#a5aa99',
  '#f2b701',
  '#3969ac',
  '#80ba5a',
  '#e68310',
  '#008695',
  '#cf1c90',
];

/** nextColor returns the first palette colour not in used (cycling when all are used). */
export function nextColor(used) {
  const free = PALETTE.find((c) => !used.includes(c));
  return free || PALETTE[used.length % PALETTE.length];
}

/** darkScheme is the colour scheme's media query: the page's colours change with it alone (style.css). */
const darkScheme = globalThis.matchMedia ? matchMedia('(prefers-color-scheme: dark)') : null;
/** schemeColors are the colours plotColors read last, and for which scheme. */
let schemeColors = null;

/**
 * plotColors reads the page's CSS variables so that plots follow the colour scheme. They are
 * read once per scheme: reading them forces the browser to recompute the page's style, which
 * each chart's redraw did in turn (about 30 ms of the first view on a 2-core machine).
 */
export function plotColors() {
  const dark = Boolean(darkScheme && darkScheme.matches);
  if (schemeColors && schemeColors.dark === dark) return schemeColors.colors;
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  const colors = { fg: v('--fg'), muted: v('--muted'), grid: v('--grid'), bg: v('--panel') };
  // Before the style sheet applies the variables are empty: read again next time.
  schemeColors = colors.fg ? { dark, colors } : null;
  return colors;
}
