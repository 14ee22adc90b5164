package importer

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/input"
)

// CSV and TSV conventions: columns in any order, tabs, semicolons, a BOM, CRLF, comments.
func TestReadTableConventions(t *testing.T) {
	cases := []struct {
		name, text string
		steps      []float64
		loss, lr   []float64
	}{
		{"plain", "step,loss\n1,3.5\n2,3.4\n", []float64{1, 2}, []float64{3.5, 3.4}, nil},
		{"lr and any order", "lr,loss,step\n1e-4,3.5,10\n2e-4,3.4,20\n", []float64{10, 20}, []float64{3.5, 3.4}, []float64{1e-4, 2e-4}},
		{"tsv, BOM, CRLF", "\ufeffStep\tval_loss\tlearning_rate\r\n1\t3.5\t0.1\r\n2\t3.4\t0.2\r\n", []float64{1, 2}, []float64{3.5, 3.4}, []float64{0.1, 0.2}},
		{"semicolons, comments, blank lines", "# exported\niteration;lm loss\n\n100;3.5\n200;3.4\n", []float64{100, 200}, []float64{3.5, 3.4}, nil},
	}
	for _, c := range cases {
		res, err := Read(c.name+".csv", []byte(c.text), Choice{})
		if err != nil || len(res.Curves) != 1 {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		pc := res.Curves[0]
		if !equalFloats(pc.Steps, c.steps) || !equalFloats(pc.Loss, c.loss) || !equalFloats(pc.LR, c.lr) || pc.HasLR != (c.lr != nil) {
			t.Errorf("%s: got steps %v loss %v lr %v", c.name, pc.Steps, pc.Loss, pc.LR)
		}
	}
}

func TestReadMPLFile(t *testing.T) {
	data, err := os.ReadFile("../../site/examples/mpl/csv_25/cosine_24000.csv")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read("cosine_24000.csv", data, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	pc := res.Curves[0]
	if pc.Points != 171 || pc.Steps[0] != 2160 || pc.Loss[0] != 4.1114 || pc.LR[0] != 3e-4 {
		t.Errorf("rows %d, first row %v %v %v", pc.Points, pc.Steps[0], pc.Loss[0], pc.LR[0])
	}
}

// Each bad file gives an *input.Error naming the file and, where there is one, line and column.
func TestReadTableErrors(t *testing.T) {
	cases := []struct {
		text, want string
	}{
		{"", "bad.csv: the file is empty"},
		{"\x00\x01\x02", "bad.csv: this is a binary file"},
		{"step,loss\n", "bad.csv: the file has a header but no data rows"},
		{"1,3.5\n2,3.4\n", "bad.csv: line 1: the first line should be a header"},
		{"time,value\n1,2\n", `bad.csv: line 1: no step column: the header has "time", "value"`},
		{"step,loss\n1,3.5\n2,3.4,9\n", "bad.csv: line 3, character 1: this row has a different number of columns"},
		{"step,loss\n1,3.5\n2,abc\n", `bad.csv: line 3, column 2 (loss): "abc" is not a number`},
		{"step,loss\n1,3.5\n2,NaN\n", `line 3, column 2 (loss): "NaN" is not a finite number`},
		{"step,loss\n1,3.5\n2,1e400\n", `line 3, column 2 (loss): "1e400" is not a finite number`},
		{"step,loss\n1,3.5\n2,-1\n", "line 3, column 2 (loss): the loss must be positive"},
		{"step,loss\n1,3.5\n2,0\n", "line 3, column 2 (loss): the loss must be positive"},
		{"step,loss\n2,3.5\n1,3.4\n", "line 3, column 1 (step): steps must increase: 1 comes after 2"},
		{"step,loss\n2,3.5\n2,3.4\n", "line 3, column 1 (step): step 2 appears twice"},
		{"step,loss\n1.5,3.5\n", "line 2, column 1 (step): a step must be a whole number"},
		{"step,loss,lr\n1,3.5,-1\n", "line 2, column 3 (lr): a learning rate cannot be negative"},
		{"step,loss\n1,\"3.5\n", "bad.csv: line 2, character"},
		{"step,loss\n1,3,5\n", "line 2, character 1: this row has a different number of columns"},
	}
	for _, c := range cases {
		_, err := Read("bad.csv", []byte(c.text), Choice{})
		var ie *input.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an *input.Error containing %q", c.text, err, c.want)
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
