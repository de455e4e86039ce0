/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Events declared with the fields of two kernel events, to compare our
 * format texts with the kernel's (events.c embeds the kernel's).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ktest

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE kernel-events

#if !defined(_KERNEL_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KERNEL_EVENTS_H

#include <sys/types.h>
#include <linux/tracepoint.h>

/* irq/irq_handler_entry */
TRACE_EVENT(irq_handler_entry,
	TP_PROTO(int irq, const char *name),
	TP_ARGS(irq, name),
	TP_STRUCT__entry(
		__field(	int,	irq		)
		__string(	name,	name		)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__assign_str(name, name);
	),
	TP_printk("irq=%d name=%s", __entry->irq, __get_str(name))
);

/* sched/sched_process_exec */
TRACE_EVENT(sched_process_exec,
	TP_PROTO(const char *filename, pid_t pid, pid_t old_pid),
	TP_ARGS(filename, pid, old_pid),
	TP_STRUCT__entry(
		__string(	filename,	filename	)
		__field(	pid_t,		pid		)
		__field(	pid_t,		old_pid		)
	),
	TP_fast_assign(
		__assign_str(filename, filename);
		__entry->pid		= pid;
		__entry->old_pid	= old_pid;
	),
	TP_printk("filename=%s pid=%d old_pid=%d", __get_str(filename),
		  __entry->pid, __entry->old_pid)
);

/* The fields of sched/sched_switch, with a simpler print fmt. */
TRACE_EVENT(sched_switch_fields,
	TP_PROTO(const char *prev, pid_t prev_pid, int prev_prio,
		 long prev_state, const char *next, pid_t next_pid,
		 int next_prio),
	TP_ARGS(prev, prev_pid, prev_prio, prev_state, next, next_pid,
		next_prio),
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
		strncpy(__entry->prev_comm, prev, 15);
		__entry->prev_comm[15] = '\0';
		__entry->prev_pid	= prev_pid;
		__entry->prev_prio	= prev_prio;
		__entry->prev_state	= prev_state;
		strncpy(__entry->next_comm, next, 15);
		__entry->next_comm[15] = '\0';
		__entry->next_pid	= next_pid;
		__entry->next_prio	= next_prio;
	),
	TP_printk("prev_comm=%s prev_pid=%d ==> next_comm=%s next_pid=%d",
		  __entry->prev_comm, __entry->prev_pid,
		  __entry->next_comm, __entry->next_pid)
);

#endif /* _KERNEL_EVENTS_H */

#include <trace/define_trace.h>
