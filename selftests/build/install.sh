#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 300
#
# install.sh - "make install" into a staging directory, then build a program
# outside the tree against what was installed, the way a user would: with
# pkg-config, linked once with libustrace.so and once with libustrace.a.
# Then the installed tools, the way a user gets them: a fresh copy of the
# source tree (what git tracks and would track, no build output), "make"
# and "make install PREFIX=DIR" in it (in the default variant; the others
# install their build directory), a program with trace events built
# with pkg-config from DIR serving its tracefs, and DIR/bin/ustrace
# trace-cmd on it; the staged ustrace (DESTDIR) and one installed with
# its own libdir too.  Last, "make uninstall" removes every file. TAP on
# stdout.
#
# scripts/run-tests.sh runs it with USTRACE_SRCTREE, USTRACE_OBJTREE,
# USTRACE_CC, USTRACE_LDFLAGS (the sanitizer flags of the build) and
# USTRACE_MAKEARGS (the make arguments of the build directory) set; run by
# hand it installs an in-tree build with cc.

set -u

. "$(dirname "$0")/../lib/tap.sh"
cc=${USTRACE_CC:-cc}
ldflags=${USTRACE_LDFLAGS:-}
makeargs=${USTRACE_MAKEARGS:-O=$objtree}

tap_begin install
root=$tmp/root

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

cat >"$tmp/inst_ev.h" <<'EOF'
#undef TRACE_SYSTEM
#define TRACE_SYSTEM install_check
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE inst_ev

#if !defined(_INST_EV_H) || defined(TRACE_HEADER_MULTI_READ)
#define _INST_EV_H
#include <linux/tracepoint.h>

TRACE_EVENT(inst_tick,
	TP_PROTO(int n),
	TP_ARGS(n),
	TP_STRUCT__entry(__field(int, n)),
	TP_fast_assign(__entry->n = n;),
	TP_printk("n=%d", __entry->n)
);
#endif

#include <trace/define_trace.h>
EOF

# Fires inst_tick until SIGTERM; serves its tracefs at $USTRACE_TRACEFS.
cat >"$tmp/ev-app.c" <<'EOF'
#include <signal.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "inst_ev.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(void)
{
	int n = 0;

	signal(SIGTERM, on_term);
	while (!stop) {
		trace_inst_tick(n++);
		usleep(10000);
	}
	return 0;
}
EOF

# Keep the test's make away from a parent make's jobserver.
unset MAKEFLAGS MAKELEVEL MFLAGS
# shellcheck disable=SC2086 # makeargs is a list of words
if make -C "$srctree" $makeargs DESTDIR="$root" PREFIX=/usr install >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR=... PREFIX=/usr"
else
	not_ok "make install DESTDIR=... PREFIX=/usr"
	diag_tail "$tmp/install.log"
	tap_end
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
	diag_tail "$tmp/pc.out"
fi

# build NAME OUTPUT LIBS...: compile app.c against the staged tree and run it.
build_and_run() {
	local name=$1 out=$tmp/$2

	shift 2
	# shellcheck disable=SC2046,SC2086 # word lists
	if ! $cc $ldflags -o "$out" "$tmp/app.c" $(pc --cflags) "$@" >"$tmp/$name.log" 2>&1; then
		not_ok "$name: compiles and links"
		diag_tail "$tmp/$name.log"
		return 1
	fi
	if LD_LIBRARY_PATH=$lib "$out" >"$tmp/$name.run" 2>&1 &&
	   grep -qx "probe saw 5" "$tmp/$name.run"; then
		ok "$name: compiles, links and runs"
	else
		not_ok "$name: compiles, links and runs"
		diag_tail "$tmp/$name.run"
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

check "the trace-cmd shim in /usr/lib/ustrace" [ -f "$lib/ustrace/ustrace-trace-cmd.so" ]

# --- the installed tools, from a fresh tree

# The make arguments of the build (CC, SANITIZE), for a build in the source tree.
fresh_args=()
for a in $makeargs; do
	case $a in O=*) ;; *) fresh_args+=("$a") ;; esac
done
fresh=$tmp/src
x=$tmp/x
y=$tmp/y

fresh_tree() {
	mkdir -p "$fresh" || return 1
	git -C "$srctree" ls-files -z --cached --others --exclude-standard >"$tmp/files" 2>/dev/null ||
		{ echo "# $srctree is not a git tree"; return 1; }
	(cd "$srctree" && while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done <"$tmp/files" | tar --null -T - -cf -) | tar -C "$fresh" -xf - &&
	[ ! -e "$fresh/libustrace.so" ] && [ ! -e "$fresh/.config" ]
}

# The default variant (and a run by hand) builds a fresh copy of the tree
# as a user does; the others install from their build directory, built
# by "make selftests" before (the same code; a fresh sanitizer build takes
# minutes).  Either way "make install PREFIX=DIR" comes after the build.
variant=${USTRACE_VARIANT:-local}
case $variant in
default|local)
	check "a fresh copy of the source tree, without build output" fresh_tree
	from=(-C "$fresh" ${fresh_args[@]+"${fresh_args[@]}"})
	build_first=1
	what="make, then make install PREFIX=DIR, in the fresh tree"
	;;
*)
	skip "a fresh copy of the source tree" "the $variant variant installs its build directory"
	# shellcheck disable=SC2206 # makeargs is a list of words
	from=(-C "$srctree" $makeargs)
	build_first=0
	what="make install PREFIX=DIR of the $variant build"
	;;
esac

made=0
if { [ $build_first = 0 ] || make "${from[@]}" -j2 >"$tmp/fresh-make.log" 2>&1; } &&
   make "${from[@]}" install PREFIX="$x" >"$tmp/fresh-install.log" 2>&1; then
	made=1
	ok "$what"
else
	not_ok "$what"
	diag_tail "$tmp/fresh-make.log"
	diag_tail "$tmp/fresh-install.log"
fi
# A libdir of its own (lib64): the shim is found from bin/ all the same.
if [ $made = 1 ] && make "${from[@]}" install PREFIX="$y" libdir="$y/lib64" \
	>"$tmp/y-install.log" 2>&1 && [ -f "$y/lib64/ustrace/ustrace-trace-cmd.so" ]; then
	ok "make install PREFIX=DIR libdir=DIR/lib64"
else
	not_ok "make install PREFIX=DIR libdir=DIR/lib64"
	diag_tail "$tmp/y-install.log"
fi

# serve: build ev-app against DIR with pkg-config; it serves its tracefs at $mnt.
mnt=$tmp/mnt
app_pid=
stop_app() {
	[ -n "$app_pid" ] || return 0
	kill -TERM "$app_pid" 2>/dev/null
	wait "$app_pid" 2>/dev/null
	app_pid=
}
trap 'stop_app; rm -rf "$tmp"' EXIT
serve() {
	local i

	# shellcheck disable=SC2046,SC2086 # word lists
	$cc $ldflags -I"$tmp" -o "$tmp/ev-app" "$tmp/ev-app.c" \
		$(PKG_CONFIG_PATH=$x/lib/pkgconfig pkg-config --cflags --libs ustrace) \
		>"$tmp/ev-app.log" 2>&1 || { diag_tail "$tmp/ev-app.log"; return 1; }
	mkdir -p "$mnt"
	USTRACE_TRACEFS=$mnt LD_LIBRARY_PATH=$x/lib "$tmp/ev-app" 2>"$tmp/ev-app.err" &
	app_pid=$!
	for i in $(seq 200); do
		[ -f "$mnt/events/install_check/inst_tick/format" ] && return 0
		kill -0 "$app_pid" 2>/dev/null || break
		sleep 0.05
	done
	diag_tail "$tmp/ev-app.err"
	return 1
}

# tool_run NAME USTRACE: USTRACE trace-cmd list -e and record on the
# program's mount, with nothing of the build tree in reach and no
# LD_LIBRARY_PATH: the installed tool finds the installed library itself.
tool_run() {
	local name=$1 tool=$2 out=$tmp/$1

	out=$tmp/$(echo "$name" | tr -c 'a-zA-Z0-9\n' _)
	if env -u USTRACE_TRACE_CMD_SHIM -u LD_LIBRARY_PATH timeout -k 5 60 \
		"$tool" trace-cmd -m "$mnt" list -e >"$out.list" 2>&1 &&
	   grep -qx install_check:inst_tick "$out.list" && ! grep -q '^sched:' "$out.list" &&
	   (cd "$tmp" && env -u USTRACE_TRACE_CMD_SHIM -u LD_LIBRARY_PATH timeout -k 5 60 \
		"$tool" trace-cmd -m "$mnt" record -e install_check -o "$out.dat" sleep 0.5) \
		>"$out.rec" 2>&1 &&
	   trace-cmd report "$out.dat" 2>/dev/null | grep -q 'inst_tick: *n='; then
		ok "$name trace-cmd list -e, record: the program's events"
	else
		not_ok "$name trace-cmd list -e, record: the program's events"
		diag_tail "$out.list" 5
		diag_tail "$out.rec" 10
	fi
}

tools_skip=
[ $made = 1 ] || tools_skip="make install PREFIX=DIR failed"
[ -n "$tools_skip" ] || command -v trace-cmd >/dev/null || tools_skip="no trace-cmd (Debian: trace-cmd)"
[ -n "$tools_skip" ] || { [ -c /dev/fuse ] && command -v fusermount3 >/dev/null; } ||
	tools_skip="no FUSE here"
if [ -z "$tools_skip" ] && serve; then
	ok "a program built with pkg-config from DIR serves its tracefs"
	tool_run "DIR/bin/ustrace" "$x/bin/ustrace"
	tool_run "the staged (DESTDIR) ustrace" "$root/usr/bin/ustrace"
	tool_run "ustrace of libdir=DIR/lib64" "$y/bin/ustrace"
	stop_app
elif [ -z "$tools_skip" ]; then
	not_ok "a program built with pkg-config from DIR serves its tracefs"
	for i in 1 2 3; do not_ok "installed ustrace trace-cmd # the program did not serve"; done
else
	for i in 1 2 3 4; do skip "installed ustrace trace-cmd" "$tools_skip"; done
fi

# shellcheck disable=SC2086
make -C "$srctree" $makeargs DESTDIR="$root" PREFIX=/usr uninstall >"$tmp/uninstall.log" 2>&1
left=$(find "$root" ! -type d | sed "s|^$root||")
if [ -z "$left" ]; then
	ok "make uninstall removes every file"
else
	not_ok "make uninstall removes every file"
	echo "$left" | sed 's/^/left: /' | diag
fi

tap_end
