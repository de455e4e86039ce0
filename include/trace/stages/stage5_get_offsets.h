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
 *
 * A __rel_loc word holds the offset from the end of the word itself.
 */
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
#undef __ustrace_dyn_len
#define __ustrace_dyn_len(type, item, len)				\
	__item_length = (int)((len) * sizeof(type));			\
	__data_offsets->item |= (unsigned int)__item_length << 16;	\
	__data_size += __item_length;
#undef __dynamic_array
#define __dynamic_array(type, item, len)				\
	__data_offsets->item = __data_size +				\
			       offsetof(__typeof__(*entry), __data);	\
	__ustrace_dyn_len(type, item, len)
#undef __rel_dynamic_array
#define __rel_dynamic_array(type, item, len)				\
	__data_offsets->item = __data_size +				\
			       offsetof(__typeof__(*entry), __data) -	\
			       offsetof(__typeof__(*entry), __rel_loc_##item) - \
			       sizeof(unsigned int);			\
	__ustrace_dyn_len(type, item, len)
/*
 * The string is measured here and copied by __assign_str() with the
 * length measured (Linux 6.10 and later do the same).  A NULL @src is
 * "(null)", also for __string_len(), whose @len is then not believed.
 */
#undef __string
#define __string(item, src)						\
	__data_offsets->item##_ptr_ = __ustrace_str_or_null(src);	\
	__dynamic_array(char, item, strlen(__data_offsets->item##_ptr_) + 1)
#undef __string_len
#define __string_len(item, src, len)					\
	__data_offsets->item##_ptr_ = __ustrace_str_or_null(src);	\
	__dynamic_array(char, item, __ustrace_str_len_or_null(src, len))
#undef __rel_string
#define __rel_string(item, src)						\
	__data_offsets->item##_ptr_ = __ustrace_str_or_null(src);	\
	__rel_dynamic_array(char, item, strlen(__data_offsets->item##_ptr_) + 1)
#undef __rel_string_len
#define __rel_string_len(item, src, len)				\
	__data_offsets->item##_ptr_ = __ustrace_str_or_null(src);	\
	__rel_dynamic_array(char, item, __ustrace_str_len_or_null(src, len))
#undef __vstring
#define __vstring(item, ...)						\
	__dynamic_array(char, item,					\
			__ustrace_vstr_len(__ustrace_vstr_fmt(__VA_ARGS__), \
					   __ustrace_vstr_va(__VA_ARGS__)))
#undef __bitmask
#define __bitmask(item, nr_bits)					\
	__dynamic_array(unsigned long, item, __bitmask_size_in_longs(nr_bits))
#undef __rel_bitmask
#define __rel_bitmask(item, nr_bits)					\
	__rel_dynamic_array(unsigned long, item, __bitmask_size_in_longs(nr_bits))
#undef __cpumask
#define __cpumask(item)							\
	__dynamic_array(unsigned long, item,				\
			__bitmask_size_in_longs(__ustrace_cpumask_bits))
#undef __rel_cpumask
#define __rel_cpumask(item)						\
	__rel_dynamic_array(unsigned long, item,			\
			    __bitmask_size_in_longs(__ustrace_cpumask_bits))
#undef __sockaddr
#define __sockaddr(field, len)	__dynamic_array(unsigned char, field, len)
#undef __rel_sockaddr
#define __rel_sockaddr(field, len) __rel_dynamic_array(unsigned char, field, len)

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
	}

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)
