package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/importer"
	lw "github.com/lawcalc/annealing/lawcore/importer/internal/logwrite"
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

// An event file is as long as its tags make it: 400,000 steps of eight tags, one event each
// (as PyTorch's SummaryWriter writes them), are 3,200,000 events, past MaxRows, though the loss
// and the learning rate read are 800,000. They load: the tags not read are no rows.
func TestManyTaggedEventsLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 3,200,000 events")
	}
	const steps = 400_000
	tags := []string{"train/loss", "train/lr", "grad_norm", "tokens_per_s", "mem_gb", "loss_scale", "param_norm", "throughput"}
	events := make([][]byte, 0, steps*len(tags))
	for s := 1; s <= steps; s++ {
		for k, tag := range tags {
			v := 1 + float64(k)
			if tag == "train/loss" {
				v = 3 + 1/float64(s)
			}
			events = append(events, lw.Event(int64(s), lw.Scalar{Tag: tag, Value: v}))
		}
	}
	imp, err := importer.Read("events.out.tfevents.1700000000.host", lw.EventFile(events...), importer.Choice{})
	if err != nil || len(imp.Curves) != 1 || imp.Curves[0].Points != steps || !imp.Curves[0].HasLR {
		t.Fatalf("got %v, %+v", err, imp)
	}
}
