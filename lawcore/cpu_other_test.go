//go:build !unix && !(js && wasm)

package lawcore_test

// processCPU is not measured on this system.
func processCPU() (int64, bool) { return 0, false }
