/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The event the trace_output tests record. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM to_test

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE to-events

#if !defined(_TO_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TO_EVENTS_H

#include <linux/tracepoint.h>

TRACE_EVENT(to_value,
	TP_PROTO(int v, const char *who),
	TP_ARGS(v, who),
	TP_STRUCT__entry(
		__field(	int,	v		)
		__string(	who,	who		)
	),
	TP_fast_assign(
		__entry->v = v;
		__assign_str(who, who);
	),
	TP_printk("v=%d who=%s", __entry->v, __get_str(who))
);

#endif /* _TO_EVENTS_H */

#include <trace/define_trace.h>
