/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The start/end pair that hist_bench.c measures: a request id each. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hbench

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hist_bench_trace

#if !defined(_HIST_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _HIST_BENCH_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(hbench_req,
	TP_PROTO(int id),
	TP_ARGS(id),
	TP_STRUCT__entry(
		__field(	int,	id	)
	),
	TP_fast_assign(
		__entry->id = id;
	),
	TP_printk("id=%d", __entry->id)
);

DEFINE_EVENT(hbench_req, hbench_start, TP_PROTO(int id), TP_ARGS(id));
DEFINE_EVENT(hbench_req, hbench_end, TP_PROTO(int id), TP_ARGS(id));

#endif /* _HIST_BENCH_TRACE_H */

#include <trace/define_trace.h>
