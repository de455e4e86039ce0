#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 240
#
# mounts.sh - what "make check" runs of ftracetest's test.d/mounts/: the
# life of a program's mount, with programs of the tests' own started,
# killed (alone, with their process group) and started at once on one
# directory.  As ftracetest.sh, with a time of its own: these start many
# programs, slow under the sanitizers.

here=$(cd "$(dirname "$0")" && pwd)
exec "$here/ftracetest" "$@" "$here/test.d/mounts"
