//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains how to build the bridge: it only makes sense as WebAssembly.
func main() {
	fmt.Fprintln(os.Stderr, "the lawcore bridge runs in a browser or node: build it with GOOS=js GOARCH=wasm go build -o build/site/lawcore.wasm ./wasm")
	os.Exit(2)
}
