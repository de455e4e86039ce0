#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fuzz.sh - the fuzzing harness itself (scripts/run-fuzz.sh, replay.c).  TAP.
#
#   - each replay replays its corpus (selftests/fuzz/corpus/TARGET.txt)
#     and fails when there is nothing to replay: no corpus, an empty one,
#     a line it cannot read
#   - "--seeds" hands libFuzzer the corpus and the regressions too
#   - make fuzz (scripts/run-fuzz.sh, driven here by a make that builds
#     stand-ins for the fuzzers) runs the fuzzers with ASAN_OPTIONS and
#     UBSAN_OPTIONS that stop at the first report, keeps a failing input
#     in regress/ and fails

set -u

. "$(dirname "$0")/../lib/tap.sh"
bindir=$objtree/selftests/fuzz

tap_begin fuzz

# tree DIR [FILTER-CORPUS [TRIGGER-CORPUS]]: a source tree with an empty
# regress/ and the corpora given (the first for both when one is given).
tree() {
	mkdir -p "$1/selftests/fuzz/regress" "$1/selftests/fuzz/corpus"
	if [ $# -gt 1 ]; then
		printf '%s' "$2" >"$1/selftests/fuzz/corpus/filter.txt"
		printf '%s' "${3-$2}" >"$1/selftests/fuzz/corpus/trigger.txt"
	fi
}

# replays SRCTREE: both replays on that tree; their status, 0 when both pass.
replays() {
	USTRACE_SRCTREE=$1 "$bindir/fuzz-replay" && USTRACE_SRCTREE=$1 "$bindir/trigger-replay"
}

corpus() {
	replays "$srctree" >corpus.out || { cat corpus.out; return 1; }
	cat corpus.out
	grep -Eq '^ok [0-9]+ [1-9][0-9]* inputs of the filter corpus$' corpus.out &&
		grep -Eq '^ok [0-9]+ [1-9][0-9]* inputs of the trigger corpus$' corpus.out
}
check "the replays replay the corpus in the tree" corpus

nothing() {
	tree none
	! replays "$tmp/none"
}
check "a replay of no corpus fails" nothing

empty() {
	tree empty '# only a comment
'
	! USTRACE_SRCTREE=$tmp/empty "$bindir/fuzz-replay" &&
		! USTRACE_SRCTREE=$tmp/empty "$bindir/trigger-replay"
}
check "a replay of an empty corpus fails" empty

bad_line() {
	tree bad 'no_such_event	x == 1
'
	! USTRACE_SRCTREE=$tmp/bad "$bindir/fuzz-replay" >bad.out
	local s=$?
	cat bad.out
	[ $s = 0 ] && grep -q 'corpus/filter.txt:1: not EVENT<tab>TEXT of a known event' bad.out
}
check "a corpus line naming an unknown event fails" bad_line

regress_too() {
	tree reg 'flt_small	s32v == 1
' 'trg_ev	traceon
'
	printf '\001traceon\000' >reg/selftests/fuzz/regress/trigger-crash-0.in
	USTRACE_SRCTREE=$tmp/reg "$bindir/trigger-replay" >reg.out || { cat reg.out; return 1; }
	mkdir seeds && USTRACE_SRCTREE=$tmp/reg "$bindir/trigger-replay" --seeds "$tmp/seeds" || return 1
	ls seeds | wc -l
	grep -q '^ok [0-9]* 1 trigger regressions$' reg.out &&
		[ "$(ls seeds | wc -l)" -ge 2 ] && cmp -s seeds/"$(ls seeds | tail -n 1)" \
			reg/selftests/fuzz/regress/trigger-crash-0.in
}
check "regressions are replayed and handed to libFuzzer with the corpus" regress_too

# A make that builds stand-ins: replays that write one seed, fuzzers that
# note their environment (and, for the trigger target, find a crash).
stub_make() {
	cat >make.sh <<'EOF'
#!/bin/sh
for a; do
	case $a in
	-*|*=*) continue ;;
	*-replay)
		mkdir -p "$(dirname "$a")"
		printf '#!/bin/sh\n[ "$1" = --seeds ] && : >"$2/seed-0"\nexit 0\n' >"$a" ;;
	*-fuzzer)
		mkdir -p "$(dirname "$a")"
		cat >"$a" <<'FUZZER'
#!/bin/sh
t=$(basename "$0" -fuzzer)
env | grep -E '^(ASAN|UBSAN)_OPTIONS=' >"$FUZZ_ENV_DIR/$t.env"
echo "Done 1 runs in 0 second(s)"
for a; do
	case $a in -artifact_prefix=*) dir=${a#-artifact_prefix=} ;; esac
done
if [ "$t" = trigger ]; then
	echo crash >"${dir}crash-0123"
	exit 1
fi
exit 0
FUZZER
		chmod +x "$a" ;;
	esac
	chmod +x "$a" 2>/dev/null
done
exit 0
EOF
	chmod +x make.sh
}

run_fuzz() {
	stub_make
	tree src
	mkdir envs
	(cd src && env -u ASAN_OPTIONS -u UBSAN_OPTIONS MAKE="$tmp/make.sh" \
		FUZZ_ENV_DIR="$tmp/envs" "$srctree/scripts/run-fuzz.sh" "$tmp/out" 1) >rf.out 2>&1
	local s=$?
	cat rf.out envs/*.env
	[ $s = 1 ] &&
		grep -q '^ASAN_OPTIONS=.*abort_on_error=1' envs/filter.env &&
		grep -q '^ASAN_OPTIONS=.*detect_leaks=1' envs/filter.env &&
		grep -q '^UBSAN_OPTIONS=.*halt_on_error=1' envs/filter.env &&
		grep -q '^UBSAN_OPTIONS=.*halt_on_error=1' envs/trigger.env &&
		[ -e src/selftests/fuzz/regress/trigger-crash-0123.in ] &&
		! ls src/selftests/fuzz/regress | grep -q '^filter-'
}
check "make fuzz: sanitizers stop at the first report; a failing input is kept" run_fuzz

tap_end
