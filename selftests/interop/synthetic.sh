#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# synthetic.sh - inter-event hist triggers and synthetic events through the
# stock trace-cmd: the latency sample (samples/hist/latency-sample) with
# the triggers of Documentation/trace/histogram.rst, recorded with
# "ustrace trace-cmd record -e synthetic"; trace-cmd report prints each
# synthetic event with its print fmt, from the format the recording
# holds, and the same events as the program's own trace file.  TAP on
# stdout.

. "$(dirname "$0")/functions"

SAMPLE=$objtree/samples/hist/latency-sample
require_fuse
require_trace_cmd
plan 6

start_sample -- -b 0
cd "$MNT" || exit 1

# serve_batch: one batch of requests; until the program says it is done.
serve_batch() {
	local n i

	n=$(grep -c "batch done" "$MNT.out" 2>/dev/null || :)
	kill -USR1 "$SAMPLE_PID"
	for i in $(seq 200); do
		[ "$(grep -c "batch done" "$MNT.out" 2>/dev/null || :)" -gt "${n:-0}" ] && return 0
		sleep 0.05
	done
	return 1
}

t_setup() {
	echo 'req_latency u64 lat; int id; char path[]' > synthetic_events &&
	echo 'hist:keys=id:ts0=common_timestamp.usecs:p=path' > events/latency_sample/req_start/trigger &&
	echo 'hist:keys=id:lat=common_timestamp.usecs-$ts0:onmatch(latency_sample.req_start).req_latency($lat,id,$p)' \
		> events/latency_sample/req_end/trigger || return 1
	[ -d events/synthetic/req_latency ] || { echo "no events/synthetic/req_latency"; return 1; }
	grep -qx 'synthetic:req_latency' available_events || { echo "available_events: $(cat available_events)"; return 1; }
}
check "the synthetic event and its triggers, as the documentation sets them" t_setup

t_record() {
	(tc record -e synthetic -o "$WORK/syn.dat" sleep 3 >"$WORK/rec.out" 2>&1) &
	local rec=$!
	recording_on synthetic/req_latency || return 1
	serve_batch && serve_batch || { echo "the program served no batch"; return 1; }
	wait "$rec" || { echo "record failed: $(tail -n 5 "$WORK/rec.out")"; return 1; }
	report_events "$WORK/syn.dat" "$WORK/syn.ev"
}
check "record -e synthetic while the program serves two batches; report reads it without a warning" t_record

t_events() {
	local n

	n=$(grep -c $'\treq_latency\t' "$WORK/syn.ev")
	[ "$n" -eq 20 ] || { echo "$n req_latency events, not 20:"; cat "$WORK/syn.txt"; return 1; }
	[ "$(event_names "$WORK/syn.ev")" = "req_latency " ] ||
		{ echo "events: $(event_names "$WORK/syn.ev")"; return 1; }
	# libtraceevent prints the kernel's print fmt: "lat=%llu, id=%d, path=%s".
	grep -qP '\treq_latency\tlat=[0-9]+, id=10, path=/slow$' "$WORK/syn.ev" ||
		{ echo "no request 10:"; grep req_latency "$WORK/syn.ev" | head; return 1; }
	for i in $(seq 1 20); do
		grep -qP "\treq_latency\tlat=[0-9]+, id=$i, path=/" "$WORK/syn.ev" ||
			{ echo "no request $i"; return 1; }
	done
}
check "trace-cmd report: the 20 requests, id and path from the start event, the latency" t_events

t_format() {
	timeout -k 5 "$TOOL_TIMEOUT" trace-cmd dump --events "$WORK/syn.dat" 2>/dev/null |
		awk '/^name: req_latency$/ { on = 1 } on && /^$/ && ++blank == 2 { on = 0 } on' >"$WORK/fmt"
	grep -qx $'\tfield:u64 lat;\toffset:8;\tsize:8;\tsigned:0;' "$WORK/fmt" &&
	grep -qx $'\tfield:int id;\toffset:16;\tsize:4;\tsigned:1;' "$WORK/fmt" &&
	grep -qx $'\tfield:__data_loc char\\[\\] path;\toffset:24;\tsize:8;\tsigned:1;' "$WORK/fmt" ||
		{ echo "the recorded format:"; cat "$WORK/fmt"; trace-cmd dump --events "$WORK/syn.dat" 2>&1 | grep -A 12 req_latency; return 1; }
}
check "the recording holds the synthetic event's format, the kernel's layout" t_format

t_trace() {
	# The latencies the program's trace file shows are the recorded ones.
	events_of trace | awk -F '\t' '$5 == "req_latency"' | cut -f 6 |
		sed -E 's/lat=([0-9]+) id=([0-9]+) path=(.*)/lat=\1, id=\2, path=\3/' | sort >"$WORK/own"
	awk -F '\t' '$5 == "req_latency"' "$WORK/syn.ev" | cut -f 6 | sort >"$WORK/rec"
	[ -s "$WORK/own" ] || return 0	# trace-cmd consumed them: nothing to compare
	comm -23 "$WORK/own" "$WORK/rec" | head -n 3 | grep . && { echo "in the trace file, not recorded"; return 1; }
	return 0
}
check "what the program's trace file still has of them, trace-cmd has too" t_trace

cd /
check_stop "the program exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"
finish
