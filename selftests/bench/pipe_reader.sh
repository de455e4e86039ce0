#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# pipe_reader.sh - what a "cat trace_pipe" costs a busy traced program.
# The program (tracefs-sample, a round of 8 events, then a 100 us pause)
# serves its tracefs over FUSE from its own threads, so the reader's
# reads are done by the program's process: the formatting, and for each
# read that waited, the writer's wake, a flush of its page and a FUSE
# round trip.  Measured over USTRACE_BENCH_SECONDS (5) without a reader,
# then with one: the program's CPU time (utime + stime of
# /proc/PID/stat, every thread) and context switches
# (/proc/PID/task/*/status) per second, and the lines the reader got.
# Prints "pipe_reader_us_per_event N": the program's extra CPU time per
# line read, in microseconds.  No target: reported, not asserted.

set -u
secs=${USTRACE_BENCH_SECONDS:-5}
. "$(dirname "$0")/../lib/wakeups.bash"
bench_sample pipe_reader || exit 0
hz=$(getconf CLK_TCK)

# The program's utime + stime, all its threads.
ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/"$pid"/stat 2>/dev/null
}
lines() {
	wc -l <"$tmp/out" 2>/dev/null || echo 0
}

USTRACE_TRACEFS=$tmp/mnt "$sample" -p 100 </dev/null >/dev/null 2>&1 &
pid=$!
bench_sample_enable || exit 1
t0=$(ticks) s0=$(switches "$pid"); sleep "$secs"; t1=$(ticks) s1=$(switches "$pid")
cat "$tmp/mnt/trace_pipe" >"$tmp/out" &
cat_pid=$!
sleep 1
t2=$(ticks) s2=$(switches "$pid") l2=$(lines); sleep "$secs"; t3=$(ticks) s3=$(switches "$pid") l3=$(lines)

awk -v hz="$hz" -v secs="$secs" -v t0="$t0" -v t1="$t1" -v t2="$t2" -v t3="$t3" \
    -v s0="$s0" -v s1="$s1" -v s2="$s2" -v s3="$s3" -v l2="$l2" -v l3="$l3" '
BEGIN {
	alone = (t1 - t0) * 1000 / hz / secs
	read = (t3 - t2) * 1000 / hz / secs
	n = (l3 - l2) / secs
	printf "# program: CPU ms/s, context switches/s; lines/s the reader got\n"
	printf "%-24s %10.1f %10.0f\n", "no reader", alone, (s1 - s0) / secs
	printf "%-24s %10.1f %10.0f %10.0f\n", "cat trace_pipe", read, (s3 - s2) / secs, n
	if (n > 0)
		printf "pipe_reader_us_per_event %.2f\n", (read - alone) * 1000 / n
}' | tee "$tmp/result"
if [ -n "${USTRACE_BENCH_TABLE:-}" ]; then
	grep '^pipe_reader_us_per_event ' "$tmp/result" >>"$USTRACE_BENCH_TABLE"
fi
