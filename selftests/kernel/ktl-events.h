/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The events of the kernel-timeline tests' program (ktl-app.c). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ktl

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ktl-events

#if !defined(_KTL_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KTL_EVENTS_H

#include <linux/tracepoint.h>

/* A worker's step: woken (0), spinning (1), going to sleep (2). */
TRACE_EVENT(ktl_mark,
	TP_PROTO(int worker, unsigned long seq, int what),
	TP_ARGS(worker, seq, what),
	TP_STRUCT__entry(
		__field(	int,		worker	)
		__field(	unsigned long,	seq	)
		__field(	int,		what	)
	),
	TP_fast_assign(
		__entry->worker = worker;
		__entry->seq = seq;
		__entry->what = what;
	),
	TP_printk("worker=%d seq=%lu what=%d", __entry->worker, __entry->seq, __entry->what)
);

/* Before (0) and after (1) a prctl(PR_SET_NAME): task:task_rename between. */
TRACE_EVENT(ktl_sync,
	TP_PROTO(unsigned long seq, int after),
	TP_ARGS(seq, after),
	TP_STRUCT__entry(
		__field(	unsigned long,	seq	)
		__field(	int,		after	)
	),
	TP_fast_assign(
		__entry->seq = seq;
		__entry->after = after;
	),
	TP_printk("seq=%lu after=%d", __entry->seq, __entry->after)
);

#endif /* _KTL_EVENTS_H */

#include <trace/define_trace.h>
