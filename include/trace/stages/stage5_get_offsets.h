/* SPDX-License-Identifier: MIT */
/*
 * Stage 5 of <trace/trace_events.h>: the size of the dynamic part of one
 * record, and where each dynamic field goes in it.
 *
 *	static inline int trace_event_get_offsets_foo(
 *		struct trace_event_data_offsets_foo *__data_offsets,
 *		int bar, const char *s)
 *	{
 *		int __data_size = 0, __item_length;
 *		struct trace_event_raw_foo *entry;
 *
 *		__data_offsets->str_ptr_ = s ? s : "(null)";
 *		__item_length = (strlen(__data_offsets->str_ptr_) + 1) *
 *				sizeof(char);
 *		__data_offsets->str = __data_size +
 *				      offsetof(typeof(*entry), __data);
 *		__data_offsets->str |= __item_length << 16;
 *		__data_size += __item_length;
 *		return __data_size;
 *	}
 */
#undef __field
#define __field(type, item)
#undef __field_struct
#define __field_struct(type, item)
#undef __array
#define __array(type, item, len)
#undef __dynamic_array
#define __dynamic_array(type, item, len)				\
	__item_length = (len) * sizeof(type);				\
	__data_offsets->item = __data_size +				\
			       offsetof(__typeof__(*entry), __data);	\
	__data_offsets->item |= (unsigned int)__item_length << 16;	\
	__data_size += __item_length;
#undef __string
#define __string(item, src)						\
	__data_offsets->item##_ptr_ = __ustrace_str_or_null(src);	\
	__dynamic_array(char, item, strlen(__data_offsets->item##_ptr_) + 1)
#undef __string_len
#define __string_len(item, src, len)					\
	__data_offsets->item##_ptr_ = __ustrace_str_or_null(src);	\
	__dynamic_array(char, item, (len) + 1)
#undef __bitmask
#define __bitmask(item, nr_bits)					\
	__dynamic_array(unsigned long, item, __bitmask_size_in_longs(nr_bits))

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static inline __attribute__((__unused__)) int			\
	trace_event_get_offsets_##call(					\
		struct trace_event_data_offsets_##call *__data_offsets, proto) \
	{								\
		int __data_size = 0;					\
		int __item_length __attribute__((__unused__));		\
		struct trace_event_raw_##call *entry __attribute__((__unused__)); \
									\
		(void)__data_offsets;					\
		tstruct							\
		return __data_size;					\
	}								\
	extern int __ustrace_event_stage5_##call

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)			\
	extern int __ustrace_event_stage5_##name

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
