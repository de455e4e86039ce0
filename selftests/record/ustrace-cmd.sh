#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ustrace-cmd.sh - ustrace record, report and list (tools/tracing/).  TAP.
#
#   - record runs the program and prints what each CPU recorded and lost,
#     read back from the file: nothing lost, events overwritten (overwrite
#     mode), events dropped (producer/consumer with a small buffer); -v 6,
#     -C, a program killed by SIGSEGV, one not linked with libustrace, bad
#     options
#   - report prints what trace-cmd report prints
#   - list -e and -F: the events of a binary, and their formats as a
#     recorded file holds them
#   - every command's --help names the options its man page describes

set -u

. "$(dirname "$0")/../lib/tap.sh"
ustrace=$objtree/tools/tracing/ustrace
app=$objtree/selftests/record/rec-app
compare=("${PYTHON:-python3}" "$srctree/selftests/record/compare.py")
run=(timeout -k 5 60)

tap_begin cmd

# sum FIELD FILE: FIELD (events, lost, overwritten, dropped) over the CPUs
# of a summary.
sum() {
	awk -v f="$1" '
	/^  CPU[0-9]+: / {
		ev += $2; lost += $4; ow += substr($6, 2); dr += $8
	}
	END { print f == "events" ? ev : f == "lost" ? lost : f == "overwritten" ? ow : dr }' "$2"
}

# record NAME RECORD-OPTIONS -- REC-APP-OPTIONS: stderr into NAME.sum.
record() {
	local name=$1

	shift
	"${run[@]}" "$ustrace" record -o "$name.dat" "$@" 2>"$name.sum"
	local rc=$?
	cat "$name.sum"
	return $rc
}

plain() {
	record plain -e rec_test -- "$app" -n 100 -w 2 || return 1
	grep -q "^ustrace record: .*/rec-app exited with status 0$" plain.sum &&
		grep -q "^ustrace record: plain.dat: version 7, clock local, [0-9]* CPUs$" plain.sum &&
		[ "$(sum events plain.sum)" = 200 ] && [ "$(sum lost plain.sum)" = 0 ] &&
		[ "$(grep -c '^  CPU[0-9]*: ' plain.sum)" -ge 1 ]
}
check "record: every event, none lost, per CPU" plain

report() {
	"${run[@]}" "$ustrace" report plain.dat >r1 2>&1 &&
		"${run[@]}" trace-cmd report -i plain.dat >r2 2>&1 && cmp r1 r2 &&
		[ "$(grep -c rec_seq r1)" = 200 ] &&
		"${run[@]}" "$ustrace" report plain.dat -- --stat >r3 2>&1 &&
		grep -q "^read events: " r3
}
check "report: trace-cmd report's output, options passed on" report

overwritten() {
	record ow -e rec_test -m overwrite -b 16 -- "$app" -n 5000 -w 1 || return 1
	[ "$(sum overwritten ow.sum)" -gt 0 ] &&
		[ $(($(sum events ow.sum) + $(sum lost ow.sum))) = 5000 ] &&
		[ "$(trace-cmd report ow.dat | grep -c rec_seq)" = "$(sum events ow.sum)" ]
}
check "record -m overwrite: the overwritten events are counted as lost" overwritten

dropped() {
	record pc -e rec_test -b 8 -- "$app" -n 200000 -w 1 || return 1
	[ "$(sum dropped pc.sum)" -gt 0 ] &&
		[ $(($(sum events pc.sum) + $(sum lost pc.sum))) = 200000 ] &&
		[ "$(trace-cmd report pc.dat | grep -c rec_seq)" = "$(sum events pc.sum)" ]
}
check "record -b 8: events a full buffer refused are counted as lost" dropped

version6() {
	record v6 -e rec_test -v 6 -C global -- "$app" -n 10 -w 1 || return 1
	grep -q "^ustrace record: v6.dat: version 6, clock global, " v6.sum &&
		[ "$(trace-cmd report v6.dat | grep -c rec_seq)" = 10 ]
}
check "record -v 6 -C global" version6

crashed() {
	local how="was killed by SIGSEGV"

	# A sanitizer's handler, which ours hands the signal to, exits.
	[ -n "${USTRACE_SANITIZE:-}" ] && how="(was killed by SIGSEGV|exited with status [0-9]+)"
	record crash -e rec_test -- "$app" -n 10 -w 2 -k 11 || return 1
	grep -qE "rec-app $how$" crash.sum && [ "$(sum events crash.sum)" = 20 ]
}
check "record: a program killed by SIGSEGV leaves its file" crashed

not_linked() {
	touch nl.dat
	record nl -- /bin/true
	[ $? = 1 ] && grep -q "nl.dat was not written" nl.sum && ! [ -e nl.dat ]
}
check "record: a program without libustrace: no file, status 1" not_linked

bad_options() {
	local o

	for o in "-C nope" "-m sometimes" "-v 5" "-b 0" "-b x"; do
		# shellcheck disable=SC2086
		"$ustrace" record $o -- "$app" -n 1 2>bad.err
		[ $? = 2 ] || { echo "$o: not a usage error"; return 1; }
	done
	"$ustrace" record 2>/dev/null
	[ $? = 2 ]
}
check "record: bad options are usage errors" bad_options

not_itself() {
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=env.dat \
		record self -e rec_test -- "$app" -n 5 -w 1 || return 1
	[ -e self.dat ] && ! [ -e env.dat ] && [ "$(sum events self.sum)" = 5 ]
}
check "record: ustrace itself does not record, whatever its environment" not_itself

# USTRACE_TRACEFS names the programs' mount: ustrace serves none there.
no_tracefs() {
	local d

	d=$(mktemp -d "$PWD/tfs.XXXXXX") || return 1
	USTRACE_TRACEFS=$d "${run[@]}" "$ustrace" record -o nt.dat -- sh -c \
		"sleep 1; awk -v d='$d' '\$2 == d { print \"mounted:\", \$3 }' /proc/mounts" \
		>nt.out 2>nt.err
	cat nt.out nt.err
	awk -v d="$d" '$2 == d { found = 1 } END { exit found }' /proc/mounts &&
		! [ -s nt.out ] && ! grep -q 'tracefs' nt.err && rmdir "$d"
}
check "ustrace serves no tracefs of its own, whatever its environment" no_tracefs

list_events() {
	"$ustrace" list -e "$app" >le.out || return 1
	cat le.out
	[ "$(head -n 1 le.out)" = rec_test:rec_seq ] &&
		grep -qx sample_trace:foo_bar le.out && [ "$(wc -l <le.out)" = 9 ]
}
check "list -e: the events a binary defines" list_events

list_formats() {
	"$ustrace" list -F "$app" >lf.out &&
		"$app" -o all.dat -e all -n 1 -w 1 &&
		trace-cmd dump --events all.dat >dump.out 2>&1 &&
		"${compare[@]}" formats lf.out dump.out
}
check "list -F: each format as the recorded file holds it" list_formats

# The long options of "ustrace CMD --help" and of its man page's OPTIONS.
help_options() {
	local cmd=$1 page=$srctree/Documentation/man/ustrace-$1.1

	diff <("$ustrace" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u) \
	     <(sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$page" |
	       grep -o -- '\\-\\-[a-z][a-z\\-]*' | sed 's/\\//g' | sort -u)
}
for cmd in record report list; do
	check "ustrace $cmd --help names the options of ustrace-$cmd(1)" help_options "$cmd"
done

commands() {
	diff <("$ustrace" help | sed -n 's/^  \([a-z-]*\) .*/\1/p' | sort) \
	     <(sed -n '/^\.SH DESCRIPTION/,/^\.SH EXIT/{/^\.TP$/{n;s/^\.B \([a-z\\-]*\)$/\1/p}}' \
		"$srctree/Documentation/man/ustrace.1" | sed 's/\\//g' | sort)
}
check "ustrace help lists the commands of ustrace(1)" commands

tap_end
