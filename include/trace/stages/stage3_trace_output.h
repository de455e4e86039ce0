/* SPDX-License-Identifier: MIT */
/*
 * Stage 3 of <trace/trace_events.h>: rendering a record, the TP_printk()
 * evaluated over the record (__entry is the record).
 *
 *	static void trace_raw_output_foo(struct trace_seq *s,
 *					 struct trace_seq *p,
 *					 const void *entry)
 *	{
 *		struct trace_event_raw_foo *field = (struct trace_event_raw_foo *)entry;
 *
 *		trace_event_printf(s, "bar=%d str=%s", field->bar,
 *			((char *)field + (field->__data_loc_str & 0xffff)));
 *	}
 *
 * trace_event_printf() is printf() with the kernel's %p extensions (%ps,
 * %pS, %pI4, %pU, %*pbl...: Documentation/trace/events.rst).  The
 * __print_*() helpers write into the scratch buffer @p and return the
 * text they wrote there.  DEFINE_EVENT_PRINT(foo, foo_b, ...) gets its
 * own trace_raw_output_foo_b() over the class's record.
 */
/* Stage 2 gave strings a pointer too; from here on they are dynamic arrays. */
#undef __string
#define __string(item, src)		__dynamic_array(char, item, -1)
#undef __string_len
#define __string_len(item, src, len)	__dynamic_array(char, item, -1)
#undef __rel_string
#define __rel_string(item, src)		__rel_dynamic_array(char, item, -1)
#undef __rel_string_len
#define __rel_string_len(item, src, len) __rel_dynamic_array(char, item, -1)

#undef __entry
#define __entry field

#undef TP_printk
#define TP_printk(...)		__VA_ARGS__

#undef __get_dynamic_array
#define __get_dynamic_array(f)						\
	((void *)((char *)__entry + (__entry->__data_loc_##f & 0xffff)))
#undef __get_dynamic_array_len
#define __get_dynamic_array_len(f)	((__entry->__data_loc_##f >> 16) & 0xffff)
#undef __get_rel_dynamic_array
#define __get_rel_dynamic_array(f)					\
	((void *)((char *)__entry +					\
		  offsetof(__typeof__(*__entry), __rel_loc_##f) +	\
		  sizeof(__entry->__rel_loc_##f) +			\
		  (__entry->__rel_loc_##f & 0xffff)))
#undef __get_rel_dynamic_array_len
#define __get_rel_dynamic_array_len(f)	((__entry->__rel_loc_##f >> 16) & 0xffff)
#undef __get_str
#define __get_str(f)		((char *)__get_dynamic_array(f))
#undef __get_rel_str
#define __get_rel_str(f)	((char *)__get_rel_dynamic_array(f))
#undef __get_bitmask
#define __get_bitmask(f)						\
	trace_print_bitmask_seq(p, __get_dynamic_array(f),		\
				__get_dynamic_array_len(f))
#undef __get_rel_bitmask
#define __get_rel_bitmask(f)						\
	trace_print_bitmask_seq(p, __get_rel_dynamic_array(f),		\
				__get_rel_dynamic_array_len(f))
#undef __get_cpumask
#define __get_cpumask(f)	__get_bitmask(f)
#undef __get_rel_cpumask
#define __get_rel_cpumask(f)	__get_rel_bitmask(f)
#undef __get_sockaddr
#define __get_sockaddr(f)	((struct sockaddr *)__get_dynamic_array(f))
#undef __get_rel_sockaddr
#define __get_rel_sockaddr(f)	((struct sockaddr *)__get_rel_dynamic_array(f))

#undef __print_flags
#define __print_flags(flag, delim, ...)					\
	({								\
		static const struct trace_print_flags __flags[] =	\
			{ __VA_ARGS__, { (unsigned long)-1, NULL } };	\
		trace_print_flags_seq(p, delim, flag, __flags);		\
	})
#undef __print_symbolic
#define __print_symbolic(value, ...)					\
	({								\
		static const struct trace_print_flags __symbols[] =	\
			{ __VA_ARGS__, { (unsigned long)-1, NULL } };	\
		trace_print_symbols_seq(p, value, __symbols);		\
	})
#undef __print_flags_u64
#define __print_flags_u64(flag, delim, ...)				\
	({								\
		static const struct trace_print_flags_u64 __flags[] =	\
			{ __VA_ARGS__, { (unsigned long long)-1, NULL } }; \
		trace_print_flags_seq_u64(p, delim, flag, __flags);	\
	})
#undef __print_symbolic_u64
#define __print_symbolic_u64(value, ...)				\
	({								\
		static const struct trace_print_flags_u64 __symbols[] =	\
			{ __VA_ARGS__, { (unsigned long long)-1, NULL } }; \
		trace_print_symbols_seq_u64(p, value, __symbols);	\
	})
#undef __print_hex
#define __print_hex(buf, buf_len)					\
	trace_print_hex_seq(p, (const unsigned char *)(buf), buf_len, 0)
#undef __print_hex_str
#define __print_hex_str(buf, buf_len)					\
	trace_print_hex_seq(p, (const unsigned char *)(buf), buf_len, 1)
#undef __print_array
#define __print_array(array, count, el_size)				\
	({								\
		__ustrace_static_assert(el_size == 1 || el_size == 2 ||	\
					el_size == 4 || el_size == 8,	\
					"__print_array: el_size must be 1, 2, 4 or 8"); \
		trace_print_array_seq(p, array, count, el_size);	\
	})
#undef __print_dynamic_array
#define __print_dynamic_array(array, el_size)				\
	__print_array(__get_dynamic_array(array),			\
		      __get_dynamic_array_len(array) / (el_size), el_size)
#undef __print_hex_dump
#define __print_hex_dump(prefix_str, prefix_type, rowsize, groupsize,	\
			 buf, len, ascii)				\
	trace_print_hex_dump_seq(p, prefix_str, prefix_type, rowsize,	\
				 groupsize, buf, len, ascii)
#undef __print_ns_to_secs
#define __print_ns_to_secs(value)					\
	((unsigned long long)(value) / 1000000000ULL)
#undef __print_ns_without_secs
#define __print_ns_without_secs(value)					\
	((unsigned int)((unsigned long long)(value) % 1000000000ULL))

/*
 * The kernel's output function of a class has a local "ret", which holds
 * TRACE_TYPE_HANDLED (1) when the print arguments are evaluated, and a
 * TP_printk() can name it: Linux 6.1's spmi.h prints it as spmi_cmd's
 * "ret=" (where __entry->ret was meant), so ours has it too.
 */
#define __USTRACE_TYPE_HANDLED	1

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static __attribute__((__unused__)) void			\
	trace_raw_output_##call(struct trace_seq *s, struct trace_seq *p, \
				const void *entry)			\
	{								\
		struct trace_event_raw_##call *field =			\
			(struct trace_event_raw_##call *)entry;		\
		int ret = __USTRACE_TYPE_HANDLED;			\
									\
		(void)p, (void)ret;					\
		trace_event_printf(s, print);				\
	}

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, call, proto, args, print)		\
	static void trace_raw_output_##call(struct trace_seq *s,	\
					    struct trace_seq *p,	\
					    const void *entry)		\
	{								\
		struct trace_event_raw_##template *field =		\
			(struct trace_event_raw_##template *)entry;	\
									\
		(void)p;						\
		trace_event_printf(s, print);				\
	}
