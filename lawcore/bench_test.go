package lawcore

import (
	"context"
	"testing"
)

// BenchmarkFitFig2 is the paper's Fig. 2 fit (two curves of 20 points, 20K-step schedules).
func BenchmarkFitFig2(b *testing.B) {
	req := fig2Request(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}
