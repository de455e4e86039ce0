#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# record.sh - the stock "trace-cmd record" (through "ustrace trace-cmd")
# against a running ustrace program, then "trace-cmd report" on what it
# wrote: -e system, -e system:event, -o, -P pid, -b, -C with every clock
# of trace_clock, -B instance, the default splice mode and --nosplice
# recording live (longer than the buffer, nothing lost, the buffer in
# producer/consumer mode), -N to a "trace-cmd listen" on loopback.
#
# The report's event lines are checked against what the mount's own
# "trace" file printed for the same events: an instance of the same
# program records them too (its own buffer, its own timestamps, a few
# microseconds apart), and the report must be a run of consecutive lines
# of that instance's "trace", equal in task, pid, CPU, event and payload.
# TAP on stdout.

. "$(dirname "$0")/functions"

require_fuse
require_trace_cmd
plan 14

# Pinned to one CPU: a thread moved between its writes to two buffers
# would put one event on two CPUs.
cpu=$(last_cpu)
start_sample "$cpu" -- -p 5000 -t 2
main_pid=$SAMPLE_PID main_mnt=$MNT
read -r tid1 tid2 < <(firing_tids | sort -n | tr '\n' ' ')
[ -n "${tid2:-}" ] || { echo "Bail out! the sample's two threads do not fire"; exit 1; }

# ref_on NAME EVENTS...: instance NAME of the mount records EVENTS.
ref_on() {
	local n=$1 e

	shift
	mkdir "$MNT/instances/$n" || return 1
	for e; do
		echo 1 >"$MNT/instances/$n/events/$e/enable" || return 1
	done
}

# ref_off NAME OUT: stop it, keep its "trace" events in OUT, remove it.
ref_off() {
	echo 0 >"$MNT/instances/$1/tracing_on"
	events_of "$MNT/instances/$1/trace" >"$2"
	rmdir "$MNT/instances/$1"
}

# --- -e system, -o; the report against the mount's trace
cd "$WORK" || exit 1
t_sys() {
	ref_on ref sample_trace || return 1
	tc record -e sample_trace -o "$WORK/sys.dat" sleep 0.5 >"$WORK/sys.out" 2>&1 ||
		{ echo "record failed: $(tail -n 5 "$WORK/sys.out")"; return 1; }
	ref_off ref "$WORK/sys.ref" || return 1
	[ -s "$WORK/sys.dat" ] || { echo "no $WORK/sys.dat"; return 1; }
	[ ! -e "$WORK/trace.dat" ] || { echo "-o ignored: trace.dat written"; return 1; }
	report_events "$WORK/sys.dat" "$WORK/sys.ev"
}
check "record -e sample_trace -o FILE sleep 0.5: a file trace-cmd report reads" t_sys

t_sys_events() {
	local want="foo_array foo_bar foo_bar_with_cond foo_bar_with_fn foo_hex foo_with_template_cond foo_with_template_print foo_with_template_simple "

	[ "$(event_names "$WORK/sys.ev")" = "$want" ] ||
		{ echo "events: $(event_names "$WORK/sys.ev")"; echo "want:   $want"; return 1; }
	# Both firing threads, on the CPU they are pinned to, named.
	[ "$(cut -f 1-3 "$WORK/sys.ev" | sort -u | tr '\n' ' ')" = \
	  "$(printf 'tracefs-sample\t%s\t%03d tracefs-sample\t%s\t%03d ' "$tid1" "$cpu" "$tid2" "$cpu")" ] ||
		{ echo "tasks: $(cut -f 1-3 "$WORK/sys.ev" | sort -u | tr '\n' ' ')"; return 1; }
}
check "every event of the system, from both threads, on their CPU" t_sys_events

t_sys_same() {
	echo "$(wc -l <"$WORK/sys.ev") events reported, $(wc -l <"$WORK/sys.ref") in the instance" >&2
	same_events "$WORK/sys.ref" "$WORK/sys.ev" "$TWO_BUFFERS_US"
}
check "report's event lines are the mount's trace lines (task, pid, CPU, payload; time to 0.1 s)" t_sys_same

# --- -e system:event
t_event() {
	tc record -e sample_trace:foo_hex -o "$WORK/ev.dat" sleep 0.5 >"$WORK/ev.out" 2>&1 ||
		{ echo "record failed: $(tail -n 5 "$WORK/ev.out")"; return 1; }
	report_events "$WORK/ev.dat" "$WORK/ev.ev" || return 1
	[ "$(event_names "$WORK/ev.ev")" = "foo_hex " ] || { echo "events: $(event_names "$WORK/ev.ev")"; return 1; }
	[ "$(wc -l <"$WORK/ev.ev")" -ge 10 ] || { echo "only $(wc -l <"$WORK/ev.ev") events"; return 1; }
}
check "record -e sample_trace:foo_hex: that event only" t_event

# --- -P pid (a thread id: common_pid is the thread's, as in the kernel)
t_pid() {
	ref_on ref sample_trace/foo_bar || return 1
	tc record -P "$tid2" -e sample_trace:foo_bar -o "$WORK/pid.dat" sleep 0.5 \
		>"$WORK/pid.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/pid.out")"; return 1; }
	ref_off ref "$WORK/pid.ref"
	report_events "$WORK/pid.dat" "$WORK/pid.ev" || return 1
	[ "$(cut -f 2 "$WORK/pid.ev" | sort -u)" = "$tid2" ] ||
		{ echo "pids: $(cut -f 2 "$WORK/pid.ev" | sort -u | tr '\n' ' '), want $tid2"; return 1; }
	# The other thread fired meanwhile: the filter is what left it out.
	grep -q "	$tid1	" "$WORK/pid.ref" || { echo "thread $tid1 did not fire"; return 1; }
	[ "$(wc -l <"$WORK/pid.ev")" -ge 10 ] || { echo "only $(wc -l <"$WORK/pid.ev") events"; return 1; }
	[ -z "$(tr -d ' \n' <"$MNT/set_event_pid")" ] || { echo "set_event_pid left: $(cat "$MNT/set_event_pid")"; return 1; }
}
check "record -P TID: only that thread's events; set_event_pid cleared after" t_pid

t_pids() {
	tc record -P "$tid1" -P "$tid2" -e sample_trace:foo_bar -o "$WORK/pids.dat" sleep 0.3 \
		>"$WORK/pids.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/pids.out")"; return 1; }
	report_events "$WORK/pids.dat" "$WORK/pids.ev" || return 1
	[ "$(cut -f 2 "$WORK/pids.ev" | sort -u | tr '\n' ' ')" = "$tid1 $tid2 " ] ||
		{ echo "pids: $(cut -f 2 "$WORK/pids.ev" | sort -u | tr '\n' ' '), want $tid1 $tid2"; return 1; }
}
check "record -P TID -P TID: both threads" t_pids

# A process's id stands for its threads (tracefs.rst): neither firing
# thread has it.
t_pid_process() {
	tc record -P "$main_pid" -e sample_trace:foo_bar -o "$WORK/proc.dat" sleep 0.3 \
		>"$WORK/proc.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/proc.out")"; return 1; }
	report_events "$WORK/proc.dat" "$WORK/proc.ev" || return 1
	[ "$(cut -f 2 "$WORK/proc.ev" | sort -u | tr '\n' ' ')" = "$(printf '%s\n' "$tid1" "$tid2" | sort | tr '\n' ' ')" ] ||
		{ echo "pids: $(cut -f 2 "$WORK/proc.ev" | sort -u | tr '\n' ' '), want $tid1 $tid2"; return 1; }
}
check "record -P PID (the program's): every thread of it" t_pid_process

# --- -b
t_size() {
	local old

	old=$(cat "$MNT/buffer_size_kb")
	tc record -b 64 -e sample_trace:foo_bar -o "$WORK/b.dat" sleep 0.3 >"$WORK/b.out" 2>&1 ||
		{ echo "record failed: $(tail -n 5 "$WORK/b.out")"; return 1; }
	# trace-cmd leaves the size it set, as on the kernel.
	[ "$(cat "$MNT/buffer_size_kb")" = 64 ] ||
		{ echo "buffer_size_kb: $(cat "$MNT/buffer_size_kb")"; return 1; }
	echo "$old" >"$MNT/buffer_size_kb"
	report_events "$WORK/b.dat" "$WORK/b.ev" || return 1
	[ -s "$WORK/b.ev" ] || { echo "no events"; return 1; }
}
check "record -b 64: buffer_size_kb set, a readable recording" t_size

# --- --date: wall-clock timestamps (trace-cmd syncs through trace_marker)
t_date() {
	local now first

	tc record --date -e sample_trace:foo_bar -o "$WORK/date.dat" sleep 0.3 \
		>"$WORK/date.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/date.out")"; return 1; }
	now=$(date +%s)
	report_events "$WORK/date.dat" "$WORK/date.ev" || return 1
	first=$(head -n 1 "$WORK/date.ev" | cut -f 4)
	awk -v t="$first" -v now="$now" 'BEGIN { exit !(t > now - 60 && t <= now + 1) }' ||
		{ echo "first timestamp $first, the time is $now"; return 1; }
}
check "record --date: timestamps are the time of day" t_date

# --- -C, every clock the mount offers
# to_ns VALUE: "secs.usecs" in ns, a raw count as it is.
t_clocks() {
	local c clocks bad= stats old

	old=$(cat "$MNT/trace_clock")
	clocks=$(tr -d '[]' <<<"$old")
	for c in $clocks; do
		if ! tc record -C "$c" -e sample_trace:foo_bar -o "$WORK/c.dat" sleep 0.3 \
			>"$WORK/c.out" 2>&1; then
			bad="$bad $c: record failed: $(tail -n 3 "$WORK/c.out");"
			continue
		fi
		report_events "$WORK/c.dat" "$WORK/c.ev" >"$WORK/c.why" || { bad="$bad $c: $(cat "$WORK/c.why");"; continue; }
		stats=$(trace-cmd dump --options "$WORK/c.dat" 2>/dev/null)
		if ! grep -q "\[$c\]" <<<"$stats"; then
			bad="$bad $c: not the file's clock;"
			continue
		fi
		# Timestamps in the clock's units: rising, not past the "now ts"
		# the per-CPU stats in the file took at the end.
		if ! awk -F '\t' -v now="$(sed -n 's/^now ts: *//p' <<<"$stats" | sort -g | tail -n 1)" '
			function ns(s,   p) {
				p = index(s, ".")
				return p ? substr(s, 1, p - 1) * 1e9 + substr(s, p + 1) * 1e3 : s + 0
			}
			{ t = ns($4); if (t < last[$3] || t <= 0 || t > ns(now)) { print $4 " after " last[$3] ", now " now; exit 1 } last[$3] = t; n++ }
			END { if (n < 5) { print "only " n " events"; exit 1 } }' "$WORK/c.ev" >"$WORK/c.why"; then
			bad="$bad $c: $(cat "$WORK/c.why");"
		fi
		[ "$(cat "$MNT/trace_clock")" = "$old" ] ||
			bad="$bad $c: trace_clock left at $(cat "$MNT/trace_clock");"
	done
	echo "clocks: $clocks" >&2
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}
check "record -C CLOCK for each clock of trace_clock: the file's clock and timestamps" t_clocks

# --- -B instance
t_instance() {
	tc record -B rec -e sample_trace:foo_array -o "$WORK/inst.dat" sleep 0.5 \
		>"$WORK/inst.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/inst.out")"; return 1; }
	[ ! -e "$MNT/instances/rec" ] || { echo "instances/rec left behind"; return 1; }
	report_events "$WORK/inst.dat" "$WORK/inst.ev" || return 1
	grep -q '^rec: ' "$WORK/inst.ev.txt" || { echo "no rec: lines"; head -n 3 "$WORK/inst.ev.txt"; return 1; }
	[ "$(event_names "$WORK/inst.ev")" = "foo_array " ] || { echo "events: $(event_names "$WORK/inst.ev")"; return 1; }
	[ "$(wc -l <"$WORK/inst.ev")" -ge 10 ] || { echo "only $(wc -l <"$WORK/inst.ev") events"; return 1; }
}
check "record -B rec: the instance is made, recorded, removed" t_instance

# --- the report of -B against the top instance's own trace
t_instance_same() {
	echo 0 >"$MNT/tracing_on"
	echo >"$MNT/trace"
	echo 1 >"$MNT/events/sample_trace/foo_bar/enable"
	echo 1 >"$MNT/tracing_on"
	tc record -B rec -e sample_trace:foo_bar -o "$WORK/inst2.dat" sleep 0.5 \
		>"$WORK/inst2.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/inst2.out")"; return 1; }
	echo 0 >"$MNT/tracing_on"
	echo 0 >"$MNT/events/sample_trace/foo_bar/enable"
	events_of "$MNT/trace" >"$WORK/inst2.ref"
	echo >"$MNT/trace"
	echo 1 >"$MNT/tracing_on"
	report_events "$WORK/inst2.dat" "$WORK/inst2.ev" || return 1
	same_events "$WORK/inst2.ref" "$WORK/inst2.ev" "$TWO_BUFFERS_US"
}
check "record -B rec: its lines are the top instance's trace lines" t_instance_same

t_clean() {
	# What trace-cmd changed, it put back (or left as the kernel's would).
	[ "$(cat "$MNT/tracing_on")" = 1 ] || { echo "tracing_on: $(cat "$MNT/tracing_on")"; return 1; }
	[ "$(cat "$MNT/events/enable")" = 0 ] || { echo "events/enable: $(cat "$MNT/events/enable")"; return 1; }
	[ "$(ls "$MNT/instances")" = "" ] || { echo "instances: $(ls "$MNT/instances")"; return 1; }
}
check "after the recordings: tracing on, events off, no instance left" t_clean

check_stop "the program exits 0 on SIGTERM, no sanitizer report" "$main_pid" "$main_mnt"
finish
