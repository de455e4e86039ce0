#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# guest.sh - the recorder is a guest of the program it records (issue 16).
# TAP.
#
#   - descriptors: the recording keeps none; a program that closes 3-1023
#     and opens 12 files of its own finds them intact and its recording
#     whole, one that closes them and opens nothing too; the same where a
#     seccomp filter refuses the recorder a descriptor table of its own,
#     and without close_range() (the table's copies of the program's
#     files are closed); a disk that fills is an error named at the end
#   - privileges: a set-user-ID root copy of a program, run by nobody,
#     ignores USTRACE_EVENTS, USTRACE_OUTPUT and USTRACE_TRACEFS (one line
#     on stderr); a root-only file named by USTRACE_OUTPUT is untouched
#   - symbolic links: links planted at OUTPUT.part and OUTPUT (by another
#     user, in a sticky directory) are replaced, never followed
#   - ends: SIGHUP, SIGQUIT, SIGPIPE (app | head), SIGUSR1, SIGALRM,
#     SIGXCPU, SIGTERM, SIGINT, _exit(), _Exit(), quick_exit() and exec
#     leave the whole file, with the exit status (and core dump) the
#     program would have had; a failed exec, vfork(), fork() and
#     posix_spawn() children leave the parent recording; a handler of the
#     program, installed before or after the recording started, still runs;
#     an ignored signal stays ignored; ustrace record with the quit key

set -u

. "$(dirname "$0")/../lib/tap.sh"
app=$objtree/selftests/record/rec-app
sample=$objtree/samples/trace_events/trace-events-sample
ustrace=$objtree/tools/tracing/ustrace
compare=("${PYTHON:-python3}" "$srctree/selftests/record/compare.py")
run=(timeout -k 5 60)

tap_begin guest

if ! command -v trace-cmd >/dev/null; then
	not_ok "trace-cmd is installed (scripts/install-deps.sh installs it)"
	tap_end
	exit 1
fi

# readable FILE: trace-cmd report (into FILE.rep) and dump read it, no warning.
readable() {
	local f=$1

	"${run[@]}" trace-cmd report "$f" >"$f.rep" 2>"$f.err" &&
		"${run[@]}" trace-cmd dump --all "$f" >/dev/null 2>>"$f.err" &&
		! [ -s "$f.err" ] || { cat "$f.err" 2>/dev/null; false; }
}

# whole FILE WORKERS LAST: readable, each worker's rec_seq 0..LAST.
whole() {
	local f=$1 w

	readable "$f" || return 1
	for ((w = 0; w < $2; w++)); do
		"${compare[@]}" seq "$f.rep" "$w" 0 "$3" || return 1
	done
}

# ------------------------------------------------------------------
# Descriptors

# What a daemon does: 2 x 20000 events through 256 KiB per CPU (the
# spill is in use before and after the close), 12 files of its own.  In
# a directory of its own (a subshell: the test goes on where it was).
daemon() (
	local mode=$1 f=daemon-$1.dat bad=0 i

	mkdir "d-$mode" && cd "d-$mode" || return 1
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=$f USTRACE_BUFFER_KB=256 USTRACE_MODE=$mode \
		"${run[@]}" "$app" -n 20000 -w 2 -P 2000 -c 12 || return 1
	for i in $(seq 0 11); do
		if [ "$(cat "victim-$i")" != VICTIM-DATA ] || [ "$(wc -c <"victim-$i")" != 12 ]; then
			echo "victim-$i: $(wc -c <"victim-$i") bytes: $(head -c 40 "victim-$i" | od -c | head -n 2)"
			bad=1
		fi
	done
	[ $bad = 0 ] || return 1
	if [ "$mode" = overwrite ]; then
		readable "$f" && [ "$(grep -c rec_seq "$f.rep")" -gt 0 ]
	else
		whole "$f" 2 39999
	fi
)
check "closes fds 3-1023, opens 12 files: they keep VICTIM-DATA, the file is whole" \
	daemon producer-consumer
check "the same in overwrite mode" daemon overwrite

closes_all() {
	local f=closed.dat

	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=$f USTRACE_BUFFER_KB=256 \
		"${run[@]}" "$app" -n 20000 -w 2 -P 2000 -c 0 2>closed.err || return 1
	cat closed.err
	! [ -s closed.err ] && whole "$f" 2 39999
}
check "closes fds 3-1023 and opens nothing: the recording is whole" closes_all

no_fds() {
	"$app" -n 10 -w 1 -F -x >fds.plain || return 1
	USTRACE_EVENTS=all USTRACE_OUTPUT=fds.dat "$app" -n 10 -w 1 -F >fds.rec || return 1
	USTRACE_EVENTS=all USTRACE_FLIGHT_RECORDER=1 USTRACE_OUTPUT=fds2.dat \
		"$app" -n 10 -w 1 -F >fds.fr || return 1
	cat fds.rec
	diff fds.plain fds.rec && diff fds.plain fds.fr
}
check "a recording program has no descriptor more than without" no_fds

# A sandbox refuses the thread a descriptor table of its own: its spills
# are then open only while the file is written, and nothing is moved
# meanwhile (what did not fit in the buffer is counted as dropped).
sandboxed() (
	mkdir sandbox && cd sandbox || return 1
	"${run[@]}" "$app" -o z.dat -e rec_test -b 256 -n 20000 -w 2 -P 2000 -c 12 -Z || return 1
	for i in $(seq 0 11); do
		[ "$(cat "victim-$i")" = VICTIM-DATA ] || { echo "victim-$i: $(od -c "victim-$i" | head -n 2)"; return 1; }
	done
	readable z.dat && [ "$(grep -c rec_seq z.dat.rep)" -gt 0 ] &&
		trace-cmd report --stat z.dat | grep -Eq '^dropped events: [1-9]'
)
check "no table of its own (seccomp): the daemon's files intact, the drops counted" sandboxed

# Before Linux 5.9 (no close_range()): unshare() and a close of each
# descriptor the table copied; none of the program's stays open there.
old_kernel() (
	local pid i t found

	mkdir old && cd old || return 1
	echo kept >program-file
	exec 7<program-file
	"$app" -o y.dat -e rec_test -b 256 -n 20000 -w 2 -P 2000 -c 12 -Y -W >y.out &
	pid=$!
	exec 7<&-
	for ((i = 0; i < 400; i++)); do
		grep -q ready y.out 2>/dev/null && break
		sleep 0.05
	done
	for t in /proc/$pid/task/*; do
		# The recorder's: its spills, unnamed files of the output's directory.
		ls -l "$t/fd" | grep -q -- "-> $tmp/old/#[0-9]" || continue
		found=1
		if ls -l "$t/fd" | grep -q 'program-file\|victim'; then
			echo "the recorder's table holds the program's files:"; ls -l "$t/fd"
			kill -TERM "$pid"; return 1
		fi
	done
	kill -TERM "$pid"
	wait "$pid"
	[ $? = 143 ] && [ "${found:-0}" = 1 ] || return 1
	for i in $(seq 0 11); do
		[ "$(cat "victim-$i")" = VICTIM-DATA ] || { echo "victim-$i: $(od -c "victim-$i" | head -n 2)"; return 1; }
	done
	whole y.dat 2 39999
)
check "no close_range(): the recorder's table holds none of the program's files" old_kernel

# A disk that fills: the spills stop taking pages, the program runs on,
# and the end names the error.
full_disk() {
	mkdir full && mount -t tmpfs -o size=512k ustrace-full full || return 1
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=full/f.dat USTRACE_BUFFER_KB=128 \
		"${run[@]}" "$app" -n 100000 -w 2 -P 1000 2>full.err
	local s=$?
	umount full
	cat full.err
	[ $s = 0 ] && grep -q '^ustrace: record: .*full/f.dat: No space left on device$' full.err
}
if [ "$(id -u)" = 0 ]; then
	check "a full disk: the program runs to its end, the error is named" full_disk
else
	skip "a full disk: the program runs to its end, the error is named" "mounting a tmpfs needs root"
fi

# ------------------------------------------------------------------
# Privileges

suid_setup() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	id nobody >/dev/null 2>&1 || { echo "no user nobody"; return 1; }
	command -v setpriv >/dev/null || { echo "no setpriv (util-linux)"; return 1; }
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- test -x "$sample" ||
		{ echo "nobody cannot run programs in $objtree"; return 1; }
	# The set-user-ID copy where only root and nobody's group reach it.
	chmod 0711 "$tmp" && mkdir -m 0711 suid && mkdir -m 0710 suid/bin && mkdir -m 0700 suid/root &&
		chgrp "$(id -g nobody)" suid/bin && cp "$sample" suid/bin/app &&
		chown "root:$(id -g nobody)" suid/bin/app && chmod 4750 suid/bin/app &&
		echo ROOT-ONLY >suid/root/target.conf && chmod 600 suid/root/target.conf
}

# as_nobody VARIABLES...: the set-user-ID copy, run by nobody.
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
		env "$@" "${run[@]}" "$tmp/suid/bin/app" >suid.out 2>suid.err
}

suid_record() {
	as_nobody USTRACE_EVENTS=sample_trace USTRACE_OUTPUT="$tmp/suid/root/target.conf"
	local s=$?
	cat suid.err
	[ $s = 0 ] || return 1
	[ "$(cat suid/root/target.conf)" = ROOT-ONLY ] && [ "$(ls suid/root)" = target.conf ] &&
		[ "$(grep -c '^ustrace: ' suid.err)" = 1 ] &&
		grep -qx 'ustrace: USTRACE_EVENTS ignored: the program runs set-user-ID or set-group-ID' \
			suid.err
}

suid_tracefs() {
	mkdir -m 0777 mnt
	as_nobody USTRACE_TRACEFS="$tmp/mnt"
	local s=$?
	cat suid.err
	[ $s = 0 ] || return 1
	! grep -q " $tmp/mnt " /proc/self/mounts && [ -z "$(ls mnt)" ] &&
		grep -qx 'ustrace: USTRACE_TRACEFS ignored: the program runs set-user-ID or set-group-ID' \
			suid.err
}

if why=$(suid_setup 2>&1); then
	check "set-user-ID root, run by nobody: USTRACE_OUTPUT does not touch a root-only file" \
		suid_record
	check "set-user-ID root, run by nobody: USTRACE_TRACEFS serves nothing" suid_tracefs
else
	skip "set-user-ID root, run by nobody: USTRACE_OUTPUT does not touch a root-only file" "$why"
	skip "set-user-ID root, run by nobody: USTRACE_TRACEFS serves nothing" "$why"
fi

# ------------------------------------------------------------------
# Symbolic links

planted() {
	echo PRECIOUS >precious && chmod 600 precious
	ln -s "$tmp/precious" sl.dat.part && ln -s "$tmp/precious" sl.dat || return 1
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=sl.dat "${run[@]}" "$app" -n 10 -w 1 || return 1
	[ "$(cat precious)" = PRECIOUS ] && [ -f sl.dat ] && ! [ -L sl.dat ] &&
		[ -L sl.dat.part ] && whole sl.dat 1 9
}
check "links planted at OUTPUT.part and OUTPUT are replaced, not followed" planted

# The issue's case: root records into a sticky, world-writable directory
# where another user planted the link; fs.protected_symlinks would stop
# the open there, so it is off for the test (and put back).
sticky() {
	local saved

	saved=$(cat /proc/sys/fs/protected_symlinks) || return 1
	if [ "$saved" != 0 ]; then
		echo 0 >/proc/sys/fs/protected_symlinks || return 1
		trap 'echo '"$saved"' >/proc/sys/fs/protected_symlinks; rm -rf "$tmp"' EXIT
	fi
	mkdir -m 1777 shared && echo ROOT-ONLY >root-only && chmod 600 root-only &&
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
			ln -s "$tmp/root-only" shared/trace.dat.part || return 1
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=shared/trace.dat "${run[@]}" "$app" -n 10 -w 1
	local s=$?
	[ "$saved" = 0 ] || { echo "$saved" >/proc/sys/fs/protected_symlinks; trap 'rm -rf "$tmp"' EXIT; }
	[ $s = 0 ] && [ "$(cat root-only)" = ROOT-ONLY ] && whole shared/trace.dat 1 9
}
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	skip "root, a sticky directory, a link of another user: not followed" "needs root and nobody"
elif ! [ -w /proc/sys/fs/protected_symlinks ]; then
	skip "root, a sticky directory, a link of another user: not followed" \
		"fs.protected_symlinks cannot be set here"
else
	check "root, a sticky directory, a link of another user: not followed" sticky
fi

# ------------------------------------------------------------------
# Ends

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
