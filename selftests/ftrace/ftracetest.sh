#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 600
#
# ftracetest.sh - what "make check" runs of ftracetest: every
# test.d/**/*.tc but those of test.d/fuse/ and test.d/mounts/ (fuse.sh
# and mounts.sh run them, each with a time of its own) and of
# trigger/inter-event/ (inter-event.sh), and the instance ones again
# inside instances/, against the tracefs that this build's
# samples/tracefs/tracefs-sample serves.  TAP on stdout; "1..0 # SKIP"
# (exit 4) without FUSE.
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE and
# USTRACE_TEST_TIMEOUT set; the options of ftracetest pass through, and
# tests named on the command line run instead.

here=$(cd "$(dirname "$0")" && pwd)
for a; do
	case $a in *.tc|*/*) exec "$here/ftracetest" "$@" ;; esac
done
cases=()
while IFS= read -r t; do
	cases+=("$t")
done < <(find "$here/test.d" -name '*.tc' -not -path '*/inter-event/*' \
	-not -path "$here/test.d/fuse/*" -not -path "$here/test.d/mounts/*" | LC_ALL=C sort)
exec "$here/ftracetest" "$@" "${cases[@]}"
