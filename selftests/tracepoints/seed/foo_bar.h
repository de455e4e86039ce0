/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seed's header that tests a tracepoint from an inline function: it
 * includes only <linux/tracepoint-defs.h>, and the trace call sits in the
 * non-inline wrapper in foo.c.
 */
#ifndef SEED_FOO_BAR_H
#define SEED_FOO_BAR_H

#include <linux/tracepoint-defs.h>

void do_trace_foo_bar_wrapper(int args);

extern int seed_inline_calls;

DECLARE_TRACEPOINT(foo_bar);

static inline void some_inline_function(int args)
{
	seed_inline_calls++;
	if (tracepoint_enabled(foo_bar))
		do_trace_foo_bar_wrapper(args);
	seed_inline_calls++;
}

#endif /* SEED_FOO_BAR_H */
