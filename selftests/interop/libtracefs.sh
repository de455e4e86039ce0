#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# libtracefs.sh - the Debian libtracefs (1.6) reads a ustrace program's
# events through its tracefs mount, with nothing but its public calls and
# no help from the trace-cmd shim: tfs-libtracefs (tfs-libtracefs.c)
# points it at the mount with tracefs_set_tracing_dir(), enables events
# with tracefs_event_enable() and reads them with
# tracefs_iterate_raw_events(), in the top instance and in one it creates
# with tracefs_instance_create().  Each event it got must be the one the
# instance's own "trace" file printed: task, pid, CPU, timestamp, payload.
# TAP on stdout.

. "$(dirname "$0")/functions"

prog=$objtree/selftests/interop/tfs-libtracefs
require_fuse
[ -x "$prog" ] || skip_all "tfs-libtracefs is not built: no libtracefs (Debian: libtracefs-dev)"
plan 5

start_sample -- -p 5000 -t 2

# run NAME [INSTANCE]: tfs-libtracefs on the mount; its "trace" copy and
# its events apart in $WORK/NAME.ref and $WORK/NAME.ev.
run() {
	local name=$1

	shift
	timeout -k 5 "$TOOL_TIMEOUT" "$prog" "$MNT" "$@" >"$WORK/$name.out" ||
		{ echo "tfs-libtracefs $* failed (status $?)"; return 1; }
	sed -n '/^--- trace$/,/^--- events$/p' "$WORK/$name.out" | events_of >"$WORK/$name.ref"
	sed -n '/^--- events$/,/^--- [0-9]* events$/p' "$WORK/$name.out" | events_of >"$WORK/$name.ev"
	echo "$name: $(wc -l <"$WORK/$name.ev") events read, the trace file had $(wc -l <"$WORK/$name.ref")" >&2
	[ "$(wc -l <"$WORK/$name.ev")" -ge 20 ] || { echo "only $(wc -l <"$WORK/$name.ev") events"; return 1; }
	[ "$(cut -f 5 "$WORK/$name.ev" | sort -u | tr '\n' ' ')" = "foo_bar foo_hex " ] ||
		{ echo "events: $(cut -f 5 "$WORK/$name.ev" | sort -u | tr '\n' ' ')"; return 1; }
	[ "$(wc -l <"$WORK/$name.ev")" = "$(wc -l <"$WORK/$name.ref")" ] ||
		{ echo "$(wc -l <"$WORK/$name.ev") events, the trace file had $(wc -l <"$WORK/$name.ref")"; return 1; }
	# The same buffer: the same events, to the microsecond.
	same_events "$WORK/$name.ref" "$WORK/$name.ev" 0
}

check "top instance: tracefs_iterate_raw_events() gets the trace file's events" run top
t_top_after() {
	[ "$(cat "$MNT/events/sample_trace/foo_bar/enable")" = 0 ] || { echo "foo_bar left on"; return 1; }
	[ "$(cat "$MNT/tracing_on")" = 1 ] || { echo "tracing_on: $(cat "$MNT/tracing_on")"; return 1; }
}
check "tracefs_event_disable(), tracefs_trace_on() reach the mount" t_top_after
check "tracefs_instance_create(): the same in a new instance" run inst libtracefs-test
t_inst_after() {
	[ ! -e "$MNT/instances/libtracefs-test" ] || { echo "the instance is still there"; return 1; }
}
check "tracefs_instance_destroy() removes it from the mount" t_inst_after

check_stop "the program exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"
finish
