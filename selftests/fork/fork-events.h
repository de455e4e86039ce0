/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The events of the fork tests (fork.c). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fork_test

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE fork-events

#if !defined(_FORK_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FORK_EVENTS_H

#include <linux/tracepoint.h>

/* What every process of the tests fires: @v says which one, and when. */
TRACE_EVENT(fork_ev,
	TP_PROTO(int v),
	TP_ARGS(v),
	TP_STRUCT__entry(
		__field(	int,	v	)
	),
	TP_fast_assign(
		__entry->v = v;
	),
	TP_printk("v=%d", __entry->v)
);

/* What the control threads enable and disable meanwhile. */
TRACE_EVENT(fork_other,
	TP_PROTO(int v),
	TP_ARGS(v),
	TP_STRUCT__entry(
		__field(	int,	v	)
	),
	TP_fast_assign(
		__entry->v = v;
	),
	TP_printk("v=%d", __entry->v)
);

#endif /* _FORK_EVENTS_H */

#include <trace/define_trace.h>
