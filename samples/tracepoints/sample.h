/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SAMPLE_H
#define SAMPLE_H

/*
 * A header that tests a tracepoint from an inline function: only the
 * minimal declaration, the call itself sits in a C file.
 */
#include <linux/tracepoint-defs.h>

struct task_struct;

DECLARE_TRACEPOINT(subsys_nuggets);

void do_trace_subsys_nuggets_wrapper(int total);
void somefct(int arg, struct task_struct *task, int count);

static inline void report_nuggets(int total)
{
	if (tracepoint_enabled(subsys_nuggets))
		do_trace_subsys_nuggets_wrapper(total);
}

#endif /* SAMPLE_H */
