#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The stock trace-cmd on the collector's tree (system-mode.rst): `ustrace
# trace-cmd record -e SYSTEM PROGRAM` with no -m uses the collector, and
# trace-cmd starts the program itself; its events are recorded from the
# first one, with the program's thread names, also when it has ended
# before trace-cmd reads the last pages; two programs' events on one CPU
# come in time order, event by event.
. "$(dirname "$0")/../lib/tap.sh"
tap_begin coll-trace-cmd

. "$srctree/selftests/collector/coll-lib.bash"
app=$objtree/samples/tracefs/tracefs-sample
command -v trace-cmd >/dev/null || skip_all "no trace-cmd"
[ -x "$app" ] || skip_all "not built"
: "${TOOL_TIMEOUT:=120}"

check "the collector serves" start_daemon

# trace-cmd refuses -e of a system it cannot find: no program that
# defines sample_trace ever ran, and ustrace trace-cmd tells the collector
# of the events of ./app from its ELF object (a cold start).
check "the collector does not know sample_trace yet" bash -c "! grep -q '^sample_trace:' '$T/available_events'"
timeout "$TOOL_TIMEOUT" "$ustrace" trace-cmd record -e sample_trace -o "$tmp/one.dat" \
	"$app" -n 3 -p 100000 >"$tmp/rec.out" 2>&1
same "ustrace trace-cmd record without -m records through the collector" 0 "$?"
check "the events stay known" grep -q '^sample_trace:foo_bar$' "$T/available_events"
# ustrace list with no object: the collector's events, as trace-cmd list
# lists a kernel's; with no collector, a usage error.
check "ustrace list -e with no object lists the collector's events" \
	bash -c "'$ustrace' list -e | grep -qx 'sample_trace:foo_bar'"
check "and -F their formats" bash -c "'$ustrace' list -F | grep -q '^name: foo_bar\$'"
USTRACE_RUNDIR=$tmp/none "$ustrace" list -e >/dev/null 2>"$tmp/list.err"
same "with no collector it says how it is used (exit status 2)" 2 "$?"
trace-cmd report "$tmp/one.dat" >"$tmp/one.txt" 2>"$tmp/one.err"
same "every round the program fired is there" 3 "$(grep -c ' foo_bar: ' "$tmp/one.txt")"
check "from its first event" bash -c "grep ' foo_bar: ' '$tmp/one.txt' | head -1 | grep -q 'foo hello 0 '"
check "with the program's thread names" bash -c "grep ' foo_bar: ' '$tmp/one.txt' | grep -qv '<...>'"
same "nothing unnamed" 0 "$(grep -c UNKNOWN "$tmp/one.txt")"

timeout "$TOOL_TIMEOUT" "$ustrace" trace-cmd record -e sample_trace:foo_bar -o "$tmp/two.dat" \
	sh -c "'$app' -n 2 -p 100000 & '$app' -n 2 -p 100000 & wait" >/dev/null 2>&1
trace-cmd report "$tmp/two.dat" >"$tmp/two.txt" 2>/dev/null
same "two programs trace-cmd started through a shell: both, 2 rounds each" 4 \
	"$(grep -c ' foo_bar: ' "$tmp/two.txt")"
same "with two pids" 2 "$(grep ' foo_bar: ' "$tmp/two.txt" | awk '{print $1}' | sort -u | wc -l)"
check "only the event asked for" bash -c "! grep -q ' foo_array: ' '$tmp/two.txt'"
check "in time order" bash -c "grep ' foo_bar: ' '$tmp/two.txt' | awk '{ t = \$3 + 0; if (t < last) exit 1; last = t }'"

# Two different programs, each numbering its own events from 21
# (sample_trace:foo_bar and scribble:scribble_tick are both 21 in their
# programs): the collector's tree gives one id to each format (format,
# id files), and the pages of trace_pipe_raw carry those ids, so that
# trace-cmd names every event right (system-mode.rst, "Event ids").
scr=$objtree/selftests/collector/coll-scribble
"$scr" >"$tmp/scr.out" 2>&1 &
s=$!
wait_for 10 grep -q ready "$tmp/scr.out"
kill -TERM "$s"; wait "$s"
same "two programs' events of one id in themselves have two ids in the tree" 2 \
	"$(cat "$T/events/sample_trace/foo_bar/id" "$T/events/scribble/scribble_tick/id" | sort -u | wc -l)"
same "the format files say the same ids" \
	"$(cat "$T/events/sample_trace/foo_bar/id" "$T/events/scribble/scribble_tick/id")" \
	"$(grep -h '^ID: ' "$T/events/sample_trace/foo_bar/format" "$T/events/scribble/scribble_tick/format" | cut -c5-)"
timeout "$TOOL_TIMEOUT" "$ustrace" trace-cmd record -e sample_trace -e scribble -o "$tmp/mix.dat" \
	sh -c "'$app' -n 3 -p 100000 & '$scr' >'$tmp/scr2.out' & s=\$!; sleep 1; kill -TERM \$s; wait" \
	>/dev/null 2>&1
trace-cmd report "$tmp/mix.dat" >"$tmp/mix.txt" 2>/dev/null
same "both programs' events, each named right" "3 1000 0" \
	"$(grep -c ' foo_bar: *foo hello' "$tmp/mix.txt") $(grep -c ' scribble_tick: *n=' "$tmp/mix.txt") $(grep -c UNKNOWN "$tmp/mix.txt")"

# Two programs on one CPU, their events interleaved: the CPU's stream is
# in time order event by event, as the kernel's one buffer is (a page of
# one program that runs past the other's next event is given in two).
if command -v taskset >/dev/null; then
	timeout "$TOOL_TIMEOUT" "$ustrace" trace-cmd record -e sample_trace:foo_bar -o "$tmp/cpu0.dat" \
		sh -c "taskset -c 0 '$app' -n 60 -p 1000 & taskset -c 0 '$app' -n 60 -p 1000 & wait" \
		>/dev/null 2>&1
	trace-cmd report "$tmp/cpu0.dat" >"$tmp/cpu0.txt" 2>/dev/null
	same "two programs pinned to CPU 0: all 120 events" 120 "$(grep -c ' foo_bar: ' "$tmp/cpu0.txt")"
	check "interleaved (the pids alternate at least twice)" bash -c \
		"grep ' foo_bar: ' '$tmp/cpu0.txt' | awk '{ if (\$1 != last) n++; last = \$1 } END { exit !(n >= 3) }'"
	check "and in time order, event by event" bash -c \
		"grep ' foo_bar: ' '$tmp/cpu0.txt' | awk '{ t = \$3 + 0; if (t < last) exit 1; last = t }'"
else
	skip "two programs pinned to CPU 0, in time order" "no taskset"
fi
# ustrace record with a collector running: one file of both programs of
# its command (it records its processes itself, system-mode.rst).
timeout "$TOOL_TIMEOUT" "$ustrace" record -e sample_trace:foo_bar -o "$tmp/rec.dat" -- \
	sh -c "'$app' -n 5 -p 1000 & '$app' -n 5 -p 1000 & wait" >"$tmp/rec.out" 2>&1
same "ustrace record beside the collector: both programs' events in one file" 10 \
	"$(trace-cmd report "$tmp/rec.dat" 2>/dev/null | grep -c ' foo_bar: ')"
check "and it names both processes" grep -q '2 processes:' "$tmp/rec.out"

# -P PID: the process's events, of every thread of it (its workers fire,
# none has its id), and none of another program running meanwhile (the
# same program under another name, so that its lines say whose they are).
cp "$app" "$tmp/other-app"
"$app" -n 80 -p 50000 >/dev/null 2>&1 &
pa=$!
"$tmp/other-app" -n 80 -p 50000 >/dev/null 2>&1 &
pb=$!
# Both registered before the recording starts (a sanitizer's build on a
# loaded machine takes long to start them: a short recording may
# otherwise see nothing of them).  They fire for 4 s, and the recording
# takes 3 (one CI run's 1.5 s saw no event of them, once in about 150).
wait_for 15 grep -q "process $pa (" "$tmp/daemon.log"
wait_for 15 grep -q "process $pb (" "$tmp/daemon.log"
timeout -s INT 3 "$ustrace" trace-cmd record -P "$pa" -e sample_trace:foo_bar -o "$tmp/p.dat" \
	>"$tmp/p.out" 2>&1
wait "$pa" "$pb"
trace-cmd report "$tmp/p.dat" 2>/dev/null | grep ' foo_bar: ' >"$tmp/p.txt"
check "-P PID records that program's events" grep -q '^ *tracefs-sample-[0-9]* ' "$tmp/p.txt"
check "none of the other program's" bash -c '! grep -q "other-app" "$1"' _ "$tmp/p.txt"
check "of threads other than its main one" bash -c '! grep -q "^ *[^ ]*-$1 " "$2"' _ "$pa" "$tmp/p.txt"
if [ "$tap_failed" != 0 ]; then
	diag "$tmp/p.out"
	echo "# -P $pa, the other $pb; what trace-cmd report shows:"
	trace-cmd report "$tmp/p.dat" 2>&1 | head -n 12 | sed 's/^/#   /'
fi

# KernelShark on the recording of two programs (mix.dat above), as a
# user other than root (selftests/lib/ks-shot.bash): it loads, says no
# error, draws.
ks_missing=
for c in kernelshark Xvfb xdotool import identify setpriv; do
	command -v "$c" >/dev/null || ks_missing="$ks_missing $c"
done
if [ -n "$ks_missing" ] || [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	skip "KernelShark opens the recording of two programs" \
		"${ks_missing:+no$ks_missing}${ks_missing:-not root, or no user nobody}"
	skip "KernelShark's log: the file loaded, no error" "as above"
else
	ks=$tmp/ks
	mkdir "$ks" && chmod 711 "$tmp" && cp "$tmp/mix.dat" "$ks/trace.dat" &&
		cp "$srctree/selftests/lib/ks-shot.bash" "$ks/shot" &&
		chmod 644 "$ks/trace.dat" && chmod 755 "$ks/shot" && chown nobody "$ks"
	check "KernelShark opens the recording of two programs (as nobody, under Xvfb)" \
		timeout -k 5 90 setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
		"$ks/shot" "$ks"
	check "KernelShark's log: the file loaded, no error" bash -c \
		"grep -q 'Loading.*trace.dat' '$ks/ks.log' &&
		 ! grep -iv 'failed to initialize\|XDG_RUNTIME_DIR' '$ks/ks.log' |
			grep -qi 'error\|fail\|warn\|cannot\|unable'"
	[ "$tap_failed" = 0 ] || diag "$ks/ks.log"
fi

tap_end
