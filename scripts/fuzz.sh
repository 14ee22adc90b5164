#!/usr/bin/env bash
# fuzz.sh FUZZTIME [DIR...]: runs every Fuzz target found under the given directories (default:
# lawcore) for FUZZTIME each (e.g. 5s, 60s). Targets are found with grep, so new ones are picked
# up without editing anything. A failing input is written by `go test` to the package's
# testdata/fuzz/ and the script stops with go test's exit code.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${1:?usage: scripts/fuzz.sh FUZZTIME [DIR...]}
shift
dirs=("${@:-lawcore}")

found=0
# "path/to/file_test.go:func FuzzName(" -> one run of FuzzName in ./path/to
while IFS=: read -r file decl; do
	name=${decl#func }
	name=${name%%(*}
	pkg=./$(dirname "$file")
	echo "fuzz: $name in $pkg for $fuzztime"
	go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" "$pkg"
	found=$((found + 1))
done < <(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*\(' "${dirs[@]}" 2>/dev/null | sort -u)

if [ "$found" -eq 0 ]; then
	echo "fuzz: no Fuzz targets under ${dirs[*]}"
fi
