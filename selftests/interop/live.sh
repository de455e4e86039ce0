#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# live.sh - "trace-cmd record" (through "ustrace trace-cmd") reads a
# running ustrace program's buffers while it runs, by either data path:
# splice (the default; over FUSE the shim does it with read and write)
# and --nosplice.  A fast producer, a buffer of 16 KiB per CPU in
# producer/consumer mode (-O nooverwrite: a full buffer drops new events
# instead of overwriting old ones) and a recording of many times that:
# only a reader that keeps up while the program runs gets every event.
# The same buffer left unread must drop events, or the check proves
# nothing.  Then -N: the events go to a "trace-cmd listen" on loopback.
# TAP on stdout.

. "$(dirname "$0")/functions"

require_fuse
require_trace_cmd
plan 10

start_sample -- -p 500
cd "$WORK" || exit 1

# live NAME ARGS...: record 2 s with ARGS; per-CPU stats and events kept.
live() {
	local name=$1

	shift
	tc record "$@" -b 16 -O nooverwrite -e sample_trace:foo_bar -o "$WORK/$name.dat" sleep 2 \
		>"$WORK/$name.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/$name.out")"; return 1; }
	report_events "$WORK/$name.dat" "$WORK/$name.ev" || return 1
	trace-cmd report --stat "$WORK/$name.dat" >"$WORK/$name.stat" 2>/dev/null
	[ "$(cat "$MNT/options/overwrite")" = 1 ] || { echo "options/overwrite left at 0"; return 1; }
}

# lossless NAME: every round is there, nothing was dropped, and the
# recording holds more than two buffers' worth.
lossless() {
	local n kb lost cap

	n=$(rounds_contiguous "$WORK/$1.ev") || { echo "$n"; return 1; }
	lost=$(awk '/^(overrun|dropped events):/ { s += $NF } END { print s + 0 }' "$WORK/$1.stat")
	[ "$lost" = 0 ] || { echo "$lost events lost (overrun + dropped in the file's stats)"; return 1; }
	if grep -qi 'lost\|dropped' "$WORK/$1.ev.txt"; then
		echo "the report marks lost events: $(grep -i -m 2 'lost\|dropped' "$WORK/$1.ev.txt")"
		return 1
	fi
	kb=$(cat "$MNT/buffer_total_size_kb")
	# A foo_bar record takes more than 48 bytes.
	cap=$((kb * 1024 / 48))
	echo "$1: $n events in 2 s, 0 lost; the buffer holds at most $cap (${kb} KiB in all)" >&2
	# Twice is enough to show that it read while the producer ran (a
	# loaded machine runs the producer slower than its 2,000 a second).
	[ "$n" -gt $((2 * cap)) ] || { echo "$n events: not more than 2 buffers' worth ($cap each)"; return 1; }
}

check "record (splice) -b 16 -O nooverwrite sleep 2 on a fast producer" live splice
check "splice path live: every event of 2 s in a 16 KiB buffer, none lost" lossless splice
check "record --nosplice -b 16 -O nooverwrite sleep 2 on a fast producer" live nosplice --nosplice
check "--nosplice live: every event of 2 s in a 16 KiB buffer, none lost" lossless nosplice

t_lossy() {
	local old lost

	# The same buffer, left unread for half as long: the producer
	# overflows it, so the recordings above had to read while it ran.
	old=$(cat "$MNT/buffer_size_kb")
	echo 16 >"$MNT/buffer_size_kb"
	echo 0 >"$MNT/options/overwrite"
	echo 1 >"$MNT/events/sample_trace/foo_bar/enable"
	sleep 1
	echo 0 >"$MNT/events/sample_trace/foo_bar/enable"
	lost=$(awk '/^dropped events:/ { s += $NF } END { print s + 0 }' "$MNT"/per_cpu/cpu*/stats)
	echo 1 >"$MNT/options/overwrite"
	echo >"$MNT/trace"
	echo "$old" >"$MNT/buffer_size_kb"
	echo "unread for 1 s: $lost events dropped" >&2
	[ "$lost" -gt 0 ] || { echo "no event dropped: the buffer never filled"; return 1; }
}
check "the same buffer unread for 1 s drops events (the check above can fail)" t_lossy

# --- -M: the CPUs that record; -v: an event left out
t_cpumask() {
	local mask tid last mover

	[ "$(last_cpu)" -gt 0 ] || { echo "one CPU: nothing to mask" >&2; return 0; }
	mask=$(cat "$MNT/tracing_cpumask")
	tid=$(firing_tids | head -n 1)
	last=$(last_cpu)
	# The thread fires on CPU 0, then on another: only the first half may
	# be recorded.
	taskset -pc 0 "$tid" >/dev/null || return 1
	(sleep 0.3; taskset -pc "$last" "$tid" >/dev/null) &
	mover=$!
	tc record -M 1 -e sample_trace -v -e sample_trace:foo_bar -o "$WORK/M.dat" sleep 0.6 \
		>"$WORK/M.out" 2>&1 || { echo "record failed: $(tail -n 5 "$WORK/M.out")"; return 1; }
	wait "$mover"
	taskset -pc "0-$last" "$tid" >/dev/null
	report_events "$WORK/M.dat" "$WORK/M.ev" || return 1
	[ "$(cut -f 3 "$WORK/M.ev" | sort -u)" = 000 ] ||
		{ echo "CPUs: $(cut -f 3 "$WORK/M.ev" | sort -u | tr '\n' ' ')"; return 1; }
	[ "$(wc -l <"$WORK/M.ev")" -ge 10 ] || { echo "only $(wc -l <"$WORK/M.ev") events"; return 1; }
	! grep -q '	foo_bar	' "$WORK/M.ev" || { echo "foo_bar recorded"; return 1; }
	[ "$(cat "$MNT/tracing_cpumask")" = "$mask" ] ||
		{ echo "tracing_cpumask left at $(cat "$MNT/tracing_cpumask"), was $mask"; return 1; }
}
check "record -M 1 -e sys -v -e sys:ev: a thread moved off CPU 0 is recorded there only; no foo_bar" t_cpumask

# --- -N to trace-cmd listen on loopback
t_listen() {
	local port lpid i f size

	mkdir "$WORK/listen" || return 1
	port=$((20000 + RANDOM % 20000))
	(cd "$WORK/listen" && exec timeout -k 5 "$TOOL_TIMEOUT" trace-cmd listen -p "$port" \
		-o net) >"$WORK/listen.out" 2>&1 &
	lpid=$!
	for i in $(seq 100); do
		grep -q ":$(printf '%04X' "$port") " /proc/net/tcp /proc/net/tcp6 2>/dev/null && break
		sleep 0.05
	done
	# -b: the tests above left 16 KiB per CPU (trace-cmd does not put the
	# size back), which a loaded machine's network reader could let the
	# fast producer overwrite; 2 MiB holds the whole half second.
	tc record -N "localhost:$port" -b 2048 -e sample_trace:foo_bar sleep 0.5 >"$WORK/net.out" 2>&1 ||
		{ kill -INT "$lpid"; wait "$lpid"; echo "record -N failed: $(tail -n 5 "$WORK/net.out")"; return 1; }
	# The listener's child writes the .dat when the connection ends,
	# then removes its per-CPU files.
	size=
	for i in $(seq 100); do
		sleep 0.1
		f=$(ls "$WORK/listen/"net*.dat 2>/dev/null | head -n 1)
		[ -n "$f" ] || continue
		ls "$WORK/listen/"net*.cpu* >/dev/null 2>&1 && continue
		[ "$(stat -c %s "$f")" = "$size" ] && break
		size=$(stat -c %s "$f")
	done
	kill -INT "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	[ -n "$f" ] || { echo "the listener wrote no file: $(cat "$WORK/listen.out")"; return 1; }
	report_events "$f" "$WORK/net.ev" || return 1
	[ "$(event_names "$WORK/net.ev")" = "foo_bar " ] || { echo "events: $(event_names "$WORK/net.ev")"; return 1; }
	[ "$(wc -l <"$WORK/net.ev")" -ge 10 ] || { echo "only $(wc -l <"$WORK/net.ev") events"; return 1; }
	rounds_contiguous "$WORK/net.ev" >"$WORK/net.why" || { cat "$WORK/net.why"; return 1; }
}
check "record -N localhost:PORT: trace-cmd listen gets the events" t_listen

check_stop "the program exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"

# --- a program that fires nothing: the recorders wait for data, and must
# stop when told (trace-cmd's ioctl(fd, 0) that wakes readers on the
# kernel's trace_pipe_raw gets ENOTTY here; it does not need it).
start_sample -- -p 3000000
t_idle() {
	local path start secs

	for path in splice --nosplice; do
		start=$(date +%s%N)
		tc record $([ "$path" = splice ] || echo "$path") -e sample_trace -o "$WORK/idle.dat" \
			sleep 0.3 >"$WORK/idle.out" 2>&1 ||
			{ echo "record ($path) failed: $(tail -n 5 "$WORK/idle.out")"; return 1; }
		secs=$(( ($(date +%s%N) - start) / 1000000 ))
		echo "idle recording ($path): ${secs} ms" >&2
		[ "$secs" -lt 5000 ] || { echo "record ($path) took $secs ms to end"; return 1; }
		report_events "$WORK/idle.dat" "$WORK/idle.ev" || return 1
	done
}
check "an idle program: record ends with its command, on both paths" t_idle
check_stop "the idle program exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"
finish
