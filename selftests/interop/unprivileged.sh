#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# unprivileged.sh - no root and no kernel tracing needed: a user serves
# their program's tracefs and records it with "ustrace trace-cmd record",
# then reads it with "trace-cmd report", all as that user.  Run as root,
# the test does it as "nobody"; it skips where that user may not mount
# FUSE (/dev/fuse not open to all) or not reach the build directory.
# TAP on stdout.

. "$(dirname "$0")/functions"

require_fuse
require_trace_cmd
as_user=() user=$(id -un)
if [ "$(id -u)" = 0 ]; then
	require_cmd setpriv util-linux
	id nobody >/dev/null 2>&1 || skip_all "no user nobody"
	as_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)
	user=nobody
fi
${as_user[@]+"${as_user[@]}"} test -r /dev/fuse -a -w /dev/fuse ||
	skip_all "$user may not open /dev/fuse ($(stat -c %A /dev/fuse))"
${as_user[@]+"${as_user[@]}"} test -x "$SAMPLE" -a -x "$USTRACE" ||
	skip_all "$user cannot run programs in $objtree"
plan 4

dir=$WORK/user
mkdir "$dir" || exit 1
chmod 711 "$WORK"
[ "$(id -u)" = 0 ] && chown nobody "$dir"

# The whole session as the user: program, recording, report.
cat >"$dir/session" <<EOF
#!/usr/bin/env bash
set -u
cd "$dir" || exit 1
export HOME=$dir
mkdir mnt
USTRACE_TRACEFS=$dir/mnt "$SAMPLE" -p 5000 </dev/null >/dev/null 2>prog.err &
pid=\$!
for i in \$(seq 200); do
	test -f mnt/events/header_page && break
	sleep 0.05
done
timeout -k 5 $TOOL_TIMEOUT "$USTRACE" trace-cmd -m "$dir/mnt" record \
	-e sample_trace:foo_bar -o user.dat sleep 0.5 >record.out 2>&1
echo "record: \$?" >status
timeout -k 5 $TOOL_TIMEOUT trace-cmd report user.dat >report.txt 2>report.err
echo "report: \$?" >>status
kill -TERM \$pid
wait \$pid
echo "program: \$?" >>status
EOF
chmod 755 "$dir/session"
timeout -k 5 $((TOOL_TIMEOUT * 2)) ${as_user[@]+"${as_user[@]}"} "$dir/session"
cat "$dir/record.out" "$dir/prog.err" >&2 2>/dev/null

t_record() {
	grep -qx 'record: 0' "$dir/status" || { echo "$(cat "$dir/status"): $(tail -n 5 "$dir/record.out")"; return 1; }
	grep -qx 'report: 0' "$dir/status" || { echo "report failed: $(cat "$dir/report.err")"; return 1; }
	[ "$(stat -c %U "$dir/user.dat")" = "$user" ] ||
		{ echo "user.dat belongs to $(stat -c %U "$dir/user.dat")"; return 1; }
}
check "as $user: ustrace trace-cmd record, trace-cmd report" t_record

# interop.rst: trace-cmd warns that it cannot make /proc/kallsyms readable
# (kptr_restrict), which a program's events do not need.
t_kptr() {
	grep -qi "can't set kptr_restrict" "$dir/record.out" ||
		{ echo "no kptr_restrict warning: $(head -n 5 "$dir/record.out")"; return 1; }
}
check "as $user, trace-cmd warns that it cannot set kptr_restrict" t_kptr

t_events() {
	events_of "$dir/report.txt" >"$WORK/user.ev"
	[ "$(wc -l <"$WORK/user.ev")" -ge 10 ] || { echo "only $(wc -l <"$WORK/user.ev") events"; return 1; }
	rounds_contiguous "$WORK/user.ev" >"$WORK/user.why" || { cat "$WORK/user.why"; return 1; }
}
check "the user's recording holds the program's events" t_events

t_program() {
	grep -qx 'program: 0' "$dir/status" || { echo "$(grep program "$dir/status"): $(tail -n 5 "$dir/prog.err")"; return 1; }
	! grep -q 'Sanitizer\|runtime error:' "$dir/prog.err" || { grep -m 3 'Sanitizer\|runtime error:' "$dir/prog.err"; return 1; }
}
check "the program exits 0 on SIGTERM, no sanitizer report" t_program
finish
