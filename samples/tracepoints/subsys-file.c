// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The seed document's subsys/file.c: the one file that defines the
 * tracepoints and the instrumented function that fires them.
 */
#include <trace/events/subsys.h>

#include "sample.h"

#define CREATE_TRACE_POINTS
DEFINE_TRACE(subsys_eventname);
DEFINE_TRACE(subsys_nuggets);

/* The non-inline wrapper that sample.h's inline function calls. */
void do_trace_subsys_nuggets_wrapper(int total)
{
	trace_subsys_nuggets_tp(total);
}

static int calculate_nuggets(int i)
{
	return i * i;
}

void somefct(int arg, struct task_struct *task, int count)
{
	trace_subsys_eventname_tp(arg, task);

	if (trace_subsys_nuggets_enabled()) {
		int i;
		int tot = 0;

		for (i = 0; i < count; i++)
			tot += calculate_nuggets(i);

		trace_subsys_nuggets_tp(tot);
	}
}
