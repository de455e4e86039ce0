/* SPDX-License-Identifier: MIT */
/*
 * Turn the declarations of a trace header into definitions.
 *
 * A trace header ends, outside its include guard, with
 *
 *	#include <trace/define_trace.h>
 *
 * In every file but one this does nothing.  In the one file that defines
 * CREATE_TRACE_POINTS before including the trace header, it reads the trace
 * header a second time (with TRACE_HEADER_MULTI_READ set, so the guard lets
 * it through) with DECLARE_TRACE(name, ...) standing for DEFINE_TRACE(name):
 * that second reading emits the storage of every tracepoint the header
 * declares.
 *
 * Where the second reading finds the header:
 *   TRACE_INCLUDE_FILE  the file name without ".h" (default: TRACE_SYSTEM)
 *   TRACE_INCLUDE_PATH  a directory relative to the include path (default:
 *                       <trace/events/...>), as in the kernel.
 *
 * No include guard: this file is meant to be included once per trace header.
 */
#ifdef CREATE_TRACE_POINTS

/* Stop the second reading from defining everything again. */
#undef CREATE_TRACE_POINTS

#include <generated/autoconf.h>
#include <linux/compiler.h>

#undef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args)	DEFINE_TRACE(name)
#undef DECLARE_TRACE_CONDITION
#define DECLARE_TRACE_CONDITION(name, proto, args, cond) DEFINE_TRACE(name)
#undef DECLARE_TRACE_SYSCALL
#define DECLARE_TRACE_SYSCALL(name, proto, args)	DEFINE_TRACE(name)
#undef DECLARE_TRACE_EVENT
#define DECLARE_TRACE_EVENT(name, proto, args)	DEFINE_TRACE(name)
#undef DECLARE_TRACE_EVENT_CONDITION
#define DECLARE_TRACE_EVENT_CONDITION(name, proto, args, cond) DEFINE_TRACE(name)
#undef DECLARE_TRACE_EVENT_SYSCALL
#define DECLARE_TRACE_EVENT_SYSCALL(name, proto, args)	DEFINE_TRACE(name)

/* The tracepoints of trace events (see <trace/trace_events.h>). */
#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)	\
	DEFINE_TRACE(name)
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	DEFINE_TRACE(name)
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	DEFINE_TRACE_FN(name, reg, unreg)
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign, print, \
			    reg, unreg)					\
	DEFINE_TRACE_FN(name, reg, unreg)
#undef TRACE_EVENT_SYSCALL
#define TRACE_EVENT_SYSCALL(name, proto, args, tstruct, assign, print,	\
			    reg, unreg)					\
	DEFINE_TRACE_FN(name, reg, unreg)
#undef TRACE_EVENT_NOP
#define TRACE_EVENT_NOP(name, proto, args, tstruct, assign, print)
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS(name, proto, args, tstruct, assign, print)
#undef DECLARE_EVENT_CLASS_NOP
#define DECLARE_EVENT_CLASS_NOP(name, proto, args, tstruct, assign, print)
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)	DEFINE_TRACE(name)
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(template, name, proto, args, reg, unreg)	\
	DEFINE_TRACE_FN(name, reg, unreg)
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)	\
	DEFINE_TRACE(name)
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond) \
	DEFINE_TRACE(name)
#undef DEFINE_EVENT_NOP
#define DEFINE_EVENT_NOP(template, name, proto, args)

#undef TRACE_INCLUDE
#undef __TRACE_INCLUDE

#ifndef TRACE_INCLUDE_FILE
# define TRACE_INCLUDE_FILE TRACE_SYSTEM
# define UNDEF_TRACE_INCLUDE_FILE
#endif

#ifndef TRACE_INCLUDE_PATH
# define __TRACE_INCLUDE(system) <trace/events/system.h>
# define UNDEF_TRACE_INCLUDE_PATH
#else
# define __TRACE_INCLUDE(system) __stringify(TRACE_INCLUDE_PATH/system.h)
#endif

#define TRACE_INCLUDE(system) __TRACE_INCLUDE(system)

#define TRACE_HEADER_MULTI_READ
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/*
 * Then the events: <trace/trace_events.h> reads the header seven more
 * times to generate their records, probes, formats and renderers.
 */
#if defined(CONFIG_TRACEPOINTS)
# include <trace/trace_events.h>
#endif

/*
 * Back to declarations: the next <linux/tracepoint.h> include (from the
 * next trace header) defines the macros afresh.
 */
#undef TRACE_HEADER_MULTI_READ
#undef DECLARE_TRACE
#undef DECLARE_TRACE_CONDITION
#undef DECLARE_TRACE_SYSCALL
#undef DECLARE_TRACE_EVENT
#undef DECLARE_TRACE_EVENT_CONDITION
#undef DECLARE_TRACE_EVENT_SYSCALL
#undef TRACE_EVENT
#undef TRACE_EVENT_CONDITION
#undef TRACE_EVENT_FN
#undef TRACE_EVENT_FN_COND
#undef TRACE_EVENT_SYSCALL
#undef TRACE_EVENT_NOP
#undef DECLARE_EVENT_CLASS
#undef DECLARE_EVENT_SYSCALL_CLASS
#undef DECLARE_EVENT_CLASS_NOP
#undef DEFINE_EVENT
#undef DEFINE_EVENT_FN
#undef DEFINE_EVENT_PRINT
#undef DEFINE_EVENT_CONDITION
#undef DEFINE_EVENT_NOP
#undef TRACE_DEFINE_ENUM
#undef TRACE_DEFINE_SIZEOF
#undef TRACE_EVENT_FLAGS
#undef TRACE_EVENT_PERF_PERM

#ifdef UNDEF_TRACE_INCLUDE_FILE
# undef TRACE_INCLUDE_FILE
# undef UNDEF_TRACE_INCLUDE_FILE
#endif

#ifdef UNDEF_TRACE_INCLUDE_PATH
# undef TRACE_INCLUDE_PATH
# undef UNDEF_TRACE_INCLUDE_PATH
#endif

/* Further trace headers included by this file define their tracepoints too. */
#define CREATE_TRACE_POINTS

#endif /* CREATE_TRACE_POINTS */
