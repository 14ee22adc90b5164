package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// Every analysis runs on its defaults, and its answer is JSON (no NaN or infinity).
func TestAnalyzeDefaults(t *testing.T) {
	for _, name := range analysisNames() {
		ans, err := call(context.Background(), "analyze", []byte(`{"analysis":"`+name+`","points":50}`), nil, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := json.Marshal(ans.result)
		if err != nil {
			t.Fatalf("%s: the answer is not JSON: %v", name, err)
		}
		t.Logf("%s: %d bytes of JSON", name, len(data))
	}
	ans, err := call(context.Background(), "analyze", []byte(`{"analysis":"defaults"}`), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(ans.result)
	if !strings.Contains(string(data), `"wsd-ratio"`) || !strings.Contains(string(data), `"L0":2.628`) {
		t.Errorf("defaults: %.300s", data)
	}
}

// Options given override the defaults; a partial params object keeps the rest of Fig. 2.
func TestAnalyzeOptions(t *testing.T) {
	req := `{"analysis":"constant-vs-cosine","params":{"L0":3},"minTotal":5000,"maxTotal":50000,"count":5,"curveTotals":[]}`
	ans, err := call(context.Background(), "analyze", []byte(req), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.ConstantVsCosineResult)
	if len(res.Constant.X) != 5 || res.Constant.X[0] != 5000 || res.Constant.X[4] != 50000 || len(res.Curves) != 0 {
		t.Errorf("totals %v, %d curves", res.Constant.X, len(res.Curves))
	}
	if p := res.Setup.Params; p.L0 != 3 || p.A != 0.43 || p.Lambda != 0.999 {
		t.Errorf("params %+v, want L0 3 and the rest of Fig. 2", p)
	}
	ans, err = call(context.Background(), "analyze", []byte(`{"analysis":"compute","n":10,"interval":500,"params":{"L0":1}}`), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rows := ans.result.(*lawcore.ComputeResult).Rows; rows[0].Steps != 27500 {
		t.Errorf("compute: %+v", rows[0])
	}
}

func TestAnalyzeErrors(t *testing.T) {
	for _, c := range []struct {
		req, want string
	}{
		{`{"analysis":"horoscope"}`, "analysis"},
		{`{"analysis":"wsd-ratio","ratio":0.2}`, "ratio"},
		{`{"analysis":"wsd-ratio","totals":[100]}`, "totals[0]"},
		{`{"analysis":"wsd-ratio","params":{"C":-1}}`, "C"},
		{`not json`, "JSON"},
	} {
		_, err := call(context.Background(), "analyze", []byte(c.req), nil, nil, nil)
		var ie *lawcore.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an input error naming %q", c.req, err, c.want)
		}
	}
}

// readReleaseColumns reads a release CSV (step,lr,loss) as columns.
func readReleaseColumns(t *testing.T, path string) columns {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := columns{}
	for _, row := range rows[1:] {
		st, _ := strconv.ParseFloat(row[0], 64)
		l, _ := strconv.ParseFloat(row[2], 64)
		cols["steps"], cols["loss"] = append(cols["steps"], st), append(cols["loss"], l)
	}
	return cols
}

// sizefit with the curves' arrays as columns: the release's cosine and constant runs of both
// sizes.
func TestCallSizeFit(t *testing.T) {
	req := `{"curves":[
		{"name":"25M cosine","size":25e6,"schedule":{"kind":"cosine","total":24000,"peak":3e-4,"final":3e-5,"warmup":2160}},
		{"name":"25M constant","size":25e6,"schedule":{"kind":"constant","total":24000,"peak":3e-4,"warmup":2160}},
		{"name":"100M cosine","size":100e6,"schedule":{"kind":"cosine","total":24000,"peak":3e-4,"final":3e-5,"warmup":2160}},
		{"name":"100M constant","size":100e6,"schedule":{"kind":"constant","total":24000,"peak":3e-4,"warmup":2160}}],
		"points":100}`
	var in []columns
	for _, p := range []string{"25/cosine_24000", "25/constant_24000", "100/cosine_24000", "100/constant_24000"} {
		dir, name, _ := strings.Cut(p, "/")
		in = append(in, readReleaseColumns(t, "../site/examples/mpl/csv_"+dir+"/"+name+".csv"))
	}
	ans, err := call(context.Background(), "sizefit", []byte(req), in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.SizeFitResult)
	t.Logf("%+v fit PredE %.5f, %s", res.Params, res.FitMetrics.PredE, res.Note)
	if !res.BetaFixed || res.FitMetrics.PredE > 0.005 {
		t.Errorf("beta fixed %v, fit PredE %.5f", res.BetaFixed, res.FitMetrics.PredE)
	}
	if len(ans.columns) != 4 || len(ans.columns[2]["fitted"]) < 90 {
		t.Errorf("fitted lines: %d", len(ans.columns))
	}
	if _, err := json.Marshal(res); err != nil {
		t.Error(err)
	}
}
