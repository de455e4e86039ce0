/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The events of the recording tests' application (rec-app.c). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rec_test

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rec-events

#if !defined(_REC_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _REC_EVENTS_H

#include <linux/tracepoint.h>

/* A numbered event: which ones reach the file says what was kept. */
TRACE_EVENT(rec_seq,
	TP_PROTO(int worker, unsigned long seq),
	TP_ARGS(worker, seq),
	TP_STRUCT__entry(
		__field(	int,		worker	)
		__field(	unsigned long,	seq	)
	),
	TP_fast_assign(
		__entry->worker = worker;
		__entry->seq = seq;
	),
	TP_printk("worker=%d seq=%lu", __entry->worker, __entry->seq)
);

#endif /* _REC_EVENTS_H */

#include <trace/define_trace.h>
