#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# instructions.sh - the regression guard of an enabled event's cost in
# "make check": instructions per event of selftests/bench/event_bench (the
# event of "make bench": three ints and a 16-character string, recorded
# into the global buffer), counted by callgrind, must stay at or below
# USTRACE_EVENT_IR_MAX (240; 230 on the tree this ceiling was set on, see
# Documentation/trace/events.rst, "What an event costs").  A count is the
# same on every machine; no time is asserted.  The default variant only:
# the others build or patch the site differently (and sanitizers do not
# run under valgrind).  TAP on stdout.

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/callgrind.sh"

max=${USTRACE_EVENT_IR_MAX:-240}
bench=$objtree/selftests/bench/event_bench

case ${USTRACE_VARIANT:-local} in
local|default) ;;
*) skip_all "instruction counts are the default build's" ;;
esac
cg_usable || skip_all "$cg_why"
[ -x "$bench" ] || { echo "Bail out! $bench is not built (make selftests)"; exit 1; }
tap_begin instructions

t_enabled() {
	local n

	n=$(cg_per_event ours "$bench" 50000 "$tmp")
	[ "$n" != - ] || { cat "$tmp/ours.why"; return 1; }
	echo "instructions per enabled event: $n (at most $max)"
	[ "$n" -le "$max" ]
}
check "an enabled event costs at most $max instructions (callgrind)" t_enabled
tap_end
