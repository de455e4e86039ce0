// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tracepoint-sample: the seed document's example, run.
 *
 * It fires the subsys tracepoints with no probe attached, attaches probes
 * (two on one tracepoint, with priorities), fires again, detaches them and
 * waits with tracepoint_synchronize_unregister(), printing what each probe
 * saw.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/jump_label.h>
#include <trace/events/subsys.h>

#include "sample.h"

/*
 * In userspace a "struct task_struct" stands for a thread of the program;
 * the sample gives it a body to have something to print.
 */
struct task_struct {
	int tid;
	const char *comm;
};

static void probe_eventname(void *data, int firstarg, struct task_struct *p)
{
	printf("  %s probe: subsys_eventname(firstarg=%d, task=%s/%d)\n",
	       (const char *)data, firstarg, p->comm, p->tid);
}

static void probe_nuggets(void *data, int total)
{
	(void)data;
	printf("  probe: subsys_nuggets(total=%d)\n", total);
}

static void fire(struct task_struct *task)
{
	somefct(42, task, 5);
	report_nuggets(7);
}

int main(void)
{
	struct task_struct me = { .tid = (int)gettid(), .comm = "sample" };
	int ret;

	printf("text patching: %s\n", jump_label_text_patching() ?
	       "on (disabled sites are NOPs)" : "off (fallback branches)");

	printf("firing with no probe attached:\n");
	fire(&me);
	printf("  trace_subsys_eventname_enabled() = %d\n",
	       trace_subsys_eventname_enabled());

	ret = register_trace_subsys_eventname(probe_eventname, "first");
	ret = ret ?: register_trace_prio_subsys_eventname(probe_eventname,
							  "high-prio", 100);
	ret = ret ?: register_trace_subsys_nuggets(probe_nuggets, NULL);
	if (ret) {
		fprintf(stderr, "register: %s\n", strerror(-ret));
		return 1;
	}
	printf("firing with probes attached:\n");
	fire(&me);
	printf("  trace_subsys_eventname_enabled() = %d\n",
	       trace_subsys_eventname_enabled());

	printf("registering the same probe again: %s\n",
	       strerror(-register_trace_subsys_eventname(probe_eventname,
							 "first")));

	unregister_trace_subsys_eventname(probe_eventname, "first");
	unregister_trace_subsys_eventname(probe_eventname, "high-prio");
	unregister_trace_subsys_nuggets(probe_nuggets, NULL);
	tracepoint_synchronize_unregister();

	printf("firing after unregistering:\n");
	fire(&me);
	printf("  trace_subsys_eventname_enabled() = %d\n",
	       trace_subsys_eventname_enabled());
	return 0;
}
