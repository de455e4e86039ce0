/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An event defined in a dlopen()ed object (te-plugin.so). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM te_plugin

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH plugin
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE plugin-events

#if !defined(_TE_PLUGIN_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TE_PLUGIN_EVENTS_H

#include <linux/tracepoint.h>

TRACE_EVENT(plugin_value,
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

#endif /* _TE_PLUGIN_EVENTS_H */

#include <trace/define_trace.h>
