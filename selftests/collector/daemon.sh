#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# System mode (Documentation/trace/system-mode.rst): `ustrace daemon`
# serves one tracefs for every traced program of its user.  The programs
# are samples/tracefs/tracefs-sample (events of system sample_trace, -n
# rounds -p microseconds apart, then exit()), started as a user starts
# them: with nothing but USTRACE_RUNDIR set.
. "$(dirname "$0")/../lib/tap.sh"
tap_begin collector

. "$srctree/selftests/collector/coll-lib.bash"
app=$objtree/samples/tracefs/tracefs-sample
[ -x "$app" ] || skip_all "not built"

# The pids of the events in a trace text (the threads', as on the kernel).
pids_of() {
	grep -v '^#' "$1" | grep -o -- '-[0-9]* *\[' | tr -dc '0-9\n' | sort -u
}

# The threads of processes, while they run.
tids_of() {
	for p; do ls "/proc/$p/task"; done | sort -u
}

# has_tids TRACE PID...: whether the trace has events of each PID's threads.
has_tids() {
	local t=$1 p
	shift
	for p; do
		pids_of "$t" | grep -qx -f <(tids_of "$p") || return 1
	done
}

# firsts N: whether N programs' first rounds are in the trace.
firsts() {
	[ "$(grep -c 'foo_bar: foo hello 0 ' "$T/trace")" -ge "$1" ]
}

# cleared: empty the collector's trace ("> trace"), as a kernel user
# does before a new run: trace also shows what the programs gone wrote.
# Again until it is empty: the collector may not have seen the last
# program go yet (its buffer is then cleared as the program's own).
cleared() {
	wait_for 5 bash -c ': > "$1"; ! grep -v "^#" "$1" | grep -q .' _ "$T/trace"
}

# in_tids TRACE PID...: "yes" if the trace has events and all are of the PIDs' threads.
in_tids() {
	local t=$1 got
	shift
	got=$(pids_of "$t")
	[ -n "$got" ] && [ -z "$(comm -23 <(echo "$got") <(tids_of "$@"))" ] && echo yes || echo no
}

check "the daemon starts and mounts a tracefs" start_daemon
same "the run directory is private" "700" "$(stat -c %a "$USTRACE_RUNDIR")"
same "the socket belongs to us alone" "srwx------" "$(stat -c %A "$USTRACE_RUNDIR/collector.sock")"
check "the tree has the tracefs files" test -r "$T/trace" -a -w "$T/set_event" -a -d "$T/events" -a -d "$T/instances"
check "a second collector on the directory is refused" \
	bash -c '! "$1" daemon --rundir "$2" 2>"$3/second.err" && grep -q "another collector serves it" "$3/second.err"' \
	_ "$ustrace" "$USTRACE_RUNDIR" "$tmp"

# The collector says a program registered once its events are in the
# tree: a user who reads that line can enable them (a cold collector that
# has never seen sample_trace).
"$app" -n 50 -p 100000 >/dev/null 2>&1 &
cold=$!
wait_for 15 grep -q "process $cold (tracefs-sample) registered" "$tmp/daemon.log"
check "once it says a program registered, its events are listed" \
	grep -qx 'sample_trace:foo_bar' "$T/available_events"
check "and have their directories" test -r "$T/events/sample_trace/foo_bar/enable"
kill "$cold"; wait "$cold" 2>/dev/null

# Enabled before any program runs: every event, from its first hit.
echo 1 > "$T/events/enable"
same "events/enable reads what was written" "1" "$(cat "$T/events/enable")"
for i in 1 2 3; do
	"$app" -n 100 -p 200000 >/dev/null 2>"$tmp/app$i.err" &
	eval "app$i=\$!"
done
wait_for 20 firsts 3
wait_for 5 has_tids "$T/trace" "$app1" "$app2" "$app3"
cat "$T/trace" >"$tmp/trace3"
tids=$(tids_of "$app1" "$app2" "$app3")
tids1=$(tids_of "$app1") tids2=$(tids_of "$app2") tids3=$(tids_of "$app3")
check "three programs' events are in one trace, with their own pids" \
	bash -c '[ -n "$1" ] && [ -z "$(comm -13 <(echo "$2") <(echo "$1"))" ] && [ "$(echo "$1" | wc -l)" -ge 3 ]' \
	_ "$(pids_of "$tmp/trace3")" "$tids"
same "each of the three has events in it" "3" \
	"$(for t in "$tids1" "$tids2" "$tids3"; do pids_of "$tmp/trace3" | grep -qx -f <(echo "$t") && echo y; done | wc -l)"
same "each program's first round is there (enabled before its first event)" "3" \
	"$(grep -c 'foo_bar: foo hello 0 ' "$tmp/trace3")"
check "the merged trace is in time order" \
	bash -c "grep -v '^#' '$tmp/trace3' | awk '{ for (i = 1; i <= NF; i++) if (\$i ~ /^[0-9]+\.[0-9]+:\$/) { t = \$i + 0; if (t < last) exit 1; last = t; break } }'"
echo coll-marker-test > "$T/trace_marker"
same "a trace_marker write is one record, not one per program" 1 "$(grep -c 'coll-marker-test' "$T/trace")"
check "the event directory is listed once" \
	bash -c "[ \"\$(ls '$T/events' | grep -c '^sample_trace\$')\" = 1 ]"
timeout 1 cat "$T/trace_pipe" >"$tmp/pipe3" 2>/dev/null
same "trace_pipe gives the events of all three" "3" \
	"$(for t in "$tids1" "$tids2" "$tids3"; do pids_of "$tmp/pipe3" | grep -qx -f <(echo "$t") && echo y; done | wc -l)"
rc=0
for p in "$app1" "$app2" "$app3"; do kill -TERM "$p"; wait "$p" || rc=$?; done
same "programs end normally (SIGTERM, which they handle)" 0 "$rc"
check "programs said nothing on stderr" bash -c "! grep . '$tmp'/app?.err"

# Ten at once.
for i in $(seq 10); do
	"$app" -n 100 -p 300000 >/dev/null 2>&1 &
	eval "ten$i=\$!"
done
wait_for 25 firsts 10
for i in $(seq 10); do eval "tt$i=\$(tids_of \$ten$i)"; done
cat "$T/trace" >"$tmp/trace10"
same "ten programs' first rounds are in one trace" 10 "$(grep -c 'foo_bar: foo hello 0 ' "$tmp/trace10")"
same "from ten processes" 10 \
	"$(for i in $(seq 10); do eval "t=\$tt$i"; pids_of "$tmp/trace10" | grep -qx -f <(echo "$t") && echo y; done | wc -l)"
for i in $(seq 10); do eval "kill -TERM \$ten$i; wait \$ten$i"; done

# The event stays after its processes, with its state; a write then is
# remembered and reaches the next program.
check "the event directory stays after its processes" test -d "$T/events/sample_trace/foo_bar"
same "its enable keeps its state" "1" "$(cat "$T/events/sample_trace/foo_bar/enable")"
echo 0 > "$T/events/sample_trace/foo_bar/enable"
cleared
"$app" -n 100 -p 200000 >/dev/null 2>&1 &
a=$!
wait_for 15 bash -c "grep -q ' foo_bar_with_cond: ' '$T/trace'" && wait_for 5 has_tids "$T/trace" "$a"
cat "$T/trace" >"$tmp/trace4"
same "a write made while no process had the event applies to the next" \
	"0 yes" "$(grep -c ' foo_bar: ' "$tmp/trace4") $(in_tids "$tmp/trace4" "$a")"
check "the other events of the system are still on" grep -q ' foo_bar_with_cond: ' "$tmp/trace4"
kill -TERM "$a"; wait "$a"

# Control with the kernel's semantics: a bad filter fails with EINVAL
# and changes nothing, in the collector and in the program.
"$app" -n 20 -p 100000 >/dev/null 2>&1 &
a=$!
wait_for 15 has_tids "$T/trace" "$a"
check "a bad filter write fails" bash -c "! echo 'bar <' > '$T/events/sample_trace/foo_bar_with_cond/filter' 2>/dev/null"
check "its filter file shows the parse error, as the kernel's" \
	grep -q "parse_error" "$T/events/sample_trace/foo_bar_with_cond/filter"
check "and the program's events are not filtered" \
	wait_for 10 bash -c "grep -q ' foo_bar_with_cond: foo cond [02-9]' '$T/trace'"
echo 'bar == 1' > "$T/events/sample_trace/foo_bar_with_cond/filter"
same "a filter written is the program's" "bar == 1" "$(cat "$T/events/sample_trace/foo_bar_with_cond/filter")"
echo 0 > "$T/events/enable"
same "set_event is empty once everything is off" "" "$(cat "$T/set_event")"
kill -TERM "$a"; wait "$a"

# One event name, two formats: the second program's event is refused,
# and both are named.
echo 1 > "$T/events/enable"
"$objtree/selftests/collector/coll-scribble" >"$tmp/first.out" 2>"$tmp/first.err" &
a=$!
wait_for 15 grep -q ready "$tmp/first.out"
"$objtree/selftests/collector/coll-other" >"$tmp/other.out" 2>"$tmp/other.err" &
b=$!
wait_for 15 grep -q "refused event" "$tmp/other.err"
check "the program with the other format is told on its stderr" \
	grep -q "ustrace: the collector refused event scribble/scribble_tick: another program defines it with another format" "$tmp/other.err"
check "the collector's error_log names it" \
	grep -q "collector: event scribble/scribble_tick of process $b (coll-other) has another format" "$T/error_log"
check "the tree shows the first program's format" \
	bash -c "grep -q 'field:int n;' '$T/events/scribble/scribble_tick/format' && ! grep -q twice '$T/events/scribble/scribble_tick/format'"
check "the first program's events stay" grep -q "scribble_tick: n=" "$T/trace"
kill -TERM "$b"; wait "$b"
"$objtree/selftests/collector/coll-other" >"$tmp/other2.out" 2>"$tmp/other2.err" &
b=$!
wait_for 15 grep -q "refused event" "$tmp/other2.err"
check "a program started after the refusal is refused too" grep -q "refused event" "$tmp/other2.err"

check "the other program runs on" kill -0 "$b"
kill -TERM "$a" "$b"; wait "$a" "$b"

# Opting out, and embedded mode.
echo 1 > "$T/events/enable"
cleared
USTRACE_DAEMON=0 "$app" -n 100 -p 100000 >/dev/null 2>&1 &
a=$!
mkdir "$tmp/emb"
USTRACE_TRACEFS=$tmp/emb "$app" -n 100 -p 100000 >/dev/null 2>&1 &
b=$!
"$app" -n 100 -p 100000 >/dev/null 2>&1 &
c=$!
wait_for 15 has_tids "$T/trace" "$c"
sleep 0.3	# what a and b would have written by now, were they traced
cat "$T/trace" >"$tmp/trace5"
same "USTRACE_DAEMON=0 and USTRACE_TRACEFS programs do not register" "" \
	"$(pids_of "$tmp/trace5" | grep -x -f <(tids_of "$a" "$b"))"
check "while a third program's events are there" bash -c '[ "$1" = yes ]' _ "$(in_tids "$tmp/trace5" "$c")"
check "the embedded one serves its own mount" \
	wait_for 15 test -e "$tmp/emb/README"
kill -TERM "$a" "$b" "$c"; wait "$a" "$b" "$c"

# The collector goes and comes back: programs keep running, untraced,
# and register again.
"$app" -n 1000 -p 100000 >/dev/null 2>"$tmp/long.err" &
a=$!
wait_for 15 has_tids "$T/trace" "$a"
kill -KILL "$dpid"; wait "$dpid" 2>/dev/null; dpid=
for _ in $(seq 50); do mountpoint -q "$T" || break; sleep 0.1; done
check "the program runs on while no collector runs" kill -0 "$a"
check "a collector started again" start_daemon
echo 1 > "$T/events/enable"
wait_for 15 has_tids "$T/trace" "$a"
same "the running program registered with it" yes "$(in_tids "$T/trace" "$a")"
kill -TERM "$a"
check "the program ends normally" wait "$a"

# A collector that does not answer is given up on, quickly.
stop_daemon
python3 - "$USTRACE_RUNDIR/collector.sock" <<'PY' &
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
try: os.unlink(sys.argv[1])
except FileNotFoundError: pass
s.bind(sys.argv[1]); s.listen(8)
conns = []
t = time.time()
while time.time() - t < 10:
    c, _ = s.accept(); conns.append(c)
PY
mute=$!
for _ in $(seq 50); do [ -S "$USTRACE_RUNDIR/collector.sock" ] && break; sleep 0.1; done
start=$(date +%s%N)
USTRACE_DAEMON=0 "$app" -n 1 -p 0 >/dev/null 2>&1
base=$(( ($(date +%s%N) - start) / 1000000 ))
start=$(date +%s%N)
"$app" -n 1 -p 0 >/dev/null 2>"$tmp/mute.err"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
same "a program under a mute collector runs and exits 0" 0 "$rc"
# ThreadSanitizer's exit sleeps atexit_sleep_ms (1 s) when a thread of
# the program still runs, as ours does here and not in the untraced run.
more=1500
[ "${USTRACE_VARIANT:-}" = tsan ] && more=2500
check "within a bounded time ($ms ms, untraced $base ms: at most $more ms more)" \
	test "$ms" -lt $((base + more))
check "and says once that it runs untraced" bash -c "[ \"\$(grep -c 'does not answer: running untraced' '$tmp/mute.err')\" = 1 ]"
kill "$mute" 2>/dev/null; wait "$mute" 2>/dev/null

# Security: a socket of another user is refused by the program; a
# program of another user is refused by the collector.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	rm -f "$USTRACE_RUNDIR/collector.sock"
	python3 -c 'import socket,sys,os; s=socket.socket(socket.AF_UNIX,socket.SOCK_SEQPACKET); s.bind(sys.argv[1]); os.chown(sys.argv[1],65534,65534)' "$USTRACE_RUNDIR/collector.sock"
	"$app" -n 1 -p 0 >/dev/null 2>"$tmp/owner.err"
	check "a socket of another user is refused" grep -q "belongs to uid 65534, not to us or root: not registering" "$tmp/owner.err"
	rm -f "$USTRACE_RUNDIR/collector.sock"
	check "a collector starts once more" start_daemon
	chmod 711 "$USTRACE_RUNDIR"
	chmod 777 "$USTRACE_RUNDIR/collector.sock"
	cp "$app" "$tmp/app-nobody"; chmod 755 "$tmp" "$tmp/app-nobody"
	setpriv --reuid 65534 --regid 65534 --clear-groups env USTRACE_RUNDIR="$USTRACE_RUNDIR" \
		LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$tmp/app-nobody" -n 1 -p 0 >/dev/null 2>"$tmp/nobody.err"
	same "a program of another user runs" 0 "$?"
	check "the collector refuses it" grep -q "refused process [0-9]* of uid 65534" "$tmp/daemon.log"
	check "and says why in its error_log" grep -q "collector: refused process [0-9]* of uid 65534" "$T/error_log"
	[ "$tap_failed" = 0 ] || diag "$tmp/daemon.log"
	chmod 700 "$USTRACE_RUNDIR" "$tmp"
else
	skip "another user's socket and program" "needs root and setpriv"
fi

# --group: the programs of that group's members are taken too (a root
# collector for a group of users); the others' still are not, and a
# member may register but not dump the others' events.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	stop_daemon
	"$ustrace" daemon --rundir "$USTRACE_RUNDIR" --group 4242 --learn "$app" >>"$tmp/daemon.log" 2>&1 &
	dpid=$!
	check "a collector with --group serves" \
		wait_for 20 test -e "$T/README" -a -S "$USTRACE_RUNDIR/collector.sock"
	same "its run directory is the group's to enter" "750 4242" \
		"$(stat -c '%a %g' "$USTRACE_RUNDIR")"
	same "its socket is the group's to connect to" "srwxrwx--- 4242" \
		"$(stat -c '%A %g' "$USTRACE_RUNDIR/collector.sock")"
	echo 1 >"$T/events/sample_trace/foo_bar/enable"
	cleared
	chmod 755 "$tmp"
	setpriv --reuid 65534 --regid 65534 --groups 4242 env USTRACE_RUNDIR="$USTRACE_RUNDIR" \
		LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$tmp/app-nobody" -n 3 -p 0 >/dev/null 2>"$tmp/member.err" &
	member=$!
	wait "$member"
	same "a member's program runs" 0 "$?"
	check "its events are in the collector's trace" \
		wait_for 10 bash -c 'grep -v "^#" "$1" | grep -q "app-nobody-[0-9]* .*foo_bar: foo hello 2 "' _ "$T/trace"
	check "and it was not refused" bash -c '! grep -q "refused process $1 " "$2"' _ "$member" "$tmp/daemon.log"
	setpriv --reuid 65534 --regid 65534 --groups 4243 env USTRACE_RUNDIR="$USTRACE_RUNDIR" \
		LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$tmp/app-nobody" -n 1 -p 0 >/dev/null 2>"$tmp/stranger.err"
	same "a program of another group runs" 0 "$?"
	check "untraced: it cannot enter the run directory" \
		bash -c '! grep -q "refused process [0-9]* of uid 65534: .* group 4242" "$1"' _ "$tmp/daemon.log"
	# Past the directory (opened by hand), the collector itself refuses it.
	chmod 755 "$USTRACE_RUNDIR"; chmod 777 "$USTRACE_RUNDIR/collector.sock"
	setpriv --reuid 65534 --regid 65534 --groups 4243 env USTRACE_RUNDIR="$USTRACE_RUNDIR" \
		LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$tmp/app-nobody" -n 1 -p 0 >/dev/null 2>"$tmp/stranger.err"
	chmod 750 "$USTRACE_RUNDIR"; chmod 770 "$USTRACE_RUNDIR/collector.sock"
	check "the collector refuses it, naming the group" \
		grep -q "refused process [0-9]* of uid 65534: this collector takes uid 0 and the members of group 4242 only" "$tmp/daemon.log"
	setpriv --reuid 65534 --regid 65534 --groups 4242 env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" \
		"$ustrace" dump --rundir "$USTRACE_RUNDIR" -o /dev/null >/dev/null 2>"$tmp/mdump.err"
	check "a member's dump is refused" \
		grep -q "refused a dump by process [0-9]* of uid 65534: only uid 0 may dump" "$tmp/daemon.log"
	stop_daemon
	# The mount's options beside the group (group= is taken out of them).
	"$ustrace" daemon --rundir "$USTRACE_RUNDIR" --group 4242 -o gid=4243 >>"$tmp/daemon.log" 2>&1 &
	dpid=$!
	check "--group with -o gid=N serves" \
		wait_for 20 test -e "$T/README" -a -S "$USTRACE_RUNDIR/collector.sock"
	same "the tree's files are of the mount's group" 4243 "$(stat -c %g "$T/trace")"
	stop_daemon
	chgrp 0 "$USTRACE_RUNDIR"; chmod 700 "$USTRACE_RUNDIR" "$tmp"
	"$ustrace" daemon --rundir "$USTRACE_RUNDIR" -o gid=4243 >>"$tmp/daemon.log" 2>&1 &
	dpid=$!
	check "-o gid=N alone serves" \
		wait_for 20 test -e "$T/README" -a -S "$USTRACE_RUNDIR/collector.sock"
	same "and its run directory stays private" 700 "$(stat -c %a "$USTRACE_RUNDIR")"
	stop_daemon
	check "a collector without --group starts once more" start_daemon
else
	skip "--group" "needs root and setpriv"
fi

# --learn: the events of a program that never ran, from its ELF object,
# so that they can be enabled before it starts.
stop_daemon
"$ustrace" daemon --rundir "$USTRACE_RUNDIR" --learn "$app" >"$tmp/learn.log" 2>&1 &
dpid=$!
wait_for 20 test -e "$T/README" -a -S "$USTRACE_RUNDIR/collector.sock"
wait_for 10 test -d "$T/events/sample_trace"
check "ustrace daemon --learn lists a program's events before it runs" \
	grep -qx 'sample_trace:foo_bar' "$T/available_events"
check "and says how many" grep -q "tracefs-sample: 8 events" "$tmp/learn.log"
echo 1 > "$T/events/sample_trace/enable"
for i in 1 2 3; do
	"$app" -n 100 -p 200000 >/dev/null 2>&1 &
	eval "l$i=\$!"
done
wait_for 20 firsts 3
same "enabled before any of them ran: three programs' first rounds" 3 \
	"$(grep -c 'foo_bar: foo hello 0 ' "$T/trace")"
kill -TERM "$l1" "$l2" "$l3"; wait "$l1" "$l2" "$l3"

check "the daemon stops on SIGTERM" stop_daemon
check "and leaves no mount" bash -c "! mountpoint -q '$T'"
check "nor its socket" test ! -e "$USTRACE_RUNDIR/collector.sock"
tap_end
