#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# make fuzz: scripts/run-fuzz.sh DIR SECONDS
#
# Builds each fuzz target with clang under libFuzzer and ASan/UBSan in
# DIR/libfuzzer, and its replay program (to write the seeds) in
# DIR/replay; runs each target for SECONDS from its seeds, the corpus
# and regressions of the tree (written by the replay program) and what
# earlier runs found (DIR/corpus/TARGET).  An input that fails is copied
# to selftests/fuzz/regress/TARGET-*.in, which the replay programs replay
# in "make check", and the run fails.  Run from the top of the source tree.
#
# Targets: filter (selftests/fuzz/filter-fuzzer, replayed by fuzz-replay),
# trigger (selftests/trigger/trigger-fuzzer, trigger-replay) and hist
# (selftests/hist/hist-fuzzer, hist-replay).
set -u

dir=$1
time=$2
make=${MAKE:-make}
targets="filter trigger hist"
fail=0

# A leak, an ASan report or any undefined behaviour ends the run with a
# failing input: UBSan alone would report and go on.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS

# fuzzer TARGET / replay TARGET: where the programs are built.
fuzzer() { case $1 in filter) echo selftests/fuzz/filter-fuzzer;; *) echo selftests/$1/$1-fuzzer;; esac; }
replay() { case $1 in filter) echo selftests/fuzz/fuzz-replay;; *) echo selftests/fuzz/$1-replay;; esac; }

$make -s O="$dir/replay" $(for t in $targets; do echo "$dir/replay/$(replay $t)"; done) || exit 1
$make -s O="$dir/libfuzzer" CC=clang SANITIZE=address,undefined \
	CFLAGS=-fsanitize=fuzzer-no-link USTRACE_FUZZ=1 \
	$(for t in $targets; do echo "$dir/libfuzzer/$(fuzzer $t)"; done) || exit 1

for t in $targets; do
	corpus=$dir/corpus/$t
	artifacts=$dir/artifacts/$t
	rm -rf "$artifacts"
	mkdir -p "$corpus" "$artifacts"
	"$dir/replay/$(replay "$t")" --seeds "$corpus" || exit 1
	echo "# fuzz: $t for $time s"
	dict=
	[ ! -f "selftests/fuzz/$t.dict" ] || dict=-dict=selftests/fuzz/$t.dict
	"$dir/libfuzzer/$(fuzzer "$t")" -max_total_time="$time" -timeout=10 \
		-rss_limit_mb=2048 $dict -print_final_stats=1 \
		-artifact_prefix="$artifacts/" "$corpus" > "$dir/$t.log" 2>&1
	status=$?
	grep -E '^(Done|stat::(number_of_executed_units|average_exec_per_sec|new_units_added))' \
		"$dir/$t.log" | sed 's/^/# /'
	for a in "$artifacts"/*; do
		[ -e "$a" ] || continue
		cp "$a" "selftests/fuzz/regress/$t-${a##*/}.in"
		echo "# fuzz: $t: a failing input, kept as selftests/fuzz/regress/$t-${a##*/}.in" >&2
		status=1
	done
	if [ $status != 0 ]; then
		tail -n 60 "$dir/$t.log" >&2
		fail=1
	fi
done
exit $fail
