/* SPDX-License-Identifier: MIT */
/*
 * Stage 4 of <trace/trace_events.h>: the field table of the format text.
 *
 *	static const struct trace_event_fields trace_event_fields_foo[] = {
 *		{ .type = "int", .name = "bar", .size = 4, .align = 4,
 *		  .is_signed = 1 },
 *		{ .type = "char[16]", .name = "name", .size = 16, ...,
 *		  .len = 16 },
 *		{ .type = "__data_loc char[]", .name = "str", .size = 4,
 *		  .align = 4, .is_dynamic = 1 },
 *		{ .type = "__rel_loc char[]", .name = "rstr", .size = 4,
 *		  .align = 4, .is_dynamic = 2 },
 *		{ .name = NULL }
 *	};
 *
 * The library lays the fields out after the common header the way the C
 * compiler laid out stage 1's struct (each at the next multiple of its
 * alignment), which is how the kernel computes the offsets it prints.
 * An array's length is kept as a number (.len), which the format prints
 * as the kernel does ("char comm[16]" for __array(char, comm,
 * TASK_COMM_LEN) whatever TASK_COMM_LEN is).
 *
 * Plain char counts as unsigned, as in the kernel (built with
 * -funsigned-char since 6.2), so "char comm[16]" prints "signed:0".
 */
#undef __ustrace_is_signed_type
#define __ustrace_is_signed_type(type)					\
	(__ustrace_same_type(type, char) ? 0 :				\
	 ((type)-1 < (type)1))

#undef __field_ext
#define __field_ext(_type, _item, _filter_type) {			\
	.type = #_type, .name = #_item, .size = sizeof(_type),		\
	.align = __ustrace_field_align(_type),				\
	.is_signed = __ustrace_is_signed_type(_type) },
#undef __field
#define __field(_type, _item)		__field_ext(_type, _item, 0)
#undef __field_struct_ext
#define __field_struct_ext(_type, _item, _filter_type) {		\
	.type = #_type, .name = #_item, .size = sizeof(_type),		\
	.align = __ustrace_field_align(_type), .is_signed = 0 },
#undef __field_struct
#define __field_struct(_type, _item)	__field_struct_ext(_type, _item, 0)
#undef __array
#define __array(_type, _item, _len) {					\
	.type = #_type "[" __stringify(_len) "]", .name = #_item,		\
	.size = sizeof(_type[_len]), .align = __ustrace_field_align(_type), \
	.is_signed = __ustrace_is_signed_type(_type), .len = (_len) },
#undef __ustrace_loc_field
#define __ustrace_loc_field(_loc, _typename, _item, _signed, _dyn) {	\
	.type = _loc " " _typename "[]", .name = #_item,		\
	.size = 4, .align = 4, .is_signed = _signed, .is_dynamic = _dyn },
#undef __dynamic_array
#define __dynamic_array(_type, _item, _len)				\
	__ustrace_loc_field("__data_loc", #_type, _item,		\
			    __ustrace_is_signed_type(_type), 1)
#undef __rel_dynamic_array
#define __rel_dynamic_array(_type, _item, _len)				\
	__ustrace_loc_field("__rel_loc", #_type, _item,			\
			    __ustrace_is_signed_type(_type), 2)
#undef __cpumask
#define __cpumask(_item)	__ustrace_loc_field("__data_loc", "cpumask_t", _item, 0, 1)
#undef __rel_cpumask
#define __rel_cpumask(_item)	__ustrace_loc_field("__rel_loc", "cpumask_t", _item, 0, 2)
#undef __sockaddr
#define __sockaddr(_item, _len)	__ustrace_loc_field("__data_loc", "u8", _item, 0, 1)
#undef __rel_sockaddr
#define __rel_sockaddr(_item, _len) __ustrace_loc_field("__rel_loc", "u8", _item, 0, 2)

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static const struct trace_event_fields trace_event_fields_##call[] = { \
		tstruct							\
		{ .name = NULL }					\
	};

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)
