#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# control.sh - the stock trace-cmd's other commands (through "ustrace
# trace-cmd") on a running ustrace program's tracefs: start, stop, show,
# extract (whose report must equal, line for line and to the
# microsecond, what the mount's own "trace" file printed for the same
# buffer), stat, reset, list -e/-F/-C/-B, stream.  TAP on stdout.

. "$(dirname "$0")/functions"

require_fuse
require_trace_cmd
plan 14

# Pinned to one CPU, for stream's comparison (see record.sh).
start_sample "$(last_cpu)" -- -p 5000 -t 2
cd "$WORK" || exit 1

# --- start, show, stop
t_start() {
	tc start -e sample_trace:foo_hex -e sample_trace:foo_array -b 200 -C global \
		>"$WORK/start.out" 2>&1 || { echo "start failed: $(cat "$WORK/start.out")"; return 1; }
	local f want

	for f in events/sample_trace/foo_hex/enable events/sample_trace/foo_array/enable tracing_on; do
		[ "$(cat "$MNT/$f")" = 1 ] || { echo "$f: $(cat "$MNT/$f")"; return 1; }
	done
	[ "$(cat "$MNT/events/sample_trace/foo_bar/enable")" = 0 ] || { echo "foo_bar enabled"; return 1; }
	[ "$(cat "$MNT/buffer_size_kb")" = 200 ] || { echo "buffer_size_kb: $(cat "$MNT/buffer_size_kb")"; return 1; }
	want="local [global] $(tr -d '[]' <"$MNT/trace_clock" | sed 's/^local global //')"
	[ "$(cat "$MNT/trace_clock")" = "$want" ] || { echo "trace_clock: $(cat "$MNT/trace_clock")"; return 1; }
	sleep 1
}
check "start -e sys:ev -e sys:ev -b 200 -C global: the mount's files say so" t_start

t_stop_show() {
	tc stop >"$WORK/stop.out" 2>&1 || { echo "stop failed: $(cat "$WORK/stop.out")"; return 1; }
	[ "$(cat "$MNT/tracing_on")" = 0 ] || { echo "tracing_on: $(cat "$MNT/tracing_on")"; return 1; }
	tc show >"$WORK/show.txt" 2>"$WORK/show.err" || { echo "show failed: $(cat "$WORK/show.err")"; return 1; }
	cat "$MNT/trace" >"$WORK/trace.txt"
	cmp -s "$WORK/show.txt" "$WORK/trace.txt" || { diff "$WORK/trace.txt" "$WORK/show.txt" | head; return 1; }
	events_of "$WORK/trace.txt" >"$WORK/trace.ev"
	[ "$(cut -f 5 "$WORK/trace.ev" | sort -u | tr '\n' ' ')" = "foo_array foo_hex " ] ||
		{ echo "events: $(cut -f 5 "$WORK/trace.ev" | sort -u | tr '\n' ' ')"; return 1; }
	[ "$(wc -l <"$WORK/trace.ev")" -ge 20 ] || { echo "only $(wc -l <"$WORK/trace.ev") events"; return 1; }
}
check "stop: tracing_on 0; show prints the mount's trace file" t_stop_show

# --- stat, while the state "start" made is in place
t_stat() {
	tc stat >"$WORK/stat.txt" 2>&1 || { echo "stat failed: $(cat "$WORK/stat.txt")"; return 1; }
	local want

	want=$(printf '%s\n' "" "Events:" " Individual events:" "    sample_trace" \
		"        foo_array" "        foo_hex" "" "Buffer size in kilobytes (per cpu):" \
		"   200" "" "Buffer total size in kilobytes:" "   $((200 * $(ls -d "$MNT"/per_cpu/cpu* | wc -l)))" \
		"" "Clock: global" "" "Tracing is disabled" "")
	[ "$(cat "$WORK/stat.txt")" = "$want" ] || { diff <(echo "$want") "$WORK/stat.txt"; return 1; }
}
check "stat: the events, buffer size, clock and tracing state" t_stat

# --- extract: the same buffer, so the same lines to the microsecond
t_extract() {
	tc extract -o "$WORK/x.dat" >"$WORK/x.out" 2>&1 ||
		{ echo "extract failed: $(cat "$WORK/x.out")"; return 1; }
	report_events "$WORK/x.dat" "$WORK/x.ev" || return 1
	echo "extract: $(wc -l <"$WORK/x.ev") events, the trace file $(wc -l <"$WORK/trace.ev")" >&2
	[ "$(wc -l <"$WORK/x.ev")" = "$(wc -l <"$WORK/trace.ev")" ] ||
		{ echo "$(wc -l <"$WORK/x.ev") events, the trace file had $(wc -l <"$WORK/trace.ev")"; return 1; }
	same_events "$WORK/trace.ev" "$WORK/x.ev" 0 || return 1
	# One buffer: the same order across CPUs too.
	cut -f 3,4 "$WORK/trace.ev" >"$WORK/trace.order"
	cut -f 3,4 "$WORK/x.ev" >"$WORK/x.order"
	cmp -s "$WORK/trace.order" "$WORK/x.order" || { echo "the order differs:"; diff "$WORK/trace.order" "$WORK/x.order" | head -n 5; return 1; }
}
check "extract: report prints the trace file's events, every one, same timestamps" t_extract

t_extract_consumed() {
	[ -z "$(events_of "$MNT/trace")" ] || { echo "the buffer still has events"; return 1; }
	trace-cmd dump --options "$WORK/x.dat" 2>/dev/null | grep -q '\[global\]' ||
		{ echo "the file's clock is not global"; return 1; }
}
check "extract consumed the buffer; the file says clock global" t_extract_consumed

# --- reset
t_reset() {
	tc reset >"$WORK/reset.out" 2>&1 || { echo "reset failed: $(cat "$WORK/reset.out")"; return 1; }
	local f

	for f in events/enable events/sample_trace/enable events/sample_trace/foo_hex/enable; do
		[ "$(cat "$MNT/$f")" = 0 ] || { echo "$f: $(cat "$MNT/$f")"; return 1; }
	done
	[ "$(cat "$MNT/tracing_on")" = 1 ] || { echo "tracing_on: $(cat "$MNT/tracing_on")"; return 1; }
	grep -q '^\[local\]' "$MNT/trace_clock" || { echo "trace_clock: $(cat "$MNT/trace_clock")"; return 1; }
	tc stat >"$WORK/stat2.txt" 2>&1
	grep -q 'All disabled' "$WORK/stat2.txt" || { echo "stat after reset: $(cat "$WORK/stat2.txt")"; return 1; }
	echo 1408 >"$MNT/buffer_size_kb"
}
check "reset: events off, tracing on, clock local" t_reset

# --- list
t_list_e() {
	tc list -e >"$WORK/list-e.txt" 2>&1 || { echo "list -e failed: $(cat "$WORK/list-e.txt")"; return 1; }
	# (Not "cmp -s FILE": tracefs files have size 0, as the kernel's.)
	cat "$MNT/available_events" >"$WORK/available_events"
	cmp -s "$WORK/list-e.txt" "$WORK/available_events" ||
		{ diff "$WORK/available_events" "$WORK/list-e.txt" | head; return 1; }
	grep -qx 'sample_trace:foo_bar' "$WORK/list-e.txt" || { echo "no sample_trace:foo_bar"; return 1; }
}
check "list -e: the mount's available_events" t_list_e

t_list_F() {
	local e sys name bad=

	for e in $(grep '^sample_trace:' "$MNT/available_events"); do
		sys=${e%%:*} name=${e#*:}
		tc list -e "^$e\$" -F --full >"$WORK/F.txt" 2>&1 || { bad="$bad $e: list failed;"; continue; }
		{ echo "system: $sys"; cat "$MNT/events/$sys/$name/format"; } >"$WORK/F.want"
		cmp -s "$WORK/F.want" "$WORK/F.txt" || bad="$bad $e: $(diff "$WORK/F.want" "$WORK/F.txt" | head -n 4 | tr '\n' ' ');"
	done
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}
check "list -e EVENT -F --full: each sample event's format file" t_list_F

t_list_other() {
	tc list -C >"$WORK/list-C.txt" 2>&1 || { echo "list -C failed"; return 1; }
	[ "$(cat "$WORK/list-C.txt")" = "$(cat "$MNT/trace_clock")" ] ||
		{ echo "list -C: $(cat "$WORK/list-C.txt")"; return 1; }
	mkdir "$MNT/instances/one" || return 1
	tc list -B >"$WORK/list-B.txt" 2>&1
	rmdir "$MNT/instances/one"
	[ "$(cat "$WORK/list-B.txt")" = one ] || { echo "list -B: $(cat "$WORK/list-B.txt")"; return 1; }
	tc list -t >"$WORK/list-t.txt" 2>&1
	[ "$(cat "$WORK/list-t.txt")" = nop ] || { echo "list -t: $(cat "$WORK/list-t.txt")"; return 1; }
}
check "list -C, -B, -t: clocks, instances, tracers" t_list_other

# USTRACE_TRACEFS names the mount for ustrace trace-cmd, which serves
# nothing there itself (nor does trace-cmd, with libustrace loaded into it).
t_list_env() {
	local out=$WORK/list-env

	USTRACE_TRACEFS=$MNT timeout -k 5 "$TOOL_TIMEOUT" "$USTRACE" trace-cmd list -e \
		>"$out.txt" 2>"$out.err" || { echo "list -e failed: $(cat "$out.err")"; return 1; }
	[ ! -s "$out.err" ] || { echo "stderr: $(cat "$out.err")"; return 1; }
	cmp -s "$out.txt" "$WORK/available_events" || { diff "$WORK/available_events" "$out.txt" | head; return 1; }
	# A sanitized libustrace cannot be loaded into the stock trace-cmd.
	[ -z "${USTRACE_SANITIZE:-}" ] || return 0
	timeout -k 5 "$TOOL_TIMEOUT" env LD_PRELOAD="$objtree/libustrace.so" USTRACE_TRACEFS="$MNT" \
		"$USTRACE" trace-cmd list -e >"$out.txt" 2>"$out.err" ||
		{ echo "list -e with libustrace in trace-cmd failed: $(cat "$out.err")"; return 1; }
	[ ! -s "$out.err" ] || { echo "stderr with libustrace in trace-cmd: $(cat "$out.err")"; return 1; }
	cmp -s "$out.txt" "$WORK/available_events" || { diff "$WORK/available_events" "$out.txt" | head; return 1; }
}
check "USTRACE_TRACEFS=MNT ustrace trace-cmd list -e: the mount's events, nothing served by the tools" t_list_env

# --- stream: live, from the same events an instance keeps in its trace
t_stream() {
	local spid

	mkdir "$MNT/instances/ref" && echo 1 >"$MNT/instances/ref/events/sample_trace/foo_bar/enable" ||
		return 1
	timeout -k 5 "$TOOL_TIMEOUT" "$USTRACE" trace-cmd -m "$MNT" stream -e sample_trace:foo_bar \
		>"$WORK/stream.txt" 2>"$WORK/stream.err" &
	spid=$!
	# Live: lines come while it runs (within 10 s on a loaded machine).
	for _ in $(seq 100); do
		grep -q foo_bar "$WORK/stream.txt" && break
		sleep 0.1
	done
	[ "$(grep -c foo_bar "$WORK/stream.txt")" -gt 0 ] ||
		{ kill -INT "$spid"; echo "nothing streamed after 10 s: $(cat "$WORK/stream.err")"; return 1; }
	sleep 1
	kill -INT "$spid"
	wait "$spid" || { echo "stream exit status $?: $(cat "$WORK/stream.err")"; return 1; }
	echo 0 >"$MNT/instances/ref/tracing_on"
	events_of "$MNT/instances/ref/trace" >"$WORK/stream.ref"
	rmdir "$MNT/instances/ref"
	# Stream prints what it has read of each CPU in time order; a line of
	# a CPU whose data came later can follow a later line of another.
	events_of "$WORK/stream.txt" | sort -s -t "$(printf '\t')" -k 4,4n >"$WORK/stream.ev"
	echo "stream: $(wc -l <"$WORK/stream.ev") events" >&2
	[ "$(wc -l <"$WORK/stream.ev")" -ge 20 ] || { echo "only $(wc -l <"$WORK/stream.ev") events"; return 1; }
	rounds_contiguous "$WORK/stream.ev" >"$WORK/stream.why" || { cat "$WORK/stream.why"; return 1; }
	# trace-cmd stream names no task (it reads no saved_cmdlines).
	same_events "$WORK/stream.ref" "$WORK/stream.ev" "$TWO_BUFFERS_US" nocomm
}
check "stream -e sys:ev: live lines, the events of the mount's trace" t_stream

t_stream_off() {
	[ "$(cat "$MNT/events/sample_trace/foo_bar/enable")" = 0 ] || { echo "foo_bar left enabled"; return 1; }
}
check "stream stopped with SIGINT: the event is disabled again" t_stream_off

t_reset_B() {
	# libtracefs 1.6 looks up instances under /sys/kernel/tracing: the
	# shim sends that to the mount.
	mkdir "$MNT/instances/gone" || return 1
	echo 1 >"$MNT/instances/gone/events/sample_trace/foo_bar/enable"
	tc reset -B gone >"$WORK/resetB.out" 2>&1 || { echo "reset -B failed: $(cat "$WORK/resetB.out")"; return 1; }
	[ "$(cat "$MNT/instances/gone/events/sample_trace/foo_bar/enable")" = 0 ] ||
		{ echo "instances/gone still has foo_bar on: $(cat "$WORK/resetB.out")"; return 1; }
	tc reset -a -d >"$WORK/resetA.out" 2>&1 || { echo "reset -a -d failed: $(cat "$WORK/resetA.out")"; return 1; }
	[ ! -e "$MNT/instances/gone" ] || { echo "instances/gone not removed: $(cat "$WORK/resetA.out")"; return 1; }
}
check "reset -B NAME, then reset -a -d removes the instance" t_reset_B

check_stop "the program exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"
finish
