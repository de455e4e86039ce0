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

# start_daemon: a collector on $USTRACE_RUNDIR, serving once this returns 0.
start_daemon() {
	"$ustrace" daemon --rundir "$USTRACE_RUNDIR" >>"$tmp/daemon.log" 2>&1 &
	dpid=$!
	for _ in $(seq 100); do
		[ -e "$T/README" ] && [ -S "$USTRACE_RUNDIR/collector.sock" ] && return 0
		sleep 0.05
	done
	return 1
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
	for p in $(jobs -p); do kill -KILL "$p" 2>/dev/null; done
	fusermount3 -uz "$T" 2>/dev/null
	rm -rf "$tmp"
}
trap coll_cleanup EXIT
