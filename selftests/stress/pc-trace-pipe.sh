#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# pc-trace-pipe.sh - "make stress": a cat of trace_pipe against writers at
# full speed for a minute (PC_DURATION seconds), in producer/consumer
# mode, through the FUSE mount: the test case
# selftests/ftrace/test.d/buffer/pc-full-speed.tc, which "make check" runs
# for 3 seconds.
set -u
srctree=${USTRACE_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
export PC_DURATION=${PC_DURATION:-60}
export FTRACETEST_TIMEOUT=$((PC_DURATION + 60))
export USTRACE_TEST_TIMEOUT=$((PC_DURATION + 120))
exec "$srctree/selftests/ftrace/ftracetest" --no-instance \
	"$srctree/selftests/ftrace/test.d/buffer/pc-full-speed.tc"
