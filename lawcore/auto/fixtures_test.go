package auto_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
)

// TestWriteCLIFixtures writes the auto answers that tests/node/cli.test.mjs reads
// (tests/node/fixtures), computed natively: run it with CLI_FIXTURES=1 after a change to what
// auto answers. The curves' predicted arrays are left out.
func TestWriteCLIFixtures(t *testing.T) {
	if os.Getenv("CLI_FIXTURES") == "" {
		t.Skip("set CLI_FIXTURES=1 to write tests/node/fixtures")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "tests", "node", "fixtures")
	release := testcurves.MPLRequest(t, "25", lawcore.FixedLambda(lawcore.DefaultLambda), "")
	for name, f := range map[string]struct {
		about string
		req   lawcore.FitRequest
	}{
		"auto-fig2.json": {"The answer of an auto fit of the paper's Fig. 2 curves (constant and cosine, 20K steps, warmup 500), computed natively with auto.Fit. The curves' predicted arrays are left out.",
			testcurves.Fig2(t)},
		"auto-release25.json": {"The answer of an auto fit of the MultiPowerLaw release's 25M split (cosine_24000, constant_24000 and wsdcon_9 fitted, the other six as validate curves; warmup 2160), computed natively with auto.Fit: an average of laws. The curves' predicted arrays are left out.",
			release},
	} {
		req := f.req
		req.Intervals = true
		res, err := auto.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(name, err)
		}
		for i := range res.Curves {
			res.Curves[i].Predicted = nil
		}
		data, err := json.MarshalIndent(map[string]any{"about": f.about, "answer": res}, "", " ")
		if err != nil {
			t.Fatal(name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
