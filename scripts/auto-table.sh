#!/usr/bin/env bash
# auto-table.sh [OUT]: runs auto on every development scenario (the cooldown study, the
# MultiPowerLaw release split and one run of each size) and writes the table of scenario x
# candidate held-out PredE, with auto's pick (or its members and their weights) marked, to OUT (default build/auto-table.md),
# printing it too. The table in docs/accuracy.md#auto-against-every-fixed-setting is this
# script's output.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/auto-table.md}
mkdir -p "$(dirname "$out")"
AUTO_TABLE=$(realpath "$out") go test ./lawcore/auto -run 'TestAutoScenarios$' -count=1 -v | grep -E 'auto picks|band covers|cooldown study|WorstE' || true
cat "$out"
