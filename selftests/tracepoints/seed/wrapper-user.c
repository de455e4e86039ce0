// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A file that sees foo_bar only through foo_bar.h: it must get neither
 * <linux/tracepoint.h> nor any trace_foo_bar_*() function.
 */
#include "foo_bar.h"

#ifdef _USTRACE_LINUX_TRACEPOINT_H
# error "foo_bar.h pulled in <linux/tracepoint.h>"
#endif
#ifdef DECLARE_TRACE
# error "foo_bar.h pulled in DECLARE_TRACE"
#endif

int seed_inline_calls;

void seed_call_inline(int args)
{
	some_inline_function(args);
}
