#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# libtracefs-utest.sh - libtracefs 1.6.4's own unit tests (utest/, CUnit)
# against a program's tracefs: conformance-fire --serve, the corpus's
# events fired every millisecond.  One TAP result per CUnit test, with
# what expected-utest.txt says of it:
#
#   pass        must pass
#   fail        does not apply to a program's tracefs (why is given);
#               run, and reported as a TODO, so that a change shows
#
# The tests are libtracefs 1.6.4's utest/trace-utest.c, tracefs-utest.c
# and trace-utest.h (git://git.kernel.org/pub/scm/libs/libtrace/
# libtracefs.git, tag libtracefs-1.6.4, LGPL-2.1), taken from a source tree
# of that release that USTRACE_LIBTRACEFS_SRC names (never kept in ours;
# without it the test skips), with its src/tracefs-utils.c, whose
# find_tracing_dir() the tests call and libtracefs.so does not export.
# They are built here, against the system's libtracefs, which must be
# 1.6.4 (Debian 12: libtracefs-dev) and CUnit (libcunit1-dev), with one
# change made to a copy, as the kernel never needs it:
#
#   test_instance_tracers() reads the list tracefs_tracers() returns
#   after checking it is not NULL, and goes on when it is: a tracefs with
#   only the nop tracer has none (tracefs_tracers() leaves nop out), and
#   the test segfaults there, taking the tests after it with it.  The
#   check still fails; it returns instead.
#
# They find the tracing directory as trace-cmd does, through libtracefs;
# they run with the trace-cmd shim (tools/tracing/ustrace-trace-cmd.so,
# which "ustrace trace-cmd" preloads: it gives libtracefs the mount with
# tracefs_set_tracing_dir() and moves the /sys/kernel/tracing paths
# libtracefs 1.6 uses whatever the directory is to it).
#
# They run as root in a private mount namespace: "Test tracefs/debugfs
# mounting" unmounts every tracefs and debugfs it finds and mounts them
# again, which must not touch the machine's.

. "$(dirname "$0")/../lib/tap.sh"
here=$srctree/selftests/conformance
fire=$objtree/selftests/conformance/conformance-fire
shim=$objtree/tools/tracing/ustrace-trace-cmd.so
build=$objtree/selftests-output/libtracefs-utest

case ${USTRACE_VARIANT:-local} in
local|default|asan|tsan) ;;
*) skip_all "libtracefs's tests run in the default, asan and tsan variants" ;;
esac
[ "$(id -u)" = 0 ] || skip_all "libtracefs's tests run as root"
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
command -v fusermount3 >/dev/null || skip_all "no fusermount3 (Debian: fuse3)"
command -v unshare >/dev/null || skip_all "no unshare (Debian: util-linux)"
[ -d /usr/src/linux-source-6.1/include/trace/events ] || [ -f /usr/src/linux-source-6.1.tar.xz ] ||
	skip_all "the corpus is linux-source-6.1's event headers: apt-get install linux-source-6.1"
[ -x "$fire" ] || { echo "Bail out! $fire is not built (make selftests)"; exit 1; }
[ -f "$shim" ] || { echo "Bail out! $shim is not built (make tools)"; exit 1; }

pkg-config --exists libtracefs || skip_all "no libtracefs (Debian: libtracefs-dev)"
[ "$(pkg-config --modversion libtracefs)" = 1.6.4 ] ||
	skip_all "the tests are libtracefs 1.6.4's; the system has libtracefs $(pkg-config --modversion libtracefs)"
[ -f /usr/include/CUnit/Basic.h ] || skip_all "no CUnit (Debian: libcunit1-dev)"
src=${USTRACE_LIBTRACEFS_SRC:-}
[ -n "$src" ] && [ -f "$src/utest/tracefs-utest.c" ] && [ -f "$src/src/tracefs-utils.c" ] ||
	skip_all "needs libtracefs 1.6.4's source tree: USTRACE_LIBTRACEFS_SRC=DIR (utest/, src/)"

# Build trace-utest in $build (whoever comes first; again when a source
# is newer).
build_utest() {
	local u=$src/utest

	mkdir -p "$build" || return 1
	(
		flock 9
		[ "$build/trace-utest" -nt "$u/tracefs-utest.c" ] &&
			[ "$build/trace-utest" -nt "$u/trace-utest.c" ] &&
			[ "$build/trace-utest" -nt "$src/src/tracefs-utils.c" ] &&
			[ "$build/trace-utest" -nt "$0" ] && exit 0
		cp "$u"/trace-utest.c "$u"/tracefs-utest.c "$u"/trace-utest.h "$build"/ || exit 1
		# The one change (see the header).
		sed -i '/^\ttracers = tracefs_tracers(tdir);$/{n;s/^\tCU_TEST(tracers != NULL);$/&\n\tif (!tracers)\n\t\treturn;/}' \
			"$build/tracefs-utest.c"
		grep -A1 'CU_TEST(tracers != NULL);' "$build/tracefs-utest.c" | grep -q 'if (!tracers)' ||
			{ echo "the change to test_instance_tracers() does not apply"; exit 1; }
		# As libtracefs's Makefile builds them (-D_GNU_SOURCE, -g -Wall);
		# tracefs-utils.c's other functions take the library's place.
		cc -g -O2 -Wall -D_GNU_SOURCE -I"$src/include" -I"$src/src" -o "$build/trace-utest.new" \
			"$build/trace-utest.c" "$build/tracefs-utest.c" "$src/src/tracefs-utils.c" \
			$(pkg-config --cflags --libs libtracefs libtraceevent) -lcunit -lpthread \
			2>"$build/build.log" || { tail -20 "$build/build.log"; exit 1; }
		mv "$build/trace-utest.new" "$build/trace-utest"
	) 9>"$build/lock"
}

err=$(build_utest) || { echo "Bail out! libtracefs's tests do not build: $err"; exit 1; }
utest=$build/trace-utest

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-utest.XXXXXX") || exit 1
mnt=$tmp/mnt
mkdir -p "$mnt"
USTRACE_TRACEFS=$mnt "$fire" --serve 2>"$tmp/server.err" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; fusermount3 -u -z -q "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
	[ -f "$mnt/README" ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
[ -f "$mnt/README" ] || { echo "Bail out! no tracefs at $mnt: $(head -3 "$tmp/server.err")"; exit 1; }

echo "TAP version 13"
echo "# libtracefs 1.6.4's tests, with the system's libtracefs $(pkg-config --modversion libtracefs)"
# The shim takes itself out of the LD_PRELOAD of what it runs: it is set
# for trace-utest itself.
(cd "$build" &&
 timeout -k 5 100 unshare -m --propagation private \
	env LD_PRELOAD="$shim" USTRACE_TRACEFS_MOUNT="$mnt" ./trace-utest) \
	>"$tmp/utest.out" 2>&1
rc=$?

# The CUnit tests in their order, from the source; what each gave.
mapfile -t tests < <(sed -n 's/^\tCU_add_test(suite, "\([^"]*\)",.*/\1/p;
	/^\tCU_add_test(suite, "[^"]*",$/{N;s/^\tCU_add_test(suite, "\([^"]*\)",\n.*/\1/p}' \
	"$src/utest/tracefs-utest.c")
# "passed" or "FAILED": after the "..." or, when the test printed, on a
# line of its own.
result() {
	awk -v t="  Test: $1 ..." 'index($0, t) == 1 { p = 1; $0 = substr($0, length(t) + 1) }
		p && /^  Test: |^Run Summary/ { exit }
		p && /(^|\.\.\.)passed$/ { print "passed"; exit }
		p && /(^|\.\.\.)FAILED$/ { print "FAILED"; exit }' "$tmp/utest.out"
}
expect() {
	awk -F '|' -v c="$1" '{ n = $1; sub(/[ \t]+$/, "", n) } n == c { print $2; exit }' \
		"$here/expected-utest.txt"
}

nr=0
tap_plan "${#tests[@]}"
for t in "${tests[@]}"; do
	res=$(result "$t")
	read -r exp why <<<"$(expect "$t")"
	exp=${exp:-pass}
	case $exp/${res:-none} in
	pass/passed)
		ok "$t"; nr=$((nr + 1)) ;;
	fail/FAILED)
		todo "$t" "does not apply: ${why#\# }" ;;
	*)
		not_ok "$t: ${res:-not run}, expected $exp"
		awk -v t="  Test: $t ..." 'index($0, t) == 1 { p = 1; print; next }
			p && /^  Test: / { exit } p' "$tmp/utest.out" | diag - 8 ;;
	esac
done
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { echo "# trace-utest exited $rc:"; tail -5 "$tmp/utest.out" | sed 's/^/#   /'; }
echo "# libtracefs 1.6.4's tests: $nr passed of ${#tests[@]}"
kill -TERM $pid 2>/dev/null
wait $pid
src_rc=$?
[ "$src_rc" = 0 ] || echo "# the server exited $src_rc: $(head -3 "$tmp/server.err")"
grep -q '^' "$tmp/server.err" && sed 's/^/# server: /' "$tmp/server.err" | head -20
exit 0
