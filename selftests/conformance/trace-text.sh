#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# trace-text.sh - the trace text of every event of the corpus against what
# libtraceevent prints for the same records: conformance-fire fires each
# event (once or twice, in a fixed order) with the events enabled in the
# top instance and in the recorder (USTRACE_EVENTS), writes the trace
# file's text, and at exit the recorder writes the trace.dat; trace-cmd
# report -N (the print fmts, no plugins) reads it.  compare-text.py
# prints TAP, one result per event; expected-text.txt lists libtraceevent's
# own differences, and why.  The recording carries the program's symbols
# and tracepoint strings: trace-cmd prints %ps and the rcu events' names.

. "$(dirname "$0")/../lib/tap.sh"
here=$srctree/selftests/conformance
fire=$objtree/selftests/conformance/conformance-fire
systems=sched,irq,timer,workqueue,signal,task,kmem,writeback,block,net,sock,power,rcu
systems=$systems,alarmtimer,error_report,raw_syscalls
systems=$systems,tcp,neigh,skb,napi,qdisc,oom,compaction,vmscan,filemap,percpu,migrate
systems=$systems,mmap_lock,initcall,printk,io_uring,fs_dax,ipi,thermal_power_allocator
systems=$systems,smbus,i2c,osnoise,iscsi,spmi
systems=$systems,bpf_test_run,cpuhp,kyber,lock,netlink,nmi,page_isolation,rseq,thp

[ -d /usr/src/linux-source-6.1/include/trace/events ] || [ -f /usr/src/linux-source-6.1.tar.xz ] || {
	echo "TAP version 13"; echo "1..0 # SKIP the corpus is linux-source-6.1's event headers: apt-get install linux-source-6.1"; exit 4; }
[ -x "$fire" ] || { echo "Bail out! $fire is not built (make selftests)"; exit 1; }
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 4; }
command -v trace-cmd >/dev/null || { echo "1..0 # SKIP no trace-cmd (Debian: trace-cmd)"; exit 4; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-text.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
USTRACE_EVENTS=$systems USTRACE_OUTPUT=$tmp/trace.dat "$fire" --trace "$tmp/trace" ||
	{ echo "Bail out! conformance-fire --trace failed"; exit 1; }
trace-cmd report -N -i "$tmp/trace.dat" >"$tmp/report" 2>"$tmp/report.err" ||
	{ echo "Bail out! trace-cmd report failed: $(head -3 "$tmp/report.err")"; exit 1; }
exec python3 "$here/compare-text.py" "$tmp/trace" "$tmp/report" "$here/expected-text.txt"
