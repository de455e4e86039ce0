/* SPDX-License-Identifier: MIT */
/*
 * Stage 2 of <trace/trace_events.h>: where the dynamic fields of one
 * record go.
 *
 *	struct trace_event_data_offsets_foo {
 *		unsigned int	str;	// len << 16 | offset, for __data_loc_str
 *		const char	*str_ptr_;	// the string measured, copied
 *						// by __assign_str()
 *		unsigned int	__ustrace_none;
 *	};
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
#undef __dynamic_array
#define __dynamic_array(type, item, len)	unsigned int item;
#undef __string
#define __string(item, src)		unsigned int item; const char *item##_ptr_;
#undef __string_len
#define __string_len(item, src, len)	unsigned int item; const char *item##_ptr_;
#undef __rel_dynamic_array
#define __rel_dynamic_array(type, item, len)	unsigned int item;
#undef __rel_string
#define __rel_string(item, src)		unsigned int item; const char *item##_ptr_;
#undef __rel_string_len
#define __rel_string_len(item, src, len) unsigned int item; const char *item##_ptr_;

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	struct trace_event_data_offsets_##call {			\
		tstruct							\
		unsigned int	__ustrace_none;				\
	};

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)
