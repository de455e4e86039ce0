#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 300
#
# kernelshark.sh - KernelShark (Debian's 2.2) on a file of ustrace record
# -K: one stream whose CPUs hold the kernel's sched_switch and the
# program's events, task plots for the program's threads.  TAP.
#
# Under Xvfb, as user nobody (selftests/lib/ks-shot.bash), with --pid for
# the program's threads:
#   - the sched plugin initialized (without the kernel's events it says it
#     "failed to initialize": checked on a file of the program alone)
#   - the task plots carry what only the sched plugin draws: its lime
#     wake-up and red preemption boxes (none on the program-alone file's
#     task plots); both colours are counted, as a slow variant's short
#     wake-ups leave few lime pixels (ThreadSanitizer: none, red boxes
#     drawn)
#   - the program's events are on them: the task plots are the program's
#     threads, whose only events in the file besides the kernel's are ours
#   - the two-file way: kernelshark -i k.dat -a u.dat loads both streams
# The screenshots are kept as selftests-output/<variant>/kernel/*.png.

set -u

. "$(dirname "$0")/../lib/tap.sh"
ustrace=$objtree/tools/tracing/ustrace
app=$objtree/selftests/kernel/ktl-app
shot=$srctree/selftests/lib/ks-shot.bash
outdir=$objtree/selftests-output/${USTRACE_VARIANT:-local}/kernel
run=(timeout -k 5 120)

tap_begin kernelshark

why=
[ "$(id -u)" = 0 ] || why="not root"
for c in trace-cmd kernelshark Xvfb xdotool import convert setpriv; do
	[ -z "$why" ] && ! command -v $c >/dev/null && why="no $c"
done
[ -z "$why" ] && ! id nobody >/dev/null 2>&1 && why="no user nobody"
[ -z "$why" ] && ! [ -d /sys/kernel/tracing/events/sched/sched_switch ] &&
	! mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && why="no kernel tracefs"
if [ -n "$why" ]; then
	echo "1..0 # SKIP $why"
	exit 0
fi
chmod 755 "$tmp"
as=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)

# The program's thread ids in FILE, comma-separated.
tids() {
	trace-cmd report "$1" 2>/dev/null |
		awk '/ ktl_mark: / { n = split($1, a, "-"); print a[n] }' | sort -un | paste -sd,
}

# ks NAME ARGS...: KernelShark in directory NAME (nobody's), screenshot kept.
ks() {
	local name=$1

	shift
	"${run[@]}" "${as[@]}" "$shot" "$tmp/$name" "$@" || return 1
	sed 's/^/  /' "$tmp/$name/ks.log"
	mkdir -p "$outdir" && cp "$tmp/$name/out.png" "$outdir/kernelshark-$name.png" &&
		echo "screenshot: $outdir/kernelshark-$name.png"
}

boxes() { convert "$1" -format %c histogram:info:- | awk '/#00FF00|#FF0000/ { n += $1 } END { print n + 0 }'; }

newdir() { mkdir "$tmp/$1" && chown nobody "$tmp/$1"; }

t_record() {
	newdir one && newdir alone || return 1
	"${run[@]}" "$ustrace" record -K sched:sched_switch -K sched:sched_wakeup -e ktl \
		-o one/trace.dat -- "$app" -w 4 -r 20 2>one.sum || { cat one.sum; return 1; }
	"${run[@]}" "$ustrace" record -e ktl -o alone/trace.dat -- "$app" -w 4 -r 20 \
		2>alone.sum || { cat alone.sum; return 1; }
	chmod 644 one/trace.dat alone/trace.dat
	[ -n "$(tids one/trace.dat)" ] && [ -n "$(tids alone/trace.dat)" ]
}
check "two files: the program with the kernel's sched events, and alone" t_record

t_one() {
	local n

	ks one "$tmp/one/trace.dat" --pid "$(tids one/trace.dat)" || return 1
	grep -q 'Loading.*one/trace.dat' "$tmp/one/ks.log" || return 1
	! grep -q 'sched_events" failed to initialize' "$tmp/one/ks.log" || return 1
	n=$(boxes "$tmp/one/out.png")
	echo "lime and red pixels (the sched plugin's boxes on the task plots): $n"
	# A few boxes are enough (a slow variant's run has fewer wake-ups).
	[ "$n" -ge 10 ]
}
check "KernelShark: the sched plugin initialized; the program's task plots carry its boxes" t_one

t_alone() {
	local n

	ks alone "$tmp/alone/trace.dat" --pid "$(tids alone/trace.dat)" || return 1
	grep -q 'sched_events" failed to initialize' "$tmp/alone/ks.log" || return 1
	n=$(boxes "$tmp/alone/out.png")
	echo "lime and red pixels: $n"
	[ "$n" -lt 10 ]
}
check "control: the program alone, the sched plugin fails and no boxes are drawn" t_alone

t_two() {
	local d=$tmp/two

	newdir two || return 1
	cat >"$d/run.sh" <<EOS
USTRACE_TRACEFS=$d/tfs "$app" -w 4 -r 100000 & app=\$!
for i in \$(seq 100); do [ -e $d/tfs/trace_clock ] && break; sleep 0.1; done
"$ustrace" trace-cmd -m $d/tfs record -C mono -e ktl -o $d/u.dat sleep 1 >$d/tc.log 2>&1
kill \$app; wait \$app
EOS
	mkdir "$d/tfs" || return 1
	"${run[@]}" "$ustrace" record --kernel-only -K sched:sched_switch -C mono -o "$d/k.dat" \
		-- bash "$d/run.sh" 2>two.sum || { cat two.sum; return 1; }
	chmod 644 "$d/k.dat" "$d/u.dat"
	ks two -i "$d/k.dat" -a "$d/u.dat" --pid "$(tids "$d/u.dat")" || return 1
	grep -q 'Loading.*k.dat' "$d/ks.log" && grep -q 'Loading.*u.dat' "$d/ks.log" &&
		! grep -q 'sched_events" failed to initialize on stream .*k.dat' "$d/ks.log"
}
check "two files: kernelshark -i k.dat -a u.dat loads both streams" t_two

tap_end
