#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# limits.sh - what does not work with the stock trace-cmd on a ustrace
# program, as Documentation/trace/interop.rst ("What does not work") says
# it goes: the function tracers and their options fail, saying so; -l and
# -n are ignored; a filter the mount refuses leaves the event unfiltered
# while trace-cmd says so, one it takes is applied; -R stacktrace records
# stacks whose addresses report prints bare; -T records no stack; -F
# records nothing; show --ftrace_filter and --ftrace_pid fail; the version
# 6 writer complains and its file reads; buffer_percent does not hold a
# reader back.  Each check fails when the behaviour changes, so that the
# page is corrected with it.  TAP on stdout.

. "$(dirname "$0")/functions"

require_fuse
require_trace_cmd
plan 12

cpu=$(last_cpu)
start_sample "$cpu" -- -p 5000
cd "$WORK" || exit 1

# fails_saying TEXT ARGS...: "trace-cmd ARGS" fails and says TEXT.
fails_saying() {
	local text=$1

	shift
	if tc "$@" >"$WORK/out" 2>&1; then
		echo "trace-cmd $* succeeded"
		return 1
	fi
	grep -qF -- "$text" "$WORK/out" ||
		{ echo "trace-cmd $*: no \"$text\" in: $(tail -n 3 "$WORK/out")"; return 1; }
}

# count FILE EVENT: how many EVENT lines trace-cmd report prints of FILE.
count() {
	timeout -k 5 "$TOOL_TIMEOUT" trace-cmd report "$1" 2>/dev/null | grep -c " $2: "
}

t_tracers() {
	fails_saying "Plugin 'function' does not exist" record -p function -o f.dat sleep 0.1 &&
		fails_saying "Plugin 'function_graph' does not exist" \
			record -p function_graph -o f.dat sleep 0.1
}
check "record -p function, -p function_graph: the plugin does not exist" t_tracers

t_graph_opts() {
	fails_saying "set_graph_function does not exist" \
		record -e sample_trace -g foo -o g.dat sleep 0.1 &&
		fails_saying "could not write to max_graph_depth" \
			record -e sample_trace --max-graph-depth 3 -o g.dat sleep 0.1 &&
		fails_saying "available_filter_functions" list -f
}
check "record -g, --max-graph-depth and list -f fail, naming the missing file" t_graph_opts

t_func_filters() {
	local o n

	for o in -l -n; do
		tc record -e sample_trace:foo_bar "$o" foo -o "l$o.dat" sleep 0.3 >"l$o.out" 2>&1 ||
			{ echo "record $o failed: $(tail -n 3 "l$o.out")"; return 1; }
		n=$(count "l$o.dat" foo_bar)
		[ "$n" -gt 0 ] || { echo "record $o: no foo_bar recorded"; return 1; }
	done
}
check "record -e EVENT -l FUNC, -n FUNC: recorded, the function filter ignored" t_func_filters

t_filter_taken() {
	tc record -e sample_trace:foo_bar -f 'bar > 1000000' -o ft.dat sleep 0.3 >ft.out 2>&1 ||
		{ echo "record failed: $(tail -n 3 ft.out)"; return 1; }
	! grep -q 'Failed filter' ft.out || { echo "trace-cmd: $(grep 'Failed filter' ft.out)"; return 1; }
	[ "$(count ft.dat foo_bar)" = 0 ] || { echo "$(count ft.dat foo_bar) foo_bar recorded"; return 1; }
	# The same recording unfiltered has them: the filter did it.
	tc record -e sample_trace:foo_bar -o fu.dat sleep 0.3 >fu.out 2>&1 &&
		[ "$(count fu.dat foo_bar)" -gt 0 ] || { echo "unfiltered: no foo_bar"; return 1; }
}
check "record -f a filter the mount takes: applied" t_filter_taken

t_filter_refused() {
	tc record -e sample_trace:foo_bar -f 'nosuch == 1' -o fr.dat sleep 0.3 >fr.out 2>&1 ||
		{ echo "record failed (it records unfiltered): $(tail -n 3 fr.out)"; return 1; }
	grep -q 'Failed filter of .*/events/sample_trace/foo_bar/filter' fr.out ||
		{ echo "trace-cmd did not say: $(head -n 5 fr.out)"; return 1; }
	grep -q 'Field not found' "$MNT/error_log" || { echo "error_log: $(cat "$MNT/error_log")"; return 1; }
	[ "$(count fr.dat foo_bar)" -gt 0 ] || { echo "no foo_bar recorded"; return 1; }
}
check "record -f a filter the mount refuses: trace-cmd says so, the event recorded unfiltered" t_filter_refused

t_trigger() {
	tc record -e sample_trace:foo_bar -R stacktrace -o r.dat sleep 0.3 >r.out 2>&1 ||
		{ echo "record failed: $(tail -n 3 r.out)"; return 1; }
	timeout -k 5 "$TOOL_TIMEOUT" trace-cmd report r.dat >r.txt 2>/dev/null
	grep -q ' kernel_stack: ' r.txt || { echo "no kernel_stack records"; return 1; }
	grep -A1 ' kernel_stack: ' r.txt | grep -qE '^=> [0-9a-f]+$' ||
		{ echo "stack lines: $(grep -A2 -m 1 ' kernel_stack: ' r.txt)"; return 1; }
}
check "record -R stacktrace: kernel_stack records, the addresses bare" t_trigger

t_stack_option() {
	tc record -e sample_trace:foo_bar -T -o t.dat sleep 0.3 >t.out 2>&1 ||
		{ echo "record -T failed: $(tail -n 3 t.out)"; return 1; }
	[ "$(count t.dat foo_bar)" -gt 0 ] || { echo "no foo_bar recorded"; return 1; }
	[ "$(count t.dat kernel_stack)" = 0 ] || { echo "$(count t.dat kernel_stack) stacks recorded"; return 1; }
}
check "record -T: accepted, no stack recorded" t_stack_option

t_follow() {
	tc record -e sample_trace -F -o F.dat sleep 0.3 >F.out 2>&1 ||
		{ echo "record -F failed: $(tail -n 3 F.out)"; return 1; }
	[ "$(count F.dat foo_bar)" = 0 ] || { echo "$(count F.dat foo_bar) foo_bar recorded"; return 1; }
}
check "record -F follows the command: nothing of the program recorded" t_follow

t_show() {
	fails_saying "set_ftrace_filter" show --ftrace_filter &&
		fails_saying "set_ftrace_pid" show --ftrace_pid &&
		{ tc show -s >s.out 2>&1 || { echo "show -s failed: $(tail -n 3 s.out)"; return 1; }; }
}
check "show --ftrace_filter, --ftrace_pid fail; show -s works" t_show

t_v6() {
	tc record -e sample_trace:foo_bar --file-version 6 -o v6.dat sleep 0.3 >v6.out 2>&1 ||
		{ echo "record failed: $(tail -n 3 v6.out)"; return 1; }
	grep -q 'Cannot find description for buffer' v6.out ||
		{ echo "no complaint: $(head -n 3 v6.out)"; return 1; }
	report_events v6.dat v6.ev || return 1
	[ -s v6.ev ] || { echo "no events in v6.dat"; return 1; }
}
check "record --file-version 6: trace-cmd complains, the file reads" t_v6

# With buffer_percent at 100 the kernel holds a trace_pipe_raw reader until
# the buffer is full (minutes here); the mount hands it the first page.
t_buffer_percent() {
	local start ms

	echo 100 >"$MNT/buffer_percent" || return 1
	[ "$(cat "$MNT/buffer_percent")" = 100 ] || { echo "buffer_percent: $(cat "$MNT/buffer_percent")"; return 1; }
	echo 1 >"$MNT/tracing_on" && echo 1 >"$MNT/events/sample_trace/foo_bar/enable" || return 1
	start=$(date +%s%N)
	timeout 10 dd if="$MNT/per_cpu/cpu$cpu/trace_pipe_raw" of=raw bs=4096 count=1 2>/dev/null
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	echo 0 >"$MNT/events/sample_trace/foo_bar/enable"
	echo 50 >"$MNT/buffer_percent"
	[ "$(stat -c %s raw)" = 4096 ] || { echo "no page read in ${ms} ms"; return 1; }
	echo "a page after ${ms} ms" >&2
}
check "buffer_percent 100 is kept; a trace_pipe_raw reader gets a page long before the buffer fills" t_buffer_percent

check_stop "the program exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"
finish
