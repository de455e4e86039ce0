#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# system_mode.sh - an enabled event in system mode against embedded mode,
# side by side, in one run (Documentation/trace/system-mode.rst, "The
# cost"): event_bench alone (its buffer its own, no collector) and
# event_bench registered with a collector (ustrace daemon), which maps the
# program's buffer and keeps it.  Runs alternate, five of each, and the
# table gives the median ns/event of each and their ratio.
#
# Timings are printed, never asserted; the script fails only when a
# benchmark fails.

set -u

objtree=${USTRACE_OBJTREE:-.}
bench=$objtree/selftests/bench/event_bench
ustrace=$objtree/tools/tracing/ustrace
export LD_LIBRARY_PATH=$objtree${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-sysbench.XXXXXX") || exit 1
dpid=
trap '[ -n "$dpid" ] && kill -TERM $dpid 2>/dev/null; wait 2>/dev/null; fusermount3 -uz "$tmp/run/tracing" 2>/dev/null; rm -rf "$tmp"' EXIT

if [ ! -e /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	echo "system_mode: no /dev/fuse or fusermount3: skipped"
	exit 0
fi
"$ustrace" daemon --rundir "$tmp/run" >"$tmp/daemon.log" 2>&1 &
dpid=$!
for _ in $(seq 100); do [ -S "$tmp/run/collector.sock" ] && break; sleep 0.05; done
if [ ! -S "$tmp/run/collector.sock" ]; then
	echo "system_mode: the collector did not start:"; cat "$tmp/daemon.log"
	exit 1
fi

val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$tmp/emb" ; : >"$tmp/sys"
for i in 1 2 3 4 5; do
	USTRACE_DAEMON=0 "$bench" >"$tmp/e.$i" || exit 1
	USTRACE_RUNDIR=$tmp/run "$bench" >"$tmp/s.$i" || exit 1
	val ns_1thread "$tmp/e.$i" >>"$tmp/emb"
	val ns_1thread "$tmp/s.$i" >>"$tmp/sys"
done
registered=$(grep -c "(event_bench) registered" "$tmp/daemon.log")
e=$(median <"$tmp/emb")
s=$(median <"$tmp/sys")
echo "enabled event, one thread (median of 5 alternating runs each)"
printf '  %-34s %8s ns/event\n' "embedded (no collector)" "$e"
printf '  %-34s %8s ns/event\n' "system mode ($registered registrations)" "$s"
awk -v e="$e" -v s="$s" 'BEGIN { printf "  %-34s %8.3f (target <= 1.10)\n", "system / embedded", s / e }'
[ "$registered" -ge 5 ] || { echo "system_mode: event_bench did not register each time"; exit 1; }
