//go:build !lawcore_core

package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/importer"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

func TestCallFitWithColumns(t *testing.T) {
	req, in := fig2Request(t)
	ans, err := call(context.Background(), "fit", req, in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.FitResult)
	if got := math.Round(res.Params["L0"]*1000) / 1000; got != 2.628 {
		t.Errorf("L0 = %v, want 2.628", res.Params["L0"])
	}
	if len(ans.columns) != 2 || len(ans.columns[0]["steps"]) != 100 || len(ans.columns[0]["loss"]) != 100 || len(ans.columns[0]["s2Term"]) != 100 {
		t.Fatalf("fitted lines: %d curves, %d steps", len(ans.columns), len(ans.columns[0]["steps"]))
	}
	if last := ans.columns[0]["steps"][99]; last != 20000 {
		t.Errorf("the fitted line ends at step %v, want 20000", last)
	}
}

func TestCallScheduleAndPredict(t *testing.T) {
	ans, err := call(context.Background(), "schedule", []byte(`{"kind":"linear","total":10,"peak":1}`), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lr := ans.columns[0]["lr"]; len(lr) != 11 || lr[5] != 0.5 {
		t.Errorf("lr %v", lr)
	}
	ans, err = call(context.Background(), "predict", []byte(`{"params":{"L0":2,"A":0.5,"alpha":0.5,"C":1,"lambda":0.9},
		"curves":[{"name":"mine"}]}`), []columns{{"lr": {1, 1, 1, 1}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// constant LR 1 from step 0: S1(3) = 4, S2 = 0, so L = 2 + 0.5/2
	if loss := ans.columns[0]["loss"]; len(loss) != 3 || loss[2] != 2.25 {
		t.Errorf("predicted %v, want 3 steps ending at 2.25", loss)
	}
}

func TestCallErrors(t *testing.T) {
	for _, c := range []struct{ method, req, want string }{
		{"import", `{"name":"b.csv","text":"step,loss\n1,x\n"}`, `b.csv: line 2, column 2 (loss): "x" is not a number`},
		{"fit", `{"law":"astrology","curves":[]}`, `law: unknown law "astrology"`},
		{"predict", `{"params":{}, "curves":[], "extra":1}`, `predict request: not valid JSON for this request: unknown field "extra"`},
		{"fit", `{"curves":[{"name":"r","steps":[1],"loss":[0],"lr":[1,1]}]}`, `curve "r": loss[0]`},
		{"predict", `{"params":{"L0":-1}}`, "params: L0"},
		{"schedule", `{"kind":"cosine"}`, "schedule.total"},
		// the builder's JSON with a fractional total: the field and what it takes, not Go's types
		{"predict", `{"params":{}, "curves":[{"name":"c","schedule":{"kind":"cosine","total":20000.7,"peak":1}}]}`, `not valid JSON for this request: "curves.schedule.total" must be a whole number, got number 20000.7`},
		{"fit", `{`, "fit request: not valid JSON"},
		{"solve", `{}`, `unknown method "solve"`},
	} {
		_, err := call(context.Background(), c.method, []byte(c.req), nil, nil, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: got %v, want %q", c.method, c.req, err, c.want)
		}
	}
}

func TestCallImportWandB(t *testing.T) {
	text := "Step,run-a - val_loss,run-a - val_loss__MIN,run-a - val_loss__MAX,run-b - val_loss\n100,3.5,3.4,3.6,3.6\n200,3.2,3.1,3.3,3.3\n"
	req, _ := json.Marshal(map[string]any{"name": "wandb.csv", "text": text})
	ans, err := call(context.Background(), "import", req, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if amb := ans.result.(*importer.Result).Ambiguity; amb == nil || len(amb.Runs) != 2 {
		t.Fatalf("two runs should be offered as a choice, got %+v", amb)
	}
	req, _ = json.Marshal(map[string]any{"name": "wandb.csv", "text": text, "choice": map[string]any{"runs": []string{"run-a", "run-b"}}})
	if ans, err = call(context.Background(), "import", req, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	imp := ans.result.(*importer.Result)
	if imp.Format != "wandb" || len(ans.columns) != 2 || ans.columns[1]["loss"][1] != 3.3 {
		t.Errorf("format %s, %d curves, columns %v", imp.Format, len(ans.columns), ans.columns)
	}
}

func TestCallFitMultiPower(t *testing.T) {
	req, in := fig2Request(t)
	req = []byte(strings.Replace(string(req), `"lambda":0.999,`, `"law":"multi-power",`, 1))
	ans, err := call(context.Background(), "fit", req, in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.FitResult)
	if res.Law != "multi-power" || *res.FitMetrics.R2 < 0.999 || len(ans.columns[0]["loss"]) != 100 {
		t.Errorf("law %s, R2 %v, %d fitted points", res.Law, *res.FitMetrics.R2, len(ans.columns[0]["loss"]))
	}
}

func TestCallValidate(t *testing.T) {
	req, in := fig2Request(t)
	req = []byte(strings.Replace(string(req), `"lambda":0.999,`, `"lambda":0.999,"laws":["annealing"],"level":0.8,`, 1))
	ans, err := call(context.Background(), "validate", req, in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*auto.LeaveOneOutResult)
	if len(res.Rows) != 2 || res.Rows[0].Curve != "cosine" || res.Summaries[0].BandLevel != 0.8 {
		t.Errorf("%+v", res)
	}
}

// An import may carry the file as bytes (the page's way: no trip through JSON); the bytes are
// read as they are, a byte-order mark and invalid UTF-8 included.
func TestCallImportBytes(t *testing.T) {
	ans, err := call(context.Background(), "import", []byte(`{"name":"run.csv"}`), nil, [][]byte{[]byte("\ufeffstep,loss\r\n1,3.5\r\n2,3.25\r\n")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if loss := ans.columns[0]["loss"]; len(loss) != 2 || loss[1] != 3.25 {
		t.Errorf("loss %v", loss)
	}
	_, err = call(context.Background(), "import", []byte(`{"name":"bad.csv"}`), nil, [][]byte{[]byte("step,loss\n1,\xff\xfe\n")}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "bad.csv: line 2") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	_, err = call(context.Background(), "import", []byte(`{"name":"empty.csv"}`), nil, [][]byte{{}}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "empty.csv") {
		t.Errorf("an empty file: %v", err)
	}
	_, err = call(context.Background(), "import", []byte(`{"name":"both.csv","text":"step,loss\n1,3\n"}`), nil, [][]byte{[]byte("step,loss\n1,3\n")}, nil)
	if err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("text and bytes: %v", err)
	}
}

// agree settles the loss column of an upload's files from their import answers' candidates.
func TestCallAgree(t *testing.T) {
	req := `{"files":[
		{"name":"a.json","candidates":[{"name":"final_val_loss","points":1},{"name":"train_loss","points":1000},{"name":"val_loss","points":250}]},
		{"name":"b.json","chosen":"val_loss","candidates":[{"name":"final_val_loss","points":1},{"name":"val_loss","points":50}]}]}`
	ans, err := call(context.Background(), "agree", []byte(req), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ag := ans.result.(*importer.Agreement)
	if ag.Column != "val_loss" || !ag.Ask || strings.Join(ag.Files, ",") != "val_loss,val_loss" || !ag.Columns[0].Summary {
		t.Errorf("got %+v", ag)
	}
	if _, err := call(context.Background(), "agree", []byte(`{"files":[{"nonsense":1}]}`), nil, nil, nil); err == nil || !strings.HasPrefix(err.Error(), "agree request") {
		t.Errorf("a bad request: %v", err)
	}
}

// pairlr takes the curves as import described them, their steps as columns, and answers the
// pairs by index.
func TestCallPairLR(t *testing.T) {
	req := `{"curves":[
		{"name":"run-a-tag-learning_rate","file":"run-a-tag-learning_rate.csv","hasLR":true},
		{"name":"run-a-tag-train_loss","file":"run-a-tag-train_loss.csv","hasLoss":true},
		{"name":"orphan","file":"lr.csv","hasLR":true}]}`
	in := []columns{{"steps": {0, 500}}, {"steps": {100, 500}}, {"steps": {0, 500}}}
	ans, err := call(context.Background(), "pairlr", []byte(req), in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(ans.result)
	want := `{"pairs":[{"loss":1,"lr":0}],"notes":["lr.csv holds learning rates only, and which loss curve they belong to is not clear: ` +
		`give one loss file with its learning-rate file at a time, or name both after the run (TensorBoard: run-\u003crun\u003e-tag-\u003ctag\u003e)"]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []string{`{"curves":[null]}`, `{"curves":[{"steps":[1]}]}`, `{"curves":[{"name":"x","nonsense":1}]}`} {
		if _, err := call(context.Background(), "pairlr", []byte(bad), nil, nil, nil); err == nil || !strings.HasPrefix(err.Error(), "pairlr request") {
			t.Errorf("%s: error %v, want one naming the pairlr request", bad, err)
		}
	}
}

// An explicit schedule's points may come as columns (scheduleSteps, scheduleLR): the Fig. 2
// fit with the cosine schedule given as its points fits as with the description.
func TestCallFitScheduleColumns(t *testing.T) {
	req, in := fig2Request(t)
	sched, err := call(context.Background(), "schedule", []byte(`{"kind":"cosine","total":20000,"peak":2e-4,"warmup":500}`), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	in[0]["scheduleSteps"], in[0]["scheduleLR"] = sched.columns[0]["steps"], sched.columns[0]["lr"]
	explicit := strings.Replace(string(req), `{"kind":"cosine","total":20000,"peak":2e-4,"warmup":500}`, `{"kind":"explicit","warmup":500}`, 1)
	if explicit == string(req) {
		t.Fatal("the request did not change")
	}
	ans, err := call(context.Background(), "fit", []byte(explicit), in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := ans.result.(*lawcore.FitResult).Params
	if !(math.Abs(p["L0"]-2.6278) <= 1e-3) || !(math.Abs(p["alpha"]-0.5498) <= 1e-3) {
		t.Errorf("params %+v, want Fig. 2's (L0 2.628, alpha 0.550)", p)
	}

	pred := `{"params":{"L0":2.628,"A":0.43,"alpha":0.55,"C":0.411,"lambda":0.999},"warmupSteps":0,"curves":[{"name":"x","schedule":{"kind":"explicit"}}]}`
	ans, err = call(context.Background(), "predict", []byte(pred), []columns{{"scheduleSteps": {0, 100}, "scheduleLR": {1e-4, 1e-4}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ans.result.(*predictions).Curves[0].Total; got != 100 {
		t.Errorf("the schedule from columns ends at step %d, want 100", got)
	}
}

// The model-size law is a law like the others: fit with "law": "size", each curve's size in
// the request, its arrays as columns.
func TestCallFitSizeLaw(t *testing.T) {
	req := `{"law":"size","lines":true,"points":100,"curves":[
		{"name":"25M cosine","size":25e6,"schedule":{"kind":"cosine","total":24000,"peak":3e-4,"final":3e-5,"warmup":2160}},
		{"name":"25M constant","size":25e6,"schedule":{"kind":"constant","total":24000,"peak":3e-4,"warmup":2160}},
		{"name":"100M cosine","size":100e6,"schedule":{"kind":"cosine","total":24000,"peak":3e-4,"final":3e-5,"warmup":2160}},
		{"name":"100M constant","size":100e6,"schedule":{"kind":"constant","total":24000,"peak":3e-4,"warmup":2160}}]}`
	var in []columns
	for _, p := range []string{"25/cosine_24000", "25/constant_24000", "100/cosine_24000", "100/constant_24000"} {
		size, name, _ := strings.Cut(p, "/")
		in = append(in, readReleaseColumns(t, "../site/examples/mpl/csv_"+size+"/"+name+".csv"))
	}
	ans, err := call(context.Background(), "fit", []byte(req), in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.FitResult)
	t.Logf("%+v fit PredE %.5f, %s", res.Params, res.FitMetrics.PredE, res.Note)
	if len(res.Held) != 2 || res.FitMetrics.PredE > 0.005 {
		t.Errorf("held %v, fit PredE %.5f", res.Held, res.FitMetrics.PredE)
	}
	if len(ans.columns) != 4 || len(ans.columns[2]["loss"]) < 90 {
		t.Errorf("fitted lines: %d", len(ans.columns))
	}
}

// The schema lists every method, law, schedule kind and preset.
func TestCallSchema(t *testing.T) {
	ans, err := call(context.Background(), "schema", []byte(`{}`), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := ans.result.(*schema)
	if len(s.Laws) < 4 || len(s.Kinds) != len(schedule.Kinds) || len(s.Presets) == 0 || s.Limits["maxScheduleSteps"] != schedule.MaxSteps {
		t.Errorf("%+v", s)
	}
	b, _ := json.Marshal(s)
	for _, want := range []string{`"name":"annealing"`, `"formula":"L(s) = L0 + A·S1(s)^(−α) − C·S2(s)"`, `"name":"multi-power"`, `"symbol":"λ"`, `"analyze"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in the schema", want)
		}
	}
}

// The analyses run through analyze, the request passed as it is: the compute analysis with
// n = 10 fitting points K = 500 steps apart gives the paper's closed forms (Sec. 6.2):
// Chinchilla with cosine n(n+1)/2·K = 27,500 steps, with WSD at ratio r
// (1-r)·n·K + r·n(n+1)/2·K (9,500 at 0.2, 7,250 at 0.1), this law one run of n·K/2 = 2,500.
func TestCallAnalyze(t *testing.T) {
	ans, err := call(context.Background(), "analyze", []byte(`{"analysis":"compute","n":10,"interval":500}`), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ans.result)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Rows []struct{ Steps float64 }
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var steps []float64
	for _, r := range got.Rows {
		steps = append(steps, r.Steps)
	}
	if want := []float64{27500, 9500, 7250, 2500}; !slices.Equal(steps, want) {
		t.Errorf("steps %v, want %v (%s)", steps, want, b)
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

// A folder's files, each with its path, are read together: a run's loss and learning rate
// from two CSV files of its directory pair up.
func TestCallImportFolder(t *testing.T) {
	req := `{"paths":["runs/a/loss.csv","runs/a/lr.csv"]}`
	ans, err := call(context.Background(), "import", []byte(req), nil,
		[][]byte{[]byte("step,loss\n100,3.5\n200,3.2\n"), []byte("step,lr\n0,1e-4\n300,1e-4\n")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*importer.Result)
	if res.Format != importer.FormatFolder || len(ans.columns) != 1 || len(ans.columns[0]["lr"]) != 2 {
		t.Errorf("%+v, columns %v", res, ans.columns)
	}
	if _, err := call(context.Background(), "import", []byte(`{"paths":["a"]}`), nil, nil, nil); err == nil {
		t.Error("a path without a file accepted")
	}
}
