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
secs=${USTRACE_BENCH_SECONDS:-5}
. "$(dirname "$0")/../lib/wakeups.bash"
bench_sample wakeups || exit 0

USTRACE_TRACEFS=$tmp/mnt USTRACE_EVENTS='sample_trace:*' USTRACE_MODE=producer-consumer \
	USTRACE_OUTPUT=$tmp/trace.dat "$sample" -p 600000000 </dev/null >/dev/null 2>&1 &
pid=$!
bench_sample_enable || exit 1
a=$(switches "$pid"); sleep "$secs"; b=$(switches "$pid")
echo "idle_wakeups_per_s_recorder_only $(( (b - a) / secs ))"
cat "$tmp/mnt/trace_pipe" > /dev/null &
cat_pid=$!
sleep 1
a=$(switches "$pid"); sleep "$secs"; b=$(switches "$pid")
echo "idle_wakeups_per_s $(( (b - a) / secs ))"
if [ -n "${USTRACE_BENCH_TABLE:-}" ]; then
	echo "idle_wakeups_per_s $(( (b - a) / secs ))" >>"$USTRACE_BENCH_TABLE"
fi
