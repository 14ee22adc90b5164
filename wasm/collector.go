//go:build js && wasm

package main

import (
	"math"
	"runtime/debug"
	"sync"
)

// The collector waits for the first view. A fresh module runs each function on V8's baseline
// compiler, compiling it on its first call, and Go's collector is some 270 functions that the
// page's first fit and prediction (7-8 MB of garbage: two collections at Go's 4 MB minimum
// heap) would otherwise compile and run cold, beside the call, on a page with no idle core to
// spare. So a module's first calls run with the
// collector off while they are small, Go collecting only if the heap nears firstHeapCap. Go's
// default comes back once firstCalls calls have ended, or before a call that brings more than
// firstCallSize numbers or bytes, whose live data could outgrow the cap.
const (
	firstCalls    = 2        // the first view's fit and prediction
	firstCallSize = 1 << 16  // the first view's are about a thousand
	firstHeapCap  = 64 << 20 // bytes
)

var collector = struct {
	sync.Mutex
	held  bool
	ended int
}{}

// holdCollector turns the collector off for the first calls (at start-up).
func holdCollector() {
	collector.Lock()
	defer collector.Unlock()
	collector.held = true
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(firstHeapCap)
}

// callStarting gives the collector back before a call that brings more than firstCallSize
// numbers or bytes (inputSize).
func callStarting(size int) {
	collector.Lock()
	defer collector.Unlock()
	if size > firstCallSize {
		releaseLocked()
	}
}

// callEnded counts a call that ended and gives the collector back after the first ones.
func callEnded() {
	collector.Lock()
	defer collector.Unlock()
	if collector.ended++; collector.ended >= firstCalls {
		releaseLocked()
	}
}

// releaseLocked gives Go's defaults back (collector locked).
func releaseLocked() {
	if !collector.held {
		return
	}
	collector.held = false
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}
