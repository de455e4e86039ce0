# SPDX-License-Identifier: LGPL-2.1-or-later
#
# callgrind.sh - sourced: instructions per event, counted by callgrind (the
# count is the same on every machine, unlike a time).
#
#	. "$(dirname "$0")/../lib/callgrind.sh"
#	cg_usable || echo "why: $cg_why"
#	n=$(cg_per_event NAME PROG EVENTS DIR)	# "-" and $DIR/NAME.why on failure
#
# PROG --callgrind EVENTS must fire EVENTS events from a function named
# loop_events() and call an empty function as often from loop_empty()
# (selftests/bench/event_bench.c, lttng_bench.c); the result is
# (Ir(loop_events) - Ir(loop_empty)) / EVENTS, inclusive.  The profile is
# kept as DIR/NAME.cg, callgrind_annotate's inclusive listing as
# DIR/NAME.incl.  Valgrind runs with --smc-check=all: jump labels rewrite
# file-backed text.

# 0 when valgrind and callgrind_annotate are there and the build is not
# sanitized (USTRACE_SANITIZE); else 1, with the reason in $cg_why.
cg_usable() {
	cg_why=
	if [ -n "${USTRACE_SANITIZE:-}" ]; then
		cg_why="a SANITIZE=$USTRACE_SANITIZE build does not run under valgrind"
	elif ! command -v valgrind >/dev/null 2>&1 ||
	     ! command -v callgrind_annotate >/dev/null 2>&1; then
		cg_why="no valgrind (Debian: valgrind)"
	fi
	[ -z "$cg_why" ]
}

cg_per_event() {
	local name=$1 prog=$2 n=$3 dir=$4 loop empty

	if ! timeout -k 5 300 valgrind -q --tool=callgrind --smc-check=all \
		--callgrind-out-file="$dir/$name.cg" "$prog" --callgrind "$n" \
		>"$dir/$name.cglog" 2>"$dir/$name.cgerr"; then
		{ echo "valgrind failed:"; tail -n 3 "$dir/$name.cgerr"; } >"$dir/$name.why"
		echo "-"
		return
	fi
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$dir/$name.cg" \
		>"$dir/$name.incl" 2>/dev/null
	loop=$(awk '/:loop_events( |$)/ { v = $1; gsub(/,/, "", v); print v; exit }' "$dir/$name.incl")
	empty=$(awk '/:loop_empty( |$)/ { v = $1; gsub(/,/, "", v); print v; exit }' "$dir/$name.incl")
	if [ -z "$loop" ] || [ -z "$empty" ]; then
		echo "loop_events/loop_empty not in the profile (no debug information?)" >"$dir/$name.why"
		echo "-"
		return
	fi
	awk -v a="$loop" -v b="$empty" -v n="$n" 'BEGIN { printf "%.0f", (a - b) / n }'
}

# The same for a program with several loops, counted in one run:
#
#	cg_profile NAME PROG ARGS...	# 0, or 1 with the reason in $DIR/NAME.why
#	n=$(cg_diff DIR/NAME.incl FUNC BASE EVENTS)
#
# cg_profile runs PROG ARGS... under callgrind in $tmp (the profile
# $tmp/NAME.cg, the inclusive listing $tmp/NAME.incl); cg_diff prints
# (Ir(FUNC) - Ir(BASE)) / EVENTS, inclusive, or "-" when either is not in
# the listing.
cg_profile() {
	local name=$1 prog=$2

	shift 2
	if ! timeout -k 5 300 valgrind -q --tool=callgrind --smc-check=all \
		--callgrind-out-file="$tmp/$name.cg" "$prog" "$@" \
		>"$tmp/$name.cglog" 2>"$tmp/$name.cgerr"; then
		{ echo "valgrind failed:"; tail -n 3 "$tmp/$name.cgerr"; } >"$tmp/$name.why"
		return 1
	fi
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$tmp/$name.cg" \
		>"$tmp/$name.incl" 2>/dev/null
}

cg_diff() {
	local incl=$1 a b

	a=$(awk -v f="$2" '$0 ~ ":" f "( |$)" { v = $1; gsub(/,/, "", v); print v; exit }' "$incl")
	b=$(awk -v f="$3" '$0 ~ ":" f "( |$)" { v = $1; gsub(/,/, "", v); print v; exit }' "$incl")
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "-"
		return
	fi
	awk -v a="$a" -v b="$b" -v n="$4" 'BEGIN { printf "%.0f", (a - b) / n }'
}
