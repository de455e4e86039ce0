/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fields of the kernel's signal:signal_generate that the examples of
 * Documentation/trace/events.rst use ("errno" cannot be a field name in
 * a program: <errno.h> defines it).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM signal

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE flt-signal

#if !defined(_FLT_SIGNAL_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FLT_SIGNAL_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <linux/tracepoint.h>

TRACE_EVENT(signal_generate,
	TP_PROTO(int sig, const char *comm, pid_t pid),
	TP_ARGS(sig, comm, pid),
	TP_STRUCT__entry(
		__field(	int,	sig		)
		__field(	int,	code		)
		__array(	char,	comm,	16	)
		__field(	pid_t,	pid		)
		__field(	int,	group		)
		__field(	int,	result		)
	),
	TP_fast_assign(
		__entry->sig = sig;
		__entry->code = 0;
		snprintf(__entry->comm, 16, "%s", comm);
		__entry->pid = pid;
		__entry->group = 0;
		__entry->result = 0;
	),
	TP_printk("sig=%d comm=%s pid=%d", __entry->sig, __entry->comm, __entry->pid)
);

#endif /* _FLT_SIGNAL_H */

#include <trace/define_trace.h>
