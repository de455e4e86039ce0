#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# compile-fail.sh - TRACE_EVENT() misuse the compiler must refuse, and a
# correct trace header that must compile without a warning.  TAP on stdout.
#
#   clean        a header with every variant (and a class used only by
#                DEFINE_EVENT_PRINT) compiles with -Wall -Wextra
#                -Werror as the file that defines the events and as a
#                plain user, each in C and in C++
#   bad field    TP_printk() naming a field the record lacks
#   bad assign   TP_fast_assign() naming a field the record lacks
#   bad format   a TP_printk() format that does not match its arguments
#   bad class    a DEFINE_EVENT() whose prototype differs from its class's
#
# Run by scripts/run-tests.sh with USTRACE_SRCTREE, USTRACE_OBJTREE,
# USTRACE_CC and USTRACE_CFLAGS; by hand it falls back to an in-tree
# build and cc.

set -u

. "$(dirname "$0")/../lib/tap.sh"
cc=${USTRACE_CC:-cc}
cflags=${USTRACE_CFLAGS:-"-std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE"}

tap_begin te-cf

# header NAME PRINT ASSIGN EXTRA: a trace header tmp/NAME.h with one class,
# two events, a condition and an _FN variant.
header() {
	cat >"$tmp/$1.h" <<EOH
#undef TRACE_SYSTEM
#define TRACE_SYSTEM cf
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE $1
#if !defined(_CF_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CF_H
#include <linux/tracepoint.h>
int cf_reg(void);
void cf_unreg(void);
DECLARE_EVENT_CLASS(cf_class,
	TP_PROTO(int a, const char *s),
	TP_ARGS(a, s),
	TP_STRUCT__entry(__field(int, a) __string(s, s)),
	TP_fast_assign($3 __assign_str(s, s);),
	TP_printk($2));
DEFINE_EVENT(cf_class, cf_one, TP_PROTO(int a, const char *s), TP_ARGS(a, s));
DEFINE_EVENT_CONDITION(cf_class, cf_two, TP_PROTO(int a, const char *s),
	TP_ARGS(a, s), TP_CONDITION(a > 1));
TRACE_EVENT_FN(cf_fn, TP_PROTO(long x), TP_ARGS(x),
	TP_STRUCT__entry(__field(long, x)),
	TP_fast_assign(__entry->x = x;),
	TP_printk("x=%ld", __entry->x), cf_reg, cf_unreg);
DECLARE_EVENT_CLASS(cf_pclass, TP_PROTO(unsigned char c), TP_ARGS(c),
	TP_STRUCT__entry(__array(unsigned char, c, 2) __bitmask(m, 8)),
	TP_fast_assign(__entry->c[0] = c;),
	TP_printk("%s", __get_bitmask(m)));
DEFINE_EVENT_PRINT(cf_pclass, cf_print, TP_PROTO(unsigned char c), TP_ARGS(c),
	TP_printk("c=%s", __print_hex(__entry->c, 2)));
$4
#endif
#include <trace/define_trace.h>
EOH
	cat >"$tmp/$1-def.c" <<EOC
#include <string.h>
#define CREATE_TRACE_POINTS
#include "$1.h"
int cf_reg(void) { return 0; }
void cf_unreg(void) { }
EOC
	cat >"$tmp/$1-use.c" <<EOC
#include "$1.h"
void cf_use(void);
void cf_use(void) { trace_cf_one(1, "x"); trace_cf_two(2, "y"); trace_cf_fn(3); }
EOC
}

# compile LANG FILE: -fsyntax-only with the build's flags, -Werror.
compile() {
	local lang=$1 std=-std=gnu11
	[ "$lang" = c++ ] && std=-std=gnu++17
	$cc -x "$lang" $cflags $std -Werror -I"$objtree/include" \
		-I"$srctree/include" -I"$tmp" -fsyntax-only "$2" >"$tmp/log" 2>&1
}

good_print='"a=%d s=%s", __entry->a, __get_str(s)'
good_assign='__entry->a = a;'

header good "$good_print" "$good_assign" ""
if compile c "$tmp/good-def.c"; then ok "clean: the defining file"; else
	not_ok "clean: the defining file"; diag "$tmp/log" 12; fi
if compile c "$tmp/good-use.c"; then ok "clean: a user"; else
	not_ok "clean: a user"; diag "$tmp/log" 12; fi
cxx=${cc/clang/clang++}
[ "$cxx" = "$cc" ] && cxx=${cc/gcc/g++}
[ "$cxx" = "$cc" ] && cxx=c++
if $cxx -x c++ -std=gnu++17 -Wall -Wextra -Werror -I"$objtree/include" \
	-I"$srctree/include" -I"$tmp" -fsyntax-only "$tmp/good-use.c" \
	>"$tmp/log" 2>&1; then ok "clean: a user, as C++"; else
	not_ok "clean: a user, as C++"; diag "$tmp/log" 12; fi

# expect_fail NAME REGEX: tmp/bad-def.c must not compile, with REGEX said.
expect_fail() {
	if compile c "$tmp/bad-def.c"; then
		not_ok "$1 (compiles)"
	elif grep -Eq "$2" "$tmp/log"; then
		ok "$1"
	else
		not_ok "$1 (no /$2/ in the errors)"; diag "$tmp/log" 12
	fi
}

header bad '"a=%d", __entry->nosuch' "$good_assign" ""
expect_fail "bad field: TP_printk() naming a missing field" "nosuch"

header bad "$good_print" '__entry->nosuch = a;' ""
expect_fail "bad assign: TP_fast_assign() naming a missing field" "nosuch"

header bad '"a=%s", __entry->a' "$good_assign" ""
expect_fail "bad format: %s for an int" "format"

header bad "$good_print" "$good_assign" \
	'DEFINE_EVENT(cf_class, cf_three, TP_PROTO(long a, const char *s), TP_ARGS(a, s));'
expect_fail "bad class: DEFINE_EVENT with another prototype" \
	"incompatible|cf_three"

# A C++ file may define the events too (cxx.sh runs what it defines).
header good "$good_print" "$good_assign" ""
if $cxx -x c++ -std=gnu++17 -Wall -Wextra -Werror -I"$objtree/include" \
	-I"$srctree/include" -I"$tmp" -fsyntax-only "$tmp/good-def.c" \
	>"$tmp/log" 2>&1; then ok "clean: the defining file, as C++"; else
	not_ok "clean: the defining file, as C++"; diag "$tmp/log" 12; fi

tap_end
