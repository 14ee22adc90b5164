#!/usr/bin/env bash
# auto-table.sh [OUT]: runs auto on every development scenario (the cooldown study, the
# MultiPowerLaw release split and one run of each size) and writes the table of scenario x
# candidate held-out PredE, with auto's pick (or its members and their weights) marked, to OUT (default build/auto-table.md),
# printing it too. The table in docs/accuracy.md#auto-against-every-fixed-setting is this
# script's output.
#
# auto-table.sh --bands [-v] [--baseline] [--check-roles] [OUT]: the prediction band's table
# (issue #44) instead: on every development scenario (those above, and the horizons: one
# cosine run predicting a longer one, again from 20 points of it), auto is fitted on the fit
# curves alone and each held-out curve's schedule predicted with its band (lawcore.Predict),
# read at the curve's last observed step. It prints, by scenario, the mean |error|, the 90%
# band's coverage, its mean half-width, the mean interval score (Gneiting & Raftery 2007) and
# its ratio to the mean |error|, auto's choice, its band and the auto fit's wall time
# (natively), and the issue's targets; each figure as before (scripts/band-baseline.tsv) →
# after (this run). Written: OUT (default build/band-table.md), build/band-curves.md (every
# held-out final) and build/band-table.tsv (this run's figures in the baseline's format).
# The measurement is lawcore/auto/band_table_test.go (TestBandScenarios).
#   -v             print the table of every held-out final too
#   --baseline     make this run the baseline: write it to scripts/band-baseline.tsv, headed
#                  by the commit measured (commit it)
#   --check-roles  fit each scenario a second time with its held-out curves in the request as
#                  validate curves, and say whether the choice, band or finals differ
# BAND_ONLY=TEXT in the environment measures only the scenarios whose name contains TEXT.
set -euo pipefail
cd "$(dirname "$0")/.."

bands=0 verbose=0 baseline=0 check_roles=0 out=""
for arg in "$@"; do
	case $arg in
	--bands) bands=1 ;;
	-v) verbose=1 ;;
	--baseline) baseline=1 ;;
	--check-roles) check_roles=1 ;;
	-*) echo "usage: $0 [--bands [-v] [--baseline] [--check-roles]] [OUT]" >&2; exit 2 ;;
	*) out=$arg ;;
	esac
done

if [ "$bands" = 0 ]; then
	out=${out:-build/auto-table.md}
	mkdir -p "$(dirname "$out")"
	AUTO_TABLE=$(realpath "$out") go test ./lawcore/auto -run 'TestAutoScenarios$' -count=1 -v | grep -E 'auto picks|band covers|cooldown study|WorstE' || true
	cat "$out"
	exit 0
fi

out=${out:-build/band-table.md}
mkdir -p "$(dirname "$out")" build
tsv=build/band-table.tsv curves=build/band-curves.md
rm -f "$out" "$tsv" "$curves"
before=""
if [ "$baseline" = 0 ] && [ -f scripts/band-baseline.tsv ]; then before=$(realpath scripts/band-baseline.tsv); fi
# what is measured: the commit (and where it left main), whether lawcore differs from it, and
# the last commit that changed lawcore's code (not its tests)
dirty=""
if [ -n "$(git status --porcelain -- lawcore)" ]; then dirty=" with uncommitted changes to lawcore/"; fi
code=$(git log -1 --format=%h -- lawcore ':(exclude,glob)lawcore/**/*_test.go' ':(exclude)lawcore/internal/testcurves')
fork=""
if base=$(git merge-base HEAD main 2>/dev/null) && [ "$base" != "$(git rev-parse HEAD)" ]; then fork=", from main at $(git rev-parse --short "$base")"; fi
measured="$(git rev-parse --short HEAD) on $(git rev-parse --abbrev-ref HEAD)${fork}${dirty} (lawcore's code last changed in ${code}); $(go env GOVERSION) natively, $(date -u +%Y-%m-%d)"
# the Go test logs a line per scenario as it goes; its table is printed from the file
BAND_TABLE=$(realpath "$out") BAND_TSV=$(realpath "$tsv") BAND_CURVES=$(realpath "$curves") \
	BAND_BASELINE=$before BAND_COMMIT=$measured BAND_CHECK_ROLES=$check_roles \
	go test ./lawcore/auto -run 'TestBandScenarios$' -count=1 -v -timeout 60m |
	grep -E 'held out, mean|folds of|parameters map|roles check|FAIL|panic' | sed -E 's/^ +band_table_test.go:[0-9]+: /  /' || true
test -s "$out" || { echo "auto-table.sh: the measurement wrote no table (see go test ./lawcore/auto -run TestBandScenarios -v)" >&2; exit 1; }
echo
echo "Measured: $measured${before:+; before: scripts/band-baseline.tsv ($(sed -n 's/^# Measured at: //p' "$before"))}"
echo
cat "$out"
if [ "$verbose" = 1 ]; then
	echo
	cat "$curves"
fi
if [ "$baseline" = 1 ]; then
	cp "$tsv" scripts/band-baseline.tsv
	echo
	echo "wrote scripts/band-baseline.tsv"
fi
