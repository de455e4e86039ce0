/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The events the tracefs tree tests enable, record and read back. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tfs_test

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tfs-events

#if !defined(_TFS_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TFS_EVENTS_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(tfs_class,
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

DEFINE_EVENT(tfs_class, tfs_one,
	TP_PROTO(int v),
	TP_ARGS(v));

DEFINE_EVENT(tfs_class, tfs_two,
	TP_PROTO(int v),
	TP_ARGS(v));

#endif /* _TFS_EVENTS_H */

#include <trace/define_trace.h>
