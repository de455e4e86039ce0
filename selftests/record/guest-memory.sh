#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# guest-memory.sh - the recorder in a program with little address space
# (issue 16).  TAP.
#
#   Under "ulimit -v 300000" a program records its events into a whole
#   file: a buffer takes the address space its pages need (2 MiB a CPU
#   for the default size), not the 256 MiB a CPU its largest size would
#   (ring-buffer-design.rst, "Address space"); so does one with a 20 MB
#   buffer a CPU.  The sanitizers reserve terabytes of shadow memory, so
#   their variants skip this.

set -u

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/guest-lib.bash"

tap_begin guest-memory
case ${USTRACE_VARIANT:-local} in
asan | tsan) skip_all "the $USTRACE_VARIANT variant's shadow memory does not fit in ulimit -v" ;;
esac
need_trace_cmd

# limited KB FILE ARGS...: rec-app ARGS, recording into FILE, under
# ulimit -v KB; with no ARGS the recording is the environment's
# (USTRACE_EVENTS, USTRACE_OUTPUT), else ARGS say it (-o, -e, -b).
limited() {
	local kb=$1 f=$2
	local -a envs=()

	shift 2
	[ $# -gt 0 ] || envs=(USTRACE_EVENTS=rec_test USTRACE_OUTPUT=$f)
	(ulimit -v "$kb" && exec env ${envs[@]+"${envs[@]}"} "${run[@]}" "$app" -w 2 -n 500 "$@") \
		>"$f.out" 2>"$f.err" || { echo "rec-app exited $?: $(head -n 3 "$f.err")"; return 1; }
	[ -s "$f.err" ] && { echo "it said: $(head -n 3 "$f.err")"; return 1; }
	whole "$f" 2 499
}

check "ulimit -v 300000: the default buffer, a whole file" limited 300000 small.dat
check "ulimit -v 300000: 20 MB a CPU, a whole file" \
	limited 300000 big.dat -o big.dat -e rec_test -b 20000

# What a program with its buffer takes (VmSize of /proc/PID/status):
# well under 300 MB, where it was 550 MB on 2 CPUs before.
vmsize() {
	# Not under timeout: $! is the program itself.
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=vm.dat "$app" -w 1 -n 10 -W >vm.out 2>vm.err &
	local pid=$! kb i

	for i in $(seq 100); do grep -q ready vm.out 2>/dev/null && break; sleep 0.05; done
	kb=$(awk '/^VmSize:/ { print $2 }' "/proc/$pid/status")
	kill -TERM "$pid"
	wait "$pid"
	echo "# VmSize of a recording program: $kb kB" >&2
	[ -n "$kb" ] && [ "$kb" -lt 200000 ] || { echo "VmSize $kb kB"; return 1; }
}
check "a recording program's address space is under 200 MB" vmsize

tap_end
