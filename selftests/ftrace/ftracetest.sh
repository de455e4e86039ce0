#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ftracetest.sh - what "make check" runs of ftracetest: every
# test.d/**/*.tc but trigger/inter-event/ (inter-event.sh), and the
# instance ones again inside instances/, against
# the tracefs that this build's samples/tracefs/tracefs-sample serves.
# TAP on stdout; "1..0 # SKIP" (exit 4) without FUSE.
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE and
# USTRACE_TEST_TIMEOUT set; the options of ftracetest pass through.

here=$(cd "$(dirname "$0")" && pwd)
# trigger/inter-event/ runs apart (inter-event.sh): each run has its own
# time (USTRACE_TEST_TIMEOUT).
cases=()
for a in "$@"; do
	case $a in
	*.tc|*/*)	exec "$here/ftracetest" "$@" ;;
	esac
done
while IFS= read -r t; do
	cases+=("$t")
done < <(find "$here/test.d" -name '*.tc' -not -path '*/inter-event/*' | LC_ALL=C sort)
exec "$here/ftracetest" "$@" "${cases[@]}"
