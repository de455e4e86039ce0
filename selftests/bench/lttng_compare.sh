#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lttng_compare.sh - our enabled trace event against LTTng-UST's, side by
# side, in one run.
#
# Both events carry three ints and a 16-character string:
#   ours   bench:bench_event, a TRACE_EVENT enabled with trace_set_clr_event()
#          and recorded into the global ring buffer (event_bench)
#   LTTng  ustrace_bench:bench_event, TRACEPOINT_EVENT with ctf_integer x3 and
#          ctf_string, probe provider compiled in (lttng_bench)
#
# LTTng needs a session: this script starts "lttng-sessiond --daemonize
# --no-kernel" (LTTNG_HOME in a temporary directory; as root the daemon's
# run directory is /var/run/lttng, so an already running root daemon is used
# instead and left running), creates a snapshot session (overwrite mode,
# nothing consumed while the program runs: the conditions of our global
# buffer, which overwrites and has no reader here) with a per-user
# userspace channel of 4 x 1 MiB sub-buffers per CPU, enables the event, starts, runs lttng_bench (timing) and
# lttng_bench under callgrind, stops, reads "Lost packets", destroys the
# session and kills the daemon it started.  If LTTng cannot run, it says
# why and prints our numbers alone.
#
# Prints a table: ns/event with one thread and with two (per thread), the
# two-thread scaling, ours/LTTng, instructions/event under callgrind
# ((Ir(loop_events) - Ir(loop_empty)) / N, valgrind --smc-check=all for our
# jump labels), and losses; then where our instructions go, per function.
#
# Environment: USTRACE_BENCH_EVENTS (events per thread per run, default
# 2000000), CALLGRIND_EVENTS (default 200000).  Timings are printed, never
# asserted; the script fails only when our own benchmark fails.

set -u

objtree=${USTRACE_OBJTREE:-.}
ours=$objtree/selftests/bench/event_bench
theirs=$objtree/selftests/bench/lttng_bench
cg_n=${CALLGRIND_EVENTS:-200000}
T="timeout -k 5"

if [ ! -x "$ours" ]; then
	echo "lttng_compare.sh: $ours is missing (make bench builds it)" >&2
	exit 1
fi

. "$(dirname "$0")/../lib/lttng.bash"

tmp=$(mktemp -d) || exit 1
session=
cleanup() {
	if [ -n "$session" ]; then
		$T 20 lttng destroy "$session" >/dev/null 2>&1
	fi
	lttng_stop_sessiond
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# get FILE KEY: the value of "KEY value" in FILE, or "-".
get() {
	local v

	v=$(awk -v k="$2" '$1 == k { print $2; exit }' "$1" 2>/dev/null)
	echo "${v:--}"
}

. "$(dirname "$0")/../lib/callgrind.sh"
sanitized=${USTRACE_SANITIZE:-}
have_cg=
cg_usable && have_cg=y

# cg NAME PROG: PROG --callgrind under callgrind; prints instructions/event
# or "-" (the reason goes to NAME.why).
cg() {
	if [ -z "$have_cg" ]; then
		echo "$cg_why" >"$tmp/$1.why"
		echo "-"
		return
	fi
	cg_per_event "$1" "$2" "$cg_n" "$tmp"
}

# ---- ours
if ! $T 120 "$ours" >"$tmp/ours.out" 2>"$tmp/ours.err"; then
	echo "lttng_compare.sh: event_bench failed:" >&2
	cat "$tmp/ours.err" >&2
	exit 1
fi
ours_ir=$(cg ours "$ours")

# ---- LTTng
lttng_why=
lttng_mode="snapshot session: overwrite, 4 x 1 MiB sub-buffers per CPU, per-user buffers, no consumer reading"
if [ -n "$sanitized" ]; then
	lttng_why="a SANITIZE=$sanitized build"
elif [ ! -x "$theirs" ]; then
	lttng_why="lttng_bench was not built (pkg-config finds no lttng-ust; run scripts/install-bench-deps.sh as root, then make bench)"
elif ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
	lttng_why="lttng-tools is not installed (scripts/install-bench-deps.sh)"
fi

lttng_ok=
if [ -z "$lttng_why" ]; then
	lttng_start_sessiond "$tmp/home" lttng_compare.sh || lttng_why=$LTTNG_SESSIOND_WHY
fi
if [ -z "$lttng_why" ]; then
	session=ustrace-bench-$$
	if ! { $T 20 lttng create "$session" --snapshot --output="$tmp/trace" &&
	       $T 20 lttng enable-channel -u -s "$session" --overwrite \
			--subbuf-size=1M --num-subbuf=4 ch &&
	       $T 20 lttng enable-event -u -s "$session" -c ch ustrace_bench:bench_event &&
	       $T 20 lttng start "$session"; } >"$tmp/session.log" 2>&1; then
		lttng_why="the session could not be set up: $(grep -i error "$tmp/session.log" | head -n 1)"
	fi
fi
if [ -z "$lttng_why" ]; then
	export LTTNG_UST_REGISTER_TIMEOUT=10000
	if ! $T 180 "$theirs" >"$tmp/lttng.out" 2>"$tmp/lttng.err"; then
		lttng_why="lttng_bench failed: $(tail -n 1 "$tmp/lttng.err")"
	elif [ "$(get "$tmp/lttng.out" enabled)" != 1 ]; then
		lttng_why="lttng_bench did not register with the session daemon (event disabled)"
	else
		lttng_ok=y
		lttng_ir=$(cg lttng "$theirs")
		if [ -f "$tmp/lttng.cglog" ] && [ "$(get "$tmp/lttng.cglog" enabled)" != 1 ]; then
			echo "under valgrind the event was not enabled" >"$tmp/lttng.why"
			lttng_ir=-
		fi
	fi
	$T 60 lttng stop "$session" >"$tmp/stop.log" 2>&1
	$T 20 lttng list "$session" >"$tmp/list.log" 2>&1
	lost=$(awk '/Lost packets:/ { print $3; exit }' "$tmp/list.log")
	discarded=$(awk '/Discarded events:/ { print $3; exit }' "$tmp/list.log")
fi

# ---- the table
o1=$(get "$tmp/ours.out" ns_1thread)
o2=$(get "$tmp/ours.out" ns_2threads)
os=$(get "$tmp/ours.out" scaling)
if [ -n "$lttng_ok" ]; then
	l1=$(get "$tmp/lttng.out" ns_1thread)
	l2=$(get "$tmp/lttng.out" ns_2threads)
	ls=$(get "$tmp/lttng.out" scaling)
else
	l1=- l2=- ls=- lttng_ir=-
fi
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a + 0 > 0 && b + 0 > 0) printf "%.2f (%.1fx faster)", a / b, b / a; else print "-" }'
}

echo "# ours vs LTTng-UST $(pkg-config --modversion lttng-ust 2>/dev/null):" \
     "an enabled event, 3 ints + 16-char string"
echo "# ${USTRACE_BENCH_EVENTS:-2000000} events per thread, best of 9 (1 and 2 threads in turns); callgrind: $cg_n events"
printf '%-28s %12s %12s   %s\n' "" "ours" "LTTng-UST" "ours/LTTng"
printf '%-28s %12s %12s   %s\n' "1 thread, ns/event" "$o1" "$l1" "$(ratio "$o1" "$l1")"
printf '%-28s %12s %12s   %s\n' "2 threads, ns/event/thread" "$o2" "$l2" "$(ratio "$o2" "$l2")"
x() { [ "$1" = - ] && echo - || echo "${1}x"; }
printf '%-28s %12s %12s\n' "2 threads / 1 thread (rate)" "$(x "$os")" "$(x "$ls")"
printf '%-28s %12s %12s   %s\n' "instructions/event" "$ours_ir" "$lttng_ir" "$(ratio "$ours_ir" "$lttng_ir")"
printf '%-28s %12s %12s\n' "dropped events" "$(get "$tmp/ours.out" dropped)" \
	"$( [ -n "$lttng_ok" ] && echo "${discarded:-0}" || echo -)"
printf '%-28s %12s %12s\n' "overwritten events/packets" \
	"$(get "$tmp/ours.out" overwritten) ev" "$( [ -n "$lttng_ok" ] && echo "${lost:-n/a} pkt" || echo -)"
# The figures of "make bench"'s closing table (scripts/bench-table.sh).
if [ -n "${USTRACE_BENCH_TABLE:-}" ]; then
	for kv in "event_ns_1t $o1" "event_ns_2t $o2" "event_scaling $os" "event_ir $ours_ir" \
		  "lttng_ns_1t $l1" "lttng_ir $lttng_ir"; do
		case $kv in *" -"|*" ") ;; *) echo "$kv" >>"$USTRACE_BENCH_TABLE" ;; esac
	done
fi
echo "# ours: global buffer, overwrite mode, 1408 KiB per CPU, no reader: overwritten"
echo "#   records are the expected turnover, not drops; dropped = refused by the buffer"
if [ -n "$lttng_ok" ]; then
	echo "# LTTng: $lttng_mode;"
	echo "#   discarded events are 0 by construction in overwrite mode; \"Lost packets\" from"
	echo "#   lttng list after stop (n/a: a snapshot session does not report it)"
	grep -i -E 'warn|discard|lost' "$tmp/stop.log" | sed 's/^/#   lttng stop: /'
else
	echo "# LTTng-UST not run: $lttng_why"
fi
for side in ours lttng; do
	[ -f "$tmp/$side.why" ] && echo "# callgrind ($side): $(cat "$tmp/$side.why")"
done

# ---- where our instructions go: exclusive Ir per function over loop_events
if [ -f "$tmp/ours.cg" ]; then
	echo "# our instructions/event by function (exclusive Ir / $cg_n events, > 1):"
	callgrind_annotate --inclusive=no --threshold=100 --auto=no "$tmp/ours.cg" 2>/dev/null |
	awk -v n="$cg_n" '
	/^ *[0-9,]+ .*:/ && !/PROGRAM TOTALS/ {
		v = $1; gsub(/,/, "", v)
		# "FILE:FUNCTION": code inlined from the ring buffer headers
		# into the event reserve is told apart by its file.
		fn = $0; sub(/^ *[0-9,]+ +\([^)]*\) +/, "", fn); sub(/ \[.*$/, "", fn)
		sub(/^.*\//, "", fn)
		if (fn ~ /:(loop_empty|bench_empty)$/) next
		ir[fn] += v
	}
	END { for (fn in ir) printf "#   %7.1f  %s\n", ir[fn] / n, fn }' |
	sort -k2,2 -rn >"$tmp/ours.fns"
	awk '$2 >= 1' "$tmp/ours.fns" | head -n 20
	# dispatch: the site, the probe loop, the RCU read side; ring buffer:
	# reserve (its fast path is inlined into the event's reserve: told by
	# the files rb_*.h and trace_clock.h), clock; the rest is the event's
	# probe: the record header, the __data_loc word, the fields, the
	# string's strlen and memcpy, the inline commit
	awk '{
		fn = $3
		if (fn ~ /^(ring_buffer|rb_|trace_clock)/ || fn ~ /:(ring_buffer_|rb_)/) c = "ring buffer (reserve, clock, commit)"
		else if (fn ~ /:(loop_events|__ustrace_do_|__ustrace_tp_|_dl_tlsdesc|.*rcu)/) c = "tracepoint dispatch (site, probe call, RCU read side)"
		else c = "event probe (header, fields, string copy)"
		sum[c] += $2
	}
	END { for (c in sum) printf "#   %7.1f  %s\n", sum[c], c }' "$tmp/ours.fns" |
	sort -k2,2 -rn | sed '1i # ... grouped:'
fi
exit 0
