#!/usr/bin/env bash
# fuzz.sh FUZZTIME [DIR...]: runs every Fuzz target found under the given directories (default:
# lawcore) for FUZZTIME each: a duration (60s) or a count of inputs (50000x). Targets are found
# with grep, so new ones are picked up without editing anything. A failing input is written by
# `go test` to the package's testdata/fuzz/ and the script stops with go test's exit code.
#
# Go before 1.27 can fail a duration run with a bare "context deadline exceeded" as the time
# runs out (golang/go#75804), with no failing input: that is reported and skipped. A count has
# no deadline to race, which is why `make test` gives one.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${1:?usage: scripts/fuzz.sh FUZZTIME [DIR...]}
shift
dirs=("${@:-lawcore}")

log=$(mktemp)
trap 'rm -f "$log"' EXIT

found=0
# "path/to/file_test.go:func FuzzName(" -> one run of FuzzName in ./path/to
while IFS=: read -r file decl; do
	name=${decl#func }
	name=${name%%(*}
	pkg=./$(dirname "$file")
	echo "fuzz: $name in $pkg for $fuzztime"
	status=0
	go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" "$pkg" 2>&1 | tee "$log" || status=$?
	if [ "$status" -ne 0 ]; then
		if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			echo "fuzz: $name: the fuzzing engine's end-of-time race (golang/go#75804), no failing input; going on"
		else
			exit "$status"
		fi
	fi
	found=$((found + 1))
done < <(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*\(' "${dirs[@]}" 2>/dev/null | sort -u)

if [ "$found" -eq 0 ]; then
	echo "fuzz: no Fuzz targets under ${dirs[*]}" >&2
	exit 1
fi
