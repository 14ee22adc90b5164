//go:build js && wasm

package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// garbage allocates about mb megabytes in 64 kB pieces, keeping none.
func garbage(mb int) {
	var keep []byte
	for i := 0; i < mb*16; i++ {
		keep = make([]byte, 64<<10)
		keep[0] = byte(i)
	}
	runtime.KeepAlive(keep)
}

func collections() uint32 {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return s.NumGC
}

// gcPercent reads the collector's setting (SetGCPercent answers the one it replaces).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func restoreCollector(t *testing.T) {
	t.Cleanup(func() {
		collector.held, collector.ended = false, 0
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

func TestCollectorWaitsForTheFirstCalls(t *testing.T) {
	restoreCollector(t)
	runtime.GC()
	holdCollector()
	before := collections()
	// the first view's two calls: 16 MB of garbage is four of Go's 4 MB minimum heaps
	callStarting(900)
	garbage(8)
	callEnded()
	callStarting(1200)
	garbage(8)
	if got := collections() - before; got != 0 {
		t.Errorf("%d collections during the first calls, want none", got)
	}
	callEnded()
	if p := gcPercent(); p != 100 {
		t.Fatalf("after the first calls GOGC is %d, want Go's default 100", p)
	}
	garbage(16)
	if collections() == before {
		t.Error("no collection after the first calls")
	}
}

func TestCollectorCapsTheHeldHeap(t *testing.T) {
	restoreCollector(t)
	holdCollector()
	before := collections()
	garbage(2 * firstHeapCap >> 20)
	if collections() == before {
		t.Errorf("%d MB of garbage with the collector held and no collection: the cap does not hold", 2*firstHeapCap>>20)
	}
}

func TestCollectorComesBackForALargeCall(t *testing.T) {
	restoreCollector(t)
	holdCollector()
	callStarting(firstCallSize)
	if p := gcPercent(); p != -1 {
		t.Fatalf("a call of firstCallSize released the collector (GOGC %d)", p)
	}
	callStarting(firstCallSize + 1)
	if p := gcPercent(); p != 100 {
		t.Errorf("a larger first call runs with GOGC %d, want 100", p)
	}
}
