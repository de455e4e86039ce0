#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 120
#
# wakeups.sh - the collector's blocked readers sleep, they do not poll the
# programs (system-mode.rst, "Waiting"): a "cat trace_pipe" of the
# collector's tree, blocked on an idle registered program, costs that
# program (nearly) no context switch in 2 s (it was asked every 20 ms
# before: about 100); the program's next event, 4 s after its first, still
# reaches the cat, and so does a trace_marker write to the tree, in less
# than 100 ms.
#
# Then a "cat per_cpu/cpu0/trace_pipe_raw" of the tree (what trace-cmd
# and the recorder read through the collector's mount), which reads the
# kept buffers: with buffer_percent 10 of a 64 KiB (16-page) buffer (a
# whole page, the watermark's least), an idle program and the collector
# switch at most 4 times in 2 s, and so with buffer_percent 0; a burst of
# 2000 events (8 pages) reaches the cat in < 100 ms (the first page of
# it); 10 events are held back by the watermark (0.5 s) until
# buffer_percent 0, tracing_on 0, or the program's exit; with
# buffer_percent 0 the next 10 come at once.
#
# Then cats of an instance's trace_pipe and another's
# per_cpu/cpu0/trace_pipe_raw, and of trace_pipe after "echo 1 >
# snapshot" swapped the program's buffer (buffers whose memfd the
# collector did not keep): the same 0 switches in 2 s (they polled before:
# about 500 and 700), 10 events in < 100 ms; a cat of
# per_cpu/cpu0/trace_pipe_raw then (the kept pages are the snapshot's)
# sleeps too, and once swapped back, gets 10 events in < 100 ms (the
# trace_pipe cat ended first: it would consume them, and the raw cat get
# them or not by who read first).  Last, two programs' bursts
# and exits under a raw cat: none of their events lost.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/wakeups.bash"
tap_begin collector-wakeups

. "$srctree/selftests/collector/coll-lib.bash"
app=$objtree/samples/tracefs/tracefs-sample
[ -x "$app" ] || skip_all "not built"

check "the daemon starts" start_daemon
echo 1 >"$T/events/enable"
# Round 0 at once, round 1 four seconds later, then it ends.
"$app" -n 2 -p 4000000 >"$tmp/app.out" 2>&1 &
pid=$!
# A trace_pipe opened reads the programs registered then.
wait_for 10 grep -q "process $pid (tracefs-sample) registered" "$tmp/daemon.log"
cat "$T/trace_pipe" >"$tmp/pipe" &
cat_pid=$!
check "the blocked cat gets the program's first round" \
	wait_for 3 grep -q 'foo hello 0 ' "$tmp/pipe"
skip_tid=$(tsan_tid "$app" "$pid")
sleep 0.3
before=$(switches "$pid" "$skip_tid")
sleep 2
after=$(switches "$pid" "$skip_tid")
check "the idle program's threads switch at most 4 times in 2 s ($((after - before)))" \
	test $((after - before)) -le 4
echo "threads: $(ls /proc/"$pid"/task | wc -l)${skip_tid:+ (not counted: $skip_tid, of ThreadSanitizer)}, switches before $before, after $after" | diag -
check "its next round, 4 s after the first, reaches the cat" \
	wait_for 6 grep -q 'foo hello 1 ' "$tmp/pipe"
wait "$pid"

# The time from the end of the marker's write(2) to the cat's output.
got=$(marker_ms "$T/trace_marker" "$tmp/pipe")
check "a trace_marker write reaches the blocked cat in < 100 ms (${got:-no line in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
kill "$cat_pid" 2>/dev/null
wait "$cat_pid" 2>/dev/null

# per_cpu/cpu0/trace_pipe_raw: the program on CPU 0, its events there.
scribble=$objtree/selftests/collector/coll-scribble
echo 64 >"$T/buffer_size_kb"
echo 10 >"$T/buffer_percent"
taskset -c 0 "$scribble" -u 2000 >"$tmp/scribble.out" 2>&1 &
spid=$!
wait_for 10 grep -q "process $spid (coll-scribble) registered" "$tmp/daemon.log"
wait_for 10 grep -q ready "$tmp/scribble.out"
cat "$T/per_cpu/cpu0/trace_pipe_raw" >"$tmp/raw" &
raw_pid=$!
check "the blocked raw cat gets the program's first 1000 events" wait_for 5 test -s "$tmp/raw"
sskip=$(tsan_tid "$scribble" "$spid")
dskip=$(tsan_tid "$ustrace" "$dpid")
# raw_events FILE: the data events in FILE's pages (the kernel's page format).
raw_events() {
	"${PYTHON:-python3}" - "$1" <<'PY'
import struct, sys
data, n = open(sys.argv[1], "rb").read(), 0
for page in range(0, len(data) - 4095, 4096):
    at, end = page + 16, page + 16 + (struct.unpack_from("<Q", data, page + 8)[0] & 0xfffff)
    while at + 4 <= end:
        head = struct.unpack_from("<I", data, at)[0]
        kind = head & 31
        if kind == 29:		# padding: the rest of the page when its delta is 0
            if head >> 5 == 0:
                break
            at += 4 + struct.unpack_from("<I", data, at + 4)[0]
        elif kind in (30, 31):	# time extend, time stamp
            at += 8
        else:
            at += 4 + (kind * 4 if kind else struct.unpack_from("<I", data, at + 4)[0])
            n += 1
print(n)
PY
}
# idle_check WHAT: the program's, the collector's and the cat's switches in 2 s.
idle_check() {
	local b1 b2 b3 a1 a2 a3

	sleep 0.3
	b1=$(switches "$spid" "$sskip") b2=$(switches "$dpid" "$dskip") b3=$(switches "$raw_pid")
	sleep 2
	a1=$(switches "$spid" "$sskip") a2=$(switches "$dpid" "$dskip") a3=$(switches "$raw_pid")
	check "$1: the idle program switches at most 4 times in 2 s ($((a1 - b1)))" \
		test $((a1 - b1)) -le 4
	check "$1: the collector switches at most 4 times in 2 s ($((a2 - b2)))" \
		test $((a2 - b2)) -le 4
	check "$1: the cat switches at most 4 times in 2 s ($((a3 - b3)))" \
		test $((a3 - b3)) -le 4
}
idle_check "raw, buffer_percent 10"
got=$(grow_ms "$tmp/raw" 1000 kill "$spid" USR1)
check "a burst of 8 pages reaches the raw cat in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
wait_for 3 test "$(grep -c burst "$tmp/scribble.out")" -eq 1
sleep 0.3	# the cat read all there is
got=$(grow_ms "$tmp/raw" 500 kill "$spid" USR2)
check "10 events are held back by buffer_percent 10 (${got:-none in 500} ms)" test -z "$got"
got=$(grow_ms "$tmp/raw" 1000 write "$T/buffer_percent" 0)
check "buffer_percent 0 lets them go in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
idle_check "raw, buffer_percent 0"
got=$(grow_ms "$tmp/raw" 1000 kill "$spid" USR2)
check "with buffer_percent 0, 10 events reach the raw cat in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
echo 10 >"$T/buffer_percent"
sleep 0.3
got=$(grow_ms "$tmp/raw" 500 kill "$spid" USR2)
check "buffer_percent 10 again: 10 events held back (${got:-none in 500} ms)" test -z "$got"
got=$(grow_ms "$tmp/raw" 1000 write "$T/tracing_on" 0)
check "tracing_on 0 lets them go in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
echo 1 >"$T/tracing_on"
sleep 0.3
got=$(grow_ms "$tmp/raw" 500 kill "$spid" USR2)
check "tracing on again: 10 events held back (${got:-none in 500} ms)" test -z "$got"
got=$(grow_ms "$tmp/raw" 3000 kill "$spid" TERM)
check "the program's exit lets them go (${got:-nothing in 3 s} ms)" test -n "$got"
wait "$spid"
kill "$raw_pid" 2>/dev/null
wait "$raw_pid" 2>/dev/null
got=$(raw_events "$tmp/raw")
check "none lost: the cat's pages hold 1000 + 2000 + 4 x 10 events ($got)" test "$got" = 3040

# An instance's trace_pipe and trace_pipe_raw: the program arms its
# instance's buffer and hands the collector its memfd, whose word the
# collector watches too.
mkdir "$T/instances/w1" "$T/instances/w2"
echo 1 >"$T/instances/w1/events/enable"
echo 1 >"$T/instances/w2/events/enable"
taskset -c 0 "$scribble" -u 100 >"$tmp/scribble2.out" 2>&1 &
spid=$!
wait_for 10 grep -q "process $spid (coll-scribble) registered" "$tmp/daemon.log"
wait_for 10 grep -q ready "$tmp/scribble2.out"
cat "$T/instances/w1/trace_pipe" >"$tmp/ipipe" &
ipipe_pid=$!
cat "$T/instances/w2/per_cpu/cpu0/trace_pipe_raw" >"$tmp/iraw" &
raw_pid=$!
check "an instance's blocked trace_pipe cat gets the program's events" \
	wait_for 5 grep -q 'n=999$' "$tmp/ipipe"
check "an instance's blocked trace_pipe_raw cat gets them" wait_for 5 test -s "$tmp/iraw"
sskip=$(tsan_tid "$scribble" "$spid")
idle_check "instances"
got=$(grow_ms "$tmp/ipipe" 1000 kill "$spid" USR2)
check "10 events reach the instance's trace_pipe cat in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
sleep 0.3
got=$(grow_ms "$tmp/iraw" 1000 kill "$spid" USR2)
check "10 events reach the instance's trace_pipe_raw cat in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
kill "$ipipe_pid" "$raw_pid" 2>/dev/null
wait "$ipipe_pid" "$raw_pid" 2>/dev/null

# The top level's trace_pipe once a snapshot swapped the program's
# buffer: not the one the collector keeps, watched as an instance's.
# And the top level's per_cpu/cpu0/trace_pipe_raw, which reads the
# pages the collector kept, the snapshot's now: nothing to wait for but a
# swap back, which wakes it.
echo 0 >"$T/buffer_percent"
echo 1 >"$T/snapshot"
cat "$T/trace_pipe" >"$tmp/spipe" &
raw_pid=$!
cat "$T/per_cpu/cpu0/trace_pipe_raw" >"$tmp/sraw" &
sraw_pid=$!
sleep 0.5
idle_check "trace_pipe and trace_pipe_raw after a snapshot swap"
got=$(grow_ms "$tmp/spipe" 1000 kill "$spid" USR2)
check "10 events reach it in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
check "the swap took the program's first events away (into its snapshot)" \
	eval '! grep -q "n=999\$" "$tmp/spipe"'
# The trace_pipe cat goes before the swap back: once the kept pages are
# the program's again, it consumes them through the program's own reader,
# which takes the page being written as soon as it holds an event, and a
# page the program's reader took is not given to trace_pipe_raw (as two
# readers of a kernel buffer share its events).  With both cats there,
# the raw cat got the 10 events only when the collector read them
# between their commit and the trace_pipe read; under TSan it came too
# late in 2 runs of 15 and got nothing.  ($raw_pid is that cat, as
# idle_check counts it.)
kill "$raw_pid" 2>/dev/null
wait "$raw_pid" 2>/dev/null
echo 1 >"$T/snapshot"	# back
sleep 0.3
got=$(grow_ms "$tmp/sraw" 1000 kill "$spid" USR2)
check "swapped back, 10 events reach the raw cat in < 100 ms (${got:-nothing in 1 s} ms)" \
	test -n "$got" -a "${got:-1000}" -lt 100
kill "$spid" "$sraw_pid" 2>/dev/null
wait "$spid" "$sraw_pid" 2>/dev/null

# Two programs bursting into CPU 0 while a raw cat with buffer_percent 0
# sleeps and wakes between their bursts, then both exit: every event
# they fired is in its pages (the bell the cat rang hid the data on a
# page being written from it: the last events of a program could be
# lost, 1 run in 4 of this).
echo 0 >"$T/snapshot"
echo 0 >"$T/buffer_percent"
: >"$T/trace"	# the programs gone: their records dropped
echo 256 >"$T/buffer_size_kb"	# room for 7 bursts: a slow cat loses none
taskset -c 0 "$scribble" -u 2000 >"$tmp/a.out" 2>&1 &
apid=$!
taskset -c 0 "$scribble" -u 2000 >"$tmp/b.out" 2>&1 &
bpid=$!
wait_for 10 grep -q "process $apid (coll-scribble) registered" "$tmp/daemon.log"
wait_for 10 grep -q "process $bpid (coll-scribble) registered" "$tmp/daemon.log"
wait_for 10 grep -q ready "$tmp/a.out"
wait_for 10 grep -q ready "$tmp/b.out"
cat "$T/per_cpu/cpu0/trace_pipe_raw" >"$tmp/raw2" &
raw_pid=$!
sleep 0.5
for _ in $(seq 10); do
	kill -USR1 "$apid" "$bpid"
	sleep 0.2
done
for _ in 1 2 3 4 5 6 7; do
	kill -USR2 "$apid" "$bpid"
	sleep 0.05
done
sleep 0.5
kill "$apid" "$bpid"
wait "$apid" "$bpid"
sleep 0.5
kill "$raw_pid" 2>/dev/null
wait "$raw_pid" 2>/dev/null
fired=$((2000 + $(awk '/^burst/ { n += $2 } END { print n + 0 }' "$tmp/a.out" "$tmp/b.out")))
got=$(raw_events "$tmp/raw2")
check "two programs' bursts and exits: all $fired events in the raw cat's pages ($got)" \
	test "$got" = "$fired"
tap_end
