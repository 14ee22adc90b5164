package lawcore

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"
)

// fig2 is the paper's Fig. 2 data (site/examples/paper-fig2.json).
type fig2 struct {
	TotalSteps int                  `json:"total_steps"`
	Warmup     int                  `json:"warmup"`
	EtaMax     float64              `json:"eta_max"`
	EtaMin     float64              `json:"eta_min"`
	Lambda     float64              `json:"lambda"`
	Steps      []float64            `json:"steps"`
	Loss       map[string][]float64 `json:"loss"`
}

func loadFig2(t testing.TB) fig2 {
	t.Helper()
	data, err := os.ReadFile("../site/examples/paper-fig2.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fig2
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// fig2Request is the paper's Fig. 2 fit: constant and cosine, warmup at peak, lambda 0.999.
func fig2Request(t testing.TB) FitRequest {
	f := loadFig2(t)
	var curves []Curve
	for _, kind := range []string{KindCosine, KindConstant} {
		curves = append(curves, Curve{Name: kind, Role: RoleFit, Steps: f.Steps, Loss: f.Loss[kind],
			Schedule: &Schedule{Kind: kind, Total: f.TotalSteps, Peak: f.EtaMax, Final: f.EtaMin, Warmup: f.Warmup}})
	}
	return FitRequest{Curves: curves, Lambda: FixedLambda(f.Lambda), WarmupConvention: "peak", HuberDelta: 1e-3}
}

func TestFitFig2MatchesPaper(t *testing.T) {
	res, err := Fit(context.Background(), fig2Request(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := annealingParams(t, res)
	t.Logf("params %+v objective %.6g search %+v elapsed %.2f ms", p, res.Objective, res.Search, res.ElapsedMs)
	want := Params{L0: 2.628, A: 0.430, C: 0.411, Alpha: 0.550}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"L0", p.L0, want.L0}, {"A", p.A, want.A}, {"C", p.C, want.C}, {"alpha", p.Alpha, want.Alpha}} {
		if math.Round(c.got*1000)/1000 != c.want {
			t.Errorf("%s = %.5f, want %.3f to three decimals", c.name, c.got, c.want)
		}
	}
	if res.Objective > 1.63e-5 {
		t.Errorf("objective %.4g, want at most 1.63e-5", res.Objective)
	}
	if r2 := *res.FitMetrics.R2; r2 < 0.999 {
		t.Errorf("R2 %.5f, the paper reports above 0.999", r2)
	}
}
