#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# guest-fds.sh - the recorder and the program's descriptors (issue 16).  TAP.
#
#   The recording keeps no descriptor in the program's table: a program
#   that closes 3-1023 and opens 12 files of its own finds them intact and
#   its recording whole, one that closes them and opens nothing too; the
#   same where a seccomp filter refuses the recorder a descriptor table of
#   its own, and without close_range() (the table's copies of the
#   program's files are closed); a disk that fills is an error named at
#   the end; an output on another file system than the working directory
#   is written, and the working directory left as it was.

set -u

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/guest-lib.bash"

tap_begin guest-fds
need_trace_cmd

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

# The output on another file system than the working directory: the file
# is written next to the output (its temporary names too: a name of the
# working directory cannot be renamed across; it was, by a name the
# recorder built wrong) and the working directory is left as it was.
other_fs() {
	mkdir other && mount -t tmpfs -o size=64m ustrace-other other || return 1
	mkdir cwd-other && ls -A cwd-other >cwd-before
	(cd cwd-other && USTRACE_EVENTS=rec_test USTRACE_OUTPUT=../other/o.dat USTRACE_BUFFER_KB=128 \
		"${run[@]}" "$app" -n 20000 -w 2 -P 2000) 2>other.err
	local s=$?
	cp other/o.dat o.dat 2>/dev/null
	umount other
	cat other.err
	[ $s = 0 ] && [ ! -s other.err ] && [ "$(ls -A cwd-other)" = "$(cat cwd-before)" ] &&
		whole o.dat 2 19999
}
if [ "$(id -u)" = 0 ]; then
	check "the output on another file system: written, the working directory untouched" other_fs
else
	skip "the output on another file system: written, the working directory untouched" "mounting a tmpfs needs root"
fi

tap_end
