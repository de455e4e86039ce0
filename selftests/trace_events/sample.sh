#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# sample.sh - samples/trace_events/trace-events-sample records the sample
# events and prints them: check what it prints.  TAP on stdout.

set -u

here=$(cd "$(dirname "$0")" && pwd)
srctree=${USTRACE_SRCTREE:-$(cd "$here/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}
prog=$objtree/samples/trace_events/trace-events-sample

echo "TAP version 13"
echo "1..4"
if ! out=$("$prog" 2>&1); then
	echo "not ok 1 - the sample runs"
	printf '%s\n' "$out" | head -n 10 | sed 's/^/#   /'
	exit 1
fi
echo "ok 1 - the sample runs"

check() {	# NUM NAME WANT GOT
	if [ "$3" = "$4" ]; then
		echo "ok $1 - $2"
	else
		echo "not ok $1 - $2"
		echo "#   want: $3"
		echo "#   got:  $4"
	fi
}

# 11 rounds of 6 events, plus the 2 conditional ones twice each, plus the
# header line.
check 2 "it prints every recorded event" 71 "$(printf '%s\n' "$out" | wc -l)"
check 3 "TRACE_EVENT_FN's reg ran" "foo_bar_with_fn registered: 1" \
	"$(printf '%s\n' "$out" | head -n 1)"
check 4 "a record of every field kind" \
	"foo hello 3 BIT1|BIT2 three a string a s 00000000,00000005" \
	"$(printf '%s\n' "$out" | sed -n 's/^[0-9]*: \(foo hello 3 .*\)/\1/p')"
