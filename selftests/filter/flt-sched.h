/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Events with the fields of the kernel's sched:sched_switch and
 * sched:sched_wakeup (Linux 6.1 formats), so that the filters of
 * Documentation/trace/events.rst and the texts of a live kernel apply to
 * them unchanged.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE flt-sched

#if !defined(_FLT_SCHED_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FLT_SCHED_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <linux/tracepoint.h>

TRACE_EVENT(sched_switch,
	TP_PROTO(const char *prev, pid_t prev_pid, long prev_state, const char *next,
		 pid_t next_pid),
	TP_ARGS(prev, prev_pid, prev_state, next, next_pid),
	TP_STRUCT__entry(
		__array(	char,	prev_comm,	16	)
		__field(	pid_t,	prev_pid		)
		__field(	int,	prev_prio		)
		__field(	long,	prev_state		)
		__array(	char,	next_comm,	16	)
		__field(	pid_t,	next_pid		)
		__field(	int,	next_prio		)
	),
	TP_fast_assign(
		snprintf(__entry->prev_comm, 16, "%s", prev);
		__entry->prev_pid = prev_pid;
		__entry->prev_prio = 120;
		__entry->prev_state = prev_state;
		snprintf(__entry->next_comm, 16, "%s", next);
		__entry->next_pid = next_pid;
		__entry->next_prio = 120;
	),
	TP_printk("prev_comm=%s prev_pid=%d prev_state=%ld ==> next_comm=%s next_pid=%d",
		  __entry->prev_comm, __entry->prev_pid, __entry->prev_state,
		  __entry->next_comm, __entry->next_pid)
);

TRACE_EVENT(sched_wakeup,
	TP_PROTO(const char *comm, pid_t pid),
	TP_ARGS(comm, pid),
	TP_STRUCT__entry(
		__array(	char,	comm,	16	)
		__field(	pid_t,	pid		)
		__field(	int,	prio		)
		__field(	int,	target_cpu	)
	),
	TP_fast_assign(
		snprintf(__entry->comm, 16, "%s", comm);
		__entry->pid = pid;
		__entry->prio = 120;
		__entry->target_cpu = 0;
	),
	TP_printk("comm=%s pid=%d prio=%d target_cpu=%03d",
		  __entry->comm, __entry->pid, __entry->prio, __entry->target_cpu)
);

#endif /* _FLT_SCHED_H */

#include <trace/define_trace.h>
