/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * shlib_event: defined in libtpdef (a shared object, or a static library
 * in the shared-static program), fired from the library and from the
 * program, probed from the program and from libtpprobe.so.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM shlib

#if !defined(_TRACE_SHLIB_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SHLIB_H

#include <linux/tracepoint.h>

DECLARE_TRACE(shlib_event,
	TP_PROTO(int where, long value),
	TP_ARGS(where, value));

#endif /* _TRACE_SHLIB_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH shared
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE shlib_tp

#include <trace/define_trace.h>
