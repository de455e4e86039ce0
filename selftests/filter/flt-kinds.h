/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every kind of field a filter can test: integers of each size and
 * signedness, a char array, a __data_loc string, a char *, an array the
 * kernel has no comparison for, a __data_loc int array; and an event of
 * the same system without most of them (system filters).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM flt_test

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE flt-kinds

#if !defined(_FLT_KINDS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FLT_KINDS_H

#include <string.h>

#include <linux/tracepoint.h>

#ifndef _FLT_VALS_ONCE
#define _FLT_VALS_ONCE
struct flt_vals {
	signed char		s8v;
	unsigned char		u8v;
	short			s16v;
	unsigned short		u16v;
	int			s32v;
	unsigned int		u32v;
	long long		s64v;
	unsigned long long	u64v;
	const char		*name;
	const char		*str;
	const char		*ptr;
};
#endif

TRACE_EVENT(flt_all,
	TP_PROTO(const struct flt_vals *v),
	TP_ARGS(v),
	TP_STRUCT__entry(
		__field(	signed char,		s8v		)
		__field(	unsigned char,		u8v		)
		__field(	short,			s16v		)
		__field(	unsigned short,		u16v		)
		__field(	int,			s32v		)
		__field(	unsigned int,		u32v		)
		__field(	long long,		s64v		)
		__field(	unsigned long long,	u64v		)
		__array(	char,			name,	8	)
		__string(	str,			v->str		)
		__field(	const char *,		ptr		)
		__array(	unsigned short,		odd,	3	)
		__dynamic_array(int,			list,	2	)
	),
	TP_fast_assign(
		__entry->s8v = v->s8v;
		__entry->u8v = v->u8v;
		__entry->s16v = v->s16v;
		__entry->u16v = v->u16v;
		__entry->s32v = v->s32v;
		__entry->u32v = v->u32v;
		__entry->s64v = v->s64v;
		__entry->u64v = v->u64v;
		memset(__entry->name, 0, 8);
		memcpy(__entry->name, v->name, strnlen(v->name, 8));
		__assign_str(str, v->str);
		__entry->ptr = v->ptr;
		__entry->odd[0] = 1;
		__entry->odd[1] = 2;
		__entry->odd[2] = 3;
		memset(__get_dynamic_array(list), 0, 2 * sizeof(int));
	),
	TP_printk("s32v=%d str=%s", __entry->s32v, __get_str(str))
);

TRACE_EVENT(flt_small,
	TP_PROTO(int s32v),
	TP_ARGS(s32v),
	TP_STRUCT__entry(
		__field(	int,	s32v	)
	),
	TP_fast_assign(
		__entry->s32v = s32v;
	),
	TP_printk("s32v=%d", __entry->s32v)
);

#endif /* _FLT_KINDS_H */

#include <trace/define_trace.h>
