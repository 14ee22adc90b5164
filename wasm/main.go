//go:build js && wasm

// Command wasm is the bridge between lawcore and JavaScript. It defines globalThis.lawcore
// with run(method, requestJSON, columns?, onProgress?) -> Promise and cancel(), as
// docs/api.md#the-javascript-bridge describes, and then waits for calls. No maths here: it
// only moves values across.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/lawcalc/annealing/lawcore"
)

// running holds the cancel functions of the calls under way, for lawcore.cancel().
var running = struct {
	sync.Mutex
	cancels map[int]context.CancelFunc
	next    int
}{cancels: map[int]context.CancelFunc{}}

func main() {
	holdCollector()
	api, err := newObject()
	if err == nil {
		err = setFuncs(api, map[string]func(safejs.Value, []safejs.Value) any{"run": run, "cancel": cancelAll})
	}
	if err == nil {
		err = api.Set("version", lawcore.Version)
	}
	if err == nil {
		err = safejs.Global().Set("lawcore", api)
	}
	if err != nil {
		panic("lawcore bridge: cannot set up: " + err.Error())
	}
	// after a pause, so that the worker tells the page the module is up first (Go hands control
	// back to JavaScript while every goroutine waits), and only while no call has come: a call
	// that came first does that work itself
	go func() {
		time.Sleep(time.Millisecond)
		if !called.Load() {
			afterStart()
		}
	}()
	select {} // serve calls until the page goes away
}

func newObject() (safejs.Value, error) {
	obj, err := global("Object")
	if err != nil {
		return safejs.Value{}, err
	}
	return obj.New()
}

func setFuncs(obj safejs.Value, fns map[string]func(safejs.Value, []safejs.Value) any) error {
	for name, fn := range fns {
		f, err := safejs.FuncOf(fn)
		if err != nil {
			return err
		}
		if err := obj.Set(name, f.Value()); err != nil {
			return err
		}
	}
	return nil
}

// cancelAll cancels every call under way.
func cancelAll(safejs.Value, []safejs.Value) any {
	running.Lock()
	defer running.Unlock()
	for _, cancel := range running.cancels {
		cancel()
	}
	return nil
}

// called says whether lawcore.run has been called.
var called atomic.Bool

// run is lawcore.run(method, requestJSON, columns?, onProgress?): it returns a Promise and
// does the work in a goroutine, so that JavaScript gets control back (to deliver a cancel)
// whenever the work pauses to report progress.
func run(_ safejs.Value, args []safejs.Value) any {
	called.Store(true)
	promiseCtor, err := global("Promise")
	if err != nil {
		return nil
	}
	var executor safejs.Func
	executor, err = safejs.FuncOf(func(_ safejs.Value, pargs []safejs.Value) any {
		defer executor.Release()
		resolve, reject := pargs[0], pargs[1]
		goCall(func() { settle(args, resolve, reject) })
		return nil
	})
	if err != nil {
		return nil
	}
	p, err := promiseCtor.New(executor.Value())
	if err != nil {
		return nil
	}
	return p
}

// idleCalls hands a call to a goroutine that has finished one and waits for the next.
var idleCalls = make(chan func())

// goCall runs f on an idle call goroutine, or on a new one if none is waiting. A goroutine
// starts with a small stack, which Go grows by copying it (a walk over every frame's tables)
// as a fit goes deep; one kept from call to call has grown it already.
func goCall(f func()) {
	select {
	case idleCalls <- f:
	default:
		go func() {
			for ; ; f = <-idleCalls {
				f()
			}
		}()
	}
}

// globals are the JavaScript globals the bridge uses (constructors), looked up once: each
// lookup is a call out of wasm and a new reference with a finalizer for Go to run.
var globals = struct {
	sync.Mutex
	byName map[string]safejs.Value
}{byName: map[string]safejs.Value{}}

// global returns globalThis[name], from the cache after the first time.
func global(name string) (safejs.Value, error) {
	globals.Lock()
	defer globals.Unlock()
	if v, ok := globals.byName[name]; ok {
		return v, nil
	}
	v, err := safejs.Global().Get(name)
	if err != nil {
		return safejs.Value{}, err
	}
	globals.byName[name] = v
	return v, nil
}

// settle does one call and resolves or rejects its promise; a panic becomes a rejection, so
// that the Go program survives it.
func settle(args []safejs.Value, resolve, reject safejs.Value) {
	defer func() {
		if r := recover(); r != nil {
			rejectWith(reject, fmt.Sprintf("internal error (please report it): %v\n%s", r, debug.Stack()))
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	running.Lock()
	id := running.next
	running.next++
	running.cancels[id] = cancel
	running.Unlock()
	defer func() {
		running.Lock()
		delete(running.cancels, id)
		running.Unlock()
		cancel()
		callEnded()
	}()

	method, request, in, files, onProgress, err := readArgs(args)
	if err != nil {
		rejectWith(reject, err.Error())
		return
	}
	callStarting(inputSize(request, in, files))
	var ans answer
	if needsFull(method) {
		err = errNeedsFull
	} else {
		ans, err = call(ctx, method, request, in, files, progressReporter(onProgress))
	}
	if errors.Is(err, errNeedsFull) {
		// The core bridge's answer: the worker loads lawcore.wasm and asks it instead.
		e := newError(method + " needs the full lawcore.wasm")
		_ = e.Set("needsFull", true)
		_, _ = reject.Invoke(e)
		return
	}
	if ctx.Err() != nil {
		rejectWith(reject, "cancelled")
		return
	}
	if err != nil {
		rejectWith(reject, err.Error())
		return
	}
	out, err := toJSAnswer(ans)
	if err != nil {
		rejectWith(reject, "cannot return the answer: "+err.Error())
		return
	}
	_, _ = resolve.Invoke(out)
}

// readArgs reads run's arguments: method, request JSON, columns (for `import`: the files'
// bytes, [Uint8Array, ...]), progress callback.
func readArgs(args []safejs.Value) (method string, request []byte, in []columns, files [][]byte, onProgress safejs.Value, err error) {
	fail := func(e error) (string, []byte, []columns, [][]byte, safejs.Value, error) {
		return "", nil, nil, nil, onProgress, e
	}
	if len(args) < 2 {
		return fail(fmt.Errorf("lawcore.run needs a method and a JSON request"))
	}
	if method, err = args[0].String(); err != nil {
		return fail(fmt.Errorf("the method must be a string"))
	}
	text, err := args[1].String()
	if err != nil {
		return fail(fmt.Errorf("the request must be a JSON string"))
	}
	if len(args) > 2 && !args[2].IsUndefined() && !args[2].IsNull() {
		if method == "import" {
			files, err = readFiles(args[2])
		} else {
			in, err = readColumns(args[2])
		}
		if err != nil {
			return fail(err)
		}
	}
	if len(args) > 3 {
		onProgress = args[3]
	}
	return method, []byte(text), in, files, onProgress, nil
}

// readFiles reads import's third argument: [Uint8Array, ...], the files' bytes.
func readFiles(v safejs.Value) ([][]byte, error) {
	const want = "an import's third argument must be [Uint8Array, ...], the files' bytes"
	n, err := v.Length()
	if err != nil || n < 1 {
		return nil, fmt.Errorf(want)
	}
	files := make([][]byte, n)
	for i := range files {
		item, err := v.Index(i)
		if err != nil {
			return nil, err
		}
		if files[i], err = toGoBytes(item); err != nil {
			return nil, fmt.Errorf("%s: %v", want, err)
		}
	}
	return files, nil
}

// readColumns reads an array of {name: Float64Array} objects.
func readColumns(v safejs.Value) ([]columns, error) {
	n, err := v.Length()
	if err != nil {
		return nil, fmt.Errorf("columns must be an array of objects of Float64Arrays")
	}
	keysOf, err := global("Object")
	if err != nil {
		return nil, err
	}
	out := make([]columns, n)
	for i := 0; i < n; i++ {
		entry, err := v.Index(i)
		if err != nil {
			return nil, err
		}
		out[i] = columns{}
		if entry.IsUndefined() || entry.IsNull() {
			continue
		}
		keys, err := keysOf.Call("keys", entry)
		if err != nil {
			return nil, fmt.Errorf("columns[%d] must be an object", i)
		}
		nk, _ := keys.Length()
		for k := 0; k < nk; k++ {
			key, _ := keys.Index(k)
			name, err := key.String()
			if err != nil {
				return nil, err
			}
			col, _ := entry.Get(name)
			if col.IsUndefined() || col.IsNull() {
				continue
			}
			if out[i][name], err = toGoFloats(col); err != nil {
				return nil, fmt.Errorf("columns[%d].%s must be a Float64Array: %v", i, name, err)
			}
		}
	}
	return out, nil
}

// inputSize counts what a call brings: its request's bytes, its columns' numbers and its
// files' bytes.
func inputSize(request []byte, in []columns, files [][]byte) int {
	n := len(request)
	for _, cols := range in {
		for _, c := range cols {
			n += len(c)
		}
	}
	for _, f := range files {
		n += len(f)
	}
	return n
}

// progressReporter returns a progress function that calls onProgress(fraction, resume) at most
// every 50 ms and then hands control back to JavaScript, so that a cancel can arrive. An
// onProgress that returns true calls resume once its event loop has run the tasks queued (the
// worker posts itself a MessageChannel message, which nothing delays); otherwise the goroutine
// sleeps 1 ms, a timer that browsers clamp to 4 ms or more once timers nest: at 20 reports a
// second that would be a tenth of a long call's time.
func progressReporter(onProgress safejs.Value) func(float64) {
	last := time.Now()
	return func(fraction float64) {
		if time.Since(last) < 50*time.Millisecond {
			return
		}
		defer func() { last = time.Now() }()
		if onProgress.Type() == safejs.TypeFunction && yieldThrough(onProgress, fraction) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// yieldThrough calls onProgress(fraction, resume) and, when it returns true, waits for resume;
// false when onProgress did not take resume (or the call failed): nothing waited.
func yieldThrough(onProgress safejs.Value, fraction float64) bool {
	resumed := make(chan struct{}, 1)
	resume, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		select {
		case resumed <- struct{}{}:
		default: // called twice: the first one resumed
		}
		return nil
	})
	if err != nil {
		return false
	}
	defer resume.Release()
	ret, err := onProgress.Invoke(fraction, resume.Value())
	if err != nil {
		return false
	}
	if took, err := ret.Truthy(); err != nil || !took {
		return false
	}
	<-resumed
	return true
}

// toJSAnswer builds {result: JSON string, columns: [{name: Float64Array}]}.
func toJSAnswer(ans answer) (safejs.Value, error) {
	text, err := json.Marshal(ans.result)
	if err != nil {
		return safejs.Value{}, err
	}
	out, err := newObject()
	if err != nil {
		return safejs.Value{}, err
	}
	if err := out.Set("result", string(text)); err != nil {
		return safejs.Value{}, err
	}
	arrCtor, err := global("Array")
	if err != nil {
		return safejs.Value{}, err
	}
	cols, err := arrCtor.New(len(ans.columns))
	if err != nil {
		return safejs.Value{}, err
	}
	for i, c := range ans.columns {
		obj, err := newObject()
		if err != nil {
			return safejs.Value{}, err
		}
		for name, f := range c {
			arr, err := toJSFloats(f)
			if err != nil {
				return safejs.Value{}, err
			}
			if err := obj.Set(name, arr); err != nil {
				return safejs.Value{}, err
			}
		}
		if err := cols.SetIndex(i, obj); err != nil {
			return safejs.Value{}, err
		}
	}
	return out, out.Set("columns", cols)
}

// rejectWith rejects a promise with an Error carrying msg.
func rejectWith(reject safejs.Value, msg string) {
	_, _ = reject.Invoke(newError(msg))
}

// newError is a JavaScript Error carrying msg (undefined if it cannot be made).
func newError(msg string) safejs.Value {
	errCtor, err := global("Error")
	if err != nil {
		return safejs.Undefined()
	}
	e, err := errCtor.New(msg)
	if err != nil {
		return safejs.Undefined()
	}
	return e
}
