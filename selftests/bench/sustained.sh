#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# sustained.sh - the highest event rate each recorder keeps with no event
# lost, in producer/consumer mode (a full buffer refuses new events and
# counts them), one writer thread and two, printed side by side with
# LTTng-UST and its consumer in the same run
# (Documentation/trace/recording.rst, "Sustained rate").
#
# The producer, sustained_bench, fires bench:bench_event (3 ints and a
# 16-character string, the event of lttng_compare.sh) at a fixed rate,
# paced by the clock in ~50 us batches (sustained_pace.h), and says when
# it could not keep that rate ("behind"): such a run is not counted as
# kept.  Every buffer is USTRACE_SUSTAINED_BUFFER_KB (default 8192) KiB
# per CPU: at 10 M events/s that lasts 19 ms, longer than the stalls of
# this machine class, where 2048 KiB (4.7 ms) did not (recording.rst,
# "The buffer's size").  The recorders:
#
#   ustrace record         ustrace record -b KB -e bench:bench_event --
#                          sustained_bench (the recorder's instance)
#   trace-cmd, mount       the stock trace-cmd record -b KB -O nooverwrite on
#                          the program's own tracefs mount (USTRACE_TRACEFS),
#                          through "ustrace trace-cmd -m" (the top-level
#                          buffer)
#   trace-cmd, collector   the program registered with a collector (ustrace
#                          daemon); trace-cmd record -B sustained
#                          -O nooverwrite on the collector's tree: an
#                          instance, which the collector's trace_pipe_raw
#                          consumes (its top level's does not: it reads the
#                          programs' buffers without consuming them, so a
#                          top level in producer/consumer mode fills once
#                          and refuses all after; system-mode.rst)
#   LTTng-UST consumer     sustained_lttng (the same pacing, LTTng's
#                          ustrace_bench:bench_event) in a normal session,
#                          per-user buffers, discard mode, 4 sub-buffers
#                          of KB / 4 per CPU (the same bytes),
#                          lttng-consumerd writing to TMPDIR
#
# Loss, ours: events fired minus the events in the recording, counted in
# the file by sustained_count (by their payload), and the buffer's lost
# counters (the recorder's summary for ustrace record, the program's
# top-level buffer for trace-cmd on the mount); a run keeps the rate when
# the count equals the fired count, both threads' sequence numbers run to
# their end and the counters are 0.  LTTng: "Discarded events" and "Lost
# packets" of lttng list after stop (the trace itself is not counted).
#
# The search, per recorder and thread count: short runs
# (USTRACE_SUSTAINED_SEARCH_SECONDS, default 2) from 2 M events/s,
# doubling while kept, then bisecting (at most 3 steps, to 0.1 M); then one
# confirmation run at the rate found, USTRACE_SUSTAINED_SECONDS long
# (default 10), and up to two more, each at three quarters of the one
# before, while they lose.
# USTRACE_SUSTAINED_RECORDERS picks the rows (a list of ustrace, mount,
# collector, lttng; default all).  The recordings go to TMPDIR (a 10 s
# recording at 10 M events/s is 4.4 GB, removed once counted).
#
# Prints one table, and appends to USTRACE_BENCH_TABLE (make bench) the
# rate each kept for a whole long run, sustained_RECORDER_Nt (0: neither
# long run kept).  Timings are printed, never asserted; the script fails
# only when a recorder fails to run.

set -u
. "$(dirname "$0")/../lib/lttng.bash"

objtree=${USTRACE_OBJTREE:-.}
bench=$objtree/selftests/bench/sustained_bench
counter=$objtree/selftests/bench/sustained_count
lttng_prog=$objtree/selftests/bench/sustained_lttng
ustrace=$objtree/tools/tracing/ustrace
search_s=${USTRACE_SUSTAINED_SEARCH_SECONDS:-2}
confirm_s=${USTRACE_SUSTAINED_SECONDS:-10}
start_rate=2000000
max_rate=64000000
bisect_steps=3
# Every recorder's buffer, KiB per CPU: LTTng's sub-buffers (4 of a
# quarter of it each, a power of two) hold the same bytes as ours.
buf_kb=${USTRACE_SUSTAINED_BUFFER_KB:-8192}
export LD_LIBRARY_PATH=$objtree${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LC_ALL=C
unset USTRACE_TRACEFS USTRACE_EVENTS USTRACE_OUTPUT USTRACE_RUNDIR

for f in "$bench" "$counter" "$ustrace"; do
	if [ ! -x "$f" ]; then
		echo "sustained.sh: $f is missing (make bench builds it)" >&2
		exit 1
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-sustained.XXXXXX") || exit 1
broken=
dpid=
lttng_session=
pids=()
cleanup() {
	local p

	for p in ${pids[@]+"${pids[@]}"}; do
		kill -KILL "$p" 2>/dev/null
	done
	if [ -n "$lttng_session" ]; then
		timeout -k 5 20 lttng destroy "$lttng_session" >/dev/null 2>&1
	fi
	lttng_stop_sessiond
	[ -n "$dpid" ] && kill -TERM "$dpid" 2>/dev/null
	wait 2>/dev/null
	for m in "$tmp/mnt" "$tmp/run/tracing"; do
		grep -q " $m fuse" /proc/mounts 2>/dev/null && fusermount3 -uz "$m" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# get FILE KEY: the value of "KEY value" in FILE, or "".
get() {
	awk -v k="$2" '$1 == k { print $2; exit }' "$1" 2>/dev/null
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds (every 0.05 s).
wait_for() {
	local n=$(($1 * 20))

	shift
	for _ in $(seq "$n"); do
		"$@" && return 0
		sleep 0.05
	done
	"$@"
}

has_line() { grep -qx "$2" "$1" 2>/dev/null; }

# M RATE: events/s in millions (two decimals below 1 M, else one).
M() { awk -v r="$1" 'BEGIN { printf(r < 1e6 ? "%.2f" : "%.1f", r / 1e6) }'; }

# ---- one run of each recorder.  Each sets RUN_OK (1: every event kept,
# the rate reached), RUN_NOTE (what happened), RUN_SHORT (the same for the
# table) and RUN_BROKEN (the recorder failed to run: why); the producer's
# report is in $tmp/p.out.

# judge FIRED RECORDED LOST_COUNTERS ("-": none to read): sets RUN_OK,
# RUN_NOTE and RUN_SHORT from the producer's report ($tmp/p.out) and
# sustained_count's ($tmp/count).
judge() {
	local fired=$1 got=$2 lost=$3 behind achieved t per

	behind=$(get "$tmp/p.out" behind)
	achieved=$(get "$tmp/p.out" achieved)
	RUN_OK=1
	RUN_NOTE="kept"
	RUN_SHORT="kept"
	if [ "$got" != "$fired" ] || { [ "$lost" != 0 ] && [ "$lost" != - ]; }; then
		RUN_OK=0
		RUN_NOTE=$(awk -v f="$fired" -v g="$got" -v l="$lost" 'BEGIN {
			printf "lost %.0f (%.3f%%", f - g, (f - g) * 100 / f
			if (l != "-") printf "; the buffer counted %.0f", l
			printf ")" }')
		RUN_SHORT=$(awk -v f="$fired" -v g="$got" 'BEGIN { printf "lost %.3g%%", (f - g) * 100 / f }')
		[ -s "$tmp/count" ] && RUN_NOTE="$RUN_NOTE$(where_lost)"
	elif [ -s "$tmp/count" ]; then
		# both threads' sequences run to their last event
		per=$((fired / $(get "$tmp/p.out" threads)))
		for t in $(seq 0 $(($(get "$tmp/p.out" threads) - 1))); do
			if [ "$(get "$tmp/count" "seq$t")" != "$per" ] ||
			   [ "$(get "$tmp/count" "thread$t")" != "$per" ]; then
				RUN_OK=0
				RUN_NOTE="thread $t: $(get "$tmp/count" "thread$t") events, last seq $(get "$tmp/count" "seq$t") of $per"
				RUN_SHORT="thread $t incomplete"
			fi
		done
	fi
	if [ "$behind" = 1 ]; then
		RUN_OK=0
		RUN_NOTE="$RUN_NOTE; writers fell behind ($(M "$achieved") M/s)"
		RUN_SHORT="$RUN_SHORT, behind"
	fi
}

# where_lost: ", N gaps, the first after X s" from sustained_count's
# sequence numbers (a thread's events missing at its end count as a gap).
where_lost() {
	awk -v rate="$(get "$tmp/p.out" rate)" -v threads="$(get "$tmp/p.out" threads)" \
	    -v fired="$(get "$tmp/p.out" fired)" '
	{ v[$1] = $2 }
	END {
		per = fired / threads
		first = -1
		for (t = 0; t < threads; t++) {
			f = v["first_gap" t] + 0
			n += v["gaps" t]
			if (v["seq" t] < per) {
				n++
				if (f < 0)
					f = v["seq" t]
			}
			if (f >= 0 && (first < 0 || f < first))
				first = f
		}
		if (first >= 0)
			printf ", %d gaps, the first after %.3f s", n, first / (rate / threads)
	}' "$tmp/count"
}

# count [-B INSTANCE] FILE: sustained_count into $tmp/count; its events,
# or "" when the file does not read.
count() {
	if ! "$counter" "$@" >"$tmp/count" 2>"$tmp/count.err"; then
		: >"$tmp/count"
		return
	fi
	get "$tmp/count" events
}

run_ustrace() {	# RATE THREADS SECONDS
	local dat=$tmp/u.dat fired got lost

	RUN_BROKEN=
	rm -f "$dat"
	timeout -k 5 $(($3 * 4 + 60)) "$ustrace" record -b "$buf_kb" -e bench:bench_event -o "$dat" -- \
		"$bench" -r "$1" -t "$2" -d "$3" >"$tmp/p.out" 2>"$tmp/rec.err"
	fired=$(get "$tmp/p.out" fired)
	if [ -z "$fired" ] || [ ! -s "$dat" ]; then
		RUN_BROKEN="ustrace record failed: $(tail -n 3 "$tmp/rec.err" | tr '\n' ' ')"
		return
	fi
	got=$(count "$dat")
	rm -f "$dat"
	[ -n "$got" ] || { RUN_BROKEN="sustained_count: $(cat "$tmp/count.err")"; return; }
	lost=$(awk '/^ *CPU[0-9]+: .* lost/ { s += $4 } END { printf "%.0f", s }' "$tmp/rec.err")
	judge "$fired" "$got" "$lost"
}

# tc_run MODE RATE THREADS SECONDS: the producer started first (its mount
# or its registration), trace-cmd record with no command, the producer let
# go once trace-cmd records, trace-cmd stopped by SIGINT once the producer
# is done.  MODE: mount or collector.
tc_run() {
	local mode=$1 dat=$tmp/tc.dat fifo=$tmp/go ppid tpid fired got lost base tcargs env=() tc_rc
	local TC_TOO_BIG=

	RUN_BROKEN=
	rm -f "$dat" "$fifo" "$tmp/p.out"
	mkfifo "$fifo" || { RUN_BROKEN="mkfifo failed"; return; }
	if [ "$mode" = mount ]; then
		mkdir -p "$tmp/mnt"
		env=(USTRACE_DAEMON=0 "USTRACE_TRACEFS=$tmp/mnt")
		base=$tmp/mnt
		tcargs=(-m "$tmp/mnt" record -b "$buf_kb" -O nooverwrite)
	else
		env=("USTRACE_RUNDIR=$tmp/run")
		base=$tmp/run/tracing/instances/sustained
		tcargs=(record -B sustained -b "$buf_kb" -O nooverwrite)
	fi
	env "${env[@]}" "$bench" -r "$2" -t "$3" -d "$4" -w -H <"$fifo" >"$tmp/p.out" 2>"$tmp/p.err" &
	ppid=$!
	pids+=("$ppid")
	exec 3>"$fifo"
	if ! wait_for 20 has_line "$tmp/p.out" ready; then
		RUN_BROKEN="sustained_bench did not start: $(tail -n 2 "$tmp/p.err")"
	elif [ "$mode" = mount ] && ! wait_for 20 test -f "$tmp/mnt/events/header_page"; then
		RUN_BROKEN="the program's tracefs did not come up at $tmp/mnt: $(tail -n 2 "$tmp/p.err")"
	elif [ "$mode" = collector ] &&
	     ! wait_for 20 grep -q "process $ppid (sustained_bench) registered" "$tmp/daemon.log"; then
		RUN_BROKEN="sustained_bench did not register with the collector: $(tail -n 2 "$tmp/daemon.log")"
	fi
	if [ -z "$RUN_BROKEN" ]; then
		[ "$mode" = mount ] && env=()
		# timeout passes our SIGINT on and kills -k seconds after it:
		# trace-cmd then copies its CPU files into the output (some GB
		# at the higher rates, 10 s and more through the page cache).
		env ${env[@]+"${env[@]}"} timeout -k 120 $(($4 * 4 + 90)) "$ustrace" trace-cmd "${tcargs[@]}" \
			-e bench:bench_event --file-version 6 -o "$dat" >"$tmp/tc.log" 2>&1 &
		tpid=$!
		pids+=("$tpid")
		# trace-cmd enables the event, then writes tracing_on 1 once
		# its readers run.
		if ! wait_for 30 recording_on "$base"; then
			RUN_BROKEN="trace-cmd did not start recording: $(tail -n 3 "$tmp/tc.log" | tr '\n' ' ')"
			kill -INT "$tpid" 2>/dev/null
		else
			echo go >&3
			wait_for $(($4 * 4 + 30)) has_line "$tmp/p.out" "done"
			# trace-cmd's readers take what the program's buffer
			# holds yet as it stops.
			kill -INT "$tpid" 2>/dev/null
		fi
		wait "$tpid"
		tc_rc=$?
		# trace-cmd 3.1.6 copies a CPU's data into the file with a size
		# that overflows past 2 GiB ("did not match size of 2663747584
		# to -1631219712"), with the kernel's tracefs as with ours: a
		# rate it cannot record for that long, not a failure to run.
		if grep -q "did not match size of" "$tmp/tc.log"; then
			TC_TOO_BIG=1
		elif [ $tc_rc -ne 0 ] && [ -z "$RUN_BROKEN" ]; then
			RUN_BROKEN="trace-cmd record failed: $(tail -n 3 "$tmp/tc.log" | tr '\n' ' ')"
		fi
	fi
	exec 3>&-
	wait "$ppid"
	# both reaped: their ids are no longer ours to kill
	pids=()
	[ -n "$RUN_BROKEN" ] && return
	if [ -n "$TC_TOO_BIG" ]; then
		RUN_OK=0
		RUN_NOTE="trace-cmd could not write its file: more than 2 GiB of a CPU's data (trace-cmd 3.1.6's limit)"
		RUN_SHORT="over trace-cmd's 2 GiB"
		rm -f "$dat"
		return
	fi
	fired=$(get "$tmp/p.out" fired)
	if [ -z "$fired" ] || [ ! -s "$dat" ]; then
		RUN_BROKEN="no recording: $(tail -n 3 "$tmp/tc.log" | tr '\n' ' ')"
		return
	fi
	if [ "$mode" = mount ]; then
		got=$(count "$dat")
	else
		got=$(count -B sustained "$dat")
	fi
	rm -f "$dat"
	[ -n "$got" ] || { RUN_BROKEN="sustained_count: $(cat "$tmp/count.err")"; return; }
	if [ "$mode" = mount ]; then
		lost=$(( $(get "$tmp/p.out" dropped) + $(get "$tmp/p.out" overwritten) ))
	else
		# the instance's counters are not the program's top
		# level's: the count alone
		lost=-
	fi
	judge "$fired" "$got" "$lost"
}

# recording_on DIR: trace-cmd records bench:bench_event in the tracefs
# (or instance) DIR.
recording_on() {
	[ "$(cat "$1/events/bench/bench_event/enable" 2>/dev/null)" = 1 ] &&
		[ "$(cat "$1/tracing_on" 2>/dev/null)" = 1 ]
}

run_mount() { tc_run mount "$@"; }
run_collector() { tc_run collector "$@"; }

run_lttng() {	# RATE THREADS SECONDS
	local discarded lostp

	RUN_BROKEN=
	rm -rf "$tmp/lttng-trace"
	lttng_session=ustrace-sustained-$$
	if ! { timeout -k 5 20 lttng create "$lttng_session" --output="$tmp/lttng-trace" &&
	       timeout -k 5 20 lttng enable-channel -u -s "$lttng_session" --discard --buffers-uid \
			--subbuf-size=$((buf_kb / 4))K --num-subbuf=4 ch &&
	       timeout -k 5 20 lttng enable-event -u -s "$lttng_session" -c ch ustrace_bench:bench_event &&
	       timeout -k 5 20 lttng start "$lttng_session"; } >"$tmp/session.log" 2>&1; then
		RUN_BROKEN="the LTTng session could not be set up: $(grep -i error "$tmp/session.log" | head -n 1)"
		timeout -k 5 20 lttng destroy "$lttng_session" >/dev/null 2>&1
		lttng_session=
		return
	fi
	LTTNG_UST_REGISTER_TIMEOUT=10000 timeout -k 5 $(($3 * 4 + 60)) \
		"$lttng_prog" -r "$1" -t "$2" -d "$3" >"$tmp/p.out" 2>"$tmp/p.err"
	timeout -k 5 120 lttng stop "$lttng_session" >"$tmp/stop.log" 2>&1
	timeout -k 5 20 lttng list "$lttng_session" >"$tmp/list.log" 2>&1
	timeout -k 5 60 lttng destroy "$lttng_session" >/dev/null 2>&1
	lttng_session=
	rm -rf "$tmp/lttng-trace"
	if [ -z "$(get "$tmp/p.out" fired)" ]; then
		RUN_BROKEN="sustained_lttng failed: $(tail -n 2 "$tmp/p.err")"
		return
	fi
	if [ "$(get "$tmp/p.out" enabled)" != 1 ]; then
		RUN_BROKEN="sustained_lttng did not register with the session daemon (event disabled)"
		return
	fi
	discarded=$(awk '/Discarded events:/ { print $3; exit }' "$tmp/list.log")
	discarded=${discarded:-0}
	lostp=$(awk '/Lost packets:/ { s += $3 } END { printf "%.0f", s }' "$tmp/list.log")
	judge_lttng "$discarded" "$lostp"
}

# judge_lttng DISCARDED LOST_PACKETS: as judge, from LTTng's counters.
# lttng-tools 2.13 here printed some large counts with the top bit of the
# 64-bit word set (9223372036858374767 = 2^63 + 3598959, at stop and in
# lttng list alike): such a count is shown as what is below that bit.
judge_lttng() {
	local d=$1 achieved top=

	if [ ${#d} -eq 19 ] && [ "${d:0:10}" = 9223372036 ]; then
		top=$d
		d=$(awk -v s="${d:10}" 'BEGIN { printf "%.0f", s - 854775808 }')
	fi
	RUN_OK=1
	RUN_NOTE=kept
	RUN_SHORT=kept
	if [ "$d" != 0 ] || [ "$2" != 0 ]; then
		RUN_OK=0
		RUN_NOTE=$(awk -v d="$d" -v f="$(get "$tmp/p.out" fired)" -v p="$2" 'BEGIN {
			printf "discarded %.0f (%.3f%%), %.0f packets lost", d, d * 100 / f, p }')
		[ -n "$top" ] && RUN_NOTE="$RUN_NOTE (lttng printed $top)"
		RUN_SHORT=$(awk -v d="$d" -v f="$(get "$tmp/p.out" fired)" 'BEGIN {
			printf "lost %.3g%%", d * 100 / f }')
		[ "$2" != 0 ] && RUN_SHORT="$RUN_SHORT, $2 packets"
	fi
	if [ "$(get "$tmp/p.out" behind)" = 1 ]; then
		achieved=$(get "$tmp/p.out" achieved)
		RUN_OK=0
		RUN_NOTE="$RUN_NOTE; writers fell behind ($(M "$achieved") M/s)"
		RUN_SHORT="$RUN_SHORT, behind"
	fi
}

# ---- the search

# search KIND THREADS: sets FOUND (events/s, 0: none kept), FOUND_WHY
# (what the rate above it did), CONFIRM (the long runs' results),
# KEPT_LONG (the rate a long run kept, 0: neither did); prints
# each run as a comment.  Returns 1 when the recorder broke.
search() {
	local kind=$1 t=$2 lo=0 hi=0 r=$start_rate k why=""

	FOUND=0 FOUND_WHY="" CONFIRM="-" KEPT_LONG=0
	# one RATE: run, log; RUN_OK
	one() {
		"run_$kind" "$1" "$t" "$search_s"
		if [ -n "$RUN_BROKEN" ]; then
			echo "#   $kind, $t thread(s), $(M "$1") M/s: $RUN_BROKEN"
			return 2
		fi
		echo "#   $kind, $t thread(s), $(M "$1") M/s for ${search_s} s: $RUN_NOTE"
		[ "$RUN_OK" = 1 ]
	}
	while :; do
		one "$r"
		case $? in
		0) lo=$r; [ "$r" -ge "$max_rate" ] && break; r=$((r * 2)) ;;
		1) hi=$r; why="$(M "$r") M/s: $RUN_NOTE"; break ;;
		*) return 1 ;;
		esac
	done
	# none kept: halve, three times at most
	k=0
	while [ "$lo" = 0 ] && [ $k -lt 3 ]; do
		r=$((hi / 2))
		one "$r"
		case $? in
		0) lo=$r ;;
		1) hi=$r; why="$(M "$r") M/s: $RUN_NOTE" ;;
		*) return 1 ;;
		esac
		k=$((k + 1))
	done
	k=0
	while [ "$lo" -gt 0 ] && [ "$hi" -gt 0 ] && [ $k -lt $bisect_steps ] &&
	      [ $((hi - lo)) -gt 150000 ]; do
		r=$(( (lo + hi) / 2 / 100000 * 100000 ))
		one "$r"
		case $? in
		0) lo=$r ;;
		1) hi=$r; why="$(M "$r") M/s: $RUN_NOTE" ;;
		*) return 1 ;;
		esac
		k=$((k + 1))
	done
	FOUND=$lo
	FOUND_WHY=$why
	LOWEST=$hi
	[ "$lo" -gt 0 ] || return 0
	confirm "$lo" || return 1
	if [ "$RUN_OK" = 1 ]; then
		CONFIRM=kept
		KEPT_LONG=$lo
		return 0
	fi
	CONFIRM=$RUN_SHORT
	# twice more at most, each at three quarters of the one before
	r=$lo
	for k in 1 2; do
		r=$(( r * 3 / 4 / 100000 * 100000 ))
		[ "$r" -gt 0 ] || return 0
		confirm "$r" || return 1
		if [ "$RUN_OK" = 1 ]; then
			CONFIRM="$CONFIRM; $(M "$r"): kept"
			KEPT_LONG=$r
			return 0
		fi
		CONFIRM="$CONFIRM; $(M "$r"): $RUN_SHORT"
	done
}

# confirm RATE: the long run, logged.  Returns 1 when the recorder broke.
confirm() {
	"run_$kind" "$1" "$t" "$confirm_s"
	if [ -n "$RUN_BROKEN" ]; then
		echo "#   $kind, $t thread(s), $(M "$1") M/s for ${confirm_s} s: $RUN_BROKEN"
		return 1
	fi
	echo "#   $kind, $t thread(s), $(M "$1") M/s for ${confirm_s} s: $RUN_NOTE"
}

# ---- which recorders can run

fuse_why=
if [ ! -e /dev/fuse ] || ! command -v fusermount3 >/dev/null 2>&1; then
	fuse_why="no /dev/fuse or fusermount3"
fi
tc_why=
if ! command -v trace-cmd >/dev/null 2>&1; then
	tc_why="trace-cmd is not installed (Debian: trace-cmd)"
fi
lttng_why=
if [ -n "${USTRACE_SANITIZE:-}" ]; then
	lttng_why="a SANITIZE=$USTRACE_SANITIZE build"
elif [ ! -x "$lttng_prog" ]; then
	lttng_why="sustained_lttng was not built (pkg-config finds no lttng-ust; scripts/install-bench-deps.sh, then make bench)"
elif ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
	lttng_why="lttng-tools is not installed (scripts/install-bench-deps.sh)"
fi

# USTRACE_SUSTAINED_RECORDERS: which rows, of "ustrace mount collector lttng"
read -r -a kinds <<<"${USTRACE_SUSTAINED_RECORDERS:-ustrace mount collector lttng}"
declare -A label why_not res
label[ustrace]="ustrace record"
label[mount]="trace-cmd record, mount"
label[collector]="trace-cmd record, collector"
label[lttng]="LTTng-UST consumer"
declare -A key=([ustrace]=ustrace_record [mount]=trace_cmd_record [collector]=collector [lttng]=lttng)
why_not[ustrace]=
why_not[mount]=${fuse_why:-$tc_why}
why_not[collector]=${fuse_why:-$tc_why}
why_not[lttng]=$lttng_why

start_collector() {
	mkdir -p "$tmp/run"
	"$ustrace" daemon --rundir "$tmp/run" >"$tmp/daemon.log" 2>&1 &
	dpid=$!
	if ! wait_for 20 test -S "$tmp/run/collector.sock" -a -e "$tmp/run/tracing/README"; then
		why_not[collector]="the collector did not start: $(tail -n 2 "$tmp/daemon.log" | tr '\n' ' ')"
		broken=y
	fi
}

start_sessiond() {
	lttng_start_sessiond "$tmp/lttng-home" sustained.sh ||
		why_not[lttng]=$LTTNG_SESSIOND_WHY
}

t_start=$(date +%s)
load0=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "# sustained rate, zero loss: search runs of ${search_s} s from $(M $start_rate) M events/s" \
     "(doubling, then bisecting), confirmed for ${confirm_s} s"
for kind in "${kinds[@]}"; do
	if [ -z "${why_not[$kind]}" ]; then
		case $kind in
		collector) start_collector ;;
		lttng) start_sessiond ;;
		esac
	fi
	for t in 1 2; do
		if [ -n "${why_not[$kind]}" ]; then
			res[$kind,$t]="-"
			res[$kind,$t,c]="-"
			continue
		fi
		if ! search "$kind" "$t"; then
			broken=y
			why_not[$kind]="broke: $RUN_BROKEN"
			res[$kind,$t]="-"
			res[$kind,$t,c]="-"
			continue
		fi
		if [ "$FOUND" = 0 ]; then
			res[$kind,$t]="< $(M "$LOWEST")"
		else
			res[$kind,$t]=$(M "$FOUND")
		fi
		res[$kind,$t,c]=$CONFIRM
		res[$kind,$t,w]=$FOUND_WHY
		# make bench's closing table (scripts/bench-table.sh): the
		# rate a long run kept, 0 when none did
		if [ -n "${USTRACE_BENCH_TABLE:-}" ]; then
			echo "sustained_${key[$kind]}_${t}t $(M "$KEPT_LONG")" >>"$USTRACE_BENCH_TABLE"
		fi
	done
	if [ "$kind" = collector ] && [ -n "$dpid" ]; then
		kill -TERM "$dpid" 2>/dev/null
		wait "$dpid" 2>/dev/null
		dpid=
	fi
done
t_end=$(date +%s)

# ---- the table
echo "# highest rate with no event lost, producer/consumer mode, M events/s (all writers"
echo "# together), and what a ${confirm_s} s run at that rate kept (if not: at 3/4 of it, then 3/4 of that)"
printf '%-28s %9s %9s   %-32s %s\n' "" "1 thread" "2 threads" "${confirm_s} s, 1 thread" "${confirm_s} s, 2 threads"
for kind in "${kinds[@]}"; do
	printf '%-28s %9s %9s   %-32s %s\n' "${label[$kind]}" "${res[$kind,1]}" "${res[$kind,2]}" \
		"${res[$kind,1,c]}" "${res[$kind,2,c]}"
done
for kind in "${kinds[@]}"; do
	for t in 1 2; do
		[ -n "${res[$kind,$t,w]:-}" ] &&
			echo "# ${label[$kind]}, $t thread(s), the lowest rate that lost, ${res[$kind,$t,w]}"
	done
done
for kind in "${kinds[@]}"; do
	[ -n "${why_not[$kind]}" ] && echo "# ${label[$kind]} not run: ${why_not[$kind]}"
done
echo "# buffers: $buf_kb KiB per CPU (LTTng: 4 sub-buffers of $((buf_kb / 4)) KiB, per-user, discard mode);"
echo "#   $(nproc) CPUs; the writers are not pinned; $((t_end - t_start)) s in all; load average" \
     "before: $load0, after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
[ -z "$broken" ]
