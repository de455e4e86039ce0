#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Install the Debian packages that building and testing ustrace need.
#
# Quiet and quick when everything is installed (one dpkg-query). Otherwise
# runs apt-get as root, or through sudo; failing both, prints the apt-get
# command line and exits 1. USTRACE_SKIP_DEPS=1 skips the check.

set -euo pipefail

# Package, and what needs it.
PACKAGES=(
	build-essential		# gcc, make, libc headers; gcc's sanitizer runtimes
	clang			# the clang test variant
	libclang-rt-14-dev	# clang's sanitizer runtimes (make CC=clang SANITIZE=...)
	pkg-config		# fuse3's flags; the install test
	python3			# /usr/bin/python3 for scripts/kconfig.py
	python3-kconfiglib	# Kconfig: defconfig, menuconfig, autoconf.h
	binutils		# ar, objdump for the jump-label tests
	util-linux		# setarch -R for the TSan variant
	valgrind		# benchmarks and leak checks
	libtraceevent-dev	# kbuffer for the tests; the collector's trace prints programs gone with it
	trace-cmd		# reads what ustrace records (selftests/record, ustrace report)
	man-db			# man --warnings in the documentation checks
	libfuse3-dev		# the tracefs server (CONFIG_TRACEFS_FUSE)
	fuse3			# fusermount3: mounting it; make run, ftracetest
	trace-cmd		# selftests/interop: the stock trace-cmd on a mount
	libtracefs-dev		# selftests/interop/tfs-libtracefs
	kernelshark		# selftests/interop/kernelshark.sh
	xvfb			# ... its X server
	xdotool			# ... finding its window
	imagemagick		# ... its screenshot, and the check of it
	linux-source-6.1	# selftests/conformance: the kernel's ftracetest
	libcunit1-dev		# selftests/conformance: libtracefs's unit tests
)

[ "${USTRACE_SKIP_DEPS:-0}" = 1 ] && exit 0

names=()
for p in "${PACKAGES[@]}"; do
	names+=("${p%%[[:space:]]*}")
done

missing=()
status=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${names[@]}" 2>/dev/null || :)
for p in "${names[@]}"; do
	grep -q "^$p ii" <<<"$status" || missing+=("$p")
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: missing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt=(apt-get install -y --no-install-recommends "${missing[@]}")

if [ "$(id -u)" -eq 0 ]; then
	sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo=(sudo -n --preserve-env=DEBIAN_FRONTEND)
else
	echo "install-deps: not root and no password-less sudo; run as root:" >&2
	echo "  apt-get update && ${apt[*]}" >&2
	exit 1
fi

"${sudo[@]}" apt-get update -q
"${sudo[@]}" "${apt[@]}"
