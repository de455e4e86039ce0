#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# formats.sh - the format of every event of the corpus (Linux 6.1's
# definitions, unchanged) against the kernel's own: formats-6.18.txt holds
# the live kernel's format files (refresh-formats made it on the reference
# machine), expected-formats.txt the events whose definition changed
# between 6.1 and 6.18.  compare-formats.py prints TAP, one result per
# event, and the figures.

. "$(dirname "$0")/../lib/tap.sh"
here=$srctree/selftests/conformance
fire=$objtree/selftests/conformance/conformance-fire

[ -d /usr/src/linux-source-6.1/include/trace/events ] || [ -f /usr/src/linux-source-6.1.tar.xz ] || {
	echo "TAP version 13"; echo "1..0 # SKIP the corpus is linux-source-6.1's event headers: apt-get install linux-source-6.1"; exit 4; }
[ -x "$fire" ] || { echo "Bail out! $fire is not built (make selftests)"; exit 1; }
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 4; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-formats.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$fire" --formats "$tmp/ours" || { echo "Bail out! conformance-fire --formats failed"; exit 1; }
exec python3 "$here/compare-formats.py" "$tmp/ours" "$here/formats-6.18.txt" \
	"$here/expected-formats.txt"
