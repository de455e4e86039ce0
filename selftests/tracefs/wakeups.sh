#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 120
#
# wakeups.sh - readers sleep, they do not poll: an idle traced program
# with a blocked "cat trace_pipe" and a producer/consumer recorder
# attached makes no context switch at all for 2 s (the voluntary and
# involuntary switches of every thread of it, from /proc/PID/task/*/status:
# its own threads, the tracefs server and workers, the recorder's thread);
# then an event (a trace_marker write) reaches the blocked cat in less
# than 100 ms, and "echo 0 > tracing_on" ends the cat.
#
# The bound is 0: the program's one firing thread sleeps for 10 minutes
# after its first round, the FUSE workers wait in poll() for requests,
# the server and the recorder on their futexes without a timeout.  (So
# the program is killed at the end: SIGTERM would wait for that sleep.)

set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/wakeups.bash"

sample=$objtree/samples/tracefs/tracefs-sample
tap_begin wakeups

command -v fusermount3 >/dev/null || [ -x /usr/bin/fusermount3 ] ||
	skip_all "no fusermount3 (Debian: fuse3)"
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
[ -x "$sample" ] || { echo "Bail out! $sample is not built (make)"; exit 1; }

mnt=$tmp/mnt
mkdir "$mnt"
pid=
cat_pid=
cleanup() {
	[ -n "$cat_pid" ] && kill "$cat_pid" 2>/dev/null
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	wait 2>/dev/null
	for _ in $(seq 50); do
		awk -v d="$mnt" '$2 == d { f = 1 } END { exit !f }' /proc/mounts || break
		sleep 0.1
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

is_mounted() {
	awk -v d="$1" '$2 == d && $3 ~ /^fuse/ { found = 1 } END { exit !found }' /proc/mounts
}

USTRACE_TRACEFS=$mnt USTRACE_EVENTS='sample_trace:*' USTRACE_MODE=producer-consumer \
	USTRACE_OUTPUT=$tmp/trace.dat "$sample" -p 600000000 </dev/null >"$tmp/out" 2>"$tmp/err" &
pid=$!
up=
for _ in $(seq 200); do
	if is_mounted "$mnt" && timeout 5 test -d "$mnt/events"; then
		up=1
		break
	fi
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
if [ -z "$up" ]; then
	not_ok "the program mounts its tracefs"
	diag "$tmp/err"
	tap_end
	exit 1
fi

[ -d "$mnt/instances/ustrace-record" ] && ok "the recorder's instance is there" ||
	not_ok "the recorder's instance is there"
echo 1 > "$mnt/events/sample_trace/enable"
skip_tid=$(tsan_tid "$sample" "$pid")
cat "$mnt/trace_pipe" > "$tmp/pipe" &
cat_pid=$!
# Let everything settle: the mount's first requests, the reader parked.
sleep 1
before=$(switches "$pid" "$skip_tid")
sleep 2
after=$(switches "$pid" "$skip_tid")
kill -0 "$cat_pid" 2>/dev/null && [ ! -s "$tmp/pipe" ] && ok "the cat is blocked on an idle program" ||
	not_ok "the cat is blocked on an idle program"
same "context switches of the idle program's threads in 2 s with a reader and a recorder" \
	0 $((after - before))
echo "threads: $(ls /proc/"$pid"/task | wc -l)${skip_tid:+ (not counted: $skip_tid, of ThreadSanitizer)}, switches before $before, after $after" | diag -

# The time from the end of the marker's write(2) to the cat's output.
got=$(marker_ms "$mnt/trace_marker" "$tmp/pipe")
if [ -n "$got" ] && [ "$got" -lt 100 ]; then
	ok "an event reaches the blocked cat in < 100 ms ($got ms)"
else
	not_ok "an event reaches the blocked cat in < 100 ms (${got:-no line in 1 s})"
fi

echo 0 > "$mnt/tracing_on"
ended=
for _ in $(seq 100); do
	kill -0 "$cat_pid" 2>/dev/null || { ended=1; break; }
	sleep 0.01
done
if [ -n "$ended" ]; then
	ok "echo 0 > tracing_on ends the blocked cat"
	cat_pid=
else
	not_ok "echo 0 > tracing_on ends the blocked cat"
fi

tap_end
