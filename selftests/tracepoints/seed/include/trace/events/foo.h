/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracepoint of the seed's trace_foo_bar_enabled() guard example, in a
 * trace header that foo.c includes after #define CREATE_TRACE_POINTS (the
 * kernel's way: <trace/define_trace.h> rereads it from <trace/events/>).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM foo

#if !defined(_TRACE_FOO_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FOO_H

#include <linux/tracepoint.h>

DECLARE_TRACE(foo_bar,
	TP_PROTO(int tot),
	TP_ARGS(tot));

#endif /* _TRACE_FOO_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
