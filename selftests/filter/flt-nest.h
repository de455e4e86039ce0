/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flt_nest:flt_nest, apart from flt_test's events (whose system filters
 * filter.c counts).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM flt_nest

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE flt-nest

#if !defined(_FLT_NEST_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FLT_NEST_H

#include <linux/tracepoint.h>

/*
 * flt_nest: its assignment calls flt_nest_hook (when set), which may fire
 * other events while this one's record is being written, as a signal
 * handler can; and its string makes records of any size.
 */
static void (*flt_nest_hook)(int v) __attribute__((__unused__));

TRACE_EVENT(flt_nest,
	TP_PROTO(int v, const char *str),
	TP_ARGS(v, str),
	TP_STRUCT__entry(
		__field(	int,	v	)
		__string(	str,	str	)
		__field(	int,	after	)
	),
	TP_fast_assign(
		__entry->v = v;
		__assign_str(str, str);
		if (flt_nest_hook)
			flt_nest_hook(v);
		__entry->after = v + 1000;
	),
	TP_printk("v=%d after=%d str=%s", __entry->v, __entry->after, __get_str(str))
);

#endif /* _FLT_NEST_H */

#include <trace/define_trace.h>
