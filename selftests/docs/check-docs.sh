#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# check-docs.sh - the man pages and the library agree.
#
# Runs scripts/check-docs.py (TAP): one result per symbol that
# libustrace.so exports (named in some man page's NAME or SYNOPSIS), per man
# page (renders without warnings, has the usual sections, every name in NAME
# has a page or a .so link), per man page example (compiles, runs, prints
# what the page shows), per .rst file (parses without docutils warnings,
# skipped without docutils), and per page, .rst or man: every statement
# that something does not work names the test that shows it.
#
# That last check: a paragraph or list item saying that something is not
# supported, unsupported, not implemented, not available, not honoured or
# does not work (a ``literal`` in .rst, such as a quoted error message,
# does not count), and every list item of a section titled "What does not
# work", carries "(test: ``selftests/DIR/FILE``)" ("(test: selftests/...)"
# in a man page; "(tests: A, B)" for several), each an existing file; the
# check fails for one that names none or a file that does not exist.
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE and the
# build's USTRACE_CC, USTRACE_CFLAGS and USTRACE_LDFLAGS set.

here=$(cd "$(dirname "$0")" && pwd)
srctree=${USTRACE_SRCTREE:-$(cd "$here/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}

exec "${PYTHON:-python3}" "$srctree/scripts/check-docs.py" \
	--srctree "$srctree" --objtree "$objtree" all
