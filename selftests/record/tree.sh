#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tree.sh - ustrace record of a process tree writes one file; two
# processes given one USTRACE_OUTPUT never write over each other.  TAP.
#
#   - sh -c 'app & app & wait': both processes' 2 x 600 events in one file,
#     each worker thread's 200 under its own pid and comm, in time order
#     (stock trace-cmd report), and the summary names both pids
#   - a grandchild, and one left to run after its shells ended (an orphan
#     the command waits for)
#   - a program run in another directory than the relative -o's
#   - a traced program that execs another: both programs' events
#   - ten processes at once
#   - a process that outlives the command by more than --tree-wait: said,
#     and the others' events are in the file
#   - SIGTERM sent to ustrace record is passed on, and the file written
#   - with -K, the kernel's events join the same merge (root, or write
#     access to the kernel's tracefs; skipped otherwise), and the saved
#     cmdlines name each pid once, the program's name for its threads
#   - USTRACE_OUTPUT set by hand for two processes at once: the second
#     writes OUTPUT.PID and says so in one line naming the first's pid
# Each app is rec-app: 3 worker threads of 200 rec_test:rec_seq events.

set -u

. "$(dirname "$0")/../lib/tap.sh"
ustrace=$objtree/tools/tracing/ustrace
app=$objtree/selftests/record/rec-app
run=(timeout -k 5 120)

tap_begin tree

if ! command -v trace-cmd >/dev/null; then
	not_ok "trace-cmd is installed (scripts/install-deps.sh installs it)"
	tap_end
	exit 1
fi

# events FILE N: trace-cmd report of FILE (into FILE.rep) holds the events
# of N processes of 3 workers x 200: every (worker, seq) N times, 3N
# threads of 200 events each, each thread one worker's seq 0..199 under
# the worker's name, the stamps in order, nothing else and no warning.
events() {
	local f=$1 n=$2

	trace-cmd report -i "$f" >"$f.rep" 2>"$f.err" || { cat "$f.err"; return 1; }
	if grep -qi 'warning\|error' "$f.err"; then
		cat "$f.err"
		return 1
	fi
	rep_ok "$f.rep" "$n"
}

# rep_ok REPORT N: the checks of events on a report made.
rep_ok() {
	awk -v n="$2" '
	/^cpus=/ { next }
	!/ rec_seq: / { print "other line: " $0; bad = 1; next }
	{
		comm_tid = $1; t = $3; sub(/:$/, "", t)
		tid = comm_tid; sub(/.*-/, "", tid)
		comm = comm_tid; sub(/-[0-9]+$/, "", comm)
		w = $5; sub(/worker=/, "", w); s = $6; sub(/seq=/, "", s)
		if (t + 0 < last) { print "out of order: " $0; bad = 1 }
		last = t + 0
		if (comm != "rec-worker-" w) { print "comm " comm " for worker " w; bad = 1 }
		if ((tid in worker) && worker[tid] != w) { print "tid " tid ": two workers"; bad = 1 }
		worker[tid] = w
		if (seen[tid, s]++) { print "tid " tid " seq " s " twice"; bad = 1 }
		per_tid[tid]++; pair[w, s]++; total++
	}
	END {
		for (k in pair) if (pair[k] != n) { print "pair " k ": " pair[k]; bad = 1 }
		for (k in per_tid) { threads++; if (per_tid[k] != 200) { print "tid " k ": " per_tid[k]; bad = 1 } }
		if (threads != 3 * n || total != 600 * n) {
			print threads " threads, " total " events, want " 3 * n ", " 600 * n; bad = 1
		}
		exit bad
	}' "$1"
}

# pids SUMMARY: the pids the per-process lines of ustrace record name, sorted.
pids() {
	sed -n 's/^    pid \([0-9]*\)\( (exec [0-9]*)\)\{0,1\}: 600 events, 0 lost$/\1/p' "$1" | sort -n
}

two() {
	"${run[@]}" "$ustrace" record -e rec_test -o two.dat -- \
		sh -c "$app -w 3 -n 200 & echo \$! >>two.pids; $app -w 3 -n 200 & echo \$! >>two.pids; wait" \
		2>two.sum || { cat two.sum; return 1; }
	cat two.sum
	events two.dat 2 && grep -q '^  2 processes:$' two.sum &&
		[ "$(pids two.sum)" = "$(sort -n two.pids)" ] &&
		[ -z "$(ls -A | grep '^\.ustrace-record-')" ]
}
check "sh -c 'app & app & wait': 2 x 600 events, both pids and comms, in time order" two

grandchild() {
	"${run[@]}" "$ustrace" record -e rec_test -o gc.dat -- \
		sh -c "$app -w 3 -n 200 & sh -c '$app -w 3 -n 200; true'; wait" 2>gc.sum ||
		{ cat gc.sum; return 1; }
	cat gc.sum
	events gc.dat 2
}
check "a child and a grandchild (sh -c 'sh -c app'): both" grandchild

# -o relative, the program run in another directory: its part goes to the
# parts' directory all the same (named absolutely).
elsewhere() {
	mkdir -p away &&
	"${run[@]}" "$ustrace" record -e rec_test -o away.dat -- \
		sh -c "cd away && exec $app -w 3 -n 200" 2>away.sum || { cat away.sum; return 1; }
	cat away.sum
	events away.dat 1
}
check "-o relative, the program run in another directory (sh -c 'cd DIR && app'): its events" \
	elsewhere

orphan() {
	# The shells end at once; the app, an orphan, runs on and is waited for.
	"${run[@]}" "$ustrace" record -e rec_test -o orphan.dat -- \
		sh -c "sh -c '(sleep 0.5; exec $app -w 3 -n 200) &'" 2>orphan.sum ||
		{ cat orphan.sum; return 1; }
	cat orphan.sum
	events orphan.dat 1
}
check "a grandchild that outlives its shells: waited for, its events in the file" orphan

reexec() {
	"${run[@]}" "$ustrace" record -e rec_test -o exec.dat -- "$app" -w 3 -n 200 -X reexec \
		2>exec.sum || { cat exec.sum; return 1; }
	cat exec.sum
	events exec.dat 2 && grep -q '^    pid [0-9]* (exec 1): 600 events, 0 lost$' exec.sum
}
check "a traced program that execs another traced program: both programs' events" reexec

ten() {
	"${run[@]}" "$ustrace" record -e rec_test -o ten.dat -- \
		sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do $app -w 3 -n 200 & done; wait" 2>ten.sum ||
		{ cat ten.sum; return 1; }
	cat ten.sum
	events ten.dat 10 && grep -q '^  10 processes:$' ten.sum &&
		[ "$(pids ten.sum | wc -l)" = 10 ]
}
check "ten processes at once: 10 x 600 events in one file" ten

daemon() {
	local start end rc

	start=$(date +%s)
	# A process that waits for a signal outlives the command.
	"${run[@]}" "$ustrace" record -e rec_test -o d.dat --tree-wait 1 -- \
		sh -c "$app -w 3 -n 200; setsid $app -w 1 -n 5 -W >d.out 2>d.err & echo \$! >d.pid" \
		2>d.sum
	rc=$?
	end=$(date +%s)
	cat d.sum
	kill -TERM "$(cat d.pid)" 2>/dev/null
	[ "$rc" = 0 ] && [ $((end - start)) -lt 30 ] &&
		grep -q '^ustrace record: processes the program started still run after 1 s (--tree-wait): what they record is not in d.dat$' d.sum &&
		events d.dat 1
}
check "--tree-wait 1: a process that outlives the command is said, the others' events kept" daemon

term() {
	local r a rc

	"$ustrace" record -e rec_test -o term.dat -- "$app" -w 3 -n 200 -W >term.out 2>term.sum &
	r=$!
	for _ in $(seq 200); do [ -s term.out ] && break; sleep 0.1; done
	a=$(pgrep -P "$r")
	kill -TERM "$r"
	wait "$r"
	rc=$?
	[ -n "$a" ] && kill -KILL "$a" 2>/dev/null	# if it was not passed on
	cat term.sum
	[ "$rc" = 0 ] && grep -q '/rec-app was killed by SIGTERM$' term.sum &&
		events term.dat 1 && [ -z "$(ls -A | grep '^\.ustrace-record-')" ]
}
check "SIGTERM to ustrace record: passed on to the program, the file written" term

kernel() {
	"${run[@]}" "$ustrace" record -K sched:sched_switch -e rec_test -o k.dat -- \
		sh -c "$app -w 3 -n 200 & $app -w 3 -n 200 & wait" 2>k.sum ||
		{ cat k.sum; return 1; }
	cat k.sum
	trace-cmd report -i k.dat >k.all 2>k.err &&
		[ "$(grep -c ' rec_seq: ' k.all)" = 1200 ] && grep -q ' sched_switch: ' k.all &&
		! grep -qi warning k.err && grep -v ' sched_switch: ' k.all >k.prog &&
		rep_ok k.prog 2 || return 1
	# one saved cmdline per pid: with two, a reader picks either name
	trace-cmd dump --cmd-lines -i k.dat 2>/dev/null >k.cmd
	awk '$1 ~ /^[0-9]+$/ { print $1 }' k.cmd | sort | uniq -d >k.dup
	[ -s k.cmd ] && [ ! -s k.dup ] || { echo "pids saved twice: $(cat k.dup)"; return 1; }
}
if [ -w /sys/kernel/tracing/instances ] || [ "$(id -u)" = 0 ]; then
	check "-K: the kernel's events and both processes' in one merge" kernel
else
	skip "-K: the kernel's events and both processes' in one merge" \
		"no write access to the kernel's tracefs"
fi

by_hand() {
	local a b

	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=h.dat setsid "$app" -w 3 -n 200 -W >a.out 2>a.err &
	a=$!
	for _ in $(seq 100); do [ -s a.out ] && break; sleep 0.1; done
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=h.dat "$app" -w 3 -n 200 2>b.err &
	b=$!
	wait "$b" || return 1
	kill -TERM "$a"
	wait "$a"
	cat b.err
	ls
	local dir
	dir=$(pwd -P)
	[ "$(cat b.err)" = "ustrace: record: $dir/h.dat: pid $a records into it; pid $b writes $dir/h.dat.$b instead" ] &&
		[ "$(ls h.dat*)" = "$(printf 'h.dat\nh.dat.%s' "$b")" ] &&
		events h.dat 1 && events "h.dat.$b" 1
}
check "USTRACE_OUTPUT by hand for two processes at once: the second writes OUTPUT.PID, says so" by_hand

tap_end
