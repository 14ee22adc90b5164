package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/importer"
)

// Large but valid files load: a million rows, and a 50 MB file.
func TestLargeValidFilesLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 70 MB of input")
	}
	var b strings.Builder
	b.WriteString("step,loss,lr\n")
	for i := 1; i <= 1_000_000; i++ {
		fmt.Fprintf(&b, "%d,%.6f,0.0003\n", i, 3+1/float64(i))
	}
	imp, err := importer.Read("million.csv", []byte(b.String()), importer.Choice{})
	if err != nil || len(imp.Curves) != 1 || imp.Curves[0].Points != 1_000_000 {
		t.Fatalf("a million rows: %v", err)
	}
	b.Reset()
	b.WriteString("step,loss,comment\n")
	pad := strings.Repeat("x", 500)
	for i := 1; b.Len() < 50<<20; i++ {
		fmt.Fprintf(&b, "%d,%.6f,%s\n", i, 3+1/float64(i), pad)
	}
	if imp, err = importer.Read("fifty-megabytes.csv", []byte(b.String()), importer.Choice{}); err != nil || len(imp.Curves) != 1 {
		t.Fatalf("50 MB: %v", err)
	}
}
