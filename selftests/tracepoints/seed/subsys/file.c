// SPDX-License-Identifier: LGPL-2.1-or-later
#include <trace/events/subsys.h>

#define CREATE_TRACE_POINTS
DEFINE_TRACE(subsys_eventname);

void somefct(void)
{
	extern struct task_struct *seed_task;	/* the "current" thread */
	extern int seed_last_arg;
	static int arg = 1000;
	struct task_struct *task = seed_task;

	arg++;
	trace_subsys_eventname_tp(arg, task);
	seed_last_arg = arg;
}
