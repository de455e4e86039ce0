#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# guest-ends.sh - every way a recording program ends (issue 16).  TAP.
#
#   SIGHUP, SIGQUIT, SIGPIPE (app | head), SIGUSR1, SIGALRM, SIGXCPU,
#   SIGTERM, SIGINT, _exit(), _Exit(), quick_exit() and exec leave the
#   whole file, with the exit status (and core dump) the program would
#   have had; a failed exec, vfork(), fork() and posix_spawn() children
#   leave the parent recording; a handler of the program, installed
#   before or after the recording started, still runs; an ignored signal
#   stays ignored; the dump signal ends nothing; ustrace record and the
#   quit key.

set -u

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/guest-lib.bash"

tap_begin guest-ends
need_trace_cmd

# killed SIG [ENV...]: rec-app waits (-W), SIG comes from outside; the
# status is 128 + SIG and the file whole.
killed() {
	local sig=$1 f=k-$1.dat pid status i

	shift
	# A background job of a script ignores SIGINT and SIGQUIT: not ours.
	env --default-signal=INT,QUIT USTRACE_EVENTS=rec_test USTRACE_OUTPUT=$f "$@" \
		"${run[@]}" "$app" -n 100 -w 2 -W >"$f.out" &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		grep -q ready "$f.out" 2>/dev/null && break
		sleep 0.05
	done
	# The app, under timeout.
	kill -"$sig" "$(pgrep -P "$pid" -f rec-app | head -n 1)" 2>/dev/null || kill -"$sig" "$pid"
	wait "$pid"
	status=$?
	echo "status $status"
	[ "$status" = $((128 + $(kill -l "$sig"))) ] && whole "$f" 2 99
}
for sig in HUP QUIT USR1 TERM INT; do
	check "killed by SIG$sig: status $((128 + $(kill -l $sig))), the file is whole" killed "$sig"
done

piped() {
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=pipe.dat "${run[@]}" "$app" -n 100 -w 2 -O | head -n 1
	local s=${PIPESTATUS[0]}
	echo "status $s"
	[ "$s" = 141 ] && whole pipe.dat 2 99
}
check "app | head: SIGPIPE, the file is whole" piped

alarmed() {
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=alrm.dat "${run[@]}" "$app" -n 100 -w 2 -A
	local s=$?
	echo "status $s"
	[ "$s" = 142 ] && whole alrm.dat 2 99
}
check "alarm(): SIGALRM, the file is whole" alarmed

xcpu() {
	(ulimit -S -t 1 && USTRACE_EVENTS=rec_test USTRACE_OUTPUT=xcpu.dat \
		"${run[@]}" "$app" -n 100 -w 2 -S)
	local s=$?
	echo "status $s"
	[ "$s" = 152 ] && whole xcpu.dat 2 99
}
check "a CPU time limit: SIGXCPU, the file is whole" xcpu

# ended HOW EVENTS: -X HOW; the file holds 0..EVENTS-1 of each worker.
ended() {
	local f=x-$1.dat

	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=$f "${run[@]}" "$app" -n 100 -w 2 -X "$1" || return 1
	whole "$f" 2 "$2"
}
for how in _exit _Exit quick_exit exec execvp; do
	check "$how(): the file is whole" ended "$how" 99
done
for how in execfail vfork vfork-exec fork spawn; do
	check "$how: the program goes on recording; the file holds it all" ended "$how" 199
done
# A forked child that fires and calls exit(): its event is in the
# parent's file under its own pid, named as the kernel names every task
# (the saved cmdlines are shared with the child, events.rst).
forked_named() {
	local line

	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=ff.dat "${run[@]}" "$app" -n 10 -w 1 -X fork-fire ||
		return 1
	line=$(trace-cmd report ff.dat 2>/dev/null | grep 'worker=-1 seq=7777')
	echo "$line"
	[[ $line =~ ^\ *rec-app-([0-9]+)\  ]] || return 1
	# Not the parent's pid: the parent's own events name another.
	! trace-cmd report ff.dat 2>/dev/null | grep -v 'worker=-1' | grep -q "rec-app-${BASH_REMATCH[1]} "
}
check "a forked child's event is named with its own pid" forked_named

# daemon(): libc's parent ends by its own _exit(), which is not the
# library's; the parent writes its file all the same, and the child, the
# program from then on, records on its own.  Under ustrace record both
# parts make one whole file; by hand, with %p, two files.
daemoned() {
	"${run[@]}" "$ustrace" record -o dm.dat -e rec_test -- "$app" -n 100 -w 2 -X daemon \
		>dm.out 2>&1 || { cat dm.out; return 1; }
	cat dm.out
	grep -q '2 processes:' dm.out && whole dm.dat 2 199
}
check "daemon() under ustrace record: the parent's and the daemon's events, whole" daemoned
daemoned_by_hand() {
	local f n=0 whole_one=0

	mkdir dmh && (cd dmh && USTRACE_EVENTS=rec_test USTRACE_OUTPUT=d-%p.dat \
		"${run[@]}" "$app" -n 100 -w 2 -X daemon) || return 1
	# The daemon writes its file as it ends, after the parent's.
	for _ in $(seq 100); do
		pgrep -f -- "$app -n 100 -w 2 -X daemon" >/dev/null || break
		sleep 0.1
	done
	ls -la dmh
	for f in dmh/d-*.dat; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		# The parent's: 0..99 of each worker; the daemon's: the next 100.
		whole "$f" 2 99 >/dev/null && whole_one=$((whole_one + 1))
		trace-cmd report "$f" 2>/dev/null | grep -c ' rec_seq: '
	done
	[ "$n" = 2 ] && [ "$whole_one" = 1 ]
}
check "daemon() by hand with %p: the parent's file whole, and the daemon's" daemoned_by_hand

# The core dump and the status the program would have had without us.
core_py='
import os, resource, subprocess, sys
resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
st = subprocess.run(sys.argv[1:]).returncode
print("signal %d" % -st if st < 0 else "status %d" % st)
'
core() {
	local plain rec

	mkdir core-plain core-rec || return 1
	plain=$(cd core-plain && "${PYTHON:-python3}" -c "$core_py" "$app" -n 10 -w 1 -k 3 &&
		ls | grep -c core)
	rec=$(cd core-rec && USTRACE_EVENTS=rec_test USTRACE_OUTPUT=q.dat \
		"${PYTHON:-python3}" -c "$core_py" "$app" -n 10 -w 1 -k 3 && ls | grep -c core)
	echo "without: $plain; recorded: $rec"
	[ "$plain" = "$rec" ] && [ "$(echo "$rec" | head -n 1)" = "signal 3" ] &&
		whole core-rec/q.dat 1 9
}
check "SIGQUIT: the same status and core dump as without the recorder" core

# The program's own handler: it runs, and ends by _exit(42).
own_handler() {
	local start=$1 f=own-$1.dat pid status i

	if [ "$start" = before ]; then
		set -- "$app" -o "$f" -e rec_test -H 1 -n 20 -w 1 -W
	else
		set -- env USTRACE_EVENTS=rec_test USTRACE_OUTPUT="$f" "$app" -H 1 -n 20 -w 1 -W
	fi
	"$@" >"$f.out" &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		grep -q ready "$f.out" 2>/dev/null && break
		sleep 0.05
	done
	kill -HUP "$pid"
	wait "$pid"
	status=$?
	cat "$f.out"
	[ "$status" = 42 ] && grep -qx "rec-app: own handler" "$f.out" && whole "$f" 1 19
}
check "a SIGHUP handler installed before the recording runs; the file is whole" own_handler before
check "a SIGHUP handler installed after the recording started runs; the file is whole" \
	own_handler after

ignored() {
	local pid i alive

	env --ignore-signal=HUP USTRACE_EVENTS=rec_test USTRACE_OUTPUT=ign.dat \
		"$app" -n 20 -w 1 -W >ign.out &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		grep -q ready ign.out 2>/dev/null && break
		sleep 0.05
	done
	kill -HUP "$pid"
	sleep 0.3
	kill -0 "$pid" && alive=1
	kill -TERM "$pid"
	wait "$pid"
	[ "${alive:-0}" = 1 ] && whole ign.dat 0 0 && [ "$(grep -c rec_seq ign.dat.rep)" = 20 ]
}
check "an ignored SIGHUP stays ignored" ignored

dump_usr1() {
	local pid i

	env USTRACE_EVENTS=rec_test USTRACE_OUTPUT=usr1.dat USTRACE_DUMP_SIGNAL=USR1 \
		"$app" -n 20 -w 1 -W >usr1.out &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		grep -q ready usr1.out 2>/dev/null && break
		sleep 0.05
	done
	kill -USR1 "$pid"
	for ((i = 0; i < 100; i++)); do
		[ -e usr1.dat.1 ] && break
		sleep 0.05
	done
	kill -0 "$pid" || return 1
	kill -TERM "$pid"
	wait "$pid"
	whole usr1.dat.1 1 19 && readable usr1.dat
}
check "USTRACE_DUMP_SIGNAL=USR1 writes OUTPUT.1 and ends nothing" dump_usr1

# The terminal's quit key reaches the whole foreground group: ustrace
# record ignores it, the program writes its file and dies of it.
quit_key() {
	local pid i

	set -m
	env --default-signal=INT,QUIT "$ustrace" record -o quit.dat -e rec_test -- \
		"$app" -n 50 -w 2 -W >quit.out 2>quit.sum &
	pid=$!
	set +m
	for ((i = 0; i < 400; i++)); do
		grep -q ready quit.out 2>/dev/null && break
		sleep 0.05
	done
	kill -QUIT -- -"$pid"
	wait "$pid"
	local s=$?
	cat quit.sum
	[ $s = 0 ] && grep -q 'rec-app was killed by SIGQUIT$' quit.sum &&
		! grep -q 'not written' quit.sum && grep -q '^  CPU[0-9]*: ' quit.sum &&
		whole quit.dat 2 49
}
check "ustrace record and the quit key: the file is written and summed up" quit_key

tap_end
