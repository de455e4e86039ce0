#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ustrace test runner.
#
#   run-tests.sh [options] [--] PROGRAM...
#	Run each PROGRAM, then every selftests/**/*.sh script (except those
#	under selftests/lib/, bench/ and stress/), each in its own process
#	with a timeout, and count the TAP results they print.
#   run-tests.sh --variant NAME --results FILE --build-failed
#	Record that variant NAME did not build: one failure.
#   run-tests.sh --total FILE...
#	Add up results files and print the closing line
#	"N passed, N failed[, N skipped]"; exit 1 if any test failed.  Before
#	the summary of each variant it lists the failed tests (the first
#	20): "# FAILED VARIANT: TEST", then up to 5 lines of the test's log
#	that say why - its first failed result with the diagnostics around
#	it, or, when the runner failed it (timeout, exit status, short of its
#	plan), the last lines of the log.
#
# Options:
#   --variant NAME	name shown in the output (default: local)
#   --srctree DIR	source tree (default: this script's parent)
#   --objtree DIR	build directory (default: .)
#   --env NAME=VALUE	set in the tests' environment (repeatable)
#   --wrap 'CMD ARGS'	run every test under CMD (e.g. setarch x86_64 -R);
#			dropped with a note if "CMD ARGS true" fails
#   --timeout SEC	per-test timeout (default $USTRACE_TEST_TIMEOUT or 300); a
#			script may ask for more with a "# timeout: SEC" line
#			in its first 30 lines
#   --results FILE	write "passed failed skipped" to FILE, then one line
#			"failed<TAB>TEST<TAB>LOG<TAB>WHY" per failed test
#
# Counting: each "ok"/"not ok" line at the start of a line of a test's output
# is one result; a "# SKIP" or "# TODO" directive makes it a skip. A test that
# times out, or exits non-zero (other than 4, kselftest's "skip") without a
# failed result, or stops short of its plan or bails out, adds one failure.
# A test that prints no result counts as one: passed if it exits 0, skipped
# if it exits 4.
#
# Tests run with their working directory in the build directory, standard
# input from /dev/null, and USTRACE_SRCTREE, USTRACE_OBJTREE,
# USTRACE_VARIANT and USTRACE_TEST_TIMEOUT (their timeout) in the
# environment, and the build directory first in LD_LIBRARY_PATH: the
# programs' run path (DT_RUNPATH) comes after LD_LIBRARY_PATH, and a test
# must load its own build's libustrace.so, not one an inherited
# LD_LIBRARY_PATH names (an installed copy, another variant's).  Their
# output (stdout and stderr) goes to
# <objtree>/selftests-output/<variant>/<name>.log.

set -u

KSFT_SKIP=4

die() {
	echo "run-tests.sh: $*" >&2
	exit 2
}

# summary WHO PASSED FAILED SKIPPED: "WHO: N passed, N failed[, N skipped]"
summary() {
	local line="$2 passed, $3 failed"

	[ "$4" -gt 0 ] && line="$line, $4 skipped"
	echo "${1:+$1: }$line"
}

write_results() {
	[ -z "$results" ] && return
	mkdir -p "$(dirname "$results")"
	{
		echo "$1 $2 $3"
		[ ${#failures[@]} -gt 0 ] && printf 'failed\t%s\n' "${failures[@]}"
	} >"$results"
}

# why_lines LOG RUNNER-REASON: at most 5 lines of LOG that say why its test
# failed.  A failed result (not a TODO) comes with the comment lines right
# after it and, to make up 5, those right before it (kselftest.h prints
# an assertion's values before the result); without one, or when the
# runner failed the test, the last lines of the log.
why_lines() {
	local got=

	[ "$1" = - ] && return
	[ -f "$1" ] || { echo "(no log: $1)"; return; }
	[ -z "$2" ] && got=$(awk -v max=5 '
	function flush(   i) {
		for (i = nb - (max - 1 - na) + 1; i <= nb; i++)
			if (i >= 1) print before[i]
		print hit
		for (i = 1; i <= na; i++) print after[i]
	}
	!found && /^not ok/ && toupper($0) !~ /#[ \t]*(TODO|SKIP)/ {
		found = 1; hit = $0; next
	}
	!found && /^#/ { before[++nb] = $0; next }
	!found { nb = 0; next }
	found && /^#/ && na < max - 1 { after[++na] = $0; next }
	found { exit }
	END { if (found) flush() }' "$1")
	if [ -n "$got" ]; then
		printf '%s\n' "$got"
	else
		tail -n 5 "$1"
	fi
}

# list_failures LIMIT FILE...: "# FAILED" and the reasons of the first LIMIT
# failed tests of the results files.
list_failures() {
	local limit=$1 f v tag test log why shown=0 more=0

	shift
	for f; do
		v=$(basename "$f")
		[ -f "$f" ] || continue
		while IFS=$'\t' read -r tag test log why; do
			[ "$tag" = failed ] || continue
			if [ "$shown" -ge "$limit" ]; then
				more=$((more + 1))
				continue
			fi
			shown=$((shown + 1))
			echo "# FAILED $v: $test${why:+ ($why)}"
			why_lines "$log" "$why" | cut -c 1-200 | sed 's/^/#   /'
		done < <(tail -n +2 "$f")
	done
	[ "$more" -gt 0 ] && echo "# ... and $more more failed tests: see selftests-output/ in the build directories"
	return 0
}

total() {
	local f p q s tp=0 tf=0 ts=0

	list_failures 20 "$@"
	echo "# ===== summary ====="
	for f; do
		if read -r p q s 2>/dev/null <"$f"; then
			:
		else
			echo "# $(basename "$f"): the runner left no results"
			p=0 q=1 s=0
		fi
		echo "# $(summary "$(basename "$f")" "$p" "$q" "$s")"
		tp=$((tp + p)) tf=$((tf + q)) ts=$((ts + s))
	done
	summary "" "$tp" "$tf" "$ts"
	[ "$tf" -eq 0 ]
}

# exit_reason STATUS: "exit status N", or the signal for 128 + N.
exit_reason() {
	local sig

	if [ "$1" -gt 128 ] && sig=$(kill -l "$(($1 - 128))" 2>/dev/null); then
		echo "killed by SIG$sig"
	else
		echo "exit status $1"
	fi
}

# tap_count LOG: prints "passed failed skipped plan bailed"; plan is -1 when
# the test printed none.
tap_count() {
	awk '
	/^(not )?ok([ \t]|$)/ {
		directive = ""
		if (match($0, /#[ \t]*[A-Za-z]+/))
			directive = toupper(substr($0, RSTART, RLENGTH))
		if (directive ~ /^#[ \t]*(SKIP|TODO)/)
			skipped++
		else if ($0 ~ /^ok/)
			passed++
		else
			failed++
		next
	}
	/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; planned = 1 }
	/^Bail out!/ { bailed = 1 }
	END {
		printf "%d %d %d %d %d\n", passed, failed, skipped,
		       planned ? plan : -1, bailed
	}' "$1"
}

variant=local
srctree=
objtree=.
results=
timeout=${USTRACE_TEST_TIMEOUT:-300}
wrap=
mode=run
envs=()
failures=()

while [ $# -gt 0 ]; do
	case $1 in
	--variant)	variant=$2; shift 2 ;;
	--srctree)	srctree=$2; shift 2 ;;
	--objtree)	objtree=$2; shift 2 ;;
	--env)		envs+=("$2"); shift 2 ;;
	--wrap)		wrap=$2; shift 2 ;;
	--timeout)	timeout=$2; shift 2 ;;
	--results)	results=$2; shift 2 ;;
	--build-failed)	mode=build-failed; shift ;;
	--total)	mode=total; shift; break ;;
	--)		shift; break ;;
	-h|--help)	sed -n '3,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*)		die "unknown option $1" ;;
	*)		break ;;
	esac
done

case $mode in
total)
	total "$@"
	exit
	;;
build-failed)
	echo "not ok 1 $variant: build # the build failed, its tests did not run"
	failures=("build	-	the build failed, its tests did not run")
	write_results 0 1 0
	summary "$variant" 0 1 0
	exit 1
	;;
esac

[ -n "$srctree" ] || srctree=$(dirname "$0")/..
srctree=$(cd "$srctree" && pwd) || die "no source tree"
objtree=$(cd "$objtree" && pwd) || die "no build directory"

tests=("$@")
if [ -d "$srctree/selftests" ]; then
	while IFS= read -r t; do
		tests+=("$t")
	done < <(find "$srctree/selftests" -name '*.sh' \
		-not -path "$srctree/selftests/lib/*" \
		-not -path "$srctree/selftests/bench/*" \
		-not -path "$srctree/selftests/stress/*" | LC_ALL=C sort)
fi

read -ra wrapper <<<"$wrap"
if [ -n "$wrap" ] && ! "${wrapper[@]}" true >/dev/null 2>&1; then
	echo "# [$variant] '$wrap' does not work here; running tests without it"
	wrapper=()
fi

outdir=$objtree/selftests-output/$variant
rm -rf "$outdir"
mkdir -p "$outdir" || die "cannot create $outdir"

total_pass=0 total_fail=0 total_skip=0 n=0
failures=()

echo "TAP version 13"
echo "1..${#tests[@]}"

for t in "${tests[@]}"; do
	n=$((n + 1))
	# The build directory may lie inside the source tree: try it first.
	case $t in
	"$objtree"/*)	name=${t#"$objtree"/} ;;
	"$srctree"/*)	name=${t#"$srctree"/} ;;
	*)		name=$t ;;
	esac
	log=$outdir/${name#selftests/}.log
	mkdir -p "$(dirname "$log")"

	cmd=("$t")
	t_timeout=$timeout
	case $t in
	*.sh)	[ -x "$t" ] || cmd=(bash "$t")
		asked=$(sed -n '1,30s/^#[ 	]*timeout:[ 	]*\([0-9][0-9]*\).*/\1/p' "$t" | head -n 1)
		[ -n "$asked" ] && [ "$asked" -gt "$timeout" ] && t_timeout=$asked ;;
	esac

	start=$(date +%s.%N)
	if [ -x "$t" ] || [ "${cmd[0]}" = bash ]; then
		# The braces keep bash's "Segmentation fault" notice off the
		# terminal; the summary line says how the test ended.
		{ (cd "$objtree" &&
		   exec env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
			LD_LIBRARY_PATH="$objtree${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			USTRACE_SRCTREE="$srctree" USTRACE_OBJTREE="$objtree" \
			USTRACE_VARIANT="$variant" USTRACE_TEST_TIMEOUT="$t_timeout" ${envs[@]+"${envs[@]}"} \
			timeout -k 5 "$t_timeout" ${wrapper[@]+"${wrapper[@]}"} "${cmd[@]}") </dev/null >"$log" 2>&1; } 2>/dev/null
		rc=$?
	else
		echo "run-tests.sh: $t is missing or not executable" >"$log"
		rc=127
	fi
	secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')

	read -r pass fail skip plan bailed < <(tap_count "$log")
	ran=$((pass + fail + skip))
	why=
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="timed out after ${t_timeout}s (exit $rc)"
	elif [ "$ran" -eq 0 ]; then
		case $rc in
		0)		pass=1 ;;
		"$KSFT_SKIP")	skip=1 ;;
		*)		why=$(exit_reason "$rc") ;;
		esac
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne "$KSFT_SKIP" ] && [ "$fail" -eq 0 ]; then
		why=$(exit_reason "$rc")
	elif [ "$bailed" -eq 1 ] && [ "$fail" -eq 0 ]; then
		why="bailed out"
	elif [ "$plan" -ge 0 ] && [ "$ran" -lt "$plan" ] && [ "$fail" -eq 0 ]; then
		why="planned $plan tests, ran $ran"
	fi
	[ -n "$why" ] && fail=$((fail + 1))

	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))

	echo "# [$variant] $name: $(summary "" "$pass" "$fail" "$skip") (${secs}s)"
	if [ "$fail" -gt 0 ]; then
		failures+=("$name	$log	$why")
		echo "not ok $n $variant: $name${why:+ # $why}"
		echo "# --- last lines of ${log#"$objtree"/} ---"
		tail -n 40 "$log" | sed 's/^/#   /'
	elif [ "$pass" -eq 0 ] && [ "$skip" -gt 0 ]; then
		echo "ok $n $variant: $name # SKIP"
	else
		echo "ok $n $variant: $name"
	fi
done

write_results "$total_pass" "$total_fail" "$total_skip"
summary "$variant" "$total_pass" "$total_fail" "$total_skip"
[ "$total_fail" -eq 0 ]
