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
 *		entry = (struct trace_event_raw_foo *)
 *			trace_event_buffer_reserve(&__fbuffer,
 *					(struct trace_event_file *)__data,
 *					sizeof(*entry) + __data_size);
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
#undef __field_ext
#define __field_ext(type, item, filter_type)
#undef __field_struct
#define __field_struct(type, item)
#undef __field_struct_ext
#define __field_struct_ext(type, item, filter_type)
#undef __array
#define __array(type, item, len)
#undef __dynamic_array
#define __dynamic_array(type, item, len)				\
	__entry->__data_loc_##item = __data_offsets.item;
#undef __rel_dynamic_array
#define __rel_dynamic_array(type, item, len)				\
	__entry->__rel_loc_##item = __data_offsets.item;
#undef __string
#define __string(item, src)		__dynamic_array(char, item, -1)
#undef __string_len
#define __string_len(item, src, len)	__dynamic_array(char, item, -1)
#undef __rel_string
#define __rel_string(item, src)		__rel_dynamic_array(char, item, -1)
#undef __rel_string_len
#define __rel_string_len(item, src, len) __rel_dynamic_array(char, item, -1)
#undef __vstring
#define __vstring(item, ...)		__dynamic_array(char, item, -1)
#undef __bitmask
#define __bitmask(item, nr_bits)	__dynamic_array(unsigned long, item, -1)
#undef __rel_bitmask
#define __rel_bitmask(item, nr_bits)	__rel_dynamic_array(unsigned long, item, -1)
#undef __cpumask
#define __cpumask(item)			__dynamic_array(unsigned long, item, -1)
#undef __rel_cpumask
#define __rel_cpumask(item)		__rel_dynamic_array(unsigned long, item, -1)
#undef __sockaddr
#define __sockaddr(field, len)		__dynamic_array(unsigned char, field, len)
#undef __rel_sockaddr
#define __rel_sockaddr(field, len)	__rel_dynamic_array(unsigned char, field, len)

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
#define __get_str(f)			((char *)__get_dynamic_array(f))
#undef __get_rel_str
#define __get_rel_str(f)		((char *)__get_rel_dynamic_array(f))
#undef __get_bitmask
#define __get_bitmask(f)		((char *)__get_dynamic_array(f))
#undef __get_rel_bitmask
#define __get_rel_bitmask(f)		((char *)__get_rel_dynamic_array(f))
#undef __get_cpumask
#define __get_cpumask(f)		((char *)__get_dynamic_array(f))
#undef __get_rel_cpumask
#define __get_rel_cpumask(f)		((char *)__get_rel_dynamic_array(f))
#undef __get_sockaddr
#define __get_sockaddr(f)		((struct sockaddr *)__get_dynamic_array(f))
#undef __get_rel_sockaddr
#define __get_rel_sockaddr(f)		((struct sockaddr *)__get_rel_dynamic_array(f))

/*
 * The string measured by __string() or __string_len() is copied with the
 * length measured: one pass over it, and a string that changes in between
 * (another thread writing it) is cut, never overruns the record.  The
 * source is not evaluated again, so both forms are accepted:
 * __assign_str(dst, src) of Linux 6.1 and __assign_str(dst) of 6.10 and
 * later.
 */
#undef __ustrace_assign_measured
#define __ustrace_assign_measured(str, len, src)			\
	do {								\
		unsigned int __len = (len) - 1;				\
		char *__str = (str);					\
									\
		__ustrace_copy_str(__str, (src), __len);		\
		__str[__len] = '\0';					\
	} while (0)
#undef __assign_str
#define __assign_str(dst, ...)						\
	__ustrace_assign_measured(__get_str(dst), __get_dynamic_array_len(dst), \
				  __data_offsets.dst##_ptr_)
#undef __assign_rel_str
#define __assign_rel_str(dst, ...)					\
	__ustrace_assign_measured(__get_rel_str(dst),			\
				  __get_rel_dynamic_array_len(dst),	\
				  __data_offsets.dst##_ptr_)
/*
 * Linux 6.1's: @len bytes of @src, the length __string_len() reserved (a
 * NULL @src is "(null)"; never more than was reserved).
 */
#undef __ustrace_assign_len
#define __ustrace_assign_len(str, reserved, src, len)			\
	do {								\
		unsigned int __n = __ustrace_str_len_copy(src, len, reserved); \
		memcpy((str), __ustrace_str_or_null(src), __n);		\
		(str)[__n] = '\0';					\
	} while (0)
#undef __assign_str_len
#define __assign_str_len(dst, src, len)					\
	__ustrace_assign_len(__get_str(dst), __get_dynamic_array_len(dst), src, len)
#undef __assign_rel_str_len
#define __assign_rel_str_len(dst, src, len)				\
	__ustrace_assign_len(__get_rel_str(dst), __get_rel_dynamic_array_len(dst), src, len)
/* __assign_vstr(dst, fmt, va) (6.1) or __assign_vstr(dst, vf) (6.10). */
#undef __assign_vstr
#define __assign_vstr(dst, ...)						\
	__ustrace_vstr_fill(__get_str(dst), __get_dynamic_array_len(dst), \
			    __ustrace_vstr_fmt(__VA_ARGS__),		\
			    __ustrace_vstr_va(__VA_ARGS__))
#undef __assign_bitmask
#define __assign_bitmask(dst, src, nr_bits)				\
	memcpy(__get_bitmask(dst), (src), __bitmask_size_in_bytes(nr_bits))
#undef __assign_rel_bitmask
#define __assign_rel_bitmask(dst, src, nr_bits)				\
	memcpy(__get_rel_bitmask(dst), (src), __bitmask_size_in_bytes(nr_bits))
#undef __assign_cpumask
#define __assign_cpumask(dst, src)					\
	memcpy(__get_cpumask(dst), (src),				\
	       __bitmask_size_in_bytes(__ustrace_cpumask_bits))
#undef __assign_rel_cpumask
#define __assign_rel_cpumask(dst, src)					\
	memcpy(__get_rel_cpumask(dst), (src),				\
	       __bitmask_size_in_bytes(__ustrace_cpumask_bits))
#undef __assign_sockaddr
#define __assign_sockaddr(dest, src, len)				\
	memcpy(__get_dynamic_array(dest), src, len)
#undef __assign_rel_sockaddr
#define __assign_rel_sockaddr(dest, src, len)				\
	memcpy(__get_rel_dynamic_array(dest), src, len)

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
		entry = (struct trace_event_raw_##call *)		\
			trace_event_buffer_reserve(&__fbuffer,		\
					(struct trace_event_file *)__data, \
					sizeof(*entry) + __data_size);	\
		if (!entry)						\
			return;						\
		(void)__data_offsets;					\
		tstruct							\
		{ assign; }						\
		trace_event_buffer_commit(&__fbuffer);			\
	}

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, call, proto, args)			\
	static inline __attribute__((__unused__)) void			\
	ftrace_test_probe_##call(void)					\
	{								\
		check_trace_callback_type_##call(trace_event_raw_event_##template); \
	}

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
