#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# instructions.sh - the regression guard of what a filter costs the
# thread that fires the event, in "make check": instructions counted by
# callgrind in selftests/bench/filter_bench --callgrind (the event of
# "make bench", three predicates: c == 42 && a >= 0 && comm == "..."):
#   - event_filter_match() alone on a record that passes: at most
#     USTRACE_FILTER_IR_MAX (105; 98 on the tree this ceiling was set on,
#     187 before the filter ran pre-decoded steps)
#   - a filtered event that passes, minus the same event unfiltered: at
#     most USTRACE_FILTER_PASS_IR_MAX (150; 141 on the tree this ceiling
#     was set on, where the commits' likely ways make no call and the
#     reserve tests for in place first; 166 before that, 330 before the
#     steps, the inline filter in the commit and the inline copy)
# A difference, so that the tracepoint's and the ring buffer's own costs,
# in both, do not move it.  No time is asserted.  The default variant
# only (sanitizers do not run under valgrind).  TAP on stdout.

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/callgrind.sh"

max_match=${USTRACE_FILTER_IR_MAX:-105}
max_pass=${USTRACE_FILTER_PASS_IR_MAX:-150}
bench=$objtree/selftests/bench/filter_bench
n=20000

case ${USTRACE_VARIANT:-local} in
local|default) ;;
*) skip_all "instruction counts are the default build's" ;;
esac
cg_usable || skip_all "$cg_why"
[ -x "$bench" ] || { echo "Bail out! $bench is not built (make selftests)"; exit 1; }
tap_begin filter-instructions

profiled=no
cg_profile filter "$bench" --callgrind "$n" && profiled=yes

# t_diff LOOP BASE MAX WHAT: Ir(LOOP) - Ir(BASE) per event, at most MAX.
t_diff() {
	local got

	[ "$profiled" = yes ] || { cat "$tmp/filter.why"; return 1; }
	got=$(cg_diff "$tmp/filter.incl" "$1" "$2" "$n")
	[ "$got" != - ] || { echo "$1/$2 not in the profile"; return 1; }
	echo "$4: $got (at most $3)"
	[ "$got" -le "$3" ]
}
check "event_filter_match() of three predicates costs at most $max_match instructions" \
	t_diff loop_match loop_empty "$max_match" "instructions per event_filter_match()"
check "a filtered event that passes costs at most $max_pass instructions more than unfiltered" \
	t_diff loop_pass loop_unfiltered "$max_pass" \
	"instructions of a filtered event that passes, over unfiltered"
tap_end
