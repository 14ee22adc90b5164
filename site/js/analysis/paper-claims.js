// The Paper view: the paper's claims as lawcore's `paper` analysis checks them under the
// paper's own Fig. 2 setting, each with its verdict ("reproduced: ..." or "the law says ...",
// lawcore's sentence), grouped section by section, and the view that shows each. Nothing here
// judges a claim: the statuses, verdicts and numbers are lawcore's; this module groups, counts
// and names them. Pure: no DOM, no engine.

/**
 * verdictParts splits lawcore's verdict into its lead ("reproduced:", "the law says", "not
 * checked here:"), which the list sets in bold, and the rest, the space between them kept with
 * the rest: lead + rest is the verdict.
 */
export function verdictParts(verdict) {
  const m = /^(reproduced:|the law says|not checked here:)/.exec(verdict);
  return m ? { lead: m[1], rest: verdict.slice(m[1].length) } : { lead: '', rest: verdict };
}

/** claimSections groups the claims, in the paper's order, by section: [{section, topic, claims}]. */
export function claimSections(claims) {
  const out = [];
  for (const c of claims || []) {
    const last = out[out.length - 1];
    if (last && last.section === c.section && last.topic === c.topic) last.claims.push(c);
    else out.push({ section: c.section, topic: c.topic, claims: [c] });
  }
  return out;
}

/**
 * paperAnswer states the paper analysis's answer in one sentence: how many of the claims checked
 * the law reproduces under the paper's parameters, and which it does not.
 */
export function paperAnswer(r) {
  const differ = r.claims.filter((c) => c.status === 'differs');
  const unchecked = r.claims.filter((c) => c.status === 'not checked');
  const list = (cs) => cs.map((c) => `§${c.section} ${c.topic}`).join('; ');
  let s = `Under the paper's own Fig. 2 parameters, the law reproduces ${r.reproduced} of the ${r.checked} claims checked`;
  if (differ.length) s += `; on ${differ.length} it says otherwise (${list(differ)})`;
  if (unchecked.length)
    s += `; ${unchecked.length} need data the paper does not publish, and their views check them on your curves`;
  return `${s}.`;
}

/** claimOf is the claim of the paper analysis's answer with id, or null. */
export function claimOf(result, id) {
  return (result && Array.isArray(result.claims) && result.claims.find((c) => c.id === id)) || null;
}

/**
 * claimView is the view that shows a claim: lawcore's view when the page has it (views: the
 * page's views, [{id, analysis}]), else the first view of the claim's analysis; 'fit' is the
 * page's own fit of the Fig. 2 curves, not an Analyses view.
 */
export function claimView(claim, views) {
  if (claim.view === 'fit') return 'fit';
  if (views.some((v) => v.id === claim.view)) return claim.view;
  const v = views.find((x) => x.analysis && x.analysis === claim.analysis);
  return v ? v.id : null;
}

/**
 * claimBanner is what a view opened from a claim says above its answer (claim: the store's
 * analysis.claim): "§5.2, Fig. 8 — the law says ...".
 */
export function claimBanner(claim) {
  return `Paper §${claim.section}, ${claim.source}: ${claim.verdict}`;
}
