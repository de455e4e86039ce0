#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# demo.sh [BUILD_DIR] - a running program's tracefs, driven from a shell
# the way /sys/kernel/tracing is.  "make run" runs it after the tracepoint
# sample: it starts samples/tracefs/tracefs-sample, which fires the sample
# events ten times a second, with USTRACE_TRACEFS=<a new directory>, then
# shows each command before its output.  Without FUSE it says why and
# exits 0.

set -u

objtree=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
sample=$objtree/samples/tracefs/tracefs-sample
dir=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-tracefs.XXXXXX") || exit 1
pid=

finish() {
	cd /
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rmdir "$dir" 2>/dev/null
}
trap finish EXIT

# run 'COMMAND': print it as typed at a prompt, then run it here.
run() {
	printf '$ %s\n' "$1"
	eval "$1"
}

mounted() {
	awk -v d="$dir" '$2 == d && $3 ~ /^fuse/ { found = 1 } END { exit !found }' /proc/mounts
}

if [ ! -x "$sample" ]; then
	echo "demo.sh: $sample is not built (make)" >&2
	exit 1
fi
if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	echo "demo.sh: no FUSE here (/dev/fuse, fusermount3 from Debian's fuse3): no tracefs demo"
	exit 0
fi

echo "== A program's own tracefs: USTRACE_TRACEFS=$dir"
USTRACE_TRACEFS=$dir "$sample" -p 100000 2>"$dir.err" &
pid=$!
for i in $(seq 100); do
	mounted && timeout 5 test -d "$dir/events" && break
	# The library says so on stderr when it cannot mount.
	[ -s "$dir.err" ] && break
	sleep 0.05
done
if ! mounted; then
	echo "demo.sh: the tracefs did not come up: $(cat "$dir.err")"
	rm -f "$dir.err"
	exit 0
fi
rm -f "$dir.err"

run "cd $dir"
run "ls -C"
run "ls events/sample_trace"
run "echo 1 > events/sample_trace/enable"
run "sleep 0.25"
run "echo 0 > tracing_on"
run "cat trace"
run "echo 1 > tracing_on"
run "head -n 6 trace_pipe"
run "echo 0 > events/sample_trace/enable"
run "cat events/sample_trace/foo_bar/format"

echo "== The program ends: its tracefs goes with it"
run "cd /"
run "kill $pid; wait $pid"
pid=
for i in $(seq 100); do
	mounted || break
	sleep 0.05
done
run "grep ' $dir ' /proc/mounts || echo 'not mounted any more'"
