/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The event of coll-scribble (scribble.c). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM scribble

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE scribble-events

#if !defined(_SCRIBBLE_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SCRIBBLE_EVENTS_H

#include <linux/tracepoint.h>

#ifndef SCRIBBLE_OTHER
TRACE_EVENT(scribble_tick,
	TP_PROTO(int n),
	TP_ARGS(n),
	TP_STRUCT__entry(
		__field(int, n)
	),
	TP_fast_assign(
		__entry->n = n;
	),
	TP_printk("n=%d", __entry->n)
);
#else
/* The same name, another format (coll-other). */
TRACE_EVENT(scribble_tick,
	TP_PROTO(int n),
	TP_ARGS(n),
	TP_STRUCT__entry(
		__field(int, n)
		__field(int, twice)
	),
	TP_fast_assign(
		__entry->n = n;
		__entry->twice = 2 * n;
	),
	TP_printk("n=%d twice=%d", __entry->n, __entry->twice)
);
#endif

#endif /* _SCRIBBLE_EVENTS_H */

#include <trace/define_trace.h>
