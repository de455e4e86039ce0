/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Two tracepoints, one with a TP_CONDITION, in a trace header at the
 * default place <trace/events/TRACE_SYSTEM.h>.  create.c defines them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM seedcreate

#if !defined(_TRACE_SEEDCREATE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SEEDCREATE_H

#include <linux/tracepoint.h>

DECLARE_TRACE(seedcreate_plain,
	TP_PROTO(int a, const char *s),
	TP_ARGS(a, s));

DECLARE_TRACE_CONDITION(seedcreate_cond,
	TP_PROTO(int a),
	TP_ARGS(a),
	TP_CONDITION(a & 1));

#endif /* _TRACE_SEEDCREATE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
