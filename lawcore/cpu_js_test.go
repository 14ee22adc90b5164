//go:build js && wasm

package lawcore_test

import "syscall/js"

// processCPU is the CPU time node's process has used, in nanoseconds (user and system, every
// thread: V8's compiler and collector too), for the benchmarks run as wasm under node. Test
// code only: lawcore itself knows nothing of JavaScript.
func processCPU() (int64, bool) {
	process := js.Global().Get("process")
	if process.Type() != js.TypeObject {
		return 0, false
	}
	u := process.Call("cpuUsage")
	return int64(u.Get("user").Float()+u.Get("system").Float()) * 1000, true
}
