#!/usr/bin/env bash
# bench.sh: prints the figures worth watching; asserts nothing.
#   1. lawcore's benchmarks, native
#   2. the same benchmarks compiled to wasm and run under node
#   3. the WebAssembly modules' sizes raw, gzip -9 and brotli 11 (the copies the server sends)
#   4. the built site's size, raw and as sent
# Run `make build` first for parts 3 and 4 (`make bench` does).
set -euo pipefail
cd "$(dirname "$0")/.."

site=build/site
wasm_exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
failed=0 # a part that fails is reported, and the others still print

echo "== lawcore benchmarks, native ($(go env GOOS)/$(go env GOARCH), $(go version | cut -d' ' -f3))"
go test -run='^$' -bench=. -benchmem ./lawcore/... || failed=1

echo
echo "== lawcore benchmarks, js/wasm under node $(node --version)"
GOOS=js GOARCH=wasm go test -exec="$wasm_exec" -run='^$' -bench=. -benchmem ./lawcore/... || failed=1

echo
echo "== the WebAssembly modules (bytes): lawcore-core.wasm is the first view's, lawcore.wasm loads on first use"
if [ -f build/wasm/lawcore.wasm ] && [ -f build/wasm/lawcore-core.wasm ]; then
	go run ./scripts/precompress -sizes build/wasm/lawcore-core.wasm build/wasm/lawcore.wasm || failed=1
else
	echo "no build/wasm/lawcore.wasm, lawcore-core.wasm: run make build"
	failed=1
fi

echo
echo "== size of $site (bytes; .br and .gz are the copies sent by Accept-Encoding)"
if [ ! -d "$site" ]; then
	echo "no $site: run make build"
	exit 1
fi
raw_total=0
br_total=0
files=0
while IFS= read -r -d '' f; do
	raw_total=$((raw_total + $(wc -c <"$f")))
	# what a browser asking for brotli is sent: the .br copy when there is one
	if [ -f "$f.br" ]; then sent=$f.br; else sent=$f; fi
	br_total=$((br_total + $(wc -c <"$sent")))
	files=$((files + 1))
done < <(find "$site" -type f ! -name '*.br' ! -name '*.gz' ! -name _headers -print0)
printf '%-28s %12s %12s\n' "" raw "as sent (br)" 
printf '%-28s %12d %12d\n' "all $files files" "$raw_total" "$br_total"
echo "(the first view as the server sends it, headers included: node tests/browser/measure-load.mjs)"
exit "$failed"
