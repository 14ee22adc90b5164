// A law's formula with its numbers: lawcore's formula text (schema.js LAWS[law].formula, such as
// "L(s) = L0 + A·S1(s)^(−α) − C·S2(s)") cut into lines and parts the equation view draws: text,
// subscripts (S1 -> S with 1 below), superscripts (^(−α)), and the law's parameters, each
// standing where its symbol stood, with its value. Pure: no DOM, so that node tests it.

/** IDENT matches a name of the formula: letters (Latin or Greek), digits, and a subscript after "_". */
const IDENT = /[A-Za-z\u0391-\u03c9]+\d*(?:_(?:\{[^}]*\}|[A-Za-z0-9\u0391-\u03c9]+))?/y;

/**
 * equationLines cuts a formula into lines (lawcore separates its definitions with a comma and
 * two spaces), each a list of parts: {text}, {text, sub} (a name and its subscript),
 * {sup: parts} and {param} (a parameter's name, where its symbol stood). symbols maps each
 * parameter to its symbol (L0, α, ...).
 */
export function equationLines(formula, symbols) {
  const byText = new Map(Object.entries(symbols).map(([name, symbol]) => [symbol, name]));
  return formula.split(/,\s{2,}/).map((line) => parse(line, byText));
}

/** parse turns a line of formula into parts (see equationLines). */
function parse(text, byText) {
  const parts = [];
  let plain = '';
  const flush = () => {
    if (plain) parts.push({ text: plain });
    plain = '';
  };
  for (let i = 0; i < text.length; ) {
    if (text[i] === '^') {
      flush();
      let inner;
      if (text[i + 1] === '(') {
        const close = matching(text, i + 1);
        inner = text.slice(i + 2, close);
        i = close + 1;
      } else {
        IDENT.lastIndex = i + 1;
        const m = IDENT.exec(text);
        inner = m ? m[0] : text[i + 1] || '';
        i += 1 + inner.length;
      }
      parts.push({ sup: parse(inner, byText) });
      continue;
    }
    IDENT.lastIndex = i;
    const m = /[A-Za-z\u0391-\u03c9]/.test(text[i]) ? IDENT.exec(text) : null;
    if (!m) {
      plain += text[i++];
      continue;
    }
    flush();
    const name = m[0];
    i += name.length;
    if (byText.has(name)) {
      parts.push({ param: byText.get(name) });
      continue;
    }
    // S1 -> S with 1 below; η_{k−1} -> η with k−1 below
    const sub = /^([^\d_]+)(?:(\d+)|_\{([^}]*)\}|_(.+))$/.exec(name);
    parts.push(sub ? { text: sub[1], sub: sub[2] || sub[3] || sub[4] } : { text: name });
  }
  flush();
  return parts;
}

/** matching is the index of the parenthesis closing the one at open (the text's end when none does). */
function matching(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

/** paramsIn lists the parameters a formula's lines name, in their order. */
export function paramsIn(lines) {
  const out = [];
  const walk = (parts) => {
    for (const p of parts) {
      if (p.param && !out.includes(p.param)) out.push(p.param);
      if (p.sup) walk(p.sup);
    }
  };
  lines.forEach(walk);
  return out;
}
