#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# sample.sh - samples/trace_events/trace-events-sample records the sample
# events and prints them: check what it prints.  TAP on stdout.

set -u

. "$(dirname "$0")/../lib/tap.sh"
prog=$objtree/samples/trace_events/trace-events-sample

tap_begin te-sample
if ! out=$("$prog" 2>&1); then
	not_ok "the sample runs"
	printf '%s\n' "$out" | diag - 10
	tap_end
	exit 1
fi
ok "the sample runs"

# 11 rounds of 6 events, plus the 2 conditional ones twice each, plus the
# header line.
same "it prints every recorded event" 71 "$(printf '%s\n' "$out" | wc -l)"
same "TRACE_EVENT_FN's reg ran" "foo_bar_with_fn registered: 1" \
	"$(printf '%s\n' "$out" | head -n 1)"
same "a record of every field kind" \
	"foo hello 3 BIT1|BIT2 three a string a s 00000000,00000005" \
	"$(printf '%s\n' "$out" | sed -n 's/^[0-9]*: \(foo hello 3 .*\)/\1/p')"
tap_end
