#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 480
#
# timeline.sh - ustrace record -K: the kernel's events and the program's in
# one trace.dat, read with the stock trace-cmd.  TAP.
#
#   - trace-cmd report prints both kinds in time order; --stat and our
#     summary count the losses of both; the program's event ids moved
#     above the kernel's
#   - the proof: every ktl_mark of thread T on CPU c at t is followed, on
#     c, by a sched_switch out of T (check-timeline.py slices), a few runs
#     (loop.bash runs it 100 times)
#   - the clocks: the kernel's task:task_rename falls between the two
#     ktl_sync events around each prctl(); the gaps are printed
#   - -C mono on both sides; --kernel-only; a bad event, a bad clock
#   - the stock-tools way: the kernel's events in k.dat (--kernel-only -C
#     mono), the program's by ustrace trace-cmd record -C mono in u.dat:
#     trace-cmd report -i k.dat -i u.dat passes the same proof, but for
#     events whose thread migrated inside the ring buffer's reserve (CPU
#     read before the clock, on its slow path there: counted, not failed)
#   - no instance is left: after the program's exit, its SIGKILL, our
#     SIGTERM and SIGINT, an error
#   - as user nobody: a clear error naming what is missing; without -K the
#     recording works as before
#
# Needs root and the kernel's tracefs (it is mounted if need be).

set -u

. "$(dirname "$0")/../lib/tap.sh"
ustrace=$objtree/tools/tracing/ustrace
app=$objtree/selftests/kernel/ktl-app
checker=("${PYTHON:-python3}" "$srctree/selftests/kernel/check-timeline.py")
run=(timeout -k 5 120)
runs=${KTL_RUNS:-3}

tap_begin kernel

ktr=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
ktr=${ktr:-/sys/kernel/tracing}
why=
[ "$(id -u)" = 0 ] || why="not root"
[ -z "$why" ] && ! command -v trace-cmd >/dev/null && why="no trace-cmd (Debian: trace-cmd)"
if [ -z "$why" ] && ! [ -e "$ktr/instances" ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || why="no kernel tracefs"
	ktr=/sys/kernel/tracing
fi
[ -z "$why" ] && ! [ -d "$ktr/events/sched/sched_switch" ] && why="no sched:sched_switch in the kernel"
if [ -n "$why" ]; then
	echo "1..0 # SKIP $why"
	exit 0
fi

# Our instances (instances/ustrace-kernel-PID); left behind: one whose
# recorder is gone (other recordings may run beside this test).
ours() { ls "$ktr/instances" 2>/dev/null | grep '^ustrace-kernel-' ; }
no_instance() {
	local i left=

	for i in $(ours); do
		kill -0 "${i#ustrace-kernel-}" 2>/dev/null || left="$left $i"
	done
	[ -z "$left" ] || { echo "left behind:$left"; return 1; }
}

report() { "${run[@]}" trace-cmd report -t -N "$1" 2>/dev/null; }

# --- one file, both kinds
t_both() {
	"${run[@]}" "$ustrace" record -K sched:sched_switch -K sched:sched_wakeup -e ktl \
		-o m.dat -- "$app" -w 4 -r 40 2>m.sum || { cat m.sum; return 1; }
	cat m.sum
	report m.dat >m.txt
	"${checker[@]}" order <m.txt || return 1
	grep -q ' sched_wakeup: ' m.txt || { echo "no sched_wakeup"; return 1; }
	# trace-cmd's own plugin form for sched_switch, with plugins on
	"${run[@]}" trace-cmd report m.dat 2>/dev/null | grep -q 'sched_switch: .* ==> ' &&
		no_instance
}
check "trace-cmd report: kernel and program events in time order in one file" t_both

t_ids() {
	local kid pid

	# The program's ids were moved above the kernel's; both decode.
	kid=$(trace-cmd dump --events m.dat 2>/dev/null | awk '/^name: sched_switch$/ { getline; print $2; exit }')
	pid=$(trace-cmd dump --events m.dat 2>/dev/null | awk '/^name: ktl_mark$/ { getline; print $2; exit }')
	echo "sched_switch id $kid (the kernel's: $(sed -n 's/^ID: //p' "$ktr/events/sched/sched_switch/format")), ktl_mark id $pid"
	[ "$kid" = "$(sed -n 's/^ID: //p' "$ktr/events/sched/sched_switch/format")" ] &&
		[ -n "$pid" ] && [ "$pid" -gt "$kid" ] && [ "$pid" -ge 1000 ]
}
check "event ids: the kernel's kept, the program's moved above them" t_ids

t_stat() {
	local s

	s=$("${run[@]}" trace-cmd report --stat m.dat 2>&1) || { echo "$s"; return 1; }
	echo "$s" | grep -q '^kernel overrun: ' && echo "$s" | grep -q '^overrun: ' &&
		echo "$s" | grep -q '^kernel dropped events: ' &&
		grep -q '^        kernel: [0-9]* events, [0-9]* lost (' m.sum &&
		grep -q '^  CPU0: [0-9]* events, [0-9]* lost (' m.sum
}
check "trace-cmd report --stat and the summary count both kinds' losses" t_stat

t_lost() {
	# A kernel buffer of 8 KiB a CPU, a program that waits for nothing:
	# the kernel's losses are counted and shown.
	"${run[@]}" "$ustrace" record --kernel-buffer-size 8 -K sched -K raw_syscalls \
		-e ktl -o l.dat -- "$app" -w 4 -r 40 2>l.sum || { cat l.sum; return 1; }
	cat l.sum
	awk '/kernel: / { lost += $4 } END { exit !(lost > 0) }' l.sum &&
		"${run[@]}" trace-cmd report l.dat 2>/dev/null | grep -q 'EVENTS DROPPED\]'
}
check "kernel events lost (a small kernel buffer): counted, and shown where they were" t_lost

# --- the proof
t_slices() {
	for i in $(seq "$runs"); do
		"${run[@]}" "$ustrace" record -K sched:sched_switch -e ktl -o p.dat -- \
			"$app" -w 6 -r 60 2>p.sum || { cat p.sum; return 1; }
		report p.dat | "${checker[@]}" slices || { cat p.sum; return 1; }
	done
	no_instance
}
check "every program event lies in its own thread's run slice on its CPU ($runs runs)" t_slices

t_sync() {
	"${run[@]}" "$ustrace" record -K task:task_rename -e ktl -o s.dat -- "$app" -S 2000 \
		2>s.sum || { cat s.sum; return 1; }
	report s.dat | "${checker[@]}" sync
}
check "clocks: the kernel's event of a prctl() falls between the program's around it" t_sync

t_mono() {
	"${run[@]}" "$ustrace" record -C mono -K task:task_rename -e ktl -o mono.dat -- \
		"$app" -S 500 2>mono.sum || { cat mono.sum; return 1; }
	grep -q 'clock mono,' mono.sum && report mono.dat | "${checker[@]}" sync
}
check "-C mono: both sides on CLOCK_MONOTONIC, in order" t_mono

t_kernel_only() {
	"${run[@]}" "$ustrace" record --kernel-only -K sched:sched_switch -o k.dat -- sleep 0.2 \
		2>k.sum || { cat k.sum; return 1; }
	cat k.sum
	report k.dat | grep -q ' sched_switch: ' && ! grep -q 'wrote no file' k.sum
}
check "--kernel-only: the kernel's events alone, the command untouched" t_kernel_only

t_two_files() {
	mkdir tfs || return 1
	cat >two.sh <<EOS
USTRACE_TRACEFS=$tmp/tfs "$app" -w 6 -r 100000 & app=\$!
for i in \$(seq 100); do [ -e $tmp/tfs/trace_clock ] && break; sleep 0.1; done
"$ustrace" trace-cmd -m $tmp/tfs record -C mono -e ktl -o $tmp/u.dat sleep 1 >$tmp/tc.log 2>&1
kill \$app; wait \$app
EOS
	"${run[@]}" "$ustrace" record --kernel-only -K sched:sched_switch -C mono -o k.dat \
		-- bash two.sh 2>two.sum || { cat two.sum; return 1; }
	grep -q 'clock mono,' two.sum && [ -s u.dat ] || { cat two.sum tc.log; return 1; }
	"${run[@]}" trace-cmd report -t -N -i k.dat -i u.dat 2>/dev/null >two.txt
	grep -q '^u.dat: .* ktl_mark: ' two.txt && grep -q '^k.dat: .* sched_switch: ' two.txt &&
		"${checker[@]}" slices --stale-cpu <two.txt
}
check "two files, -C mono: ustrace trace-cmd record's and the kernel's line up (trace-cmd report -i -i)" t_two_files

# --- errors and ends
t_bad() {
	local rc

	"${run[@]}" "$ustrace" record -K sched:no_such_event -e ktl -o b.dat -- "$app" -r 1 2>b.err
	rc=$?
	cat b.err
	[ $rc = 1 ] && grep -q 'kernel event sched:no_such_event: the kernel has no such event' b.err &&
		! [ -e b.dat ] || return 1
	"${run[@]}" "$ustrace" record -C counter -K sched -e ktl -o b.dat -- "$app" -r 1 2>b.err
	[ $? = 2 ] && grep -q 'with -K: the kernel cannot read that clock' b.err && no_instance
}
check "a kernel event that does not exist, a clock the kernel cannot read: errors, nothing left" t_bad

t_ends() {
	local pid

	# The program killed by SIGKILL: the kernel's events alone.
	"${run[@]}" "$ustrace" record -K sched:sched_switch -e ktl -o e1.dat -- \
		sh -c 'kill -KILL $$' 2>e1.err
	grep -q 'wrote no file' e1.err && report e1.dat | grep -q sched_switch && no_instance || return 1
	# SIGTERM and SIGINT to the recorder: the program is told, the file
	# written, the instance removed.
	for sig in TERM INT; do
		"$ustrace" record -K sched:sched_switch -e ktl -o e2.dat -- "$app" -w 2 -r 100000 2>e2.err &
		pid=$!
		for i in $(seq 100); do
			[ -d "$ktr/instances/ustrace-kernel-$pid" ] && pgrep -P $pid >/dev/null && break
			sleep 0.1
		done
		[ -d "$ktr/instances/ustrace-kernel-$pid" ] || { echo "no instance while recording"; return 1; }
		sleep 1
		kill -$sig $pid
		wait $pid
		grep -q "killed by SIG$sig" e2.err && report e2.dat | grep -q ktl_mark &&
			no_instance || { cat e2.err; return 1; }
	done
}
check "ends: the program's SIGKILL, our SIGTERM and SIGINT: the file, no instance left" t_ends

t_nobody() {
	local d=$tmp/nobody rc

	id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null || { echo "no nobody"; return 0; }
	mkdir "$d" && chown nobody "$d" && chmod 755 "$tmp" || return 1
	as=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)
	(cd "$d" && "${as[@]}" "${run[@]}" "$ustrace" record -K sched:sched_switch -e ktl \
		-o n.dat -- "$app" -r 2) 2>n.err
	rc=$?
	cat n.err
	[ $rc = 1 ] && grep -q 'recording kernel events needs root, or write access to the kernel.s tracefs' n.err &&
		grep -q "$ktr" n.err && ! [ -e "$d/n.dat" ] || return 1
	(cd "$d" && "${as[@]}" "${run[@]}" "$ustrace" record -e ktl -o n.dat -- "$app" -r 2) 2>n2.err ||
		{ cat n2.err; return 1; }
	trace-cmd report "$d/n.dat" 2>/dev/null | grep -q ktl_mark
}
check "as user nobody: -K says what is missing; without -K it records as before" t_nobody

tap_end
