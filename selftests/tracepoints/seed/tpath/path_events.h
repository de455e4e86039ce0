/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A trace header outside <trace/events/>, named differently from its
 * TRACE_SYSTEM: <trace/define_trace.h> finds it again through
 * TRACE_INCLUDE_PATH (relative to the include path) and
 * TRACE_INCLUDE_FILE.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM seedpath

#if !defined(_TRACE_SEEDPATH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SEEDPATH_H

#include <linux/tracepoint.h>

DECLARE_TRACE(seedpath_event,
	TP_PROTO(unsigned long x),
	TP_ARGS(x));

#endif /* _TRACE_SEEDPATH_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH tpath
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE path_events

/* This part must be outside protection */
#include <trace/define_trace.h>
