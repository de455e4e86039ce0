#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# runner.sh - scripts/run-tests.sh makes each test load its own build's
# libustrace.so whatever LD_LIBRARY_PATH says: with a wrong one (a
# directory holding another libustrace.so.0, as an installed copy or
# another variant's build would) and with an unrelated one, a test program
# of this build passes under the runner.  Run directly with the wrong
# path, the same program fails: the wrong library is the one it would load.
#
# And run-tests.sh --total, whose last 80 lines are what CI shows: it lists
# each failed test ("# FAILED VARIANT: TEST") with the lines of its log
# that say why, before the summaries, at most 20 of them, and its last
# line stays "N passed, N failed[, N skipped]".

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
# A source tree of three scripts: one passes, one fails a result, one
# stops short of its plan.
fake=$tmp/fake
mkdir -p "$fake/selftests/t" "$tmp/obj" "$tmp/res"
printf 'echo "ok 1 - fine"\necho 1..1\n' >"$fake/selftests/t/good.sh"
printf '%s\n' 'echo "TAP version 13"' 'echo "ok 1 - fine"' 'echo "#   set up"' \
	'echo "not ok 2 - broken"' 'echo "#   got 1"' 'echo "#   want 2"' \
	'echo "ok 3 - after"' 'echo 1..3' >"$fake/selftests/t/bad.sh"
printf '%s\n' 'echo "ok 1 - first"' 'echo 1..3' 'echo "it died here"' \
	>"$fake/selftests/t/short.sh"

total_lists() {
	"$srctree/scripts/run-tests.sh" --variant v1 --srctree "$fake" \
		--objtree "$tmp/obj" --results "$tmp/res/v1" >"$tmp/v1.out" 2>&1
	"$srctree/scripts/run-tests.sh" --total "$tmp/res/v1" >"$tmp/total.out" 2>&1
	local rc=$?
	cat "$tmp/total.out"
	[ "$rc" -eq 1 ] || { echo "--total exits $rc"; return 1; }
	[ "$(tail -n 1 "$tmp/total.out")" = "4 passed, 2 failed" ] || return 1
	# The failed result, its diagnostics after and before it.
	grep -A4 -x '# FAILED v1: selftests/t/bad.sh' "$tmp/total.out" |
		tr '\n' '|' | grep -qF '|#   #   set up|#   not ok 2 - broken|#   #   got 1|#   #   want 2|' ||
		{ echo "bad.sh: no reason listed"; return 1; }
	grep -A3 -x '# FAILED v1: selftests/t/short.sh (planned 3 tests, ran 1)' "$tmp/total.out" |
		grep -qx '#   it died here' || { echo "short.sh: no reason listed"; return 1; }
	! grep -q 'good\.sh' "$tmp/total.out" || { echo "good.sh listed"; return 1; }
	# Before the summaries.
	[ "$(grep -n '^# FAILED' "$tmp/total.out" | tail -n 1 | cut -d: -f1)" -lt \
	  "$(grep -n '^# v1: ' "$tmp/total.out" | cut -d: -f1)" ]
}
check "--total lists each failed test with why, before the summaries" total_lists

# 25 failed tests: 20 listed, the rest counted.
total_caps() {
	local i

	{
		echo "0 25 0"
		for i in $(seq 25); do printf 'failed\tt%d.sh\t-\texit status 1\n' "$i"; done
	} >"$tmp/res/v2"
	"$srctree/scripts/run-tests.sh" --total "$tmp/res/v2" >"$tmp/total2.out" 2>&1
	cat "$tmp/total2.out"
	[ "$(grep -c '^# FAILED v2: ' "$tmp/total2.out")" = 20 ] &&
		grep -q '^# \.\.\. and 5 more failed tests' "$tmp/total2.out" &&
		[ "$(tail -n 1 "$tmp/total2.out")" = "0 passed, 25 failed" ]
}
check "--total lists at most 20 failed tests, and counts the others" total_caps
tap_end
