#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# inter-event.sh - what "make check" runs of ftracetest's
# test.d/trigger/inter-event/: the kernel's inter-event hist trigger and
# synthetic event scripts, adapted to the events of
# samples/tracefs/tracefs-sample (and the instance ones again inside
# instances/).  TAP on stdout; "1..0 # SKIP" (exit 4) without FUSE.
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE and
# USTRACE_TEST_TIMEOUT set; the options of ftracetest pass through.

here=$(cd "$(dirname "$0")" && pwd)
exec "$here/ftracetest" "$here/test.d/trigger/inter-event" "$@"
