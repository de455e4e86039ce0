# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What the collector's tests share (sourced after tap_begin): the
# command, a run directory of the test's own ($USTRACE_RUNDIR, exported
# for the programs, which look for the collector there by themselves),
# the mount $T, and a collector started and stopped (its output appended
# to $tmp/daemon.log).  Skips the script where FUSE cannot run.

ustrace=$objtree/tools/tracing/ustrace
export LD_LIBRARY_PATH=$objtree${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -e /dev/fuse ] && command -v fusermount3 >/dev/null || skip_all "no /dev/fuse or fusermount3"
[ -x "$ustrace" ] || skip_all "not built"
unset USTRACE_TRACEFS USTRACE_DAEMON USTRACE_EVENTS USTRACE_OUTPUT
export USTRACE_RUNDIR=$tmp/run
T=$USTRACE_RUNDIR/tracing
dpid=

# wait_for SECONDS COMMAND...: until COMMAND succeeds (every 0.1 s), at
# most SECONDS; its status.  A program registers within
# COLL_HELLO_WAIT_MS of its start, or within COLL_RETRY_MS of a
# collector's, but a sanitizer's build on a loaded machine takes longer:
# the tests wait for what they look at rather than sleep a guess.
wait_for() {
	local n=$(($1 * 10))
	shift
	for _ in $(seq "$n"); do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}

# start_daemon: a collector on $USTRACE_RUNDIR, serving once this returns 0.
start_daemon() {
	"$ustrace" daemon --rundir "$USTRACE_RUNDIR" >>"$tmp/daemon.log" 2>&1 &
	dpid=$!
	wait_for 20 test -e "$T/README" -a -S "$USTRACE_RUNDIR/collector.sock"
}

# stop_daemon: SIGTERM, and its exit status.
stop_daemon() {
	[ -n "$dpid" ] || return 0
	kill -TERM "$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	local rc=$?
	dpid=
	return $rc
}

coll_cleanup() {
	stop_daemon
	# a failure may be the collector's: what it said (a sanitizer's report)
	if [ "$tap_failed" -gt 0 ] && [ -s "$tmp/daemon.log" ]; then
		echo "# the collector's output (daemon.log), last lines:"
		diag_tail "$tmp/daemon.log" 80
	fi
	for p in $(jobs -p); do kill -KILL "$p" 2>/dev/null; done
	fusermount3 -uz "$T" 2>/dev/null
	rm -rf "$tmp"
}
trap coll_cleanup EXIT
