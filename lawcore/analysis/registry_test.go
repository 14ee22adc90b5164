package analysis_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/analysis"
	"github.com/lawcalc/annealing/lawcore/input"
	_ "github.com/lawcalc/annealing/lawcore/laws"
)

// Every analysis runs on its defaults, and its answer is JSON (no NaN or infinity).
func TestRunDefaults(t *testing.T) {
	for _, name := range analysis.Names() {
		res, err := analysis.Run(context.Background(), []byte(`{"analysis":"`+name+`","points":50}`), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("%s: the answer is not JSON: %v", name, err)
		}
		t.Logf("%s: %d bytes of JSON", name, len(data))
	}
	res, err := analysis.Run(context.Background(), []byte(`{"analysis":"defaults"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res)
	if !strings.Contains(string(data), `"wsd-ratio"`) || !strings.Contains(string(data), `"L0":2.628`) {
		t.Errorf("defaults: %.300s", data)
	}
}

// Options given override the defaults; a partial params object keeps the rest of Fig. 2;
// the compute table ignores a setup sent with it.
func TestRunOptions(t *testing.T) {
	req := `{"analysis":"constant-vs-cosine","params":{"L0":3},"minTotal":5000,"maxTotal":50000,"count":5,"curveTotals":[]}`
	out, err := analysis.Run(context.Background(), []byte(req), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := out.(*analysis.ConstantVsCosineResult)
	if len(res.Constant.X) != 5 || res.Constant.X[0] != 5000 || res.Constant.X[4] != 50000 || len(res.Curves) != 0 {
		t.Errorf("totals %v, %d curves", res.Constant.X, len(res.Curves))
	}
	if p := res.Setup.Params; p["L0"] != 3 || p["A"] != 0.43 || p["lambda"] != 0.999 {
		t.Errorf("params %+v, want L0 3 and the rest of Fig. 2", p)
	}
	out, err = analysis.Run(context.Background(), []byte(`{"analysis":"compute","n":10,"interval":500,"params":{"L0":1}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rows := out.(*analysis.ComputeResult).Rows; rows[0].Steps != 27500 {
		t.Errorf("compute: %+v", rows[0])
	}
}

// Another law, by name: its own defaults fill in what the request leaves out; analyses about
// the annealing law's own structure refuse it.
func TestRunAnotherLaw(t *testing.T) {
	out, err := analysis.Run(context.Background(), []byte(`{"analysis":"wsd-ratio","law":"multi-power","totals":[24000],"peak":3e-4,"warmup":2160,"points":50}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := out.(*analysis.WSDRatioResult)
	if res.Setup.Law != "multi-power" || len(res.Optima) != 1 || !(res.Optima[0].Ratio > 0) {
		t.Errorf("%+v", res.Optima)
	}
	t.Logf("Multi-Power Law, defaults, 24K steps: best WSD ratio %.3f, final loss %.4f", res.Optima[0].Ratio, res.Optima[0].Final.Loss)
	_, err = analysis.Run(context.Background(), []byte(`{"analysis":"lambda","law":"multi-power"}`), nil)
	if err == nil || !strings.Contains(err.Error(), "the lambda analysis is of the annealing law") {
		t.Errorf("lambda with the Multi-Power Law: %v", err)
	}
	// the optimiser with every family (the page's form asks for all): those another law can
	// search are searched, and the answer names those left out (it was an error on its defaults)
	out, err = analysis.Run(context.Background(), []byte(`{"analysis":"optimize","law":"multi-power","total":24000,"peak":3e-4,"warmup":2160,"points":50}`), nil)
	if err != nil {
		t.Fatalf("optimize with the Multi-Power Law, every family: %v", err)
	}
	opt := out.(*analysis.OptimizeResult)
	if len(opt.Best) != 3 || !slices.Equal(opt.Skipped, []string{"free", "step-drop"}) ||
		opt.Note != "free and step-drop left out: the Multi-Power Law has no closed-form gradient to search them with" {
		t.Errorf("searched %d families, skipped %v, note %q", len(opt.Best), opt.Skipped, opt.Note)
	}
	// asked for those alone: an error naming them
	_, err = analysis.Run(context.Background(), []byte(`{"analysis":"optimize","law":"multi-power","families":["free"]}`), nil)
	if err == nil || !strings.Contains(err.Error(), "families[0]: the free family needs the annealing law's closed-form gradient") {
		t.Errorf("free alone with the Multi-Power Law: %v", err)
	}
}

func TestRunErrors(t *testing.T) {
	for _, c := range []struct {
		req, want string
	}{
		{`{"analysis":"horoscope"}`, "analysis"},
		{`{"analysis":"wsd-ratio","ratio":0.2}`, "ratio"},
		{`{"analysis":"wsd-ratio","totals":[100]}`, "totals[0]"},
		{`{"analysis":"wsd-ratio","params":{"C":-1}}`, "C"},
		{`{"analysis":"wsd-ratio","law":"astrology"}`, "law"},
		{`not json`, "JSON"},
	} {
		_, err := analysis.Run(context.Background(), []byte(c.req), nil)
		var ie *input.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an input error naming %q", c.req, err, c.want)
		}
	}
}
