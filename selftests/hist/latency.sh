#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# latency.sh - the latency sample's walk-through (samples/hist/latency.sh)
# as a user runs it, and what it shows checked: the requests' latency
# distribution in 4 ms buckets (four of 2 ms, three of 6, two of 10, one
# of 22), the slowest request's id and path saved by onmax(), the
# synthetic events in the trace.  The sample runs with a real-time
# priority (chrt), so that a busy machine does not add milliseconds to
# its sleeps; without chrt the buckets are not checked.  TAP on stdout.

set -u
here=$(cd "$(dirname "$0")" && pwd)
srctree=${USTRACE_SRCTREE:-$(cd "$here/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}
out=$(mktemp "${TMPDIR:-/tmp}/latency-test.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT

if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	echo "1..0 # SKIP no FUSE (/dev/fuse, fusermount3)"
	exit 4
fi
chrt=
chrt -f 10 true 2>/dev/null && chrt="chrt -f 10"

echo "TAP version 13"
echo "1..5"
n=0 failed=0
result() {	# result OK|FAIL|SKIP DESC [WHY]
	n=$((n + 1))
	case $1 in
	OK)	echo "ok $n - $2" ;;
	SKIP)	echo "ok $n - $2 # SKIP $3" ;;
	*)	echo "not ok $n - $2"; failed=$((failed + 1))
		printf '%s\n' "${3:-}" | sed 's/^/#   /' ;;
	esac
}

LATENCY_CHRT=$chrt timeout 60 "$srctree/samples/hist/latency.sh" "$objtree" >"$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
if [ "$rc" -eq 0 ] && grep -q '^# event histogram' "$out"; then
	result OK "the walk-through runs: the triggers set, a batch served, the hist read"
else
	result FAIL "the walk-through runs: the triggers set, a batch served, the hist read" "exit status $rc"
fi

# The distribution: exactly these buckets, in this order.
want='{ lat: ~ 0-3999 } hitcount:          4
{ lat: ~ 4000-7999 } hitcount:          3
{ lat: ~ 8000-11999 } hitcount:          2
{ lat: ~ 20000-23999 } hitcount:          1'
got=$(grep '^{ lat: ~ ' "$out")
if [ -z "$chrt" ]; then
	result SKIP "the latency distribution in 4 ms buckets" "no chrt -f here: sleeps are not exact"
elif [ "$got" = "$want" ]; then
	result OK "the latency distribution in 4 ms buckets"
else
	result FAIL "the latency distribution in 4 ms buckets" "got:
$got
want:
$want"
fi

total=$(awk '/sort=lat.buckets=4000/ { on = 1 } on && /Hits:/ { print $2; exit }' "$out")
if [ "$total" = 10 ] && grep -q '^    Entries: ' "$out"; then
	result OK "every request of the batch is counted once (Hits: 10)"
else
	result FAIL "every request of the batch is counted once (Hits: 10)" "Hits: $total"
fi

# onmax(): the slowest request, with the fields of its hit.
if grep -qE '^	max: +2[0-9]{4}  id: +10  path: /slow +$' "$out"; then
	result OK "onmax().save(): the slowest request's latency, id and path"
else
	result FAIL "onmax().save(): the slowest request's latency, id and path" "$(grep -A1 'common_pid: ' "$out")"
fi

if grep -qE ': req_latency: lat=[0-9]+ id=1 path=/index.html$' "$out"; then
	result OK "the synthetic event in the trace: lat, id, and the path of the start event"
else
	result FAIL "the synthetic event in the trace: lat, id, and the path of the start event" \
		"$(grep req_latency "$out")"
fi
echo "# passed: $((n - failed)), failed: $failed"
[ "$failed" -eq 0 ]
