# SPDX-License-Identifier: LGPL-2.1-or-later
#
# wakeups.bash - sourced by the tests that check readers sleep rather
# than poll (selftests/tracefs/wakeups.sh, selftests/collector/wakeups.sh).
#
#	switches PID [SKIP_TID]     context switches, voluntary and not, of
#	                            every thread of PID but SKIP_TID, added up
#	tsan_tid PROGRAM PID        the thread of ThreadSanitizer's runtime in
#	                            PID when PROGRAM is built with it (it
#	                            wakes ~10 times a second: not ours), else
#	                            nothing
#	marker_ms MARKER PIPE       write a line to the trace_marker MARKER and
#	                            print the ms until it is in the file PIPE
#	                            (a blocked reader's output), or nothing
#	                            after 1 s
#	grow_ms FILE MS ACTION...   do ACTION ("kill PID SIG", or "write PATH
#	                            TEXT": TEXT written to PATH) and print
#	                            the ms until FILE (a blocked reader's
#	                            output) grows, or nothing after MS ms
#	bench_sample NAME           for the benchmarks (selftests/bench):
#	                            $sample, tracefs-sample, and $tmp, a
#	                            directory with a mnt/ in it, removed at
#	                            exit with the processes $pid and $cat_pid
#	                            (set them); returns 1 (said on stdout)
#	                            without FUSE or the sample
#	bench_sample_enable         once the sample started at $tmp/mnt has
#	                            its tree: enable its events, wait 1 s;
#	                            returns 1 if they cannot be

switches() {
	local pid=$1 skip=${2:-} t n=0 c

	for t in /proc/"$pid"/task/*; do
		[ "${t##*/}" = "$skip" ] && continue
		c=$(awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }' \
			"$t/status" 2>/dev/null)
		n=$((n + ${c:-0}))
	done
	echo $n
}

# Made at the runtime's start, before any constructor: the process's
# second thread.
tsan_tid() {
	ldd "$1" 2>/dev/null | grep -q libtsan || return 0
	ls /proc/"$2"/task | sort -n | sed -n 2p
}

# Timed by a Python loop (a shell loop's forks cost tens of ms here).
marker_ms() {
	"${PYTHON:-python3}" - "$1" "$2" <<'PY'
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
}

# Timed by Python too; the action is done by it, the clock started after.
grow_ms() {
	"${PYTHON:-python3}" - "$@" <<'PY'
import os, signal, sys, time
path, limit, what = sys.argv[1], int(sys.argv[2]) / 1000, sys.argv[3]
size = os.path.getsize(path)
if what == "kill":
    os.kill(int(sys.argv[4]), getattr(signal, "SIG" + sys.argv[5]))
else:
    with open(sys.argv[4], "w") as f:
        f.write(sys.argv[5] + "\n")
t0 = time.monotonic()
while time.monotonic() - t0 < limit:
    if os.path.getsize(path) > size:
        print(int((time.monotonic() - t0) * 1000))
        break
    time.sleep(0.001)
PY
}

bench_sample() {
	sample=${USTRACE_OBJTREE:-.}/samples/tracefs/tracefs-sample
	if ! { command -v fusermount3 >/dev/null && [ -c /dev/fuse ] && [ -x "$sample" ]; }; then
		echo "# $1: no FUSE or no $sample: not measured"
		return 1
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-bench-$1.XXXXXX") || return 1
	pid= cat_pid=
	trap '[ -n "$cat_pid" ] && kill $cat_pid 2>/dev/null; [ -n "$pid" ] && kill -KILL $pid 2>/dev/null; wait 2>/dev/null; sleep 0.2; rmdir "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
	mkdir "$tmp/mnt"
}

bench_sample_enable() {
	for _ in $(seq 200); do
		timeout 5 test -d "$tmp/mnt/events" && break
		sleep 0.05
	done
	echo 1 > "$tmp/mnt/events/sample_trace/enable" || return 1
	sleep 1
}
