/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The events the inter-event tests fire: requests that start and end. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hist_test

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hist-events

#if !defined(_HIST_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _HIST_EVENTS_H

#include <string.h>
#include <linux/tracepoint.h>

TRACE_EVENT(req_start,
	TP_PROTO(int id, const char *comm, const char *path),
	TP_ARGS(id, comm, path),
	TP_STRUCT__entry(
		__field(	int,	id		)
		__array(	char,	comm,	16	)
		__string(	path,	path		)
	),
	TP_fast_assign(
		__entry->id = id;
		strncpy(__entry->comm, comm, 15);
		__entry->comm[15] = '\0';
		__assign_str(path, path);
	),
	TP_printk("id=%d comm=%s path=%s", __entry->id, __entry->comm, __get_str(path))
);

TRACE_EVENT(req_end,
	TP_PROTO(int id, int status, unsigned long long bytes),
	TP_ARGS(id, status, bytes),
	TP_STRUCT__entry(
		__field(	int,			id	)
		__field(	int,			status	)
		__field(	unsigned long long,	bytes	)
	),
	TP_fast_assign(
		__entry->id = id;
		__entry->status = status;
		__entry->bytes = bytes;
	),
	TP_printk("id=%d status=%d bytes=%llu", __entry->id, __entry->status, __entry->bytes)
);

/* One field of each width and sign, for the synthetic event's types. */
TRACE_EVENT(req_types,
	TP_PROTO(int id, signed char s8v, unsigned short u16v, long lv),
	TP_ARGS(id, s8v, u16v, lv),
	TP_STRUCT__entry(
		__field(	int,		id	)
		__field(	signed char,	s8v	)
		__field(	unsigned short,	u16v	)
		__field(	long,		lv	)
	),
	TP_fast_assign(
		__entry->id = id;
		__entry->s8v = s8v;
		__entry->u16v = u16v;
		__entry->lv = lv;
	),
	TP_printk("id=%d s8v=%d u16v=%u lv=%ld", __entry->id, __entry->s8v, __entry->u16v,
		  __entry->lv)
);

#endif /* _HIST_EVENTS_H */

#include <trace/define_trace.h>
