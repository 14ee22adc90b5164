#!/usr/bin/env bash
# bench.sh: prints the figures worth watching; asserts nothing.
#   1. lawcore's benchmarks, native
#   2. the same benchmarks compiled to wasm and run under node
#   3. the size of the built site, gzip -9: all files summed, and lawcore.wasm alone
# Run `make build` first for part 3 (`make bench` does).
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
echo "== size of $site (bytes)"
if [ ! -d "$site" ]; then
	echo "no $site: run make build"
	exit "$failed"
fi
gz() { gzip -9 -c "$1" | wc -c; }
raw_total=0
gz_total=0
files=0
while IFS= read -r -d '' f; do
	raw_total=$((raw_total + $(wc -c <"$f")))
	gz_total=$((gz_total + $(gz "$f")))
	files=$((files + 1))
done < <(find "$site" -type f -print0)
printf '%-28s %12s %12s\n' "" raw gzip-9
printf '%-28s %12d %12d\n' "all $files files" "$raw_total" "$gz_total"
if [ -f "$site/lawcore.wasm" ]; then
	printf '%-28s %12d %12d\n' "lawcore.wasm" "$(wc -c <"$site/lawcore.wasm")" "$(gz "$site/lawcore.wasm")"
else
	echo "no $site/lawcore.wasm"
fi
# The files the page loads before its first fit (what a visitor downloads), when present.
first=0
first_gz=0
for f in index.html wasm_exec.js lawcore.wasm vendor/uPlot.esm.js vendor/uPlot.min.css; do
	[ -f "$site/$f" ] || continue
	first=$((first + $(wc -c <"$site/$f")))
	first_gz=$((first_gz + $(gz "$site/$f")))
done
printf '%-28s %12d %12d\n' "page+wasm+uPlot" "$first" "$first_gz"
exit "$failed"
