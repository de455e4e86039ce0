#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The collector's flight recorder (system-mode.rst, "Buffers that outlive
# their program"): what a program recorded is in the collector's buffers
# however it ends, and `ustrace dump` writes it as one trace.dat that the
# stock trace-cmd reads.  The program is selftests/record/rec-app (workers
# firing rec_test:rec_seq worker=W seq=N), which ends as a user's program
# does: SIGKILL, abort(), _exit(), after closing all its descriptors.
. "$(dirname "$0")/../lib/tap.sh"
tap_begin flight

. "$srctree/selftests/collector/coll-lib.bash"
app=$objtree/selftests/record/rec-app
command -v trace-cmd >/dev/null || skip_all "no trace-cmd"
[ -x "$app" ] || skip_all "not built"

# seqs FILE: "W N" for each rec_seq of trace-cmd report's text.
seqs() {
	grep -o 'rec_seq: *worker=[0-9]* seq=[0-9]*' "$1" | sed 's/.*worker=\([0-9]*\) seq=\([0-9]*\)/\1 \2/'
}

# case NAME RESULT-FOR-2-WORKERS ARGS...: a fresh collector, everything
# enabled, rec-app ARGS run to its end, then ustrace dump.
run_case() {
	local name=$1 want=$2
	shift 2
	stop_daemon
	start_daemon || { not_ok "$name: the collector starts"; return; }
	echo 1 > "$T/events/enable"
	(cd "$tmp" && exec "$app" -w 2 "$@" >"$tmp/app.out" 2>"$tmp/app.err")
	rc=$?
	rm -f "$tmp/$name.dat"
	if ! "$ustrace" dump -o "$tmp/$name.dat" 2>"$tmp/dump.err"; then
		not_ok "$name: ustrace dump"
		diag "$tmp/dump.err"
		return
	fi
	trace-cmd report "$tmp/$name.dat" >"$tmp/$name.txt" 2>"$tmp/$name.report-err"
	same "$name: trace-cmd report has every event the program recorded" "$want" \
		"$(seqs "$tmp/$name.txt" | sort -u | wc -l)"
	same "$name: and nothing it cannot name" 0 "$(grep -c 'UNKNOWN' "$tmp/$name.txt")"
	# The collector's trace prints them too, the program gone (from the
	# formats it logged, coll_print.c); it may take the collector a moment
	# to see the program go.
	wait_for 10 bash -c '[ "$(grep -c ": rec_seq: worker=" "$1")" -ge "$2" ]' _ "$T/trace" "$want"
	grep -v '^#' "$T/trace" >"$tmp/$name.trace"
	same "$name: the collector's trace shows them, the program gone" "$want" \
		"$(seqs "$tmp/$name.trace" | sort -u | wc -l)"
}

run_case killed 2000 -n 1000 -k 9
same "killed: the program died of SIGKILL" 137 "$rc"
check "killed: each worker's sequence is complete, 0 to 999" \
	bash -c "[ \"\$(grep -c 'seq=999\$' '$tmp/killed.txt')\" = 2 ] && [ \"\$(grep -c 'seq=0\$' '$tmp/killed.txt')\" = 2 ]"

run_case aborted 600 -n 300 -k 6
same "aborted: the program died of SIGABRT" 134 "$rc"

run_case exited 1000 -n 500 -X _exit
same "exited: the program ended by _exit()" 0 "$rc"

# What trace shows of a program gone is what it showed while the program
# ran, line for line (the program's threads' names, the CPU, the flags,
# the time to the microsecond, the event's own text); "> trace" forgets it.
stop_daemon
start_daemon
echo 1 > "$T/events/enable"
"$app" -w 2 -n 300 -W >"$tmp/alive.out" 2>/dev/null &
alive=$!
wait_for 10 grep -q ready "$tmp/alive.out"
# The thread names too: the workers started after the program
# registered, and it is killed before it could log its saved_cmdlines,
# but it kept them in its format log as it went (system-mode.rst).
grep -v '^#' "$T/trace" >"$tmp/alive.trace"
same "alive: trace has the program's 600 events" 600 "$(grep -c ': rec_seq: worker=' "$tmp/alive.trace")"
check "alive: its workers' lines name them" bash -c "! grep ': rec_seq: worker=' '$tmp/alive.trace' | grep -q '<\.\.\.>'"
kill -KILL "$alive"; wait "$alive" 2>/dev/null
wait_for 10 bash -c "grep -v '^#' \"\$1\" | cmp -s - \"\$2\"" _ "$T/trace" "$tmp/alive.trace"
grep -v '^#' "$T/trace" >"$tmp/gone.trace"
check "gone: its lines in trace are the ones it printed itself, thread names included" \
	cmp "$tmp/alive.trace" "$tmp/gone.trace"
[ "$tap_failed" -eq 0 ] || diff "$tmp/alive.trace" "$tmp/gone.trace" | head -n 10 | sed 's/^/# /'
same "gone: the header counts them" "600/600" \
	"$(grep -o 'entries-in-buffer/entries-written: [0-9/]*' "$T/trace" | cut -d' ' -f2)"
echo > "$T/trace"
same "gone: > trace forgets them" 0 "$(grep -c ': rec_seq: worker=' "$T/trace")"

# A forked child writes into its parent's buffer under its own name: the
# names survive both being SIGKILLed.
"$objtree/selftests/collector/coll-scribble" -f >"$tmp/kid.out" 2>&1 &
scr=$!
wait_for 15 bash -c "grep -q '^ready' '$tmp/kid.out' && grep -q '^kid' '$tmp/kid.out'"
kid=$(sed -n 's/^kid \([0-9]*\) ready$/\1/p' "$tmp/kid.out")
kill -KILL "$scr" ${kid:+"$kid"}; wait "$scr" 2>/dev/null
wait_for 10 bash -c "grep -q 'scribble-kid-$kid .*scribble_tick' '$T/trace'"
same "forked child: its 100 events, under its name, both killed" 100 \
	"$(grep -c "scribble-kid-$kid .*scribble_tick" "$T/trace")"
same "and its parent's 1000 under its own" 1000 \
	"$(grep -c "coll-scribble-$scr .*scribble_tick" "$T/trace")"

# A daemon's close of every descriptor takes the collector's socket and
# the buffer's memfd away: the program's files are its own, and the
# events it records after are still in the collector's buffer (it maps
# the same memory).
run_case closed 800 -n 200 -c 12 -x
same "closed: the program ended normally" 0 "$rc"
check "closed: its twelve files hold what it wrote, nothing else" \
	bash -c "for i in \$(seq 0 11); do [ \"\$(cat '$tmp'/victim-\$i)\" = VICTIM-DATA ] || exit 1; done"
check "closed: it said nothing on stderr" bash -c "! grep -v '^ustrace: the program closed the collector' '$tmp/app.err' | grep ."

# exec: the new image registers anew (the socket is close-on-exec) and
# writes into a buffer of its own; both images' events are kept.
run_case reexec 400 -n 200 -X reexec
same "reexec: both images' events, each image a registration of its own" "800 2 processes" \
	"$(seqs "$tmp/reexec.txt" | wc -l) $(grep -o '[0-9]* process' "$tmp/dump.err")es"

# dlopen: an event that registers after the program registered is on
# (the remembered events/enable applies to it) and named in the dump.
run_case plugin 20 -n 10 -p "$objtree/selftests/trace_events/te-plugin.so" -x
same "plugin: the dlopen()ed object's events are there" 3 "$(grep -c 'plugin_value' "$tmp/plugin.txt")"

# Two processes, one alive, one dead, in one file.
stop_daemon
start_daemon
echo 1 > "$T/events/enable"
(cd "$tmp" && exec "$app" -w 1 -n 100 -k 9 >/dev/null 2>&1)
(cd "$tmp" && exec "$app" -w 1 -n 50 -W >"$tmp/ready" 2>/dev/null) &
live=$!
for _ in $(seq 100); do grep -q ready "$tmp/ready" 2>/dev/null && break; sleep 0.05; done
check "dump of a dead and a running process" "$ustrace" dump -o "$tmp/two.dat"
trace-cmd report "$tmp/two.dat" >"$tmp/two.txt" 2>/dev/null
same "both are in it" "150" "$(seqs "$tmp/two.txt" | wc -l)"
same "with two pids" 2 "$(grep 'rec_seq' "$tmp/two.txt" | awk '{print $1}' | sort -u | wc -l)"
kill -TERM "$live"; wait "$live" 2>/dev/null

# The collector survives a writer that scribbles over its own buffer.
"$objtree/selftests/collector/coll-scribble" -s >"$tmp/scribble.out" 2>&1 &
s=$!
for _ in $(seq 100); do grep -q scribbled "$tmp/scribble.out" && break; sleep 0.05; done
check "a program wrote garbage over its buffer's pages and counters" grep -q scribbled "$tmp/scribble.out"
"$ustrace" dump -o "$tmp/scribble.dat" >/dev/null 2>&1
check "the collector is still there after dumping it" kill -0 "$dpid"
check "and still dumps the others" "$ustrace" dump -o "$tmp/after.dat"
kill -TERM "$s"; wait "$s" 2>/dev/null
# Gone, its garbage is printed by the collector itself (coll_print.c).
check "the collector prints the trace of the scribbler gone" \
	bash -c 'for i in 1 2 3 4 5; do cat "$1" >/dev/null || exit 1; sleep 0.2; done' _ "$T/trace"
check "and is still there after" kill -0 "$dpid"

# And one whose header says its CPUs are half as far apart as they are,
# with rings whose page ids are past the end of their CPU's region at that
# stride (CPU 0's in the next region, the last CPU's past the mapping): the
# header's stride is taken, and bounds the page ids.  Alone in the
# collector, so that the dump's statistics are that program's.
stop_daemon
start_daemon
echo 1 > "$T/events/enable"
"$objtree/selftests/collector/coll-scribble" -S >"$tmp/stride.out" 2>&1 &
s=$!
for _ in $(seq 100); do grep -q scribbled "$tmp/stride.out" && break; sleep 0.05; done
check "a program wrote a header with a smaller CPU stride" grep -q scribbled "$tmp/stride.out"
"$ustrace" dump -o "$tmp/stride.dat" >/dev/null 2>&1
check "the collector is still there after dumping it" kill -0 "$dpid"
trace-cmd report --stat "$tmp/stride.dat" >"$tmp/stride.stat" 2>&1
same "no page of another CPU's region is taken for CPU 0's" "pages: 0" \
	"$(grep -A1 -x 'CPU: 0' "$tmp/stride.stat" | grep pages:)"
kill -TERM "$s"; wait "$s" 2>/dev/null

stop_daemon
check "with no collector, ustrace dump says so" \
	bash -c '! "$1" dump -o "$2/none.dat" 2>"$2/none.err" && grep -q "no collector runs" "$2/none.err"' _ "$ustrace" "$tmp"
tap_end
