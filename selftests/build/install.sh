#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# install.sh - "make install" into a staging directory, then build a program
# outside the tree against what was installed, the way a user would: with
# pkg-config, linked once with libustrace.so and once with libustrace.a.
# Last, "make uninstall" removes every file. TAP on stdout.
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE,
# USTRACE_CC, USTRACE_LDFLAGS (the sanitizer flags of the build) and
# USTRACE_MAKEARGS (the make arguments of the build directory) set; run by
# hand it installs an in-tree build with cc.

set -u

here=$(cd "$(dirname "$0")" && pwd)
srctree=${USTRACE_SRCTREE:-$(cd "$here/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}
cc=${USTRACE_CC:-cc}
ldflags=${USTRACE_LDFLAGS:-}
makeargs=${USTRACE_MAKEARGS:-O=$objtree}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root

n=0
fails=0
ok()     { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
# check NAME COMMAND...: one result, whether COMMAND succeeds.
check()  { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
diag()   { tail -n "${2:-20}" "$1" | sed 's/^/#   /'; }

# pkg-config on the staged tree: the .pc file says /usr, the sysroot puts
# the staging directory in front of its -I and -L.
pc() {
	PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
		pkg-config "$@" ustrace
}

cat >"$tmp/app.c" <<'EOF'
#include <stdio.h>
#include <linux/tracepoint.h>

DECLARE_TRACE(install_check, TP_PROTO(int x), TP_ARGS(x));
DEFINE_TRACE(install_check);

static int seen = -1;

static void probe(void *data, int x)
{
	(void)data;
	seen = x;
}

int main(void)
{
	if (register_trace_install_check(probe, NULL))
		return 1;
	trace_install_check_tp(5);
	unregister_trace_install_check(probe, NULL);
	tracepoint_synchronize_unregister();
	printf("probe saw %d\n", seen);
	return seen == 5 ? 0 : 1;
}
EOF

plan=10
echo "TAP version 13"
echo "1..$plan"

# Keep the test's make away from a parent make's jobserver.
unset MAKEFLAGS MAKELEVEL MFLAGS
# shellcheck disable=SC2086 # makeargs is a list of words
if make -C "$srctree" $makeargs DESTDIR="$root" PREFIX=/usr install >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR=... PREFIX=/usr"
else
	not_ok "make install DESTDIR=... PREFIX=/usr"
	diag "$tmp/install.log"
	for i in $(seq $((n + 1)) "$plan"); do echo "ok $i # SKIP make install failed"; done
	exit 1
fi

lib=$root/usr/lib
libs_installed() {
	[ -f "$lib/libustrace.so.0.1.0" ] &&
	[ "$(readlink "$lib/libustrace.so.0")" = libustrace.so.0.1.0 ] &&
	[ "$(readlink "$lib/libustrace.so")" = libustrace.so.0 ] &&
	[ -f "$lib/libustrace.a" ]
}
check "libraries and links in /usr/lib" libs_installed

headers_installed() {
	[ -f "$root/usr/include/ustrace/linux/tracepoint.h" ] &&
	[ -f "$root/usr/include/ustrace/generated/autoconf.h" ] &&
	[ ! -e "$root/usr/include/linux" ]
}
check "headers under /usr/include/ustrace, with generated/autoconf.h" headers_installed

missing=
for m in "$srctree"/Documentation/man/*.[1-8]; do
	[ -e "$m" ] || continue
	f=$root/usr/share/man/man${m##*.}/$(basename "$m")
	[ -f "$f" ] || missing="$missing $(basename "$m")"
done
check "man pages by section${missing:+ (missing:$missing)}" [ -z "$missing" ]

if pc --cflags --libs >"$tmp/pc.out" 2>&1 &&
   grep -q -- "-I$root/usr/include/ustrace" "$tmp/pc.out"; then
	ok "pkg-config --cflags --libs ustrace: $(cat "$tmp/pc.out")"
else
	not_ok "pkg-config --cflags --libs ustrace"
	diag "$tmp/pc.out"
fi

# build NAME OUTPUT LIBS...: compile app.c against the staged tree and run it.
build_and_run() {
	local name=$1 out=$tmp/$2

	shift 2
	# shellcheck disable=SC2046,SC2086 # word lists
	if ! $cc $ldflags -o "$out" "$tmp/app.c" $(pc --cflags) "$@" >"$tmp/$name.log" 2>&1; then
		not_ok "$name: compiles and links"
		diag "$tmp/$name.log"
		return 1
	fi
	if LD_LIBRARY_PATH=$lib "$out" >"$tmp/$name.run" 2>&1 &&
	   grep -qx "probe saw 5" "$tmp/$name.run"; then
		ok "$name: compiles, links and runs"
	else
		not_ok "$name: compiles, links and runs"
		diag "$tmp/$name.run"
		return 1
	fi
}

needed() { readelf -d "$1" 2>/dev/null | grep -q "NEEDED.*\[$2\]"; }
not_needed() { [ -f "$1" ] && ! needed "$1" "$2"; }

# shellcheck disable=SC2046
build_and_run "shared" app-shared $(pc --libs)
check "shared: the program needs libustrace.so.0" needed "$tmp/app-shared" libustrace.so.0

# --static lists the private libraries; -Bstatic takes libustrace.a over
# the .so beside it.
static_libs=$(pc --static --libs | sed 's/-lustrace/-Wl,-Bstatic -lustrace -Wl,-Bdynamic/')
# shellcheck disable=SC2086
build_and_run "static" app-static $static_libs
check "static: the program does not need libustrace.so" \
	not_needed "$tmp/app-static" "libustrace.so.*"

# shellcheck disable=SC2086
make -C "$srctree" $makeargs DESTDIR="$root" PREFIX=/usr uninstall >"$tmp/uninstall.log" 2>&1
left=$(find "$root" ! -type d | sed "s|^$root||")
if [ -z "$left" ]; then
	ok "make uninstall removes every file"
else
	not_ok "make uninstall removes every file"
	echo "$left" | head -n 20 | sed 's/^/#   left: /'
fi

[ "$fails" -eq 0 ]
