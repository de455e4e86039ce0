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
 *      registration at load time; the TRACE_DEFINE_ENUM() maps and
 *      TRACE_EVENT_FLAGS()
 *
 * TRACE_EVENT(name, ...) is DECLARE_EVENT_CLASS(name, ...) plus
 * DEFINE_EVENT(name, name, ...); the _CONDITION, _FN and _SYSCALL variants
 * record like their plain forms (the condition and the callbacks belong to
 * the tracepoint, defined in <trace/define_trace.h>).  Every macro of every
 * stage expands to complete declarations, so that a definition may be
 * followed by ';' or not, as in the kernel.
 *
 * No include guard: read once per trace header.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
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

/*
 * __cpumask() fields hold nr_cpumask_bits bits, the kernel's NR_CPUS (a
 * macro there); a program that does not say gets glibc's CPU_SETSIZE.
 */
#ifdef nr_cpumask_bits
# define __ustrace_cpumask_bits	(nr_cpumask_bits)
#else
# define __ustrace_cpumask_bits	1024
#endif

/* __vstring() text is cut at the kernel's TRACE_EVENT_STR_MAX. */
#ifndef TRACE_EVENT_STR_MAX
# define TRACE_EVENT_STR_MAX	512
#endif

#ifndef __USTRACE_STR_OR_NULL
# define __USTRACE_STR_OR_NULL
/* A function, not ?:, so that an array argument draws no -Waddress. */
static inline const char *__ustrace_str_or_null(const char *s)
{
	return s ? s : "(null)";
}

/* The bytes of a __string_len(): @len and the NUL, or "(null)"'s. */
static inline size_t __ustrace_str_len_or_null(const char *s, size_t len)
{
	return s ? len + 1 : sizeof("(null)");
}

/* What __assign_str_len() copies: @len, all of "(null)", never past @reserved. */
static inline unsigned int __ustrace_str_len_copy(const char *s, size_t len, size_t reserved)
{
	size_t n = s ? len : sizeof("(null)") - 1;

	return (unsigned int)(n < reserved ? n : reserved - 1);
}

/*
 * Copy the @n bytes of a string field.  The short ones, the common case
 * (names), take two overlapping 8-byte or 4-byte moves inline, where a
 * call to memcpy() cost more than the copy: never a byte outside
 * [@src, @src + @n) read or outside [@dst, @dst + @n) written.
 */
static inline __attribute__((__always_inline__)) void
__ustrace_copy_str(char *dst, const char *src, unsigned int n)
{
	if (__builtin_expect(n - 8 <= 8, 1)) {
		unsigned long long a, b;

		__builtin_memcpy(&a, src, 8);
		__builtin_memcpy(&b, src + n - 8, 8);
		__builtin_memcpy(dst, &a, 8);
		__builtin_memcpy(dst + n - 8, &b, 8);
	} else if (n - 4 <= 3) {
		unsigned int a, b;

		__builtin_memcpy(&a, src, 4);
		__builtin_memcpy(&b, src + n - 4, 4);
		__builtin_memcpy(dst, &a, 4);
		__builtin_memcpy(dst + n - 4, &b, 4);
	} else {
		memcpy(dst, src, n);
	}
}

/* The bytes of a __vstring(): the text and its NUL, at most TRACE_EVENT_STR_MAX. */
static inline __attribute__((__format__(__printf__, 1, 0))) int
__ustrace_vstr_len(const char *fmt, va_list *va)
{
	va_list aq;
	int len;

	va_copy(aq, *va);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len < 0)
		len = 0;
	return len + 1 > TRACE_EVENT_STR_MAX ? TRACE_EVENT_STR_MAX : len + 1;
}

static inline __attribute__((__format__(__printf__, 3, 0))) void
__ustrace_vstr_fill(char *dst, int size, const char *fmt, va_list *va)
{
	va_list aq;

	va_copy(aq, *va);
	vsnprintf(dst, (size_t)size, fmt, aq);
	va_end(aq);
}

/*
 * __vstring(item, fmt, va) of Linux 6.1 takes the format and a va_list *;
 * __vstring(item, vf) of 6.10 and later a struct va_format * (->fmt,
 * ->va).  Both are accepted: the macros pick by the number of arguments.
 */
# define __ustrace_pick3(a, b, c, ...)	c
# define __ustrace_vstr_fmt(...)					\
	__ustrace_pick3(__VA_ARGS__, __ustrace_vstr_fmt2, __ustrace_vstr_fmt1)(__VA_ARGS__)
# define __ustrace_vstr_fmt1(vf)	((vf)->fmt)
# define __ustrace_vstr_fmt2(fmt, va)	(fmt)
# define __ustrace_vstr_va(...)						\
	__ustrace_pick3(__VA_ARGS__, __ustrace_vstr_va2, __ustrace_vstr_va1)(__VA_ARGS__)
# define __ustrace_vstr_va1(vf)		((vf)->va)
# define __ustrace_vstr_va2(fmt, va)	(va)
#endif

#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)) \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))

#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))

#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))

#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign, print, \
			    reg, unreg)					\
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))

#undef TRACE_EVENT_SYSCALL
#define TRACE_EVENT_SYSCALL(name, proto, args, tstruct, assign, print,	\
			    reg, unreg)					\
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))

#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS(name, proto, args, tstruct, assign, print) \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print))

#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))

#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(template, name, proto, args, reg, unreg)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))

/* Compiled-out events define nothing. */
#undef TRACE_EVENT_NOP
#define TRACE_EVENT_NOP(name, proto, args, tstruct, assign, print)
#undef DECLARE_EVENT_CLASS_NOP
#define DECLARE_EVENT_CLASS_NOP(name, proto, args, tstruct, assign, print)
#undef DEFINE_EVENT_NOP
#define DEFINE_EVENT_NOP(template, name, proto, args)

/* Tracepoints without an event record nothing. */
#undef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args)
#undef DECLARE_TRACE_CONDITION
#define DECLARE_TRACE_CONDITION(name, proto, args, cond)
#undef DECLARE_TRACE_SYSCALL
#define DECLARE_TRACE_SYSCALL(name, proto, args)
#undef DECLARE_TRACE_EVENT
#define DECLARE_TRACE_EVENT(name, proto, args)
#undef DECLARE_TRACE_EVENT_CONDITION
#define DECLARE_TRACE_EVENT_CONDITION(name, proto, args, cond)
#undef DECLARE_TRACE_EVENT_SYSCALL
#define DECLARE_TRACE_EVENT_SYSCALL(name, proto, args)

/* Only stage 7 acts on these. */
#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(event, flag)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(event, ...)

#undef TP_STRUCT__entry
#define TP_STRUCT__entry(...)	__VA_ARGS__
#undef TP_fast_assign
#define TP_fast_assign(...)	__VA_ARGS__

/*
 * The stages compile as C and as C++ (a C++ file may define a header's
 * events).  What differs:
 *   - the objects declared before they are defined (the class and event
 *     objects) have internal linkage in both: "static" in C, an unnamed
 *     namespace in C++, where a static object cannot be declared ahead of
 *     its definition;
 *   - type comparison, static assertions, and how a field's alignment is
 *     taken from a struct holding it (as the kernel's, which differs from
 *     the type's own for 8-byte integers on 32-bit x86): C defines the
 *     struct in alignof, which C++ forbids, so C++ uses a template.
 */
#ifndef __USTRACE_LOCAL_BEGIN
# ifdef __cplusplus
extern "C++" {
template <typename __ustrace_t> struct __ustrace_field_holder { __ustrace_t __b; };
}
#  define __USTRACE_LOCAL_BEGIN		namespace {
#  define __USTRACE_LOCAL_END		}
#  define __USTRACE_LOCAL_DECL		extern
#  define __USTRACE_LOCAL_DEF
#  define __ustrace_same_type(a, b)	__is_same(a, b)
#  define __ustrace_static_assert	static_assert
#  define __ustrace_field_align(type)	((int)alignof(__ustrace_field_holder<type>))
# else
#  define __USTRACE_LOCAL_BEGIN
#  define __USTRACE_LOCAL_END
#  define __USTRACE_LOCAL_DECL		static
#  define __USTRACE_LOCAL_DEF		static
#  define __ustrace_same_type(a, b)	__builtin_types_compatible_p(a, b)
#  define __ustrace_static_assert	_Static_assert
#  define __ustrace_field_align(type)	((int)__alignof__(struct { type __b; }))
# endif
#endif

/* Only <trace/define_trace.h> says which header to read. */
#ifdef TRACE_INCLUDE

/*
 * The prototypes name arguments that a stage may not use; the rest of the
 * warnings stay on.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#ifdef __cplusplus
/* C++ warns of the members a designated initializer leaves out; C does not. */
# pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif

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
#undef __field_ext
#undef __field_struct
#undef __field_struct_ext
#undef __array
#undef __dynamic_array
#undef __string
#undef __string_len
#undef __vstring
#undef __bitmask
#undef __cpumask
#undef __sockaddr
#undef __rel_dynamic_array
#undef __rel_string
#undef __rel_string_len
#undef __rel_bitmask
#undef __rel_cpumask
#undef __rel_sockaddr
#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __get_rel_dynamic_array
#undef __get_rel_dynamic_array_len
#undef __get_str
#undef __get_rel_str
#undef __get_bitmask
#undef __get_rel_bitmask
#undef __get_cpumask
#undef __get_rel_cpumask
#undef __get_sockaddr
#undef __get_rel_sockaddr
#undef __assign_str
#undef __assign_str_len
#undef __assign_rel_str
#undef __assign_rel_str_len
#undef __assign_vstr
#undef __assign_bitmask
#undef __assign_rel_bitmask
#undef __assign_cpumask
#undef __assign_rel_cpumask
#undef __assign_sockaddr
#undef __assign_rel_sockaddr
#undef __print_dynamic_array
#undef __print_hex_dump
#undef __print_ns_to_secs
#undef __print_ns_without_secs
#undef TP_printk
#undef TP_STRUCT__entry
#undef TP_fast_assign
