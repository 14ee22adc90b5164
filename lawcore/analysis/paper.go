package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
)

// The paper's claims, each checked under the paper's own setting (the Fig. 2 fit: L0 2.628,
// A 0.430, C 0.411, alpha 0.550, lambda 0.999; peak 2e-4; 500 warmup steps counted at the
// peak), section by section. Each claim states what the paper says, runs the analysis that
// shows it, and says from the analysis's numbers whether the law reproduces it ("reproduced:
// ...") or says otherwise ("the law says ..."). The rule each check applies is in its
// function in paper_claims.go; paper_test.go asserts every verdict against the numbers, so
// that a change to the engine that flips one fails a test. Each claim also names the page's view that
// draws it and the options that open that view under the paper's setting.
//
// Section numbers are those this project uses throughout (Takeaways Sec. 5, Comparison with
// Chinchilla Sec. 6, Discussion Sec. 7); each claim also gives its section's topic and
// figure or table, which locate it in any version of the paper.

// Claim statuses.
const (
	// ClaimReproduced: the law under the paper's setting gives what the paper says.
	ClaimReproduced = "reproduced"
	// ClaimDiffers: the law under the paper's setting says otherwise.
	ClaimDiffers = "differs"
	// ClaimNotChecked: the paper's setting cannot check it (it needs data the paper does not
	// publish); its view shows how to check it on curves of one's own.
	ClaimNotChecked = "not checked"
)

// PaperOptions asks for the paper's claims.
type PaperOptions struct {
	// Claims are the ids of the claims to check (default: every one). The answer keeps the
	// paper's order.
	Claims []string `json:"claims,omitempty"`
	// Tuples is the number of random parameter tuples of the reduction to Chinchilla (default
	// 1000, the paper's).
	Tuples int `json:"tuples"`
}

// DefaultPaperOptions checks every claim, the reduction to Chinchilla over the paper's 1000
// tuples.
func DefaultPaperOptions() PaperOptions { return PaperOptions{Tuples: 1000} }

// ClaimNumber is one number behind a verdict.
type ClaimNumber struct {
	// What names the number: "final loss, constant, 10K steps".
	What string `json:"what"`
	// Law is the law's value under the paper's setting.
	Law float64 `json:"law"`
	// Paper is the value the paper prints, when it prints one.
	Paper *float64 `json:"paper,omitempty"`
}

// PaperClaim is one of the paper's claims and what the law says of it.
type PaperClaim struct {
	// ID names the claim in requests ("cosine-cycle").
	ID string `json:"id"`
	// Section is where the paper makes it ("5.2"); Topic the section's subject and Source its
	// figure or table ("Fig. 8").
	Section string `json:"section"`
	Topic   string `json:"topic"`
	Source  string `json:"source"`
	// Statement is what the paper says, close to its words.
	Statement string `json:"statement"`
	// Status is ClaimReproduced, ClaimDiffers or ClaimNotChecked.
	Status string `json:"status"`
	// Verdict is one sentence with the numbers: "reproduced: ...", "the law says ..." or
	// "not checked here: ...".
	Verdict string `json:"verdict"`
	// Numbers are the numbers behind the verdict.
	Numbers []ClaimNumber `json:"numbers"`
	// View names the page's view that draws the claim: an analysis's view (its name, or
	// "wsd-s1", "rewarmup-peak", "rewarmup-length", "lambda-delay"), "size-drop" (the
	// model-size view) or "fit" (the page's own fit of the Fig. 2 curves).
	View string `json:"view"`
	// Analysis and Options, when the view is an analysis's, are that analysis and the options
	// that compute it under the paper's setting (its parameters, peak and warmup among them).
	Analysis string         `json:"analysis,omitempty"`
	Options  map[string]any `json:"options,omitempty"`
}

// PaperResult holds the claims checked.
type PaperResult struct {
	Claims []PaperClaim `json:"claims"`
	// Checked counts the claims checked (not ClaimNotChecked); Reproduced those reproduced.
	Checked    int `json:"checked"`
	Reproduced int `json:"reproduced"`
	// Table has one row per number: section, claim, what, the law, the paper, status.
	Table Table `json:"table"`
	// Setup is the paper's setting the claims were checked under.
	Setup Setup `json:"setup"`
}

// paperClaim is a claim's text, view and check.
type paperClaim struct {
	id, section, topic, source, statement string
	view, analysis                        string
	// options are the view's options besides the paper's setting.
	options func() map[string]any
	// check computes the claim's status, verdict and numbers (nil: ClaimNotChecked, with the
	// verdict notChecked).
	check      func(*paperCheck) (string, string, []ClaimNumber, error)
	notChecked string
}

// paperClaims are the claims in the paper's order.
var paperClaims = []paperClaim{
	{id: "fit", section: "4", topic: "Fitting and prediction", source: "Fig. 2",
		statement: "Fitted to the constant and cosine runs of 20K steps, the law is L(s) = 2.628 + 0.429·S1^−0.550 − 0.411·S2: an almost perfect fit (R² > 0.999).",
		view:      "fit", check: claimFit},
	{id: "prediction", section: "4", topic: "Fitting and prediction", source: "Fig. 3",
		statement:  "With those parameters the law predicts unseen 60K-step schedules (constant, cosine, multi-step cosine, WSD, and a schedule with re-warmups) with a mean error of about 0.2%.",
		view:       "fit",
		notChecked: "not checked here: the paper publishes the 60K runs' losses as figures only. The Fig. 2 example predicts these schedules from the fit, to set beside the paper's Fig. 3."},
	{id: "model-size", section: "4.4", topic: "Extension to model size", source: "Fig. 4",
		statement:  "The loss drop that annealing brings grows with the model size N; the N-extended law L0 + A·S1^−α + B·N^−β − C·S2·N^γ fits several sizes (R² > 0.998) and predicts an unseen larger one (1,214M).",
		view:       "size-drop",
		notChecked: "not checked here: the Fig. 2 parameters are of one model (594M). The model-size view fits the N-extended law to curves of several sizes (yours, or the MultiPowerLaw release's 25M and 100M runs as an example), draws the annealing drop against N and predicts an unseen N."},
	{id: "sharp-drop", section: "5.1", topic: "Why the loss drops sharply when the LR anneals", source: "Fig. 7",
		statement: "In a WSD schedule's annealing stage the −C·S2 term lowers the loss much more than the S1 term does: annealing grows the annealing area, and the loss drops sharply.",
		view:      "decomposition", analysis: "decomposition", check: claimSharpDrop},
	{id: "cosine-cycle", section: "5.2", topic: "Cosine cycle length and minimum LR", source: "Fig. 8",
		statement: "A cosine cycle T equal to the total steps S and a minimum LR of 0 (rather than 10% of the peak) give the lowest final loss: T > S anneals incompletely, T < S anneals early.",
		view:      "cosine-cycle", analysis: "cosine-cycle", check: claimCosineCycle},
	{id: "constant-vs-cosine", section: "5.3", topic: "Constant against cosine", source: "Fig. 9",
		statement: "A constant LR ends lower than a cosine for few total steps (10K), the cosine lower for many (100K).",
		view:      "constant-vs-cosine", analysis: "constant-vs-cosine", check: claimConstantVsCosine},
	{id: "wsd-vs-cosine", section: "5.4", topic: "WSD and multi-step cosine against cosine", source: "Fig. 10",
		statement: "WSD ends as low as cosine or lower: it gives up a little annealing area (C·S2 slightly smaller) for much more forward area (A·S1^−α much lower).",
		view:      "decomposition", analysis: "decomposition", check: claimAgainstCosine(1)},
	{id: "multistep-vs-cosine", section: "5.4", topic: "WSD and multi-step cosine against cosine", source: "Fig. 10",
		statement: "Multi-step cosine ends as low as cosine or lower: it gives up a little annealing area (C·S2 slightly smaller) for much more forward area (A·S1^−α much lower).",
		view:      "decomposition", analysis: "decomposition", check: claimAgainstCosine(2)},
	{id: "wsd-ratio", section: "5.5", topic: "The optimal annealing ratio of WSD", source: "Fig. 11",
		statement: "The final loss against the WSD annealing ratio is parabola-like: a moderate ratio, typically around 10% to 20%, is optimal.",
		view:      "wsd-ratio", analysis: "wsd-ratio", check: claimWSDRatio},
	{id: "anneal-function", section: "5.6", topic: "The annealing function of WSD", source: "Fig. 13",
		statement: "At 50K steps 1-sqrt annealing ends lower than cosine annealing at a 10% annealing ratio, and higher at 50%.",
		view:      "anneal-function", analysis: "anneal-function",
		options: func() map[string]any { return map[string]any{"shapes": []string{"cosine", "1-sqrt"}} },
		check:   claimAnnealFunction},
	{id: "rewarmup-peak", section: "5.7", topic: "Continual pre-training: the re-warmup peak", source: "Fig. 14a",
		statement: "In continual pre-training a higher re-warmup peak LR gives a higher bump in the loss, followed by a faster fall.",
		view:      "rewarmup-peak", analysis: "rewarmup", check: claimRewarmupPeak},
	{id: "rewarmup-length", section: "5.8", topic: "Continual pre-training: the re-warmup length", source: "Fig. 14b",
		statement: "The number of re-warmup steps has little effect on the final loss.",
		view:      "rewarmup-length", analysis: "rewarmup", check: claimRewarmupLength},
	{id: "chinchilla", section: "6.1", topic: "Reduction to the Chinchilla law", source: "Table 2",
		statement: "The final losses the law predicts over total steps from 5K to 60K fit L = L0 + A·D^−α: over 1,000 random parameter tuples, mean R² 0.972 (cosine, std 0.056) and 0.979 (WSD with 10% annealing, std 0.053).",
		view:      "chinchilla", analysis: "chinchilla", check: claimChinchilla},
	{id: "compute", section: "6.2", topic: "Compute to fit", source: "Table 3",
		statement: "Collecting 100 fitting points costs Chinchilla with cosine 100% (5,050K steps), with WSD 21.6% (20% annealing) or 11.8% (10%); this law, one run, under 1%.",
		view:      "compute", analysis: "compute", check: claimCompute},
	{id: "lambda-delay", section: "7.1", topic: "The decay factor λ", source: "Fig. 15",
		statement: "A larger decay factor λ gives a longer delay between the LR's annealing and the loss's response (λ = 0.999 against 0.99, the law fitted for each).",
		view:      "lambda-delay", analysis: "lambda", options: lambdaClaimOptions, check: claimLambdaDelay},
	{id: "lambda-ratio", section: "7.1", topic: "The decay factor λ", source: "Fig. 16",
		statement: "A larger decay factor λ favours a larger WSD annealing ratio (λ = 0.999 against 0.99, the law fitted for each).",
		view:      "lambda", analysis: "lambda", options: lambdaClaimOptions, check: claimLambdaRatio},
	{id: "lambda-window", section: "7.1", topic: "The decay factor λ", source: "text",
		statement: "The annealing momentum keeps about 1/(1−λ) steps of history, 1,000 at λ = 0.999: this window could be very close to the optimal number of annealing steps.",
		view:      "wsd-ratio", analysis: "wsd-ratio", check: claimLambdaWindow},
}

// lambdaClaimOptions refit the law to the Fig. 2 curves for each lambda, as the paper does.
func lambdaClaimOptions() map[string]any {
	f := Fig2Fit()
	return map[string]any{"fit": map[string]any{"curves": f.Curves, "warmupSteps": f.WarmupSteps,
		"warmupConvention": f.WarmupConvention, "huberDelta": f.HuberDelta}}
}

// PaperClaimIDs lists the claims' ids in the paper's order.
func PaperClaimIDs() []string {
	ids := make([]string, len(paperClaims))
	for i, c := range paperClaims {
		ids[i] = c.id
	}
	return ids
}

// paperCheck is one call of the paper analysis: the paper's setting and what several claims
// share, each computed once, when first asked for.
type paperCheck struct {
	w      *work
	o      PaperOptions
	e      *evaluator
	fits   map[float64]*lawcore.FitResult // the Fig. 2 fit by lambda
	decomp *DecompositionResult
	wsd    *WSDRatioResult
	lambda *LambdaResult
	rewarm *RewarmupResult
}

// sub is the progress function of an analysis run within the claim under way.
func (pc *paperCheck) sub() func(float64) { return pc.w.within }

// fig2 is the Fig. 2 fit with lambda held at the given value.
func (pc *paperCheck) fig2(lambda float64) (*lawcore.FitResult, annealing.Params, error) {
	if pc.fits[lambda] == nil {
		req := Fig2Fit()
		req.Lambda = lawcore.FixedLambda(lambda)
		res, err := lawcore.Fit(pc.w.ctx, req, pc.sub())
		if err != nil {
			return nil, annealing.Params{}, err
		}
		pc.fits[lambda] = res
	}
	p, err := annealing.ParamsOf(pc.fits[lambda].Params)
	return pc.fits[lambda], p, err
}

func (pc *paperCheck) decomposition() (*DecompositionResult, error) {
	if pc.decomp == nil {
		var err error
		if pc.decomp, err = Decompose(pc.w.ctx, DefaultDecompositionOptions(), pc.sub()); err != nil {
			return nil, err
		}
	}
	return pc.decomp, nil
}

// paperRatios are the annealing ratios the claims sweep: the ends of the views' grid (2% and
// 80%) and fewer between. Each optimum is refined by golden-section search between its grid
// neighbours, so that it is the one the views find on their finer grid.
var paperRatios = []float64{0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8}

func (pc *paperCheck) wsdRatio() (*WSDRatioResult, error) {
	if pc.wsd == nil {
		o := DefaultWSDRatioOptions()
		o.Ratios = paperRatios
		var err error
		if pc.wsd, err = WSDRatio(pc.w.ctx, o, pc.sub()); err != nil {
			return nil, err
		}
	}
	return pc.wsd, nil
}

func (pc *paperCheck) rewarmup() (*RewarmupResult, error) {
	if pc.rewarm == nil {
		var err error
		if pc.rewarm, err = Rewarmup(pc.w.ctx, DefaultRewarmupOptions(), pc.sub()); err != nil {
			return nil, err
		}
	}
	return pc.rewarm, nil
}

// lambdaRefitted is the lambda analysis with the law refitted to the Fig. 2 curves for each
// lambda (the fits shared with the fit claim's).
func (pc *paperCheck) lambdaRefitted() (*LambdaResult, error) {
	if pc.lambda == nil {
		o := DefaultLambdaOptions()
		o.Ratios = paperRatios
		for _, l := range o.Lambdas {
			_, p, err := pc.fig2(l)
			if err != nil {
				return nil, err
			}
			o.ParamsByLambda = append(o.ParamsByLambda, p)
		}
		var err error
		if pc.lambda, err = Lambda(pc.w.ctx, o, pc.sub()); err != nil {
			return nil, err
		}
	}
	return pc.lambda, nil
}

// Paper checks the paper's claims under its setting.
func Paper(ctx context.Context, o PaperOptions, progress func(float64)) (answer *PaperResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	if o.Tuples == 0 {
		o.Tuples = DefaultPaperOptions().Tuples
	}
	if o.Tuples < 1 || o.Tuples > 20000 {
		return nil, input.Errorf("", "tuples", "must be from 1 to 20000, got %d", o.Tuples)
	}
	ids := PaperClaimIDs()
	for i, id := range o.Claims {
		if !slices.Contains(ids, id) {
			return nil, input.Errorf("", fmt.Sprintf("claims[%d]", i), "no claim %q: one of %s", id, strings.Join(ids, ", "))
		}
	}
	setup := DefaultSetup()
	e, _, err := setup.evaluator(w)
	if err != nil {
		return nil, err
	}
	pc := &paperCheck{w: w, o: o, e: e, fits: map[float64]*lawcore.FitResult{}}
	res := &PaperResult{Setup: setup,
		Table: Table{Columns: []string{"section", "claim", "number", "the law", "the paper", "status"}}}
	var todo []paperClaim
	for _, c := range paperClaims {
		if len(o.Claims) == 0 || slices.Contains(o.Claims, c.id) {
			todo = append(todo, c)
		}
	}
	w.plan(len(todo))
	for _, c := range todo {
		claim := PaperClaim{ID: c.id, Section: c.section, Topic: c.topic, Source: c.source, Statement: c.statement,
			View: c.view, Analysis: c.analysis, Status: ClaimNotChecked, Verdict: c.notChecked}
		if c.analysis != "" {
			claim.Options = paperSetupOptions()
			if c.options != nil {
				for k, v := range c.options() {
					claim.Options[k] = v
				}
			}
		}
		if c.check != nil {
			if claim.Status, claim.Verdict, claim.Numbers, err = c.check(pc); err != nil {
				return nil, err
			}
			res.Checked++
			if claim.Status == ClaimReproduced {
				res.Reproduced++
			}
		}
		for _, n := range claim.Numbers {
			var paper any
			if n.Paper != nil {
				paper = *n.Paper
			}
			res.Table.addRow("§"+c.section, c.id, n.What, n.Law, paper, claim.Status)
		}
		res.Claims = append(res.Claims, claim)
		w.stageDone()
	}
	return res, nil
}

// paperSetupOptions are the paper's setting as an analysis's options: the Fig. 2 parameters,
// peak and warmup.
func paperSetupOptions() map[string]any {
	s := DefaultSetup()
	return map[string]any{"law": s.Law, "params": s.Params, "peak": s.Peak, "warmup": s.Warmup, "warmupConvention": s.WarmupConvention}
}
