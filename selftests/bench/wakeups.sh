#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# wakeups.sh - "wakeups/s of an idle program with a reader": the context
# switches of every thread of an idle traced program (tracefs-sample
# pausing 10 minutes between rounds) with a blocked "cat trace_pipe" and
# a producer/consumer recorder attached, over 5 s, from
# /proc/PID/task/*/status.  Prints "idle_wakeups_per_s N" (and, with the
# recorder only, "idle_wakeups_per_s_recorder_only N").  selftests/tracefs/wakeups.sh
# asserts 0; this prints the figure for the bench table.

set -u
objtree=${USTRACE_OBJTREE:-.}
sample=$objtree/samples/tracefs/tracefs-sample
secs=${USTRACE_BENCH_SECONDS:-5}

if ! { command -v fusermount3 >/dev/null && [ -c /dev/fuse ] && [ -x "$sample" ]; }; then
	echo "# wakeups: no FUSE or no $sample: not measured"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-bench-wakeups.XXXXXX") || exit 1
pid= cat_pid=
trap '[ -n "$cat_pid" ] && kill $cat_pid 2>/dev/null; [ -n "$pid" ] && kill -KILL $pid 2>/dev/null; wait 2>/dev/null; sleep 0.2; rmdir "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/mnt"

switches() {
	cat /proc/"$pid"/task/*/status 2>/dev/null |
		awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }'
}

USTRACE_TRACEFS=$tmp/mnt USTRACE_EVENTS='sample_trace:*' USTRACE_MODE=producer-consumer \
	USTRACE_OUTPUT=$tmp/trace.dat "$sample" -p 600000000 </dev/null >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	timeout 5 test -d "$tmp/mnt/events" && break
	sleep 0.05
done
echo 1 > "$tmp/mnt/events/sample_trace/enable" || exit 1
sleep 1
a=$(switches); sleep "$secs"; b=$(switches)
echo "idle_wakeups_per_s_recorder_only $(( (b - a) / secs ))"
cat "$tmp/mnt/trace_pipe" > /dev/null &
cat_pid=$!
sleep 1
a=$(switches); sleep "$secs"; b=$(switches)
echo "idle_wakeups_per_s $(( (b - a) / secs ))"
if [ -n "${USTRACE_BENCH_TABLE:-}" ]; then
	echo "idle_wakeups_per_s $(( (b - a) / secs ))" >>"$USTRACE_BENCH_TABLE"
fi
