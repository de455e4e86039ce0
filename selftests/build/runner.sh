#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# runner.sh - scripts/run-tests.sh makes each test load its own build's
# libustrace.so whatever LD_LIBRARY_PATH says: with a wrong one (a
# directory holding another libustrace.so.0, as an installed copy or
# another variant's build would) and with an unrelated one, a test program
# of this build passes under the runner.  Run directly with the wrong
# path, the same program fails: the wrong library is the one it would load.

. "$(dirname "$0")/../lib/tap.sh"
tap_begin runner

prog=$objtree/selftests/tracepoints/api
cc=${USTRACE_CC:-cc}

# A libustrace.so.0 without a single symbol of the real one.
mkdir -p "$tmp/wrong" "$tmp/nosrc"
"$cc" -shared -fPIC -Wl,-soname,libustrace.so.0 -o "$tmp/wrong/libustrace.so.0" -x c /dev/null ||
	exit 1

# runs LD_LIBRARY_PATH: the runner runs $prog alone (a source tree without
# selftests/ adds no scripts) and counts no failure.
runs() {
	LD_LIBRARY_PATH=$1 "$srctree/scripts/run-tests.sh" --variant runner-ldpath \
		--srctree "$tmp/nosrc" --objtree "$objtree" -- "$prog" >"$tmp/run.out" 2>&1
	local rc=$?
	cat "$tmp/run.out"
	[ "$rc" -eq 0 ] && grep -q '^runner-ldpath: [1-9][0-9]* passed, 0 failed' "$tmp/run.out"
}

# fails_alone LD_LIBRARY_PATH: the program run directly does not start.
fails_alone() {
	! LD_LIBRARY_PATH=$1 "$prog" >"$tmp/alone.out" 2>&1 &&
		grep -q 'symbol lookup error\|undefined symbol' "$tmp/alone.out" ||
		{ cat "$tmp/alone.out"; return 1; }
}

check "run directly with a wrong LD_LIBRARY_PATH, the program takes the wrong library" \
	fails_alone "$tmp/wrong"
check "under the runner with a wrong LD_LIBRARY_PATH it takes its own" runs "$tmp/wrong"
check "under the runner with an unrelated LD_LIBRARY_PATH too" \
	runs "/usr/lib/x86_64-linux-gnu:$tmp/none"
check "under the runner with LD_LIBRARY_PATH unset" runs ""
tap_end
