#!/usr/bin/env bash
# install-deps.sh: installs what the build and the tests need, only when it is missing.
#
#   - Debian's chromium (/usr/bin/chromium) and a font, for the browser tests driven by
#     playwright-core; python3, which runs the PyTorch code the page writes for a schedule
#     (tests/node/schedule-code.test.mjs).
#     Never `npx playwright install`: browsers cannot be downloaded on this machine.
#   - the npm devDependencies (uplot, playwright-core, esbuild, @biomejs/biome: its binary comes
#     from its platform package, so --ignore-scripts loses nothing), with `npm ci`, when
#     node_modules is missing or older than package-lock.json.
#
# Safe to run any number of times; it does nothing when everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."

# apt_install PACKAGE...: installs Debian packages, without their recommends.
apt_install() {
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
	# Other apt runs may hold the dpkg lock for a while: wait for it rather than fail.
	local apt="$sudo env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=600"
	$apt update
	$apt install -y --no-install-recommends "$@"
}

if [ ! -x /usr/bin/chromium ]; then
	echo "install-deps: installing Debian's chromium" >&2
	# Recommends would bring printers and notification daemons; a headless browser needs only
	# a font (fonts-liberation, otherwise a recommend) so that pages render text.
	apt_install chromium fonts-liberation
fi

if ! command -v python3 >/dev/null; then
	echo "install-deps: installing Debian's python3" >&2
	apt_install python3
fi

# node_modules/.package-lock.json is written by npm on every install: its age tells when
# node_modules was last brought in line with package-lock.json.
stamp=node_modules/.package-lock.json
if [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
	echo "install-deps: npm ci" >&2
	npm ci --no-audit --no-fund --ignore-scripts
	touch "$stamp"
fi
