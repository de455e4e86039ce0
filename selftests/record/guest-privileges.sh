#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# guest-privileges.sh - the recorder in a privileged program, and links
# planted at its output (issue 16).  TAP.
#
#   A set-user-ID root copy of a program, run by nobody, ignores
#   USTRACE_EVENTS, USTRACE_OUTPUT and USTRACE_TRACEFS (one line on
#   stderr), and a root-only file named by USTRACE_OUTPUT is untouched;
#   symbolic links planted at OUTPUT.part and OUTPUT (by another user, in
#   a sticky directory) are replaced, never followed.

set -u

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/guest-lib.bash"

tap_begin guest-privileges
need_trace_cmd

suid_setup() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	id nobody >/dev/null 2>&1 || { echo "no user nobody"; return 1; }
	command -v setpriv >/dev/null || { echo "no setpriv (util-linux)"; return 1; }
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- test -x "$sample" ||
		{ echo "nobody cannot run programs in $objtree"; return 1; }
	# The set-user-ID copy where only root and nobody's group reach it.
	chmod 0711 "$tmp" && mkdir -m 0711 suid && mkdir -m 0710 suid/bin && mkdir -m 0700 suid/root &&
		chgrp "$(id -g nobody)" suid/bin && cp "$sample" suid/bin/app &&
		chown "root:$(id -g nobody)" suid/bin/app && chmod 4750 suid/bin/app &&
		echo ROOT-ONLY >suid/root/target.conf && chmod 600 suid/root/target.conf
}

# as_nobody VARIABLES...: the set-user-ID copy, run by nobody.
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
		env "$@" "${run[@]}" "$tmp/suid/bin/app" >suid.out 2>suid.err
}

suid_record() {
	as_nobody USTRACE_EVENTS=sample_trace USTRACE_OUTPUT="$tmp/suid/root/target.conf"
	local s=$?
	cat suid.err
	[ $s = 0 ] || return 1
	[ "$(cat suid/root/target.conf)" = ROOT-ONLY ] && [ "$(ls suid/root)" = target.conf ] &&
		[ "$(grep -c '^ustrace: USTRACE_EVENTS ' suid.err)" = 1 ] &&
		[ "$(grep -c '^ustrace: USTRACE_OUTPUT ' suid.err)" = 0 ] &&
		grep -qx 'ustrace: USTRACE_EVENTS ignored: the program runs set-user-ID or set-group-ID' \
			suid.err
}

suid_tracefs() {
	mkdir -m 0777 mnt
	as_nobody USTRACE_TRACEFS="$tmp/mnt"
	local s=$?
	cat suid.err
	[ $s = 0 ] || return 1
	! grep -q " $tmp/mnt " /proc/self/mounts && [ -z "$(ls mnt)" ] &&
		grep -qx 'ustrace: USTRACE_TRACEFS ignored: the program runs set-user-ID or set-group-ID' \
			suid.err
}

if why=$(suid_setup 2>&1); then
	check "set-user-ID root, run by nobody: USTRACE_OUTPUT does not touch a root-only file" \
		suid_record
	check "set-user-ID root, run by nobody: USTRACE_TRACEFS serves nothing" suid_tracefs
else
	skip "set-user-ID root, run by nobody: USTRACE_OUTPUT does not touch a root-only file" "$why"
	skip "set-user-ID root, run by nobody: USTRACE_TRACEFS serves nothing" "$why"
fi

planted() {
	echo PRECIOUS >precious && chmod 600 precious
	ln -s "$tmp/precious" sl.dat.part && ln -s "$tmp/precious" sl.dat || return 1
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=sl.dat "${run[@]}" "$app" -n 10 -w 1 || return 1
	[ "$(cat precious)" = PRECIOUS ] && [ -f sl.dat ] && ! [ -L sl.dat ] &&
		[ -L sl.dat.part ] && whole sl.dat 1 9
}
check "links planted at OUTPUT.part and OUTPUT are replaced, not followed" planted

# The issue's case: root records into a sticky, world-writable directory
# where another user planted the link; fs.protected_symlinks would stop
# the open there, so it is off for the test (and put back).
sticky() {
	local saved

	saved=$(cat /proc/sys/fs/protected_symlinks) || return 1
	if [ "$saved" != 0 ]; then
		echo 0 >/proc/sys/fs/protected_symlinks || return 1
		trap 'echo '"$saved"' >/proc/sys/fs/protected_symlinks; rm -rf "$tmp"' EXIT
	fi
	mkdir -m 1777 shared && echo ROOT-ONLY >root-only && chmod 600 root-only &&
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
			ln -s "$tmp/root-only" shared/trace.dat.part || return 1
	USTRACE_EVENTS=rec_test USTRACE_OUTPUT=shared/trace.dat "${run[@]}" "$app" -n 10 -w 1
	local s=$?
	[ "$saved" = 0 ] || { echo "$saved" >/proc/sys/fs/protected_symlinks; trap 'rm -rf "$tmp"' EXIT; }
	[ $s = 0 ] && [ "$(cat root-only)" = ROOT-ONLY ] && whole shared/trace.dat 1 9
}
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	skip "root, a sticky directory, a link of another user: not followed" "needs root and nobody"
elif ! [ -w /proc/sys/fs/protected_symlinks ]; then
	skip "root, a sticky directory, a link of another user: not followed" \
		"fs.protected_symlinks cannot be set here"
else
	check "root, a sticky directory, a link of another user: not followed" sticky
fi

tap_end
