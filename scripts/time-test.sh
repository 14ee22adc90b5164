#!/usr/bin/env bash
# time-test.sh [-clean] [STEP...]: runs make test's steps (the Makefile's TEST_STEPS, or the
# STEPs given: make targets such as check) one after another, as make test does, and prints a
# table of each step's wall time and CPU time (user + system, of every process it started:
# scripts/steptime), with the machine's load before and after. On a shared machine the wall
# time moves with the others' work; the CPU time much less.
#
#   -clean   time them as on a fresh clone: build/ removed first, and the Go tests run whatever
#            go test has cached (GOFLAGS=-count=1)
#
# Each step's output goes to build/time-test/STEP.log; a step that fails is marked and the
# others still run. The exit status is 1 when a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."

clean=0
if [ "${1:-}" = -clean ]; then
	clean=1
	shift
fi
steps=("$@")
if [ ${#steps[@]} -eq 0 ]; then
	read -r -a steps <<<"$(make -s --no-print-directory test-steps)"
fi

if [ "$clean" -eq 1 ]; then
	rm -rf build
	export GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1"
fi
make -s --no-print-directory deps
mkdir -p build/time-test build/bin
go build -o build/bin/steptime ./scripts/steptime
logs=build/time-test
times=$logs/times.tsv
: >"$times"

before=$(uptime)
failed=0
for step in "${steps[@]}"; do
	echo "time-test: $step" >&2
	build/bin/steptime -o "$times" -label "$step" make --no-print-directory "$step" >"$logs/$step.log" 2>&1 || {
		failed=1
		echo "time-test: $step failed: $logs/$step.log" >&2
	}
done
after=$(uptime)

echo "load before: ${before#*load average: }; after: ${after#*load average: } ($(nproc) cores)"
echo
echo "| step | wall (s) | CPU (s) |"
echo "| --- | ---: | ---: |"
awk -F'\t' '{
	cpu = $3 + $4; wall += $2; total += cpu
	printf "| %s%s | %.0f | %.0f |\n", $1, ($5 == 0 ? "" : " (failed)"), $2, cpu
} END { printf "| all | %.0f | %.0f |\n", wall, total }' "$times"
exit "$failed"
