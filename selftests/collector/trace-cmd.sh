#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The stock trace-cmd on the collector's tree (system-mode.rst): `ustrace
# trace-cmd record -e SYSTEM PROGRAM` with no -m uses the collector, and
# trace-cmd starts the program itself; its events are recorded from the
# first one, with the program's thread names, also when it has ended
# before trace-cmd reads the last pages.
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
tap_end
