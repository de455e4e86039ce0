#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 120
#
# wakeups.sh - the collector's blocked readers sleep, they do not poll the
# programs (system-mode.rst, "Waiting"): a "cat trace_pipe" of the
# collector's tree, blocked on an idle registered program, costs that
# program (nearly) no context switch in 2 s (it was asked every 20 ms
# before: about 100); the program's next event, 4 s after its first, still
# reaches the cat, and so does a trace_marker write to the tree, in less
# than 100 ms.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/wakeups.bash"
tap_begin collector-wakeups

. "$srctree/selftests/collector/coll-lib.bash"
app=$objtree/samples/tracefs/tracefs-sample
[ -x "$app" ] || skip_all "not built"

check "the daemon starts" start_daemon
echo 1 >"$T/events/enable"
# Round 0 at once, round 1 four seconds later, then it ends.
"$app" -n 2 -p 4000000 >"$tmp/app.out" 2>&1 &
pid=$!
# A trace_pipe opened reads the programs registered then.
wait_for 10 grep -q "process $pid (tracefs-sample) registered" "$tmp/daemon.log"
cat "$T/trace_pipe" >"$tmp/pipe" &
cat_pid=$!
check "the blocked cat gets the program's first round" \
	wait_for 3 grep -q 'foo hello 0 ' "$tmp/pipe"
skip_tid=$(tsan_tid "$app" "$pid")
sleep 0.3
before=$(switches "$pid" "$skip_tid")
sleep 2
after=$(switches "$pid" "$skip_tid")
check "the idle program's threads switch at most 4 times in 2 s ($((after - before)))" \
	test $((after - before)) -le 4
echo "threads: $(ls /proc/"$pid"/task | wc -l)${skip_tid:+ (not counted: $skip_tid, of ThreadSanitizer)}, switches before $before, after $after" | diag -
check "its next round, 4 s after the first, reaches the cat" \
	wait_for 6 grep -q 'foo hello 1 ' "$tmp/pipe"
wait "$pid"

# The time from the end of the marker's write(2) to the cat's output.
got=$(marker_ms "$T/trace_marker" "$tmp/pipe")
check "a trace_marker write reaches the blocked cat in < 100 ms (${got:-no line in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
kill "$cat_pid" 2>/dev/null
wait "$cat_pid" 2>/dev/null
tap_end
