// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * foo_bar: defined the kernel's way (CREATE_TRACE_POINTS before the trace
 * header), fired from the seed's trace_foo_bar_enabled() guard example and
 * from the seed's non-inline wrapper.
 */
#define CREATE_TRACE_POINTS
#include <trace/events/foo.h>

#include "foo_bar.h"

int seed_nuggets_calculated;

static int calculate_nuggets(void)
{
	return ++seed_nuggets_calculated;
}

void seed_count_nuggets(int count)
{
	if (trace_foo_bar_enabled()) {
		int i;
		int tot = 0;

		for (i = 0; i < count; i++)
			tot += calculate_nuggets();

		trace_foo_bar_tp(tot);
	}
}

void do_trace_foo_bar_wrapper(int args)
{
	trace_foo_bar_tp(args); // for tracepoints created via DECLARE_TRACE
}
