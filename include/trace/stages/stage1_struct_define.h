/* SPDX-License-Identifier: MIT */
/*
 * Stage 1 of <trace/trace_events.h>: the record layout.
 *
 *	DECLARE_EVENT_CLASS(foo, ..., TP_STRUCT__entry(
 *		__field(int, bar)
 *		__array(char, name, 16)
 *		__string(str, s)
 *		__rel_string(rstr, r)), ...)
 *	DEFINE_EVENT(foo, foo_a, ...)
 *
 * becomes
 *
 *	struct trace_event_raw_foo {
 *		struct trace_entry	ent;
 *		int			bar;
 *		char			name[16];
 *		unsigned int		__data_loc_str;	  // len << 16 | offset
 *		unsigned int		__rel_loc_rstr;	  // the offset from
 *							  // the end of the word
 *		char			__data[];	  // dynamic fields
 *	};
 *	static const struct trace_event_class event_class_foo;
 *	static struct trace_event_call event_foo_a;
 */
#undef __field
#define __field(type, item)			type item;
#undef __field_ext
#define __field_ext(type, item, filter_type)	type item;
#undef __field_struct
#define __field_struct(type, item)		type item;
#undef __field_struct_ext
#define __field_struct_ext(type, item, filter_type) type item;
#undef __array
#define __array(type, item, len)		type item[len];
#undef __dynamic_array
#define __dynamic_array(type, item, len)	unsigned int __data_loc_##item;
#undef __string
#define __string(item, src)			__dynamic_array(char, item, -1)
#undef __string_len
#define __string_len(item, src, len)		__dynamic_array(char, item, -1)
#undef __vstring
#define __vstring(item, ...)			__dynamic_array(char, item, -1)
#undef __bitmask
#define __bitmask(item, nr_bits)		__dynamic_array(unsigned long, item, -1)
#undef __cpumask
#define __cpumask(item)				__dynamic_array(unsigned long, item, -1)
#undef __sockaddr
#define __sockaddr(field, len)			__dynamic_array(unsigned char, field, len)
#undef __rel_dynamic_array
#define __rel_dynamic_array(type, item, len)	unsigned int __rel_loc_##item;
#undef __rel_string
#define __rel_string(item, src)			__rel_dynamic_array(char, item, -1)
#undef __rel_string_len
#define __rel_string_len(item, src, len)	__rel_dynamic_array(char, item, -1)
#undef __rel_bitmask
#define __rel_bitmask(item, nr_bits)		__rel_dynamic_array(unsigned long, item, -1)
#undef __rel_cpumask
#define __rel_cpumask(item)			__rel_dynamic_array(unsigned long, item, -1)
#undef __rel_sockaddr
#define __rel_sockaddr(field, len)		__rel_dynamic_array(unsigned char, field, len)

#undef TP_STRUCT__entry
#define TP_STRUCT__entry(...)			__VA_ARGS__

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	struct trace_event_raw_##call {					\
		struct trace_entry	ent;				\
		tstruct							\
		char			__data[];			\
	};								\
	__USTRACE_LOCAL_BEGIN						\
	__USTRACE_LOCAL_DECL const struct trace_event_class event_class_##call; \
	__USTRACE_LOCAL_END

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)			\
	__USTRACE_LOCAL_BEGIN						\
	__USTRACE_LOCAL_DECL struct trace_event_call event_##name;	\
	__USTRACE_LOCAL_END

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
