// Package multipower is the Multi-Power Law of Luo et al. (ICLR 2025, arXiv 2503.12811) as a
// law of lawcore's fit engine:
//
//	L(t)  = L0 + A*(S1(t) + S_W)^(-alpha) - LD(t)
//	LD(t) = B * sum_{k=1..t} (eta_{k-1} - eta_k) * G(eta_k^(-gamma) * S_k(t))
//	G(x)  = 1 - (C*x + 1)^(-beta),   S_k(t) = sum_{tau=k..t} eta_tau
//
// Seven parameters, fitted with the same objective as the annealing law (the summed Huber
// loss of log residuals). As in the authors' released code, the steps count from 0 and the
// warmup is part of the schedule: S1(t) + S_W is the sum of every learning rate from step 0 to
// t (S_W the warmup's area, S1 the rest), and the loss-drop sum runs over every step from 1,
// so the rising warmup enters it with negative terms (a loss increase that the fit absorbs in
// L0 and B). The law's default warmup convention is therefore "actual"; under "peak" the
// warmup's steps count at the peak LR instead, which removes them from the loss drop (on the
// release's curves that predicts worse: held-out PredE 0.0020 against 0.0014).
//
// Besides the engine's search for the objective's minimum, the law has the search "release":
// its authors' own procedure (a grid, L-BFGS on a simpler law, then an early-stopped AdamW),
// which reproduces the release's published parameters and numbers.
//
// # The loss drop, evaluated fast
//
// For an observed step t,
//
//	LD(t)/B = sum_{k=1..t} d_k * G(eta_k^(-gamma) * S_k(t)),   d_k = eta_{k-1} - eta_k,
//	G(x) = 1 - (1 + C*x)^(-beta),   S_k(t) = sum_{tau=k..t} eta_tau = P_t - P_{k-1},
//
// with P the prefix sums of the learning rates. Steps where the learning rate does not change
// (d_k = 0) contribute nothing, so only the n change steps are kept. They are grouped in a
// binary tree whose leaves hold a few consecutive changes. Every node keeps, separately for
// the LR decreases (d_k > 0) and increases (d_k < 0), the mass W = sum |d_k| and the
// W-weighted mean and (co)variances of a_k = ln eta_k and p_k = P_{k-1}, and over all its
// changes the range of a and the p of its first and last change. In u = ln(C x) a change
// sits at u_k = ln C - gamma*a_k + ln(P_t - p_k); with g(u) = G(e^u / C), one sign's part of
// a node is replaced by the second-order expansion about its centroid
// u_c = ln C - gamma*mean(a) + ln R, R = P_t - mean(p):
//
//	sum w_k g(u_k) ~ W (g(u_c) + g'(u_c) m1 + g''(u_c) m2 / 2),
//	m1 = -Vpp/(2R^2),   m2 = gamma^2 Vaa + 2 gamma Vap/R + Vpp/R^2,
//
// m1 and m2 being the mean and mean square of u_k - u_c to second order in the spread. A
// node is grouped when the remainder of that expansion, per unit of mass, is at most tol for
// each part:
//
//	phi^ * (c1 rho sz^2/(3(1-rho)) + c2 k sz (2 sd + k sz)/2 + c3 H (sd + k sz)^2/6) <= tol.
//
// Here every change of the node lies in [uLo, uLo + H], H = gamma*(aMax - aMin) + rho with
// rho = (S_first - S_last)/S_last < 1/2 (>= ln(S_first/S_last)), which also bounds
// |z| = |p_k - mean p|/R; k = rho/(2(1-rho)), so that |ln(1-z) + z| <= k |z|;
// sz = sqrt(Vpp)/R is the spread of z and sd = gamma*sqrt(Vaa) + sz that of u to first
// order. With y = e^u, |g'| = c1 phi(y), |g”| <= c2 phi(y) and |g”'| <= c3 phi(y), where
// phi(y) = y (1+y)^(-beta-1), c1 = beta, c2 = beta*max(1, beta) and
// c3 = beta*max(1, beta^2, (1+3 beta)/2); phi^ bounds phi on [e^uLo, e^(uLo+H)]: its peak
// phi(1/beta) if 1/beta is inside, else e^(uLo+H) below it (phi(y) <= y) or e^(-beta uLo)
// above it (phi(y) <= y^(-beta)). Where beta > 1 a node that fails is tried again with the
// bounds on its own interval: |g^(j)| = beta*phi(y)*|P_j(q)|, q = y/(1+y), P_j a polynomial
// of degree j-1 in q, each largest at an end of the interval (or P_3's vertex) and phi at
// an end or its peak. c2 and c3 grow like beta^2 and beta^3, these do not: at the Fig. 2
// optimum (beta near 3e6, C near 3e-10) the every-y test summed each change on its own,
// 5,600 terms per step of a 24,000-step cosine, against 46.
// The three terms bound the errors of m1 and m2 and the
// third-order Taylor remainder (with E|du|^3 <= H E[du^2]); together they bound the part's
// error by tol * W. Two cases are grouped without the test and without the spread
// corrections (which extreme parameters can make overflow): G = 1 within e^-40 over the node
// (beta*uLo > 40), or, when the test fails, 0 <= G <= beta*y <= tol over it. Nodes that fail
// are split; the changes of a leaf that fails are summed exactly. Hence, for every t and
// every parameter set,
//
//	|LD_grouped(t) - LD(t)| <= tol * B * sum_{k<=t} |eta_{k-1} - eta_k|,
//
// tol times the largest loss drop the changes before t could produce (rounding aside). The
// test depends on C, beta and gamma through the derivatives of G, so groups are wide where G
// is saturated or nearly linear, and narrow only where it bends. The bound is far from
// tight: TestGroupedMatchesNaive measures errors 200 (tol 1e-3) to 1000 (tol 1e-6) times
// below it.
//
// Cost: preparing a schedule of T steps takes O(T) time and O(n) memory for its n changes (a
// schedule that only changes during warmup costs only its warmup). Evaluating LD at one step
// visits O(m log n) nodes for m terms, against t terms for the direct double loop. For
// smooth schedules m grows like the logarithm of the number of changes before t over the
// allowed spread (about tol^(1/3)), plus the warmup's gamma*ln(peak/first LR) over it.
// Measured with the release's parameters (terms per step, mean over steps): a 24,000-step
// cosine with a 2,160-step warmup from 0 takes 48, 82, 147 and 262 terms at tol 1e-3, 1e-4,
// 1e-5 and 1e-6; a WSD or a two-level step schedule half as many; a schedule whose LR changes
// at random every step 58 to 1,240.
//
// While fitting, the grouping is chosen for one set of shape parameters (C, beta, gamma) and
// kept as they move (so that the objective is one smooth function between anchors), and
// chosen again when they have moved by more than refreeze in log: the model is
// lawcore.Anchored.
package multipower
