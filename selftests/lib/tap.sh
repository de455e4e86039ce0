# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tap.sh - TAP for the shell tests, sourced (scripts/run-tests.sh does not
# run what is under selftests/lib/):
#
#	. "$(dirname "$0")/../lib/tap.sh"
#	tap_begin record	# "TAP version 13", cd into a scratch directory
#	check "what it shows" some_function ARGS...
#	skip "what it shows" "why it cannot run here"
#	tap_end			# the plan
#
# check runs the command with its output captured and prints one result;
# when it fails, the output's first lines follow as diagnostics.  It sets
# srctree and objtree (from USTRACE_SRCTREE and USTRACE_OBJTREE, else the
# tree the script is in) and tmp, the scratch directory, removed at exit.

srctree=${USTRACE_SRCTREE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}
tap_n=0

tap_begin() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-$1.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	cd "$tmp" || exit 1
	echo "TAP version 13"
}

ok()     { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
not_ok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1"; }
# skip WHAT WHY: a result that could not be had here.
skip()   { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }

check() {
	local what=$1

	shift
	if "$@" >"$tmp/check.out" 2>&1; then
		ok "$what"
	else
		not_ok "$what"
		sed 's/^/#   /' "$tmp/check.out" | head -n 30
	fi
}

tap_end() {
	echo "1..$tap_n"
}
