/* SPDX-License-Identifier: MIT */
/*
 * Stage 6 of <trace/trace_events.h>: the probe that records an event.
 * Enabling the event attaches it to the tracepoint, with the event's
 * trace_event_call as its data.
 *
 *	static void trace_event_raw_event_foo(void *__data, int bar,
 *					      const char *s)
 *	{
 *		struct trace_event_data_offsets_foo __data_offsets;
 *		struct trace_event_buffer __fbuffer;
 *		struct trace_event_raw_foo *entry;
 *		int __data_size;
 *
 *		__data_size = trace_event_get_offsets_foo(&__data_offsets,
 *							  bar, s);
 *		entry = trace_event_buffer_reserve(&__fbuffer, __data,
 *						   sizeof(*entry) + __data_size);
 *		if (!entry)
 *			return;			// full or off: dropped, counted
 *		entry->__data_loc_str = __data_offsets.str;
 *		{ <TP_fast_assign, with __entry standing for entry> }
 *		trace_event_buffer_commit(&__fbuffer);
 *	}
 *
 * and, for each DEFINE_EVENT(foo, foo_a, ...), a check that the class's
 * probe has the event's prototype (a compile error otherwise):
 *
 *	static inline void ftrace_test_probe_foo_a(void)
 *	{
 *		check_trace_callback_type_foo_a(trace_event_raw_event_foo);
 *	}
 */
#undef __entry
#define __entry entry

/*
 * Records in the ring buffer are 4-byte aligned, as the kernel's on
 * x86-64: 8-byte fields may be unaligned, which the architecture allows.
 * UBSan is told so for the probe.
 */
#undef __ustrace_record_access
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
# define __ustrace_record_access __attribute__((__no_sanitize__("alignment")))
#else
# define __ustrace_record_access
#endif

#undef __field
#define __field(type, item)
#undef __field_struct
#define __field_struct(type, item)
#undef __array
#define __array(type, item, len)
#undef __dynamic_array
#define __dynamic_array(type, item, len)				\
	__entry->__data_loc_##item = __data_offsets.item;
#undef __string
#define __string(item, src)		__dynamic_array(char, item, -1)
#undef __string_len
#define __string_len(item, src, len)	__dynamic_array(char, item, -1)
#undef __bitmask
#define __bitmask(item, nr_bits)	__dynamic_array(unsigned long, item, -1)

#undef __get_dynamic_array
#define __get_dynamic_array(f)						\
	((void *)((char *)__entry + (__entry->__data_loc_##f & 0xffff)))
#undef __get_dynamic_array_len
#define __get_dynamic_array_len(f)	((__entry->__data_loc_##f >> 16) & 0xffff)
#undef __get_str
#define __get_str(f)			((char *)__get_dynamic_array(f))
#undef __get_bitmask
#define __get_bitmask(f)		((char *)__get_dynamic_array(f))

/*
 * The string measured by __string() is copied with the length measured
 * (as the kernel does since 6.10): one pass over it, and a string that
 * changes in between (another thread writing it) is cut, never overruns
 * the record.  @src is not evaluated again.
 */
#undef __assign_str
#define __assign_str(dst, src)						\
	do {								\
		unsigned int __len = __get_dynamic_array_len(dst) - 1;	\
		memcpy(__get_str(dst), __data_offsets.dst##_ptr_, __len); \
		__get_str(dst)[__len] = '\0';				\
	} while (0)
#undef __assign_str_len
#define __assign_str_len(dst, src, len)					\
	do {								\
		memcpy(__get_str(dst), __ustrace_str_or_null(src), len); \
		__get_str(dst)[len] = '\0';				\
	} while (0)
#undef __assign_bitmask
#define __assign_bitmask(dst, src, nr_bits)				\
	memcpy(__get_bitmask(dst), (src), __bitmask_size_in_bytes(nr_bits))

#undef TP_fast_assign
#define TP_fast_assign(...)		__VA_ARGS__

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static __ustrace_record_access					\
	void trace_event_raw_event_##call(void *__data, proto)		\
	{								\
		struct trace_event_data_offsets_##call __data_offsets;	\
		struct trace_event_buffer __fbuffer;			\
		struct trace_event_raw_##call *entry;			\
		int __data_size;					\
									\
		__data_size = trace_event_get_offsets_##call(&__data_offsets, \
							     args);	\
		entry = trace_event_buffer_reserve(&__fbuffer, __data,	\
					sizeof(*entry) + __data_size);	\
		if (!entry)						\
			return;						\
		(void)__data_offsets;					\
		tstruct							\
		{ assign; }						\
		trace_event_buffer_commit(&__fbuffer);			\
	}								\
	extern int __ustrace_event_stage6_##call

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, call, proto, args)			\
	static inline __attribute__((__unused__)) void			\
	ftrace_test_probe_##call(void)					\
	{								\
		check_trace_callback_type_##call(trace_event_raw_event_##template); \
	}								\
	extern int __ustrace_event_stage6_##call

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
