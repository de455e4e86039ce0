/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The events the trigger tests fire. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM trg_test

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trg-events

#if !defined(_TRG_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRG_EVENTS_H

#include <string.h>
#include <linux/tracepoint.h>

TRACE_EVENT(trg_ev,
	TP_PROTO(int v, unsigned long long big, const char *name, const char *who),
	TP_ARGS(v, big, name, who),
	TP_STRUCT__entry(
		__field(	int,			v		)
		__field(	unsigned long long,	big		)
		__array(	char,			name,	16	)
		__string(	who,			who		)
	),
	TP_fast_assign(
		__entry->v = v;
		__entry->big = big;
		strncpy(__entry->name, name, 15);
		__entry->name[15] = '\0';
		__assign_str(who, who);
	),
	TP_printk("v=%d big=%llu name=%s who=%s", __entry->v, __entry->big,
		  __entry->name, __get_str(who))
);

TRACE_EVENT(trg_other,
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

#endif /* _TRG_EVENTS_H */

#include <trace/define_trace.h>
