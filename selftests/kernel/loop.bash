#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# loop.bash [RUNS [LOAD]] - the proof of timeline.sh, RUNS times in a row
# (default 100), with LOAD busy loops beside it (default 1): for every
# ktl_mark of thread T on CPU c at t, the first sched_switch on c after t
# switches T out.  Stops at the first failure.  Not in make check (it
# takes minutes); run it from the build directory as root:
#
#	selftests/kernel/loop.bash 100
set -u

srctree=${USTRACE_SRCTREE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}
runs=${1:-100}
load=${2:-1}
dir=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-loop.XXXXXX") || exit 1
pids=()
end() {
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
	rm -rf "$dir"
}
trap end EXIT
for i in $(seq "$load"); do
	(while :; do :; done) &
	pids+=($!)
done
cd "$dir" || exit 1
judged=0
for i in $(seq "$runs"); do
	timeout -k 5 120 "$objtree/tools/tracing/ustrace" record -K sched:sched_switch -e ktl \
		-o p.dat -- "$objtree/selftests/kernel/ktl-app" -w 6 -r 60 2>p.sum ||
		{ echo "run $i: record failed"; cat p.sum; exit 1; }
	out=$(trace-cmd report -t -N p.dat 2>/dev/null |
		"${PYTHON:-python3}" "$srctree/selftests/kernel/check-timeline.py" slices) ||
		{ echo "run $i: FAILED"; echo "$out"; cat p.sum; exit 1; }
	n=$(echo "$out" | sed -n 's/^program events judged: \([0-9]*\),.*/\1/p')
	judged=$((judged + n))
	echo "run $i: $out"
done
echo "$runs runs in a row passed, $judged program events judged, with $load busy loop(s) beside"
