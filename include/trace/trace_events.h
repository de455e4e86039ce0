/* SPDX-License-Identifier: MIT */
/*
 * The TRACE_EVENT() stages: turn the event declarations of a trace header
 * into records, probes, format texts and renderers.
 *
 * <trace/define_trace.h> includes this file in the one file of a program
 * that defines CREATE_TRACE_POINTS before including a trace header.  Each
 * stage (include/trace/stages/stageN_*.h, each opening with the C it
 * generates) redefines the macros and reads the trace header once more:
 *
 *   1  struct trace_event_raw_<class>          the record
 *   2  struct trace_event_data_offsets_<class> where its dynamic fields go
 *   3  trace_raw_output_<class>()              TP_printk() over a record
 *   4  trace_event_fields_<class>[]            the fields of the format
 *   5  trace_event_get_offsets_<class>()       sizes of the dynamic fields
 *   6  trace_event_raw_event_<class>()         the probe that records
 *   7  print_fmt_<class>, event_class_<class>, event_<event> and their
 *      registration at load time
 *
 * TRACE_EVENT(name, ...) is DECLARE_EVENT_CLASS(name, ...) plus
 * DEFINE_EVENT(name, name, ...); the _CONDITION and _FN variants record
 * like their plain forms (the condition and the callbacks belong to the
 * tracepoint, defined in <trace/define_trace.h>).
 *
 * No include guard: read once per trace header.
 */
#include <stddef.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/trace_events.h>

#undef TRACE_SYSTEM_STRING
#define TRACE_SYSTEM_STRING	__stringify(TRACE_SYSTEM)

/* As the kernel's: bitmasks are stored as whole unsigned longs. */
#ifndef __bitmask_size_in_bytes_raw
# define __ustrace_bits_per_long	(8 * (int)sizeof(long))
# define __bitmask_size_in_bytes_raw(nr_bits)	(((nr_bits) + 7) / 8)
# define __bitmask_size_in_longs(nr_bits)				\
	((__bitmask_size_in_bytes_raw(nr_bits) +			\
	  ((__ustrace_bits_per_long / 8) - 1)) /			\
	 (__ustrace_bits_per_long / 8))
# define __bitmask_size_in_bytes(nr_bits)				\
	(__bitmask_size_in_longs(nr_bits) * (__ustrace_bits_per_long / 8))
#endif

#ifndef __USTRACE_STR_OR_NULL
# define __USTRACE_STR_OR_NULL
/* A function, not ?:, so that an array argument draws no -Waddress. */
static inline const char *__ustrace_str_or_null(const char *s)
{
	return s ? s : "(null)";
}
#endif

#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)); \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))

#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))

#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))

#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))

/* Tracepoints without an event record nothing. */
#undef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args)				\
	extern int __ustrace_declared_##name
#undef DECLARE_TRACE_CONDITION
#define DECLARE_TRACE_CONDITION(name, proto, args, cond)		\
	extern int __ustrace_declared_##name

#undef TP_STRUCT__entry
#define TP_STRUCT__entry(...)	__VA_ARGS__
#undef TP_fast_assign
#define TP_fast_assign(...)	__VA_ARGS__

/*
 * The prototypes name arguments that a stage may not use; the rest of the
 * warnings stay on.
 */
/* Only <trace/define_trace.h> says which header to read. */
#ifdef TRACE_INCLUDE

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define TRACE_HEADER_MULTI_READ

#include <trace/stages/stage1_struct_define.h>
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#include <trace/stages/stage2_data_offsets.h>
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#include <trace/stages/stage3_trace_output.h>
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#include <trace/stages/stage4_event_fields.h>
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#include <trace/stages/stage5_get_offsets.h>
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#include <trace/stages/stage6_event_callback.h>
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#include <trace/stages/stage7_class_define.h>
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#pragma GCC diagnostic pop

#endif /* TRACE_INCLUDE */

#undef __entry
#undef __field
#undef __field_struct
#undef __array
#undef __dynamic_array
#undef __string
#undef __string_len
#undef __bitmask
#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __get_str
#undef __get_bitmask
#undef __assign_str
#undef __assign_str_len
#undef __assign_bitmask
#undef TP_printk
#undef TP_STRUCT__entry
#undef TP_fast_assign
