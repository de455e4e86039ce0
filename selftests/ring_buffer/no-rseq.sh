#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# no-rseq.sh - the ring buffer in processes where glibc registered no rseq
# (GLIBC_TUNABLES=glibc.pthread.rseq=0): the writers' fast path never
# applies, and every change of a tail is a cmpxchg16b
# (ring-buffer-design.rst, "Who changes the tail").  Runs rb-torture,
# rb-wake, rb-swap and rb-pinned so, after checking that the tunable took
# effect.  TAP on stdout.

. "$(dirname "$0")/../lib/tap.sh"

dir=$objtree/selftests/ring_buffer
for p in rb-torture rb-wake rb-swap rb-pinned; do
	[ -x "$dir/$p" ] || { echo "Bail out! $dir/$p is not built (make selftests)"; exit 1; }
done
export GLIBC_TUNABLES=glibc.pthread.rseq=0
case $("$dir/rb-pinned" --rseq) in
"rseq not registered") ;;
"rseq registered") skip_all "this glibc ignores glibc.pthread.rseq=0" ;;
*) skip_all "this C library does not say whether rseq is registered" ;;
esac
tap_begin no-rseq

# run PROG: PROG passes (exit 0; a skip, 4, is not a pass here).
run() {
	timeout -k 5 300 "$dir/$1"
}

for p in rb-torture rb-wake rb-swap rb-pinned; do
	check "$p without rseq" run "$p"
done
tap_end
