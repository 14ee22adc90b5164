// The documentation stays true to the repository: the README is a short front door, every link
// and every repository path the docs name exists, every anchor matches a heading, every pointer
// from the code into docs/ lands on a doc and a heading, and no doc keeps a dated diary.
//
// Conventions checked here:
// - Docs are README.md, THIRD_PARTY_NOTICES.md and docs/*.md.
// - A relative Markdown link is relative to the doc that holds it; an anchor (#x) must be the
//   GitHub-style slug of a heading of the target doc.
// - A repository path in inline code (`lawcore/fit.go`, `scripts/bench.sh`,
//   `tests/browser/x.test.mjs`, `./lawcore/...`) is relative to the repository's root. Words are
//   taken for repository paths only when they start with a top-level folder of the repository
//   (PATH_ROOTS) or name a top-level file (ROOT_FILES); a glob or a <placeholder> is checked up
//   to the folder that holds it.
// - Code points at docs as docs/<file>.md or docs/<file>.md#<anchor>, never at "the README".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** README_MAX_BYTES is the most the README may hold: a front door, not the manual. */
const README_MAX_BYTES = 10240;

/** PATH_ROOTS are the top-level folders whose paths the docs name. */
const PATH_ROOTS = ['lawcore', 'wasm', 'site', 'scripts', 'tests', 'docs', '.ci'];
/** ROOT_FILES are the top-level files the docs name. */
const ROOT_FILES = [
  'README.md',
  'LICENSE',
  'THIRD_PARTY_NOTICES.md',
  'Makefile',
  'go.mod',
  'go.sum',
  'package.json',
  'package-lock.json',
];
/** SOURCE_ROOTS are where code may point into docs/. */
const SOURCE_ROOTS = ['lawcore', 'wasm', 'site', 'scripts', 'tests', '.ci', 'Makefile'];
const SOURCE_EXTENSIONS = /\.(go|js|mjs|cjs|sh|sed|html|css|json|webmanifest)$|^Makefile$|^run$/;

const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const exists = (path) => existsSync(join(ROOT, path));

/** docFiles lists the docs, relative to the repository's root. */
function docFiles() {
  const docs = ['README.md', 'THIRD_PARTY_NOTICES.md'].filter(exists);
  if (exists('docs')) {
    for (const name of readdirSync(join(ROOT, 'docs')).sort()) if (name.endsWith('.md')) docs.push(`docs/${name}`);
  }
  return docs;
}

/**
 * blocks splits Markdown into its prose and its code: fenced blocks, and indented blocks (four
 * spaces or more after a blank line or another code line). Each block is {code, text, line}.
 */
export function blocks(markdown) {
  const out = [];
  let fence = null;
  let cur = null;
  let prevBlank = true;
  const push = (code, text, line) => {
    if (cur && cur.code === code) cur.text += `\n${text}`;
    else {
      cur = { code, text, line };
      out.push(cur);
    }
  };
  markdown.split('\n').forEach((text, i) => {
    const line = i + 1;
    const f = /^\s*(```+|~~~+)/.exec(text);
    if (fence) {
      push(true, text, line);
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = null;
      prevBlank = false;
      return;
    }
    if (f) {
      fence = f[1];
      push(true, text, line);
      prevBlank = false;
      return;
    }
    const blank = text.trim() === '';
    const indented = /^( {4,}|\t)/.test(text) && !blank;
    const inCode = indented && (prevBlank || (cur && cur.code));
    if (blank) push(cur ? cur.code : false, text, line);
    else push(Boolean(inCode), text, line);
    prevBlank = blank;
  });
  return out;
}

/** slug is GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** anchors lists the anchors of a Markdown text's headings (repeats get -1, -2, ...). */
export function anchors(markdown) {
  const seen = new Map();
  const out = new Set();
  for (const b of blocks(markdown)) {
    if (b.code) continue;
    for (const text of b.text.split('\n')) {
      const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
      if (!h) continue;
      const base = slug(h[1]);
      const n = seen.get(base) || 0;
      seen.set(base, n + 1);
      out.add(n ? `${base}-${n}` : base);
    }
  }
  return out;
}

/** lineOf is the line of a text's offset, from a block's first line. */
const lineOf = (block, offset) => block.line + block.text.slice(0, offset).split('\n').length - 1;

/** markdownLinks lists the links of the prose: {target, line}. */
export function markdownLinks(markdown) {
  const out = [];
  for (const b of blocks(markdown)) {
    if (b.code) continue;
    const prose = b.text.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length));
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ target: m[1], line: lineOf(b, m.index) });
    }
    for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) out.push({ target: m[1], line: lineOf(b, m.index) });
  }
  return out;
}

/**
 * repoPath turns a word of inline code into the repository path it names, or null when it
 * names none: `./lawcore/...` is lawcore, `scripts/bench.sh:12` is scripts/bench.sh,
 * `docs/api.md#fit-request` is docs/api.md with its anchor.
 */
export function repoPath(word) {
  let w = word.replace(/^[("'[{]+/, '').replace(/[)"',;:.\]}]+$/, '');
  w = w.replace(/^\.\//, '');
  if (!w || w.startsWith('/') || w.includes('://')) return null;
  let anchor = null;
  const hash = w.indexOf('#');
  if (hash >= 0) {
    anchor = w.slice(hash + 1);
    w = w.slice(0, hash);
  }
  w = w.replace(/:\d+(:\d+)?$/, '').replace(/\/\.\.\.$/, '');
  const top = w.split('/')[0];
  const isPath = (PATH_ROOTS.includes(top) && (w === top || w[top.length] === '/')) || ROOT_FILES.includes(w);
  if (!isPath) return null;
  // a glob or a placeholder: check the folder that holds it
  const wild = w.search(/[*?[<{]/);
  if (wild >= 0) {
    const cut = w.slice(0, wild);
    return { path: cut.endsWith('/') ? cut.slice(0, -1) : dirname(cut), anchor: null, pattern: w };
  }
  return { path: w.replace(/\/$/, ''), anchor, pattern: null };
}

/** codePaths lists the repository paths named in a Markdown text's inline code and code blocks. */
export function codePaths(markdown) {
  const out = [];
  for (const b of blocks(markdown)) {
    const spans = b.code
      ? [{ text: b.text, index: 0 }]
      : [...b.text.matchAll(/`([^`]+)`/g)].map((m) => ({ text: m[1], index: m.index }));
    for (const span of spans) {
      for (const m of span.text.matchAll(/\S+/g)) {
        // in a code block, a word may sit in an assignment or a quote: FOO=lawcore/x, "lawcore/x"
        const word = b.code ? m[0].replace(/^[A-Za-z_]+=/, '') : m[0];
        const p = repoPath(word);
        if (p) out.push({ ...p, word: m[0], line: lineOf(b, span.index + m.index) });
      }
    }
  }
  return out;
}

/** anchorsOf caches each doc's anchors. */
const anchorCache = new Map();
function anchorsOf(path) {
  if (!anchorCache.has(path)) anchorCache.set(path, anchors(read(path)));
  return anchorCache.get(path);
}

/** checkTarget says what is wrong with a path (and anchor) in the repository, or null. */
function checkTarget(path, anchor) {
  if (!exists(path)) return `${path} does not exist`;
  if (anchor === null || anchor === undefined) return null;
  if (statSync(join(ROOT, path)).isDirectory() || !path.endsWith('.md'))
    return `${path}#${anchor}: an anchor needs a Markdown file`;
  if (anchor === '') return `${path}#: an empty anchor`;
  return anchorsOf(path).has(anchor)
    ? null
    : `${path}#${anchor}: no such heading (anchors: ${[...anchorsOf(path)].join(', ')})`;
}

test(`README.md is at most ${README_MAX_BYTES} bytes`, () => {
  const size = Buffer.byteLength(read('README.md'));
  assert.ok(size <= README_MAX_BYTES, `README.md is ${size} bytes: move the detail into docs/`);
});

test('every relative link of the docs names an existing file and heading', () => {
  const problems = [];
  for (const doc of docFiles()) {
    const text = read(doc);
    for (const { target, line } of markdownLinks(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const hash = target.indexOf('#');
      const file = hash >= 0 ? target.slice(0, hash) : target;
      const anchor = hash >= 0 ? decodeURIComponent(target.slice(hash + 1)) : null;
      const path = file === '' ? doc : normalize(join(dirname(doc), decodeURIComponent(file))).replace(/\\/g, '/');
      if (path.startsWith('..')) {
        problems.push(`${doc}:${line}: ${target} leaves the repository`);
        continue;
      }
      const problem = checkTarget(path.replace(/\/$/, ''), anchor);
      if (problem) problems.push(`${doc}:${line}: link ${target}: ${problem}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every repository path the docs name in code exists', () => {
  const problems = [];
  for (const doc of docFiles()) {
    for (const p of codePaths(read(doc))) {
      const problem = checkTarget(p.path, p.anchor);
      if (problem) problems.push(`${doc}:${p.line}: \`${p.word}\`: ${problem}`);
    }
  }
  assert.deepEqual(problems, []);
});

/** sourceFiles lists the files under the source roots that may point into docs/. */
function sourceFiles() {
  const out = [];
  const walk = (path) => {
    const st = statSync(join(ROOT, path));
    if (st.isDirectory()) {
      for (const name of readdirSync(join(ROOT, path)).sort()) {
        if (name === 'node_modules' || name === 'testdata' || name.startsWith('.git')) continue;
        walk(`${path}/${name}`);
      }
    } else if (SOURCE_EXTENSIONS.test(path.split('/').pop())) out.push(path);
  };
  for (const root of SOURCE_ROOTS) if (exists(root)) walk(root);
  return out;
}

test('every docs/ pointer in the code names an existing doc and heading', () => {
  const problems = [];
  let pointers = 0;
  for (const file of sourceFiles()) {
    read(file)
      .split('\n')
      .forEach((text, i) => {
        for (const m of text.matchAll(/(?<![\w/.-])docs\/([\w.-]+\.md)(?:#([\w-]*))?/g)) {
          pointers++;
          const problem = checkTarget(`docs/${m[1]}`, m[2] === undefined ? null : m[2]);
          if (problem) problems.push(`${file}:${i + 1}: ${m[0]}: ${problem}`);
        }
      });
  }
  assert.deepEqual(problems, []);
  assert.ok(pointers > 0, 'no docs/ pointers found in the code: is the scan looking in the right place?');
});

test('the code points at docs/, not at README sections', () => {
  const problems = [];
  for (const file of sourceFiles()) {
    if (file === 'tests/node/docs.test.mjs') continue; // this file names the README for itself
    read(file)
      .split('\n')
      .forEach((text, i) => {
        // the project's README; a data set's or a release's own README is named as such
        if (
          /\bthe README\b|\(README\b|\bREADME[,:]|README's|README "/.test(text)
          && !/\b(its|their|study's|release's) README\b/.test(text)
        ) {
          problems.push(`${file}:${i + 1}: ${text.trim()}`);
        }
      });
  }
  assert.deepEqual(problems, []);
});

test('no doc keeps a dated diary: no ISO dates in prose', () => {
  const problems = [];
  for (const doc of docFiles()) {
    for (const b of blocks(read(doc))) {
      if (b.code) continue;
      b.text.split('\n').forEach((text, i) => {
        if (/\b(19|20)\d\d-[01]\d-[0-3]\d\b/.test(text)) problems.push(`${doc}:${b.line + i}: ${text.trim()}`);
      });
    }
  }
  assert.deepEqual(problems, []);
});

test('the checks themselves: slugs, paths and code blocks', () => {
  assert.equal(slug('Fit request'), 'fit-request');
  assert.equal(slug("The paper's analyses"), 'the-papers-analyses');
  assert.equal(slug('The lawcore command (`lawcore.mjs`)'), 'the-lawcore-command-lawcoremjs');
  assert.equal(slug('S2^ζ and λ'), 's2ζ-and-λ');
  assert.deepEqual([...anchors('# A\n## B\n## B\n    # not a heading\n```\n# nor this\n```\n')], ['a', 'b', 'b-1']);
  assert.deepEqual(repoPath('./lawcore/...'), { path: 'lawcore', anchor: null, pattern: null });
  assert.deepEqual(repoPath('scripts/bench.sh:12'), { path: 'scripts/bench.sh', anchor: null, pattern: null });
  assert.deepEqual(repoPath('docs/api.md#fit-request'), { path: 'docs/api.md', anchor: 'fit-request', pattern: null });
  assert.deepEqual(repoPath('tests/browser/measure-*.mjs'), {
    path: 'tests/browser',
    anchor: null,
    pattern: 'tests/browser/measure-*.mjs',
  });
  assert.deepEqual(repoPath('lawcore/<name>'), { path: 'lawcore', anchor: null, pattern: 'lawcore/<name>' });
  for (const word of [
    'lawcore.FitRequest',
    'lawcore-core.wasm',
    'build/site',
    'js/main.js',
    '../shared/data',
    '/srv/x',
    'https://example.com/lawcore/x',
    'runs/',
    'sitemap',
  ]) {
    assert.equal(repoPath(word), null, word);
  }
  assert.deepEqual(
    codePaths('see `tests/node/x.test.mjs` and\n\n    node scripts/lawcore.mjs fit\n').map((p) => p.path),
    ['tests/node/x.test.mjs', 'scripts/lawcore.mjs'],
  );
  assert.deepEqual(
    markdownLinks('a [b](c.md#d) `[e](f)`').map((l) => l.target),
    ['c.md#d'],
  );
});
