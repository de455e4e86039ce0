/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The events of the latency sample: a request starts and ends.  Their
 * latency is the time between the two with the same id: a hist trigger
 * on each measures it, as the kernel measures wakeup latency
 * (Documentation/trace/histogram.rst here).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency_sample

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE latency-sample

#if !defined(_LATENCY_SAMPLE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LATENCY_SAMPLE_H

#include <linux/tracepoint.h>

TRACE_EVENT(req_start,

	TP_PROTO(int id, const char *path),

	TP_ARGS(id, path),

	TP_STRUCT__entry(
		__field(	int,	id		)
		__string(	path,	path		)
	),

	TP_fast_assign(
		__entry->id = id;
		__assign_str(path, path);
	),

	TP_printk("id=%d path=%s", __entry->id, __get_str(path))
);

TRACE_EVENT(req_end,

	TP_PROTO(int id, int status),

	TP_ARGS(id, status),

	TP_STRUCT__entry(
		__field(	int,	id		)
		__field(	int,	status		)
	),

	TP_fast_assign(
		__entry->id = id;
		__entry->status = status;
	),

	TP_printk("id=%d status=%d", __entry->id, __entry->status)
);

#endif /* _LATENCY_SAMPLE_H */

#include <trace/define_trace.h>
