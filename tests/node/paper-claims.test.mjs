// The Paper view (site/js/analysis/paper-claims.js) and the model-size drop view
// (site/js/analysis/size-drop.js) from real answers of lawcore (the node CLI, `analyze --json`):
// the claims grouped section by section as lawcore orders them, every claim opening a view the
// page has, the answer's counts and list from lawcore's statuses; the drop view's options from
// a model-size fit's curves, and its sentence's numbers from the answer's own fields.
import './schema-setup.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  claimSections,
  paperAnswer,
  claimOf,
  claimView,
  claimBanner,
  verdictParts,
} from '../../site/js/analysis/paper-claims.js';
import { sizeDropOptions, sizeDropView } from '../../site/js/analysis/size-drop.js';
import { VIEWS } from '../../site/js/analysis/analysis-views.js';
import { FORMS } from '../../site/js/analysis/analysis-forms.js';

const cli = fileURLToPath(new URL('../../scripts/lawcore.mjs', import.meta.url));
const run = promisify(execFile);

/** analyze runs an analysis through lawcore with a JSON request and resolves to its whole answer. */
async function analyze(request) {
  const child = run(process.execPath, [cli, 'analyze', '--json'], { maxBuffer: 64 << 20 });
  child.child.stdin.end(JSON.stringify(request));
  return JSON.parse((await child).stdout);
}

const PAPER = analyze({ analysis: 'paper', tuples: 100 });

test('the claims, section by section, each opening a view the page has under the paper’s setting', async () => {
  const r = await PAPER;
  const sections = claimSections(r.claims);
  assert.deepEqual(
    sections.map((s) => s.section),
    ['4', '4.4', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '5.7', '5.8', '6.1', '6.2', '7.1'],
  );
  assert.deepEqual(
    sections.flatMap((s) => s.claims),
    r.claims,
    'every claim once, in lawcore’s order',
  );
  for (const c of r.claims) {
    const view = claimView(c, VIEWS);
    assert.ok(view === 'fit' || VIEWS.some((v) => v.id === view), `${c.id}: view ${view}`);
    assert.equal(view, c.view, `${c.id}: lawcore names the page’s view`);
    if (c.analysis) {
      assert.equal(VIEWS.find((v) => v.id === view).analysis, c.analysis, `${c.id}: its view runs ${c.analysis}`);
      assert.deepEqual(c.options.params, { L0: 2.628, A: 0.43, C: 0.411, alpha: 0.55, lambda: 0.999 }, c.id);
      assert.equal(c.options.peak, 2e-4);
      assert.equal(c.options.warmup, 500);
    }
    assert.match(c.verdict, /^(reproduced: |the law says |not checked here: )/, c.id);
  }
  // a view lawcore might name that the page lacks falls back on its analysis's first view
  assert.equal(claimView({ view: 'gone', analysis: 'rewarmup' }, VIEWS), 'rewarmup-peak');
  assert.equal(claimView({ view: 'gone' }, VIEWS), null);
  assert.equal(claimOf(r, 'chinchilla').source, 'Table 2');
  assert.equal(claimOf(r, 'nothing'), null);
  assert.equal(claimOf(null, 'fit'), null);
  assert.equal(claimBanner(claimOf(r, 'compute')), `Paper §6.2, Table 3: ${claimOf(r, 'compute').verdict}`);
  assert.ok('paper' in FORMS && 'size-drop' in FORMS);
  for (const c of r.claims) {
    const { lead, rest } = verdictParts(c.verdict);
    assert.equal(lead + rest, c.verdict);
    assert.ok(lead && rest.startsWith(' '), `${c.id}: "${lead}" "${rest.slice(0, 20)}"`);
  }
});

test('the Paper view’s answer counts lawcore’s statuses and names the claims the law disagrees with', async () => {
  const r = await PAPER;
  assert.equal(
    paperAnswer(r),
    "Under the paper's own Fig. 2 parameters, the law reproduces 12 of the 15 claims checked; on 3 it says otherwise (§5.2 Cosine cycle length and minimum LR; §6.1 Reduction to the Chinchilla law; §7.1 The decay factor λ); 2 need data the paper does not publish, and their views check them on your curves.",
  );
  const allGood = {
    ...r,
    reproduced: 2,
    checked: 2,
    claims: r.claims.slice(3, 5).map((c) => ({ ...c, status: 'reproduced' })),
  };
  assert.equal(
    paperAnswer(allGood),
    "Under the paper's own Fig. 2 parameters, the law reproduces 2 of the 2 claims checked.",
  );
});

/** A model-size fit's answer and curves as the page has them (two sizes, a 24K and a 72K run each). */
const FIT = {
  response: {
    params: { L0: 1.9, A: 0.45, alpha: 0.5, B: 40, beta: 0.34, C: 0.01, gamma: 0.2, lambda: 0.999 },
    curves: [
      { name: '25M a', size: 25e6, role: 'fit' },
      { name: '25M b', size: 25e6, role: 'validate' },
      { name: '100M a', size: 100e6, role: 'fit' },
      { name: '100M b', size: 100e6, role: 'validate' },
    ],
  },
  curves: [
    { name: '25M a', size: 25e6, steps: [100, 24000], schedule: { kind: 'cosine', total: 24000, peak: 3e-4 } },
    {
      name: '25M b',
      size: 25e6,
      steps: [100, 72000],
      schedule: { kind: 'explicit', steps: [0, 71920], lr: [3e-4, 4e-4] },
    },
    { name: '100M a', size: 100e6, steps: [100, 24000], schedule: { kind: 'cosine', total: 24000, peak: 3e-4 } },
    { name: '100M b', size: 100e6, steps: [100, 72000], schedule: { kind: 'constant', total: 72000, peak: 3e-4 } },
  ],
  warmup: 2160,
  warmupConvention: 'actual',
};

test('the drop view asks lawcore for the fitted sizes, the unseen one and the curves’ run lengths at their peak', async () => {
  const options = sizeDropOptions({ ...FIT, target: 400e6 });
  assert.deepEqual(options, {
    law: 'size',
    params: FIT.response.params,
    peak: 4e-4,
    warmup: 2160,
    warmupConvention: 'actual',
    sizes: [25e6, 100e6],
    target: 400e6,
    totals: [24000, 72000],
  });
  const r = await analyze({ analysis: 'size-drop', ...options });
  const view = sizeDropView(r, options, { example: true });
  const at = (total, size) => r.points.find((p) => p.total === total && p.size === size).drop;
  const d = (x) => String(Number(x.toPrecision(3)));
  assert.equal(
    view.answer,
    `Extrapolated: N = 400M is 4× the largest size fitted (100M), where the curves held out at the fitted sizes cannot check the law's N terms. Fitted to 25M, 100M (the MultiPowerLaw release’s 25M and 100M runs, an example), the model-size law’s annealing drop (a constant run’s final loss minus that of a WSD run annealing 10% of it) over 72,000 steps is ${d(at(72000, 25e6))} at 25M, ${d(at(72000, 100e6))} at 100M, and ${d(at(72000, 400e6))} predicted at N = 400M: it grows with N as C·S2·N^γ, γ = 0.200.`,
  );
  assert.ok(at(72000, 25e6) < at(72000, 100e6) && at(72000, 100e6) < at(72000, 400e6));
  assert.equal(view.chart.logX, true);
  assert.deepEqual(
    view.chart.lines.map((l) => l.label),
    ['24K steps', '72K steps', 'fitted sizes', 'predicted at N = 400M'],
  );
  assert.match(view.source, /^MultiPowerLaw 25M \+ 100M \(an example\)/);
  // an unseen size among the fitted ones: no warning; the user's curves are said to be theirs
  const near = { ...options, target: 60e6 };
  const mine = sizeDropView(await analyze({ analysis: 'size-drop', ...near }), near, { example: false });
  assert.match(mine.answer, /^Fitted to 25M, 100M \(your curves\)/);
  assert.match(mine.source, /^your curves/);
});
