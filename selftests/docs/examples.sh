#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# examples.sh - the C examples of the documentation compile and do what the
# text says.
#
# 1. scripts/check-docs.py extracts every example marked in
#    Documentation/**/*.rst and README.md (see the marker syntax in its
#    help), builds it against this build's headers and libustrace.so with
#    -Werror, runs it when it has a main() and compares its output with the
#    output the document shows. One TAP line per example, and one per file
#    for "every C block is marked".
# 2. The README tutorial is built once more the way it tells the reader to:
#    "make install" into a staging directory, then
#    cc -o app app.c $(pkg-config --cflags --libs ustrace).
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE,
# USTRACE_CC, USTRACE_CFLAGS, USTRACE_LDFLAGS and USTRACE_MAKEARGS set;
# run by hand it uses an in-tree build and cc.

set -u

. "$(dirname "$0")/../lib/tap.sh"
cc=${USTRACE_CC:-cc}
ldflags=${USTRACE_LDFLAGS:-}
makeargs=${USTRACE_MAKEARGS:-O=$objtree}
python=${PYTHON:-python3}
export USTRACE_SRCTREE=$srctree USTRACE_OBJTREE=$objtree

tap_begin examples

# Part 1: renumber check-docs.py's results into this script's plan.
"$python" "$srctree/scripts/check-docs.py" examples >"$tmp/examples.tap" 2>&1
rc=$?
tap_include "$tmp/examples.tap"
if [ "$rc" -ne 0 ] && [ "$tap_failed" -eq 0 ]; then
	not_ok "check-docs.py examples exits 0 (exit status $rc)"
fi

# Part 2: the README tutorial, built against an installed copy.
readme=$srctree/README.md
app=$tmp/tutorial
if ! grep -q '^## Tutorial' "$readme" 2>/dev/null; then
	skip "README tutorial builds with pkg-config" "README.md has no Tutorial section"
elif ! "$python" "$srctree/scripts/check-docs.py" extract "$readme" tutorial "$app" \
		>"$tmp/extract.log" 2>&1; then
	not_ok "README tutorial: extract example \"tutorial\""
	diag_tail "$tmp/extract.log" 30
else
	root=$tmp/root
	pc() {
		PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
			pkg-config "$@" ustrace
	}
	unset MAKEFLAGS MAKELEVEL MFLAGS
	# makeargs, ldflags and pkg-config's output are lists of words, as in
	# the README's command line.
	# shellcheck disable=SC2046,SC2086
	if ! make -C "$srctree" $makeargs DESTDIR="$root" PREFIX=/usr install \
			>"$tmp/install.log" 2>&1; then
		not_ok "README tutorial: make install into a staging directory"
		diag_tail "$tmp/install.log" 30
	elif ! (cd "$app" && $cc $ldflags -o app app.c $(pc --cflags --libs)) \
			>"$tmp/cc.log" 2>&1; then
		not_ok "README tutorial: cc -o app app.c \$(pkg-config --cflags --libs ustrace)"
		diag_tail "$tmp/cc.log" 30
	else
		(cd "$app" && LD_LIBRARY_PATH=$root/usr/lib timeout 30 ./app) \
			>"$tmp/app.out" 2>"$tmp/app.err"
		rc=$?
		if [ "$rc" -eq 0 ] && cmp -s "$tmp/app.out" "$app/expected.stdout"; then
			ok "README tutorial: built with pkg-config against the installed tree, prints what the README shows"
		else
			not_ok "README tutorial: built with pkg-config against the installed tree, prints what the README shows"
			echo "#   exit status $rc; expected vs actual:"
			diff "$app/expected.stdout" "$tmp/app.out" | diag - 1000
			diag_tail "$tmp/app.err" 30
		fi
	fi
fi

tap_end
