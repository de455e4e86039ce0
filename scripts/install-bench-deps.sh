#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# install-bench-deps.sh - install what "make bench" compares against:
# LTTng-UST (liblttng-ust-dev: headers, pkg-config file, library) and
# lttng-tools (lttng, lttng-sessiond), with apt-get.  Silent when both are
# present already.  Needs root (or sudo) and a Debian-like system.
#
# Exit status: 0 when both are installed afterwards, 1 otherwise.

set -u

have() {
	pkg-config --exists lttng-ust 2>/dev/null &&
	command -v lttng >/dev/null 2>&1 &&
	command -v lttng-sessiond >/dev/null 2>&1
}

have && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-bench-deps.sh: no apt-get; install liblttng-ust-dev and lttng-tools by hand" >&2
	exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "install-bench-deps.sh: not root; run: apt-get install liblttng-ust-dev lttng-tools" >&2
	exit 1
fi

echo "install-bench-deps.sh: installing liblttng-ust-dev lttng-tools"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp) || exit 1
if ! $sudo apt-get install -y -q --no-install-recommends \
		liblttng-ust-dev lttng-tools pkg-config >"$log" 2>&1; then
	# the package lists may be missing or stale
	$sudo apt-get update -q >>"$log" 2>&1
	$sudo apt-get install -y -q --no-install-recommends \
		liblttng-ust-dev lttng-tools pkg-config >>"$log" 2>&1
fi
if have; then
	rm -f "$log"
	exit 0
fi
echo "install-bench-deps.sh: the installation failed:" >&2
tail -n 20 "$log" >&2
rm -f "$log"
exit 1
