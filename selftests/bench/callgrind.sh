#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# callgrind.sh - instructions per disabled tracepoint site, counted by
# callgrind: unlike a timing, the count is the same on every machine, which
# makes it the regression guard for the site's cost.
#
# Runs "tp_bench --callgrind N" under
#
#	valgrind --tool=callgrind --smc-check=all
#
# (jump labels rewrite file-backed text; without --smc-check=all valgrind may
# keep running translations of the old bytes), once as is and once with
# USTRACE_JUMP_LABEL=0, and reads the inclusive instruction count (Ir) of
# each loop: loop_site_X calls a function holding one disabled site N times,
# loop_empty an empty function. (Ir(loop_site_X) - Ir(loop_empty)) / N is
# what the site adds to its caller.
#
# Prints one line per site form, e.g.
#	disabled site (jump label, patched):   1.00 instructions/site
# and which mode each run had (under valgrind membarrier may be missing, and
# the library then falls back). Fails when a patched site is not exactly one
# instruction (the NOP). Skips (exit 0) without valgrind, in sanitizer builds,
# and when valgrind cannot read the build's debug information.

set -u

objtree=${USTRACE_OBJTREE:-.}
bench=$objtree/selftests/bench/tp_bench
calls=${CALLGRIND_CALLS:-1000000}

if ! command -v valgrind >/dev/null 2>&1 ||
   ! command -v callgrind_annotate >/dev/null 2>&1; then
	echo "# callgrind.sh: valgrind is not installed; skipped"
	exit 0
fi
if [ -n "${USTRACE_SANITIZE:-}" ]; then
	echo "# callgrind.sh: a SANITIZE=$USTRACE_SANITIZE build does not run under valgrind; skipped"
	exit 0
fi
if [ ! -x "$bench" ]; then
	echo "callgrind.sh: $bench is missing (make bench builds it)" >&2
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# run NAME [VAR=VALUE...]: tp_bench under callgrind; NAME.out is the
# profile, NAME.log the program's output.
run() {
	local name=$1

	shift
	if ! env "$@" valgrind -q --tool=callgrind --smc-check=all \
		--callgrind-out-file="$tmp/$name.out" \
		"$bench" --callgrind "$calls" >"$tmp/$name.log" 2>"$tmp/$name.err"; then
		if grep -q 'debuginfo reader' "$tmp/$name.err"; then
			# e.g. valgrind 3.19 and clang's default DWARF 5
			echo "# callgrind.sh: this valgrind cannot read the build's" \
			     "debug information (try CFLAGS=-gdwarf-4); skipped"
			exit 0
		fi
		echo "callgrind.sh: tp_bench failed under valgrind ($*):" >&2
		cat "$tmp/$name.err" >&2
		exit 1
	fi
}

# ir NAME FUNCTION: the inclusive Ir of FUNCTION in run NAME.
ir() {
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$tmp/$1.out" |
	awk -v fn="$2" '
	$0 ~ ":" fn " \\[" || $0 ~ ":" fn "$" {
		v = $1; gsub(/,/, "", v); print v; exit
	}'
}

# per_site NAME FUNCTION: instructions per call of the site, 2 decimals.
per_site() {
	local loop empty

	loop=$(ir "$1" "$2")
	empty=$(ir "$1" loop_empty)
	if [ -z "$loop" ] || [ -z "$empty" ]; then
		echo "?"
		return
	fi
	awk -v a="$loop" -v b="$empty" -v n="$calls" 'BEGIN { printf "%.2f", (a - b) / n }'
}

mode_of() {
	sed -n 's/^mode: //p' "$tmp/$1.log"
}

run live
run fallback USTRACE_JUMP_LABEL=0

echo "# callgrind: instructions a disabled site adds to its caller"
echo "# ($calls calls; Ir(loop_site) - Ir(loop_empty), per call)"
echo "# run 1: $(mode_of live) (jump_label_text_patching(): $(sed -n 's/^text patching: //p' "$tmp/live.log"))"
echo "# run 2 (USTRACE_JUMP_LABEL=0): $(mode_of fallback)"

status=0
live_mode=$(mode_of live)
live_cost=$(per_site live loop_site_jl)
fallback_cost=$(per_site fallback loop_site_jl)
nojl_cost=$(per_site live loop_site_nojl)

case $live_mode in
load+branch*)	;;	# no jump labels in this build: the line below says it
*)		printf '%-40s %6s instructions/site\n' "disabled site ($live_mode):" "$live_cost" ;;
esac
if [ "$(mode_of fallback)" != "$live_mode" ]; then
	printf '%-40s %6s instructions/site\n' "disabled site ($(mode_of fallback)):" "$fallback_cost"
fi
printf '%-40s %6s instructions/site\n' "disabled site (load+branch, JL=n form):" "$nojl_cost"
printf '%-40s %6s instructions/call\n' "baseline (empty function, per call):" \
	"$(awk -v a="$(ir live loop_empty)" -v n="$calls" 'BEGIN { printf "%.2f", a / n }')"

case $live_mode in
"jump label, patched")
	if [ -n "${USTRACE_BENCH_TABLE:-}" ]; then
		echo "disabled_site_ir $live_cost" >>"$USTRACE_BENCH_TABLE"
	fi
	;;
esac

# An -O0 build (CONFIG_USTRACE_DEBUG) keeps trace_bench_tp() out of line:
# the figures are printed, not checked.
if grep -q '^CONFIG_USTRACE_DEBUG=y' "$objtree/.config" 2>/dev/null; then
	echo "# CONFIG_USTRACE_DEBUG=y (-O0): not checked"
elif [ "$live_mode" = "jump label, patched" ] && [ "$live_cost" != "1.00" ]; then
	echo "callgrind.sh: a patched disabled site costs $live_cost instructions, not 1.00 (the NOP)" >&2
	status=1
fi
exit $status
