package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/importer"
)

// fig2Request is the paper's Fig. 2 fit with the curves' arrays passed as columns, as the
// page does.
func fig2Request(t *testing.T) ([]byte, []columns) {
	data, err := os.ReadFile("../site/examples/paper-fig2.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Steps []float64            `json:"steps"`
		Loss  map[string][]float64 `json:"loss"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	req := `{"curves":[
		{"name":"cosine","schedule":{"kind":"cosine","total":20000,"peak":2e-4,"warmup":500}},
		{"name":"constant","schedule":{"kind":"constant","total":20000,"peak":2e-4,"warmup":500}}],
		"lambda":0.999,"warmupConvention":"peak","points":100}`
	return []byte(req), []columns{{"steps": f.Steps, "loss": f.Loss["cosine"]}, {"steps": f.Steps, "loss": f.Loss["constant"]}}
}

func TestCallFitWithColumns(t *testing.T) {
	req, in := fig2Request(t)
	ans, err := call(context.Background(), "fit", req, in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.FitResult)
	if got := math.Round(res.Params.L0*1000) / 1000; got != 2.628 {
		t.Errorf("L0 = %v, want 2.628", res.Params.L0)
	}
	if len(ans.columns) != 2 || len(ans.columns[0]["steps"]) != 100 || len(ans.columns[0]["fitted"]) != 100 {
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

func TestCallParseAndErrors(t *testing.T) {
	ans, err := call(context.Background(), "parse", []byte(`{"name":"a.csv","text":"step,loss,lr\n1,3,0.1\n2,2.9,0.1\n"}`), nil, nil, nil)
	if err != nil || len(ans.columns[0]["lr"]) != 2 {
		t.Fatalf("parse: %v %v", err, ans.columns)
	}
	for _, c := range []struct{ method, req, want string }{
		{"parse", `{"name":"b.csv","text":"step,loss\n1,x\n"}`, `b.csv: line 2, column 2 (loss): "x" is not a number`},
		{"fit", `{"curves":[{"name":"r","steps":[1],"loss":[0],"lr":[1,1]}]}`, `curve "r": loss[0]`},
		{"predict", `{"params":{"L0":-1}}`, "params: L0"},
		{"schedule", `{"kind":"cosine"}`, "schedule.total"},
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
	lrText := "step,lr\n0,0\n100,1e-4\n300,1e-4\n"
	req, _ = json.Marshal(map[string]any{"name": "loss.csv", "text": "step,loss\n100,3.5\n200,3.2\n",
		"lrFile": map[string]any{"name": "lr.csv", "text": lrText}})
	ans, err = call(context.Background(), "import", req, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lr := ans.columns[0]["lr"]; len(lr) != 2 || lr[1] != 1e-4 {
		t.Errorf("merged lr %v", lr)
	}
}

func TestCallFitMultiPower(t *testing.T) {
	req, in := fig2Request(t)
	req = []byte(strings.Replace(string(req), `"lambda":0.999,`, `"model":"multi-power",`, 1))
	ans, err := call(context.Background(), "fit", req, in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.MultiPowerResult)
	if res.Model != lawcore.ModelMultiPower || *res.FitMetrics.R2 < 0.999 || len(ans.columns[0]["fitted"]) != 100 {
		t.Errorf("model %s, R2 %v, %d fitted points", res.Model, *res.FitMetrics.R2, len(ans.columns[0]["fitted"]))
	}
	bad := []byte(strings.Replace(string(req), `"model":"multi-power"`, `"model":"chinchilla"`, 1))
	if _, err := call(context.Background(), "fit", bad, in, nil, nil); err == nil || !strings.Contains(err.Error(), "model: must be") {
		t.Errorf("unknown model: %v", err)
	}
}

func TestCallValidate(t *testing.T) {
	req, in := fig2Request(t)
	req = []byte(strings.Replace(string(req), `"lambda":0.999,`, `"lambda":0.999,"models":["annealing"],"level":0.8,`, 1))
	ans, err := call(context.Background(), "validate", req, in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ans.result.(*lawcore.LeaveOneOutResult)
	if len(res.Rows) != 2 || res.Rows[0].Curve != "cosine" || res.Summaries[0].BandLevel != 0.8 {
		t.Errorf("%+v", res)
	}
}

// An import may carry the file as bytes (the page's way: no trip through JSON); the bytes are
// read as they are, a byte-order mark and invalid UTF-8 included.
func TestCallImportBytes(t *testing.T) {
	ans, err := call(context.Background(), "import", []byte(`{"name":"run.csv"}`), nil, []byte("\ufeffstep,loss\r\n1,3.5\r\n2,3.25\r\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if loss := ans.columns[0]["loss"]; len(loss) != 2 || loss[1] != 3.25 {
		t.Errorf("loss %v", loss)
	}
	_, err = call(context.Background(), "import", []byte(`{"name":"bad.csv"}`), nil, []byte("step,loss\n1,\xff\xfe\n"), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "bad.csv: line 2") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	_, err = call(context.Background(), "import", []byte(`{"name":"empty.csv"}`), nil, []byte{}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "empty.csv") {
		t.Errorf("an empty file: %v", err)
	}
	_, err = call(context.Background(), "import", []byte(`{"name":"both.csv","text":"step,loss\n1,3\n"}`), nil, []byte("step,loss\n1,3\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("text and bytes: %v", err)
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
	want := `{"notes":["lr.csv holds learning rates only, and which loss curve they belong to is not clear: ` +
		`give one loss file with its learning-rate file at a time, or name both after the run (TensorBoard: run-\u003crun\u003e-tag-\u003ctag\u003e)"],` +
		`"pairs":[{"loss":1,"lr":0}]}`
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
	if math.Abs(p.L0-2.6278) > 1e-3 || math.Abs(p.Alpha-0.5498) > 1e-3 {
		t.Errorf("params %+v, want Fig. 2's (L0 2.628, alpha 0.550)", p)
	}

	pred := `{"params":{"L0":2.628,"A":0.43,"alpha":0.55,"C":0.411,"lambda":0.999},"warmupSteps":0,"curves":[{"name":"x","schedule":{"kind":"explicit"}}]}`
	ans, err = call(context.Background(), "predict", []byte(pred), []columns{{"scheduleSteps": {0, 100}, "scheduleLR": {1e-4, 1e-4}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ans.result.(map[string]any)["curves"].([]lawcore.Prediction)[0].Total; got != 100 {
		t.Errorf("the schedule from columns ends at step %d, want 100", got)
	}
}
