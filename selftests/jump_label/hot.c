// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One tracepoint site in a function of its own, for disasm.sh: compiled
 * with -O2, its disassembly shows what a disabled site costs the caller.
 * Never linked into a program.
 */
#include <linux/tracepoint.h>

DECLARE_TRACE(foo, TP_PROTO(int x), TP_ARGS(x));

void hot(int x);

void hot(int x)
{
	trace_foo_tp(x);
}
