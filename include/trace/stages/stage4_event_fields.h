/* SPDX-License-Identifier: MIT */
/*
 * Stage 4 of <trace/trace_events.h>: the field table of the format text.
 *
 *	static const struct trace_event_fields trace_event_fields_foo[] = {
 *		{ .type = "int", .name = "bar", .size = 4, .align = 4,
 *		  .is_signed = 1 },
 *		{ .type = "char[16]", .name = "name", .size = 16, ... },
 *		{ .type = "__data_loc char[]", .name = "str", .size = 4,
 *		  .align = 4, .is_dynamic = 1 },
 *		{ .name = NULL }
 *	};
 *
 * The library lays the fields out after the common header the way the C
 * compiler laid out stage 1's struct (each at the next multiple of its
 * alignment), which is how the kernel computes the offsets it prints.
 *
 * Plain char counts as unsigned, as in the kernel (built with
 * -funsigned-char since 6.2), so "char comm[16]" prints "signed:0".
 */
#undef __ustrace_field_align
#define __ustrace_field_align(type)	((int)__alignof__(struct { type __b; }))
#undef __ustrace_is_signed_type
#define __ustrace_is_signed_type(type)					\
	(__builtin_types_compatible_p(type, char) ? 0 :			\
	 ((type)-1 < (type)1))

#undef __field
#define __field(_type, _item) {						\
	.type = #_type, .name = #_item, .size = sizeof(_type),		\
	.align = __ustrace_field_align(_type),				\
	.is_signed = __ustrace_is_signed_type(_type) },
#undef __field_struct
#define __field_struct(_type, _item) {					\
	.type = #_type, .name = #_item, .size = sizeof(_type),		\
	.align = __ustrace_field_align(_type), .is_signed = 0 },
#undef __array
#define __array(_type, _item, _len) {					\
	.type = #_type "[" __stringify(_len) "]", .name = #_item,		\
	.size = sizeof(_type[_len]), .align = __ustrace_field_align(_type), \
	.is_signed = __ustrace_is_signed_type(_type) },
#undef __dynamic_array
#define __dynamic_array(_type, _item, _len) {				\
	.type = "__data_loc " #_type "[]", .name = #_item,		\
	.size = 4, .align = 4,						\
	.is_signed = __ustrace_is_signed_type(_type), .is_dynamic = 1 },

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static const struct trace_event_fields trace_event_fields_##call[] = { \
		tstruct							\
		{ .name = NULL }					\
	}

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)			\
	extern int __ustrace_event_stage4_##name

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
