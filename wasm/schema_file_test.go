//go:build !lawcore_core

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite schema.json from the full bridge's schema")

// The page is built with schema.json as lawcore's schema (site/js/main.js): it must be what the
// full bridge answers, or the page would see laws, limits or methods that are not lawcore.wasm's.
func TestCoreSchemaFile(t *testing.T) {
	ans, err := call(context.Background(), "schema", []byte(`{}`), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.MarshalIndent(ans.result, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *update {
		if err := os.WriteFile("schema.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("wasm/schema.json is not the full bridge's schema: run go test ./wasm -run CoreSchema -update")
	}
}
