#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 360
#
# record.sh - a program writes its own trace.dat (USTRACE_EVENTS...,
# ustrace_record_start()), and the stock trace-cmd reads it.  TAP.
#
#   - trace-cmd report's event lines equal our own trace text for the same
#     run (rec-app-static -t), event for event, for file versions 7 and 6,
#     producer/consumer and overwrite mode, and every clock; trace-cmd
#     report and trace-cmd dump --all read the file without a warning
#   - samples/trace_events/trace-events-sample recorded through the
#     environment, in each mode and version: trace-cmd report prints what
#     the sample prints itself
#   - SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT still leave
#     a whole file; a handler the program had still runs (the other ways
#     a program ends, and what a guest must not do: guest-*.sh)
#   - the flight recorder keeps the last MB and says how many it lost;
#     SIGUSR2 and ustrace_record_dump() write numbered files
#   - producer/consumer mode keeps a recording longer than its buffer
#   - an event of a dlopen()ed object, bad variables, %p in the name
#   - the file written without unnamed files (O_TMPFILE refused)

set -u

. "$(dirname "$0")/../lib/tap.sh"
app=$objtree/selftests/record/rec-app
sapp=$objtree/selftests/record/rec-app-static
plugin=$objtree/selftests/trace_events/te-plugin.so
sample=$objtree/samples/trace_events/trace-events-sample
compare=("${PYTHON:-python3}" "$srctree/selftests/record/compare.py")
run=(timeout -k 5 60)

tap_begin record

if ! command -v trace-cmd >/dev/null; then
	not_ok "trace-cmd is installed (scripts/install-deps.sh installs it)"
	tap_end
	exit 1
fi

# readable FILE: trace-cmd report (into FILE.rep) and dump read it, no warning.
readable() {
	local f=$1

	"${run[@]}" trace-cmd report "$f" >"$f.rep" 2>"$f.err" &&
		"${run[@]}" trace-cmd dump --all "$f" >/dev/null 2>>"$f.err" &&
		! [ -s "$f.err" ]
}

# text_case NAME COMPARE-OPTIONS REC-APP-OPTIONS...
text_case() {
	local name=$1 opts=$2

	shift 2
	"${run[@]}" "$sapp" -o "$name.dat" -t "$name.txt" -s -n 200 -w 3 "$@" 2>"$name.log" &&
		readable "$name.dat" &&
		"${compare[@]}" text "$name.txt" "$name.dat.rep" $opts ||
		{ cat "$name.log" "$name.dat.err" 2>/dev/null; false; }
}

for v in 7 6; do
	for m in pc overwrite; do
		check "v$v $m: trace-cmd report equals our trace text, markers included" \
			text_case "v$v-$m" "" -V "$v" -m "$m" -M
	done
done

for clock in local global counter mono mono_raw boot x86-tsc; do
	# trace-cmd 3.1 prints the boot clock in raw nanoseconds.
	opts=
	[ "$clock" = boot ] && opts=--ns-clock
	check "clock $clock: trace-cmd report equals our trace text" \
		text_case "clock-$clock" "$opts" -C "$clock"
done

# sample_case NAME VARIABLES...: the sample recorded through the environment.
sample_case() {
	local name=$1

	shift
	env USTRACE_EVENTS=sample_trace USTRACE_OUTPUT="$name.dat" "$@" \
		"${run[@]}" "$sample" >"$name.out" 2>&1 &&
		readable "$name.dat" &&
		"${compare[@]}" sample "$name.out" "$name.dat.rep"
}

for v in 7 6; do
	check "the sample, v$v producer/consumer: trace-cmd report prints what it printed" \
		sample_case "sample-$v-pc" USTRACE_FILE_VERSION=$v
	check "the sample, v$v overwrite: trace-cmd report prints what it printed" \
		sample_case "sample-$v-ow" USTRACE_FILE_VERSION=$v USTRACE_MODE=overwrite
done
check "the sample, flight recorder: trace-cmd report prints what it printed" \
	sample_case "sample-fr" USTRACE_FLIGHT_RECORDER=2

# crash_case SIG: the program dies by SIG after 2 x 500 events.
crash_case() {
	local sig=$1 f=crash-$1.dat

	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=$f "${run[@]}" "$app" -n 500 -w 2 -k "$sig"
	local status=$?
	echo "exit status $status"
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ] && readable "$f" &&
		"${compare[@]}" seq "$f.rep" 0 0 499 && "${compare[@]}" seq "$f.rep" 1 0 499
}

for sig in SEGV ABRT BUS FPE ILL TERM INT; do
	check "killed by SIG$sig: the file is whole" crash_case "$(kill -l "$sig")"
done

# The program's own handler, there before the recording: it still runs.
chained() {
	"${run[@]}" "$app" -H 6 -o chain.dat -e rec_test -n 20 -w 1 -k 6 >chain.out
	local status=$?
	cat chain.out
	[ "$status" = 42 ] && grep -qx "rec-app: own handler" chain.out &&
		readable chain.dat && "${compare[@]}" seq chain.dat.rep 0 0 19
}
check "the program's SIGABRT handler runs after the file is written" chained

# The flight recorder: 1 MiB per CPU, 200000 events from one worker.
flight() {
	local f=fr.dat count first dropped overrun size

	USTRACE_EVENTS=rec_test USTRACE_FLIGHT_RECORDER=1 USTRACE_OUTPUT=$f \
		"${run[@]}" "$app" -n 200000 -w 1 || return 1
	readable "$f" || return 1
	count=$(grep -c rec_seq "$f.rep")
	first=$((200000 - count))
	trace-cmd report --stat "$f" >"$f.stat" 2>&1
	size=$(awk '/^CPU0 data recorded/ { getline; print $1 }' "$f.stat")
	overrun=$(awk '/^CPU: 0$/ { c = 1 } c && /^overrun:/ { print $2; exit }' "$f.stat")
	dropped=$(sed -n 's/^CPU:0 \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$f.rep")
	echo "kept $count events, CPU0 data $size bytes, dropped $dropped, overrun $overrun"
	# 1 MiB of event data: 258 pages of 4080 bytes of events each.
	[ "$first" -gt 0 ] && [ "${size:-0}" -le $((1024 * 1024 + 2 * 4096)) ] &&
		[ "${size:-0}" -ge $((1024 * 1024)) ] &&
		[ "$dropped" = "$first" ] && [ "$overrun" = "$first" ] &&
		"${compare[@]}" seq "$f.rep" 0 "$first" 199999
}
check "flight recorder: the last MiB of events, the lost ones counted" flight

# dump_case HOW: a numbered file on request (events 0..49), the rest
# (50..99) at the end.
dump_case() {
	local how=$1 f=dump-$1.dat

	if [ "$how" = signal ]; then
		USTRACE_EVENTS=rec_test USTRACE_FLIGHT_RECORDER=1 USTRACE_OUTPUT=$f \
			"${run[@]}" "$app" -n 50 -w 1 -u || return 1
	else
		"${run[@]}" "$app" -o "$f" -e rec_test -n 50 -w 1 -d || return 1
	fi
	readable "$f.1" && readable "$f" &&
		"${compare[@]}" seq "$f.1.rep" 0 0 49 && "${compare[@]}" seq "$f.rep" 0 50 99
}
check "SIGUSR2 writes OUTPUT.1, the end OUTPUT" dump_case signal
check "ustrace_record_dump() writes OUTPUT.1, the end OUTPUT" dump_case api

# Producer/consumer: 2 x 100000 events (4.8 MB) through a 512 KiB buffer,
# at a pace that leaves the recorder's thread about 100 ms to take half of
# it, ten times its period (slow test machines, sanitizers).
streaming() {
	local f=pc.dat

	"${run[@]}" "$app" -o "$f" -e rec_test -b 512 -n 100000 -P 2000 -w 2 &&
		readable "$f" && ! grep -q DROPPED "$f.rep" &&
		"${compare[@]}" seq "$f.rep" 0 0 99999 && "${compare[@]}" seq "$f.rep" 1 0 99999
}
check "producer/consumer: a recording 9 times its buffer loses nothing" streaming

plugin_case() {
	USTRACE_EVENTS=te_plugin:plugin_value USTRACE_OUTPUT=plugin.dat \
		"${run[@]}" "$app" -n 1 -w 1 -p "$plugin" && readable plugin.dat &&
		[ "$(grep -c 'plugin_value: *v=[0-2] who=plugin$' plugin.dat.rep)" = 3 ] &&
		! grep -q rec_seq plugin.dat.rep
}
check "an event of a dlopen()ed object is enabled when it registers" plugin_case

bad_env() {
	USTRACE_EVENTS=rec_test USTRACE_CLOCK=nope USTRACE_OUTPUT=bad.dat \
		"${run[@]}" "$app" -n 5 -w 1 -x 2>bad.err || return 1
	cat bad.err
	grep -q '^ustrace: record: USTRACE_CLOCK=nope: bad value; not recording$' bad.err &&
		! [ -e bad.dat ]
}
check "a bad variable: a warning, the program runs, no file" bad_env

unmatched() {
	USTRACE_EVENTS=rec_test,nosuch:event USTRACE_OUTPUT=um.dat \
		"${run[@]}" "$app" -n 5 -w 1 2>um.err || return 1
	cat um.err
	grep -q '^ustrace: record: no event matched nosuch:event$' um.err && readable um.dat
}
check "a pattern that matched nothing is named at the end" unmatched

pid_name() {
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=pid-%p.dat "${run[@]}" "$app" -n 5 -w 1 || return 1
	ls pid-*.dat
	[ "$(ls pid-*.dat | grep -cE '^pid-[0-9]+\.dat$')" = 1 ]
}
check "%p in USTRACE_OUTPUT is the pid" pid_name

# Where unnamed files are not available (here: a seccomp filter refuses
# O_TMPFILE), the file is created under a random name and renamed: whole,
# and nothing left beside it.
no_tmpfile() {
	mkdir nt && (cd nt && "${run[@]}" "$app" -U -o nt.dat -e rec_test -n 100 -w 2) || return 1
	ls -A nt
	[ "$(ls -A nt)" = nt.dat ] && readable nt/nt.dat &&
		"${compare[@]}" seq nt/nt.dat.rep 0 0 99 && "${compare[@]}" seq nt/nt.dat.rep 1 0 99
}
check "without unnamed files (O_TMPFILE refused): the file whole, nothing beside it" no_tmpfile

tap_end
