/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The event that selftests/bench/lttng_compare.sh measures: three ints and
 * a string, the same fields as LTTng-UST's ustrace_bench:bench_event in
 * lttng_bench_tp.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM bench

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE event_bench_trace

#if !defined(_EVENT_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _EVENT_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(bench_event,

	TP_PROTO(int a, int b, int c, const char *comm),

	TP_ARGS(a, b, c, comm),

	TP_STRUCT__entry(
		__field(	int,	a	)
		__field(	int,	b	)
		__field(	int,	c	)
		__string(	comm,	comm	)
	),

	TP_fast_assign(
		__entry->a = a;
		__entry->b = b;
		__entry->c = c;
		__assign_str(comm, comm);
	),

	TP_printk("a=%d b=%d c=%d comm=%s", __entry->a, __entry->b, __entry->c,
		  __get_str(comm))
);

#endif /* _EVENT_BENCH_TRACE_H */

#include <trace/define_trace.h>
