#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# latency.sh [BUILD_DIR] - request latency measured inside the tracer, as
# the kernel measures wakeup latency: starts samples/hist/latency-sample
# with USTRACE_TRACEFS=<a new directory>, sets the inter-event hist
# triggers of Documentation/trace/histogram.rst, has it serve one batch of
# requests, and shows each command before its output.  Without FUSE it
# says why and exits 0.

set -u

objtree=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
sample=$objtree/samples/hist/latency-sample
dir=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-latency.XXXXXX") || exit 1
pid=

finish() {
	cd /
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rmdir "$dir" 2>/dev/null
	rm -f "$dir.out" "$dir.err"
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
	echo "latency.sh: $sample is not built (make)" >&2
	exit 1
fi
if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	echo "latency.sh: no FUSE here (/dev/fuse, fusermount3 from Debian's fuse3): nothing to show"
	exit 0
fi

USTRACE_TRACEFS=$dir ${LATENCY_CHRT:-} "$sample" >"$dir.out" 2>"$dir.err" &
pid=$!
for i in $(seq 100); do
	mounted && timeout 5 test -d "$dir/events" && break
	[ -s "$dir.err" ] && break
	sleep 0.05
done
if ! mounted; then
	echo "latency.sh: the tracefs did not come up: $(cat "$dir.err")"
	exit 0
fi

run "cd $dir"
echo "== A synthetic event for the latency, and the triggers that make it"
run "echo 'req_latency u64 lat; int id; char path[]' > synthetic_events"
run "echo 'hist:keys=id:ts0=common_timestamp.usecs:p=path' > events/latency_sample/req_start/trigger"
run "echo 'hist:keys=id:lat=common_timestamp.usecs-\$ts0:onmatch(latency_sample.req_start).req_latency(\$lat,id,\$p)' > events/latency_sample/req_end/trigger"
echo "== Its distribution, and the slowest request of each thread"
run "echo 'hist:keys=lat.buckets=4000:sort=lat' > events/synthetic/req_latency/trigger"
run "echo 'hist:keys=common_pid.execname:l=lat:onmax(\$l).save(id,path)' >> events/synthetic/req_latency/trigger"
run "echo 1 > events/synthetic/req_latency/enable"
echo "== One batch of requests (kill -USR1)"
kill -USR1 "$pid"
for i in $(seq 200); do
	grep -q "batch done" "$dir.out" && break
	sleep 0.05
done
run "cat events/synthetic/req_latency/hist"
run "grep req_latency: trace | head -n 3"
