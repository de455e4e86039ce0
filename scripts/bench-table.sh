#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench-table.sh FILE - the closing table of "make bench": each target of
# the event hot path (issue 11 of the project's tracker) beside the figure
# this run measured and whether it is met.  FILE holds "KEY VALUE" lines
# that the benchmarks appended as they ran (USTRACE_BENCH_TABLE, see
# selftests/bench/bench_harness.h); a figure no benchmark wrote (LTTng not
# installed, no FUSE, a sanitized build) shows as "-" and is not judged.
#
# Prints the table; exits 0 whatever it says: timings are reported, never
# asserted (the machine is shared and noisy).

set -u
file=${1:?usage: bench-table.sh FILE}

val() {
	local v

	v=$(awk -v k="$1" '$1 == k { v = $2 } END { if (v != "") print v }' "$file" 2>/dev/null)
	echo "${v:--}"
}

# calc EXPR A B...: awk arithmetic on the values, "-" when one is missing.
calc() {
	local expr=$1 a

	shift
	for a in "$@"; do
		[ "$a" = - ] && { echo -; return; }
	done
	awk -v a="${1:-0}" -v b="${2:-0}" "BEGIN { printf \"%.2f\", $expr }"
}

# row WHAT FIGURE TARGET TEST: TEST is an awk condition on x (the figure).
row() {
	local verdict

	if [ "$2" = - ]; then
		verdict="not measured"
	elif awk -v x="$2" "BEGIN { exit !($4) }"; then
		verdict=met
	else
		verdict="NOT MET"
	fi
	printf '%-52s %10s  %-10s %s\n' "$1" "$2" "$3" "$verdict"
}

ns1=$(val event_ns_1t)
lt1=$(val lttng_ns_1t)
alone=$(val pc_alone_ns)
unf=$(val filter_unfiltered_ns)

echo
echo "# make bench: the targets of the event hot path, as this run measured them"
printf '%-52s %10s  %-10s %s\n' "" "measured" "target" ""
row "enabled event, one thread (ns)" "$ns1" "<= 16" "x <= 16"
row "LTTng-UST / ours, one thread (x)" "$(calc 'b / a' "$ns1" "$lt1")" ">= 6" "x >= 6"
row "two threads / one thread, event rate (x)" "$(val event_scaling)" ">= 1.95" "x >= 1.95"
row "instructions per enabled event (callgrind)" "$(val event_ir)" "<= 150" "x <= 150"
row "disabled site, instructions (the NOP)" "$(val disabled_site_ir)" "1" "x == 1"
row "writer with a sleeping reader / alone (x)" "$(calc 'a / b' "$(val pc_wait_ns)" "$alone")" \
	"<= 1.2" "x <= 1.2"
row "writer with a polling reader / alone (x)" "$(calc 'a / b' "$(val pc_poll_ns)" "$alone")" \
	"<= 1.2" "x <= 1.2"
row "filtered event that passes - unfiltered (ns)" \
	"$(calc 'a - b' "$(val filter_pass_ns)" "$unf")" "<= 5" "x <= 5"
row "rejected at 1st predicate - unfiltered (ns)" \
	"$(calc 'a - b' "$(val filter_reject1_ns)" "$unf")" "< 0" "x < 0"
row "idle program, reader attached (wakeups/s)" "$(val idle_wakeups_per_s)" "0" "x == 0"
printf '%-52s %10s  %-10s %s\n' "busy program: its CPU per trace_pipe line (us)" \
	"$(val pipe_reader_us_per_event)" "(no target)" ""
for rec in ustrace_record trace_cmd_record collector lttng; do
	for t in 1 2; do
		v=$(val "sustained_${rec}_${t}t")
		[ "$v" = - ] && [ "$rec" != ustrace_record ] && continue
		if [ "$rec" = ustrace_record ]; then
			row "zero-loss rate, ${rec//_/ }, $t thread(s) (M/s)" "$v" ">= 10" "x >= 10"
		else
			printf '%-52s %10s  %-10s %s\n' \
				"zero-loss rate, ${rec//_/ }, $t thread(s) (M/s)" "$v" "(peer)" ""
		fi
	done
done
exit 0
