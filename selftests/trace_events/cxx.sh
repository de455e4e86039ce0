#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# cxx.sh - a trace header's events defined from C++: cxx/cxx-def.c, which
# defines the events of cxx/cxx_events.h (CREATE_TRACE_POINTS), is built
# once as C and once as C++ (g++, and clang++ when there is one; with a
# sanitized library only the compiler of its own family), each linked
# with the C program cxx/cxx-main.c, which prints every event's format
# and the trace text of one firing of each.  Both must print the same
# formats and the same events, and the C++ build must compile without a
# warning (-Wall -Wextra -Werror, C++11 and C++17).  TAP on stdout.

set -u

. "$(dirname "$0")/../lib/tap.sh"
cc=${USTRACE_CC:-cc}
cflags=${USTRACE_CFLAGS:-"-std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE"}
ldflags=${USTRACE_LDFLAGS:-}
src=$srctree/selftests/trace_events/cxx
tap_begin te-cxx

have() { command -v "$1" >/dev/null 2>&1; }

cxxs=()
if [ -n "${USTRACE_SANITIZE:-}" ]; then
	if $cc --version 2>/dev/null | head -n 1 | grep -q clang; then
		have clang++ && cxxs=(clang++)
	else
		have g++ && cxxs=(g++)
	fi
else
	for c in g++ clang++; do have "$c" && cxxs+=("$c"); done
fi
[ ${#cxxs[@]} -gt 0 ] || skip_all "no C++ compiler for this build"

inc=(-I"$objtree/include" -I"$srctree/include" -I"$src")
cxxflags=$(printf '%s\n' $cflags | grep -v '^-std=' | tr '\n' ' ')

# The trace lines without the task, CPU and time: "cxx_one: a=1 s=first".
events() { sed -n 's/^.*[0-9]: \(cxx_[a-z]*: \)/\1/p' "$1"; }

if ! $cc $cflags -Werror "${inc[@]}" -c "$src/cxx-main.c" -o "$tmp/main.o" >"$tmp/log" 2>&1 ||
   ! $cc $cflags -Werror "${inc[@]}" -c "$src/cxx-def.c" -o "$tmp/def-c.o" >>"$tmp/log" 2>&1 ||
   ! $cc $cflags "$tmp/main.o" "$tmp/def-c.o" -o "$tmp/prog-c" $ldflags -L"$objtree" \
	-lustrace -Wl,-rpath,"$objtree" -lpthread >>"$tmp/log" 2>&1 ||
   ! "$tmp/prog-c" >"$tmp/out-c" 2>"$tmp/err-c"; then
	echo "Bail out! the C definition does not build or run"
	sed 's/^/# /' "$tmp/log" "$tmp/err-c" 2>/dev/null | head -n 20
	exit 1
fi

# What the C definition prints, checked here too: both could be wrong alike.
# (A bitmask prints all the bits of its longs, as the kernel's does.)
want="cxx_one: a=1 s=first
cxx_two: a=2 s=second
cxx_fn: x=-5
cxx_bits: m=00000000,00000a05
cxx_print: c=41 42
cxx_more: v=two f=A|C arr={0x1,0x2,0x3} sl=abc pr=7/-2 name=cxxname ch=q sc=-3"
if [ "$(events "$tmp/out-c")" = "$want" ]; then
	ok "C: the events as they should print"
else
	not_ok "C: the events as they should print"
	events "$tmp/out-c" | sed 's/^/#   /'
fi

for c in "${cxxs[@]}"; do
	for std in c++11 c++17; do
		if $c -x c++ -std=$std $cxxflags -Werror "${inc[@]}" -c "$src/cxx-def.c" \
			-o "$tmp/def-$c-$std.o" >"$tmp/log" 2>&1; then
			ok "$c -std=$std: the events defined from C++, no warning"
		else
			not_ok "$c -std=$std: the events defined from C++, no warning"
			diag "$tmp/log" 15
		fi
	done
	name="$c: the C++ definition prints the same formats and events as C's"
	if ! [ -f "$tmp/def-$c-c++17.o" ] ||
	   ! $c $cxxflags "$tmp/main.o" "$tmp/def-$c-c++17.o" -o "$tmp/prog-$c" $ldflags \
		-L"$objtree" -lustrace -Wl,-rpath,"$objtree" -lpthread >"$tmp/log" 2>&1; then
		not_ok "$name (it does not link)"
		diag "$tmp/log" 15
	elif ! "$tmp/prog-$c" >"$tmp/out-$c" 2>"$tmp/err-$c"; then
		not_ok "$name (it fails)"
		diag "$tmp/err-$c" 10
	elif ! diff <(grep -v '^ ' "$tmp/out-c") <(grep -v '^ ' "$tmp/out-$c") >"$tmp/diff" ||
	     [ "$(events "$tmp/out-c")" != "$(events "$tmp/out-$c")" ]; then
		not_ok "$name"
		diff <(events "$tmp/out-c") <(events "$tmp/out-$c") >>"$tmp/diff"
		diag "$tmp/diff" 20
	else
		ok "$name"
	fi
done

tap_end
