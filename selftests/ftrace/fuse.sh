#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 180
#
# fuse.sh - what "make check" runs of ftracetest's test.d/fuse/: the
# tracefs as a file system (blocking reads, poll, signals, O_TRUNC,
# permissions).  As ftracetest.sh, with a time of its own.

here=$(cd "$(dirname "$0")" && pwd)
exec "$here/ftracetest" "$@" "$here/test.d/fuse"
