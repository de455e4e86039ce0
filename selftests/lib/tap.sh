# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tap.sh - TAP for the shell tests, sourced (scripts/run-tests.sh does not
# run what is under selftests/lib/):
#
#	. "$(dirname "$0")/../lib/tap.sh"
#	tap_begin record	# "TAP version 13", cd into a scratch directory
#	check "what it shows" some_function ARGS...
#	same "what it shows" WANT GOT	# whether the text GOT is WANT
#	ok "what it shows"	# or not_ok, when the script decided itself
#	skip "what it shows" "why it cannot run here"
#	todo "what it shows" "why it is only reported"
#	diag FILE [LINES]	# the first LINES (20) of FILE as comments
#	tap_include FILE	# another program's TAP results, renumbered
#	tap_end			# the plan; fails if a result failed
#
# A script that knows its number of results may say so first instead,
# with tap_plan N (it prints "TAP version 13" too unless $tmp is set, as
# tap_begin sets it); tap_end then counts each result planned and not
# reached as a failure ("not reached") and prints no second plan.
#
# check runs the command with its output captured and prints one result;
# when it fails, the output's first lines follow as diagnostics.  It sets
# srctree and objtree (from USTRACE_SRCTREE and USTRACE_OBJTREE, else the
# tree the script is in) and tmp, the scratch directory, removed at exit
# (a script that sets an EXIT trap of its own removes "$tmp" there too).
# tap_failed counts the failed results; skip_all ends a script that cannot
# run here at all ("1..0 # SKIP", exit 4, which scripts/run-tests.sh counts
# as one skip).

srctree=${USTRACE_SRCTREE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
objtree=${USTRACE_OBJTREE:-$srctree}
tap_n=0
tap_failed=0
tap_planned=

tap_begin() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-$1.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	cd "$tmp" || exit 1
	echo "TAP version 13"
}

ok()     { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
not_ok() {
	tap_n=$((tap_n + 1)) tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
}
# skip WHAT WHY: a result that could not be had here.
skip()   { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
# todo WHAT WHY: a finding reported, not counted as a failure.
todo()   { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1 # TODO $2"; }

# skip_all WHY: nothing of the script can run here.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 4
}

# same NAME WANT GOT: one result, whether the text GOT is WANT (both
# shown when it is not).
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   want: $2"
		echo "#   got:  $3"
	fi
}

# diag [FILE [LINES]]: the first LINES (default 20) lines of FILE, or of
# the standard input without FILE or with "-", as TAP comments.
diag() {
	head -n "${2:-20}" "${1:--}" | sed 's/^/#   /'
}

# diag_tail FILE [LINES]: the last LINES (default 20) lines of FILE.
diag_tail() {
	tail -n "${2:-20}" "$1" | sed 's/^/#   /'
}

# tap_include FILE: the results of another program's TAP output, renumbered
# into this script's; its version and plan lines go, comments stay, and
# any other line becomes a comment.
tap_include() {
	local line d

	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			d=${line#ok }
			d=${d#not ok }
			d=${d#"${d%%[!0-9]*}"}
			d=${d# }
			d=${d#- }
			case $line in
			ok*)	ok "$d" ;;
			*"# TODO"*|*"# todo"*)
				tap_n=$((tap_n + 1))
				echo "not ok $tap_n - $d" ;;
			*)	not_ok "$d" ;;
			esac ;;
		"#"*)	echo "$line" ;;
		"TAP version"*|1..*) ;;
		*)	echo "# $line" ;;
		esac
	done <"$1"
}

check() {
	local what=$1

	shift
	if "$@" >"$tmp/check.out" 2>&1; then
		ok "$what"
	else
		not_ok "$what"
		diag "$tmp/check.out" 30
	fi
}

# tap_plan N: the plan, first (prints "TAP version 13" unless tap_begin did).
tap_plan() {
	[ -n "${tmp:-}" ] || echo "TAP version 13"
	tap_planned=$1
	echo "1..$1"
}

tap_end() {
	if [ -n "$tap_planned" ]; then
		while [ "$tap_n" -lt "$tap_planned" ]; do
			not_ok "not reached"
		done
	else
		echo "1..$tap_n"
	fi
	[ "$tap_failed" -eq 0 ]
}
