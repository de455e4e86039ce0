/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The event of rec-plugin.so, registered when rec-app dlopen()s it. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rec_plugin

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rec-plugin-events

#if !defined(_REC_PLUGIN_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _REC_PLUGIN_EVENTS_H

#include <linux/tracepoint.h>

TRACE_EVENT(rec_loaded,
	TP_PROTO(int n, const char *from),
	TP_ARGS(n, from),
	TP_STRUCT__entry(
		__field(	int,	n	)
		__string(	from,	from	)
	),
	TP_fast_assign(
		__entry->n = n;
		__assign_str(from, from);
	),
	TP_printk("n=%d from=%s", __entry->n, __get_str(from))
);

#endif /* _REC_PLUGIN_EVENTS_H */

#include <trace/define_trace.h>
