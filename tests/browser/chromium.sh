#!/usr/bin/env bash
# chromium.sh ARG...: runs Chromium ($CHROMIUM_BINARY, else /usr/bin/chromium) with ARGs, its
# --disable-features and --enable-features switches each merged into one. Chromium takes only
# the last of each, and Playwright passes its own list before the harness's arguments, so that
# without the merge the harness's would drop Playwright's (launchBrowser in harness.mjs).
set -euo pipefail
args=()
disable=()
enable=()
for arg in "$@"; do
	case $arg in
	--disable-features=*) disable+=("${arg#*=}") ;;
	--enable-features=*) enable+=("${arg#*=}") ;;
	*) args+=("$arg") ;;
	esac
done
join() {
	local IFS=,
	echo "$*"
}
if [ ${#disable[@]} -gt 0 ]; then args+=("--disable-features=$(join "${disable[@]}")"); fi
if [ ${#enable[@]} -gt 0 ]; then args+=("--enable-features=$(join "${enable[@]}")"); fi
exec "${CHROMIUM_BINARY:-/usr/bin/chromium}" "${args[@]}"
