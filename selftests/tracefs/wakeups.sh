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

# ThreadSanitizer's runtime has a thread of its own that wakes ~10 times
# a second (it is created at its start, before any constructor: the
# process's second thread); it is not ours, and not counted.
skip_tid=
tsan=
ldd "$sample" 2>/dev/null | grep -q libtsan && tsan=1

# Context switches of every thread of $pid, added up.
switches() {
	local t n=0 c

	for t in /proc/"$pid"/task/*; do
		[ "${t##*/}" = "$skip_tid" ] && continue
		c=$(awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }' \
			"$t/status" 2>/dev/null)
		n=$((n + ${c:-0}))
	done
	echo $n
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
[ -n "$tsan" ] && skip_tid=$(ls /proc/"$pid"/task | sort -n | sed -n 2p)
cat "$mnt/trace_pipe" > "$tmp/pipe" &
cat_pid=$!
# Let everything settle: the mount's first requests, the reader parked.
sleep 1
before=$(switches)
sleep 2
after=$(switches)
kill -0 "$cat_pid" 2>/dev/null && [ ! -s "$tmp/pipe" ] && ok "the cat is blocked on an idle program" ||
	not_ok "the cat is blocked on an idle program"
same "context switches of the idle program's threads in 2 s with a reader and a recorder" \
	0 $((after - before))
echo "threads: $(ls /proc/"$pid"/task | wc -l)${skip_tid:+ (not counted: $skip_tid, of ThreadSanitizer)}, switches before $before, after $after" | diag -

# The time from the end of the marker's write(2) to the cat's output,
# measured by a Python loop (a shell loop's forks cost tens of ms here).
got=$("${PYTHON:-python3}" - "$mnt/trace_marker" "$tmp/pipe" <<'PY'
import sys, time
marker, pipe = sys.argv[1], sys.argv[2]
with open(marker, "w") as f:
    f.write("wake up\n")
t0 = time.monotonic()
while time.monotonic() - t0 < 1:
    with open(pipe, "rb") as f:
        if b"wake up" in f.read():
            print(int((time.monotonic() - t0) * 1000))
            break
    time.sleep(0.001)
PY
)
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
