#!/usr/bin/env bash
# sw-manifest.sh DIR: writes DIR/sw-manifest.js for the service worker: PRECACHE, the list of
# every file of the built site (the page's own URL "./" first), and BUILD, a hash of their
# contents, so that a new build gets a new cache and the old one is deleted.
set -euo pipefail
dir=${1:?usage: scripts/sw-manifest.sh DIR}
cd "$dir"
# _headers is read by the host, never served; the precompressed copies (.br, .gz) are the same
# files as sent over the wire, which the cache holds decoded; source maps (.map) are fetched by
# developer tools only.
files=$(find . -type f ! -name sw.js ! -name sw-manifest.js ! -name _headers ! -name '*.br' ! -name '*.gz' ! -name '*.map' | sed 's|^\./||' | LC_ALL=C sort)
build=$(printf '%s\n' "$files" | xargs sha256sum | sha256sum | cut -c1-16)
{
	echo "// Written by scripts/sw-manifest.sh at build time: the files sw.js caches."
	echo "self.BUILD = '$build';"
	echo "self.PRECACHE = ["
	echo "  './',"
	printf '%s\n' "$files" | sed "s|.*|  '&',|"
	echo "];"
} > sw-manifest.js
