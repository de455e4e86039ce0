#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# check-docs.sh - the man pages and the library agree.
#
# Runs scripts/check-docs.py (TAP): one result per symbol that
# libustrace.so exports (named in some man page's NAME or SYNOPSIS), per man
# page (renders without warnings, has the usual sections, every name in NAME
# has a page or a .so link), per man page example (compiles, runs, prints
# what the page shows), and per .rst file (parses without docutils warnings,
# skipped without docutils).
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE and the
# build's USTRACE_CC, USTRACE_CFLAGS and USTRACE_LDFLAGS set.

here=$(cd "$(dirname "$0")" && pwd)
srctree=${USTRACE_SRCTREE:-$(cd "$here/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}

exec "${PYTHON:-python3}" "$srctree/scripts/check-docs.py" \
	--srctree "$srctree" --objtree "$objtree" all
