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
. "$(dirname "$0")/../lib/tap.sh"

if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	skip_all "no FUSE (/dev/fuse, fusermount3)"
fi
chrt=
chrt -f 10 true 2>/dev/null && chrt="chrt -f 10"

tap_begin latency
out=$tmp/out
# fail WHAT DIAGNOSTICS: a failed result, with what it got.
fail() {
	not_ok "$1"
	printf '%s\n' "$2" | diag - 1000
}

LATENCY_CHRT=$chrt timeout 60 "$srctree/samples/hist/latency.sh" "$objtree" >"$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
if [ "$rc" -eq 0 ] && grep -q '^# event histogram' "$out"; then
	ok "the walk-through runs: the triggers set, a batch served, the hist read"
else
	fail "the walk-through runs: the triggers set, a batch served, the hist read" "exit status $rc"
fi

# The distribution: exactly these buckets, in this order.
want='{ lat: ~ 0-3999 } hitcount:          4
{ lat: ~ 4000-7999 } hitcount:          3
{ lat: ~ 8000-11999 } hitcount:          2
{ lat: ~ 20000-23999 } hitcount:          1'
got=$(grep '^{ lat: ~ ' "$out")
if [ -z "$chrt" ]; then
	skip "the latency distribution in 4 ms buckets" "no chrt -f here: sleeps are not exact"
elif [ "$got" = "$want" ]; then
	ok "the latency distribution in 4 ms buckets"
else
	fail "the latency distribution in 4 ms buckets" "got:
$got
want:
$want"
fi

total=$(awk '/sort=lat.buckets=4000/ { on = 1 } on && /Hits:/ { print $2; exit }' "$out")
if [ "$total" = 10 ] && grep -q '^    Entries: ' "$out"; then
	ok "every request of the batch is counted once (Hits: 10)"
else
	fail "every request of the batch is counted once (Hits: 10)" "Hits: $total"
fi

# onmax(): the slowest request, with the fields of its hit.
if grep -qE '^	max: +2[0-9]{4}  id: +10  path: /slow +$' "$out"; then
	ok "onmax().save(): the slowest request's latency, id and path"
else
	fail "onmax().save(): the slowest request's latency, id and path" "$(grep -A1 'common_pid: ' "$out")"
fi

if grep -qE ': req_latency: lat=[0-9]+ id=1 path=/index.html$' "$out"; then
	ok "the synthetic event in the trace: lat, id, and the path of the start event"
else
	fail "the synthetic event in the trace: lat, id, and the path of the start event" \
		"$(grep req_latency "$out")"
fi
tap_end
