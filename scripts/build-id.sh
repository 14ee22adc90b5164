#!/usr/bin/env bash
# build-id.sh DIR: writes the build's id into DIR/index.html (<meta name="build">): a hash of
# every file of the built site but index.html itself (and the service worker's files, the host's
# _headers, the precompressed copies and source maps), so that any change of the page's code, of
# lawcore or of the examples changes it. The page keeps the start-up example as fitted under it
# (site/js/controllers/workspace.js): a visit of the same build shows it again without computing it.
set -euo pipefail
dir=${1:?usage: scripts/build-id.sh DIR}
cd "$dir"
files=$(find . -type f ! -name index.html ! -name sw.js ! -name sw-manifest.js ! -name _headers ! -name '*.br' ! -name '*.gz' ! -name '*.map' | LC_ALL=C sort)
id=$(printf '%s\n' "$files" | xargs sha256sum | sha256sum | cut -c1-16)
grep -q '<meta name="build" content="">' index.html || { echo "build-id.sh: index.html has no empty <meta name=\"build\">" >&2; exit 1; }
sed -i "s|<meta name=\"build\" content=\"\">|<meta name=\"build\" content=\"$id\">|" index.html
