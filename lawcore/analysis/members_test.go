package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/multipower"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// annealingMember is the annealing law with p under conv, of weight w.
func annealingMember(p annealing.Params, conv schedule.Convention, w float64) lawcore.Member {
	return lawcore.Member{Candidate: lawcore.Candidate{Law: annealing.Name, Convention: conv}, Params: p.Values(), Weight: w}
}

// mplMember is the Multi-Power Law with its defaults under its own convention, of weight w.
func mplMember(t *testing.T, w float64) lawcore.Member {
	t.Helper()
	law, err := lawcore.Lookup(multipower.Name)
	if err != nil {
		t.Fatal(err)
	}
	return lawcore.Member{Candidate: lawcore.Candidate{Law: multipower.Name}, Params: law.Spec().Values(law.Spec().Defaults()), Weight: w}
}

// perturbedReplicates are ten parameter sets around p, each moving C, alpha and L0 a little
// (a jackknife's replicates, without a fit).
func perturbedReplicates(p annealing.Params) []lawcore.Values {
	var out []lawcore.Values
	for i := range 10 {
		q := p
		q.C *= 1 + 0.03*math.Sin(float64(i)+0.5)
		q.Alpha *= 1 + 0.01*math.Cos(1.7*float64(i))
		q.L0 += 0.002 * math.Sin(2.3*float64(i))
		out = append(out, q.Values())
	}
	return out
}

// answerWithoutSetup is an analysis's answer as JSON, its echo of the setup left out.
func answerWithoutSetup(t *testing.T, request map[string]any) string {
	t.Helper()
	data, err := json.Marshal(request)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), data, nil)
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "setup")
	out, _ = json.Marshal(m)
	return string(out)
}

// One member is the law itself: a setup whose members are its law and parameters alone (of
// any weight, scaled to one) gives every analysis's answer bit for bit, its replicates' too.
func TestOneMemberIsTheLaw(t *testing.T) {
	fig2 := Fig2Params()
	reps := perturbedReplicates(fig2)
	mpl := mplMember(t, 0.4)
	cases := []struct {
		name    string
		request map[string]any
		member  lawcore.Member
	}{
		{"decomposition", map[string]any{"analysis": "decomposition", "total": 20000}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"cosine-cycle", map[string]any{"analysis": "cosine-cycle", "total": 20000, "cycles": []float64{0.5, 1, 2}, "floors": []float64{0, 0.1}}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"constant-vs-cosine", map[string]any{"analysis": "constant-vs-cosine", "count": 8}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"constant-vs-cosine, replicates", map[string]any{"analysis": "constant-vs-cosine", "count": 8, "replicates": reps}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"wsd-ratio", map[string]any{"analysis": "wsd-ratio", "totals": []int{20000, 50000}}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"wsd-ratio, weight 0.3", map[string]any{"analysis": "wsd-ratio", "totals": []int{20000}}, annealingMember(fig2, schedule.WarmupPeak, 0.3)},
		{"wsd-ratio, replicates", map[string]any{"analysis": "wsd-ratio", "totals": []int{20000}, "replicates": reps}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"wsd-ratio, as run", map[string]any{"analysis": "wsd-ratio", "totals": []int{20000}, "warmupConvention": "actual"}, annealingMember(fig2, schedule.WarmupActual, 1)},
		{"wsd-ratio, multi-power", map[string]any{"analysis": "wsd-ratio", "law": multipower.Name, "totals": []int{20000}}, mpl},
		{"anneal-function, replicates", map[string]any{"analysis": "anneal-function", "total": 20000, "replicates": reps}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"rewarmup", map[string]any{"analysis": "rewarmup", "firstTotal": 10000, "secondTotal": 10000, "peaks": []float64{0.5, 1}, "lengths": []int{100, 1000}}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"lambda", map[string]any{"analysis": "lambda", "totals": []int{20000}, "delayDecays": []int{500}}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"optimize, replicates", map[string]any{"analysis": "optimize", "total": 10000, "knots": 12, "replicates": reps}, annealingMember(fig2, schedule.WarmupPeak, 1)},
		{"optimize, multi-power", map[string]any{"analysis": "optimize", "law": multipower.Name, "total": 10000, "families": []string{"wsd", "free"}}, mpl},
		{"chinchilla", map[string]any{"analysis": "chinchilla", "tuples": 20}, annealingMember(fig2, schedule.WarmupPeak, 1)},
	}
	for _, c := range cases {
		c.request["points"] = 60
		law := answerWithoutSetup(t, c.request)
		c.request["members"] = []lawcore.Member{c.member}
		if got := answerWithoutSetup(t, c.request); got != law {
			t.Errorf("%s: one member answers\n%.400s\nthe law answers\n%.400s", c.name, got, law)
		}
	}
}

// An average of two members is their weighted average, as lawcore.Predict gives it: the WSD
// sweep's final losses are the weights (scaled to sum to one) times each member's own, and its
// optima and their curves are lawcore.Predict's with the members.
func TestTwoMembersAverage(t *testing.T) {
	fig2 := Fig2Params()
	other := fig2
	other.C, other.Alpha, other.L0 = 0.5, 0.5, 2.6
	cases := []struct {
		name    string
		members []lawcore.Member
	}{
		{"warmup at the peak and as run", []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, 3), annealingMember(fig2, schedule.WarmupActual, 1)}},
		{"two parameter sets", []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, 0.6), annealingMember(other, schedule.WarmupPeak, 0.4)}},
		{"two laws", []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, 0.5), mplMember(t, 0.5)}},
	}
	for _, c := range cases {
		o := DefaultWSDRatioOptions()
		o.Totals, o.Points, o.Members = []int{20000, 50000}, 60, c.members
		res, err := WSDRatio(context.Background(), o, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sum := 0.0
		for _, m := range c.members {
			sum += m.Weight
		}
		own := make([]*WSDRatioResult, len(c.members))
		for k, m := range c.members {
			a := o
			a.Members, a.Law, a.Params, a.WarmupConvention = nil, m.Law, m.Params, string(m.Convention)
			if own[k], err = WSDRatio(context.Background(), a, nil); err != nil {
				t.Fatal(err)
			}
		}
		for i, s := range res.ByRatio {
			for j, y := range s.Y {
				want := 0.0
				for k, m := range c.members {
					want += m.Weight / sum * own[k].ByRatio[i].Y[j]
				}
				if !closeRel(y, want, 1e-12) {
					t.Errorf("%s: %s, ratio %g: final loss %.12g, the weighted members' %.12g", c.name, s.Name, s.X[j], y, want)
				}
			}
		}
		for i, opt := range res.Optima {
			sched := wsdSchedule(opt.Total, o.Peak, o.Warmup, o.Decay, o.Floor, opt.DecaySteps)
			curve := res.Curves[i]
			pr, err := lawcore.Predict(lawcore.PredictRequest{Members: c.members,
				Curves: []lawcore.PredictCurve{{Schedule: &sched, Steps: curve.Steps}}})
			if err != nil {
				t.Fatal(err)
			}
			if !closeRel(opt.Final.Loss, pr[0].FinalLoss, 1e-13) || curve.Final.Loss != opt.Final.Loss {
				t.Errorf("%s: optimum at %d steps ends at %.12g (curve %.12g), lawcore.Predict %.12g", c.name, opt.Total, opt.Final.Loss, curve.Final.Loss, pr[0].FinalLoss)
			}
			for j := range curve.Loss {
				if !closeRel(curve.Loss[j], pr[0].Loss[j], 1e-13) {
					t.Fatalf("%s: step %g: %.12g, lawcore.Predict %.12g", c.name, curve.Steps[j], curve.Loss[j], pr[0].Loss[j])
				}
			}
		}
		t.Logf("%s: optima %.4f (%.4f), %.4f (%.4f)", c.name, res.Optima[0].Ratio, res.Optima[0].Final.Loss, res.Optima[1].Ratio, res.Optima[1].Final.Loss)
	}
}

// decisions are what an analysis of choices decides under uncertainty, without the final
// losses' own half-widths: which WSD ratios are tied with the best, which decay shapes are
// told apart, where the cosine may overtake the constant, which families are tied with the
// best.
type decisions struct {
	Tied      []RatioSpan
	Apart     []bool
	Margins   []float64
	Crossover Crossover
	Families  []bool
}

// decide runs the four analyses of choices on the setup.
func decide(t *testing.T, s Setup) (decisions, *WSDRatioResult, *OptimizeResult) {
	t.Helper()
	var d decisions
	ctx := context.Background()
	w := DefaultWSDRatioOptions()
	w.Setup, w.Totals = s, []int{20000, 50000}
	wr, err := WSDRatio(ctx, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range wr.Optima {
		d.Tied = append(d.Tied, *o.Tied)
	}
	a := DefaultAnnealFunctionOptions()
	a.Setup, a.Total = s, 20000
	ar, err := AnnealFunction(ctx, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, win := range ar.Winners {
		d.Apart, d.Margins = append(d.Apart, *win.Apart), append(d.Margins, win.MarginPlusMinus)
	}
	c := DefaultConstantVsCosineOptions()
	c.Setup, c.Count = s, 12
	cr, err := ConstantVsCosine(ctx, c, nil)
	if err != nil || cr.Crossover == nil {
		t.Fatalf("%v, crossover %v", err, cr.Crossover)
	}
	d.Crossover = *cr.Crossover
	o := DefaultOptimizeOptions()
	o.Setup, o.Total, o.Families = s, 20000, []string{FamilyWSD, FamilyCosine, FamilyStepDrop}
	or, err := OptimizeSchedule(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range or.Best {
		d.Families = append(d.Families, *b.TiedWithBest)
	}
	return d, wr, or
}

// A band's replicates decide as the setup's replicates do when they are the same sets: the
// same ratios tied, shapes told apart, crossover span and families tied, of a law alone and
// of an average (the heaviest member's replicates when the members' counts differ). A final
// loss's own half-width is the band's at its last step, wider than the replicates' alone.
func TestBandReplicatesDecideAsReplicates(t *testing.T) {
	fit := fig2WithReplicates(t)
	band := lawcore.PriorBand(fit)
	law := DefaultSetup()
	law.Params = fit.Params
	p, err := annealing.ParamsOf(fit.Params)
	if err != nil {
		t.Fatal(err)
	}
	average := law
	average.Members = []lawcore.Member{annealingMember(p, schedule.WarmupPeak, 0.7), annealingMember(p, schedule.WarmupActual, 0.3)}
	averageBand := *band
	averageBand.Replicates = []lawcore.Replicates{fit.ReplicatesOf(), {}}
	// the half-widths hold the member without replicates at its parameters too
	heldBand := *band
	heldBand.Replicates = []lawcore.Replicates{fit.ReplicatesOf(), {Sets: []lawcore.Values{fit.Params}}}
	for _, c := range []struct {
		name       string
		s          Setup
		band, held *lawcore.Band
	}{{"the law", law, band, band}, {"an average", average, &averageBand, &heldBand}} {
		byReplicates, byBand := c.s, c.s
		byReplicates.Replicates = fit.Replicates
		byBand.Band = c.band
		want, wsdR, _ := decide(t, byReplicates)
		got, wsdB, opt := decide(t, byBand)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the band's replicates decide\n%+v\nthe setup's\n%+v", c.name, got, want)
		}
		for i, o := range wsdB.Optima {
			sched := wsdSchedule(o.Total, byBand.Peak, byBand.Warmup, "cosine", 0, o.DecaySteps)
			pr, err := lawcore.Predict(lawcore.PredictRequest{Params: byBand.Params, Members: byBand.Members, Band: c.held,
				WarmupConvention: byBand.WarmupConvention, Curves: []lawcore.PredictCurve{{Schedule: &sched, Steps: []float64{float64(o.Total)}}}})
			if err != nil {
				t.Fatal(err)
			}
			if hw := (pr[0].Upper[0] - pr[0].Lower[0]) / 2; o.PlusMinus != hw || !(o.PlusMinus > wsdR.Optima[i].PlusMinus) {
				t.Errorf("%s: at %d steps ± %.5f, the band's %.5f, the replicates' alone %.5f", c.name, o.Total, o.PlusMinus, hw, wsdR.Optima[i].PlusMinus)
			}
		}
		for _, b := range opt.Best {
			if !(b.PlusMinus > 0) {
				t.Errorf("%s: %s ± %g", c.name, b.Family, b.PlusMinus)
			}
		}
		t.Logf("%s: %s", c.name, wsdB.Verdict)
	}
}

// With paired replicates, replicate b of an average is each member at its replicate b: an
// average of one law with itself (its weights halved) decides as the law does.
func TestPairedBandReplicates(t *testing.T) {
	fit := fig2WithReplicates(t)
	p, err := annealing.ParamsOf(fit.Params)
	if err != nil {
		t.Fatal(err)
	}
	law := DefaultSetup()
	law.Params, law.Band = fit.Params, lawcore.PriorBand(fit)
	twice := law
	twice.Members = []lawcore.Member{annealingMember(p, schedule.WarmupPeak, 0.5), annealingMember(p, schedule.WarmupPeak, 0.5)}
	b := *law.Band
	b.Replicates = []lawcore.Replicates{fit.ReplicatesOf(), fit.ReplicatesOf()}
	twice.Band = &b
	o := DefaultWSDRatioOptions()
	o.Totals = []int{20000, 50000}
	o.Setup = law
	one, err := WSDRatio(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Setup = twice
	two, err := WSDRatio(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Optima {
		a, b := one.Optima[i], two.Optima[i]
		if *a.Tied != *b.Tied || a.DecaySteps != b.DecaySteps || !closeRel(a.PlusMinus, b.PlusMinus, 1e-9) {
			t.Errorf("at %d steps: the law %+v ± %g, tied %+v; the average %+v ± %g, tied %+v", a.Total, a.Ratio, a.PlusMinus, *a.Tied, b.Ratio, b.PlusMinus, *b.Tied)
		}
	}
}

// Bad members, and band replicates that do not match them, give an *input.Error naming the
// member or the replicates at fault.
func TestMembersErrorsNameTheMember(t *testing.T) {
	fig2 := Fig2Params()
	good := annealingMember(fig2, schedule.WarmupPeak, 1)
	negativeA := fig2
	negativeA.A = -1
	noA := fig2.Values()
	delete(noA, "A")
	fit := lawcore.Band{Level: 0.9, Quantile: 1.8, Replicates: []lawcore.Replicates{{Sets: perturbedReplicates(fig2)}}}
	badSet := fit
	badSet.Replicates = []lawcore.Replicates{{Sets: append(perturbedReplicates(fig2)[:2:2], negativeA.Values())}}
	cases := []struct {
		name    string
		members []lawcore.Member
		band    *lawcore.Band
		want    string
	}{
		{"negative weight", []lawcore.Member{good, annealingMember(fig2, schedule.WarmupPeak, -0.5)}, nil, "members[1] (annealing): weight: must be a number of 0 or more, got -0.5"},
		{"NaN weight", []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, math.NaN())}, nil, "members[0] (annealing): weight"},
		{"weights of 0", []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, 0)}, nil, "members: the weights sum to 0"},
		{"negative A", []lawcore.Member{good, annealingMember(negativeA, schedule.WarmupPeak, 1)}, nil, "members[1] (annealing): params: A: "},
		{"missing A", []lawcore.Member{good, {Candidate: lawcore.Candidate{Law: annealing.Name}, Params: noA, Weight: 1}}, nil, "members[1] (annealing): params: A: missing"},
		{"unknown law", []lawcore.Member{good, {Candidate: lawcore.Candidate{Law: "chinchilla"}, Params: noA, Weight: 1}}, nil, "members[1] (chinchilla)"},
		{"bad convention", []lawcore.Member{annealingMember(fig2, "both", 1), good}, nil, "members[0] (annealing): warmupConvention"},
		{"band replicates of another count", []lawcore.Member{good, good}, &fit, "band: replicates: one per member of the prediction (2, in their order), got 1"},
		{"a bad band replicate", nil, &badSet, "band.replicates[0].sets[2]: params: A: "},
	}
	for _, c := range cases {
		o := DefaultWSDRatioOptions()
		o.Totals, o.Members, o.Band = []int{20000}, c.members, c.band
		_, err := WSDRatio(context.Background(), o, nil)
		var ie *input.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an *input.Error with %q", c.name, err, c.want)
		}
	}
}

// The analyses of the annealing law's own structure take an average's heaviest member alone
// and say so, or say which law they need; the optimiser searches the free form of an average
// of annealing laws by its averaged gradient, and leaves it out of an average with another
// law, naming the member.
func TestAnnealingAnalysesOfAnAverage(t *testing.T) {
	fig2 := Fig2Params()
	other := fig2
	other.C = 0.5
	ctx := context.Background()

	l := DefaultLambdaOptions()
	l.Totals, l.DelayDecays = []int{20000}, []int{500}
	alone, err := Lambda(ctx, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Members = []lawcore.Member{annealingMember(other, schedule.WarmupActual, 0.2), annealingMember(fig2, schedule.WarmupPeak, 0.8)}
	heaviest, err := Lambda(ctx, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(heaviest.Note, "heaviest member of the average (members[1], weight 0.8") || !reflect.DeepEqual(heaviest.Optima, alone.Optima) {
		t.Errorf("note %q; optima %+v, the heaviest member's alone %+v", heaviest.Note, heaviest.Optima, alone.Optima)
	}
	l.Members = []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, 0.2), mplMember(t, 0.8)}
	if _, err := Lambda(ctx, l, nil); err == nil || !strings.Contains(err.Error(), "members[1]: the lambda analysis needs the annealing law") {
		t.Errorf("lambda of an average led by the Multi-Power Law: %v", err)
	}
	ch := DefaultChinchillaOptions()
	ch.Tuples, ch.Members = 5, []lawcore.Member{annealingMember(other, schedule.WarmupPeak, 0.6), annealingMember(fig2, schedule.WarmupPeak, 0.4)}
	if res, err := ChinchillaReduction(ctx, ch, nil); err != nil || !strings.Contains(res.Note, "members[0]") {
		t.Errorf("reduction to Chinchilla of an average: %v", err)
	}

	o := DefaultOptimizeOptions()
	o.Total, o.Knots, o.Families = 20000, 12, []string{FamilyWSD, FamilyFree, FamilyStepDrop}
	o.Members = []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, 0.5), annealingMember(other, schedule.WarmupActual, 0.5)}
	res, err := OptimizeSchedule(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Best) != 3 || res.Note != "" {
		t.Errorf("an average of annealing laws: families %v, note %q", res.Ranking, res.Note)
	}
	for _, b := range res.Best {
		t.Logf("%s: %s, %.5f", b.Family, b.Description, b.Final.Loss)
	}
	o.Members[1] = mplMember(t, 0.5)
	res, err = OptimizeSchedule(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "free and step-drop left out: members[1] (multi-power) of the average has no closed-form gradient"; len(res.Best) != 1 || !strings.HasPrefix(res.Note, want) {
		t.Errorf("an average with the Multi-Power Law: families %v, note %q, want %q", res.Ranking, res.Note, want)
	}
}

// The free form's gradient of an average of annealing laws agrees with central differences.
func TestFreeFormGradientOfAnAverage(t *testing.T) {
	p := Fig2Params()
	q := p
	q.C, q.Alpha, q.Lambda = 0.5, 0.45, 0.995
	f := newFreeForm(p, schedule.WarmupPeak, 5000, 100, 2e-4, 12)
	f.average = []annealingTerm{{p: p, conv: schedule.WarmupPeak, weight: 0.3}, {p: q, conv: schedule.WarmupActual, weight: 0.7}}
	z := f.zFor(func(step int) float64 { return float64(5000-step) / 2000 })
	z[3], z[7] = 0.3, -1.2
	grad := make([]float64, len(z))
	f.value(z, grad)
	for j := 1; j < len(z); j++ {
		h := 1e-6
		keep := z[j]
		z[j] = keep + h
		up := f.value(z, nil)
		z[j] = keep - h
		down := f.value(z, nil)
		z[j] = keep
		if fd := (up - down) / (2 * h); !(math.Abs(fd-grad[j]) <= 1e-6*math.Max(1e-3, math.Abs(fd))) {
			t.Errorf("dL/dz_%d = %.9g, finite difference %.9g", j, grad[j], fd)
		}
	}
	e := newEvaluator([]member{
		{law: annealing.Law, theta: mustTheta(t, p), conv: schedule.WarmupPeak, weight: 0.3},
		{law: annealing.Law, theta: mustTheta(t, q), conv: schedule.WarmupActual, weight: 0.7}}, nil)
	out, err := e.final(f.schedule(z))
	if err != nil {
		t.Fatal(err)
	}
	if l := f.value(z, nil); !closeRel(out.Loss, l, 1e-12) {
		t.Errorf("schedule %.12g, parameterisation %.12g", out.Loss, l)
	}
}

// mustTheta is the annealing law's parameter vector of p.
func mustTheta(t *testing.T, p annealing.Params) []float64 {
	t.Helper()
	theta, err := annealing.Law.Spec().Theta(p.Values())
	if err != nil {
		t.Fatal(err)
	}
	return theta
}

// A request carries the members and the band as a fit's answer gives them (JSON), to every
// analysis: the compute table, which needs no law, accepts and ignores them.
func TestMembersAndBandInARequest(t *testing.T) {
	fig2 := Fig2Params()
	band := lawcore.Band{Level: lawcore.DefaultBandLevel, Quantile: studentsT(10), Discrepancy: lawcore.PriorDiscrepancy(lawcore.DefaultBandLevel),
		Replicates: []lawcore.Replicates{{Sets: perturbedReplicates(fig2)}, {Sets: perturbedReplicates(fig2)}},
		Reach:      lawcore.Reach{S1: 3.9}}
	members := []lawcore.Member{annealingMember(fig2, schedule.WarmupPeak, 0.6), annealingMember(fig2, schedule.WarmupActual, 0.4)}
	for _, name := range []string{"wsd-ratio", "compute"} {
		data, err := json.Marshal(map[string]any{"analysis": name, "totals": []int{20000}, "members": members, "band": band})
		if name == "compute" {
			data, err = json.Marshal(map[string]any{"analysis": name, "members": members, "band": band})
		}
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), data, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w, ok := res.(*WSDRatioResult); ok {
			if o := w.Optima[0]; !(o.PlusMinus > 0) || o.Tied == nil || len(w.Setup.Members) != 2 || w.Setup.Band == nil {
				t.Errorf("%s: optimum %+v, setup %+v", name, o, w.Setup)
			}
		}
	}
}
