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

here=$(cd "$(dirname "$0")" && pwd)
srctree=${USTRACE_SRCTREE:-$(cd "$here/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}
cc=${USTRACE_CC:-cc}
ldflags=${USTRACE_LDFLAGS:-}
makeargs=${USTRACE_MAKEARGS:-O=$objtree}
python=${PYTHON:-python3}
export USTRACE_SRCTREE=$srctree USTRACE_OBJTREE=$objtree

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-examples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
ok()     { n=$((n + 1)); echo "ok $n - $1${2:+ # $2}"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
diag()   { tail -n "${2:-30}" "$1" | sed 's/^/#   /'; }

echo "TAP version 13"

# Part 1: renumber check-docs.py's results into this script's plan.
"$python" "$srctree/scripts/check-docs.py" examples >"$tmp/examples.tap" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "*)		n=$((n + 1)); echo "ok $n ${line#ok [0-9]* }" ;;
	"not ok "*)	n=$((n + 1)); fails=$((fails + 1))
			echo "not ok $n ${line#not ok [0-9]* }" ;;
	"#"*)		echo "$line" ;;
	"TAP version"*|1..*) ;;
	*)		echo "# $line" ;;
	esac
done <"$tmp/examples.tap"
if [ "$rc" -ne 0 ] && [ "$fails" -eq 0 ]; then
	not_ok "check-docs.py examples exits 0 (exit status $rc)"
fi

# Part 2: the README tutorial, built against an installed copy.
readme=$srctree/README.md
app=$tmp/tutorial
if ! grep -q '^## Tutorial' "$readme" 2>/dev/null; then
	ok "README tutorial builds with pkg-config" "SKIP README.md has no Tutorial section"
elif ! "$python" "$srctree/scripts/check-docs.py" extract "$readme" tutorial "$app" \
		>"$tmp/extract.log" 2>&1; then
	not_ok "README tutorial: extract example \"tutorial\""
	diag "$tmp/extract.log"
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
		diag "$tmp/install.log"
	elif ! (cd "$app" && $cc $ldflags -o app app.c $(pc --cflags --libs)) \
			>"$tmp/cc.log" 2>&1; then
		not_ok "README tutorial: cc -o app app.c \$(pkg-config --cflags --libs ustrace)"
		diag "$tmp/cc.log"
	else
		(cd "$app" && LD_LIBRARY_PATH=$root/usr/lib timeout 30 ./app) \
			>"$tmp/app.out" 2>"$tmp/app.err"
		rc=$?
		if [ "$rc" -eq 0 ] && cmp -s "$tmp/app.out" "$app/expected.stdout"; then
			ok "README tutorial: built with pkg-config against the installed tree, prints what the README shows"
		else
			not_ok "README tutorial: built with pkg-config against the installed tree, prints what the README shows"
			echo "#   exit status $rc; expected vs actual:"
			diff "$app/expected.stdout" "$tmp/app.out" | sed 's/^/#   /'
			diag "$tmp/app.err"
		fi
	fi
fi

echo "1..$n"
[ "$fails" -eq 0 ]
