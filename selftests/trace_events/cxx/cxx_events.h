/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The events selftests/trace_events/cxx.sh defines once from C and once
 * from C++: the forms of TRACE_EVENT() with the field kinds, helpers and
 * variants whose generated code differs between the two languages.
 */
#ifndef CXX_EVENTS_TYPES
#define CXX_EVENTS_TYPES
struct cxx_pair {
	int x;
	short y;
};
int cxx_reg(void);
void cxx_unreg(void);
extern const unsigned long cxx_mask;
#endif

#undef TRACE_SYSTEM
#define TRACE_SYSTEM cxx
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE cxx_events

#if !defined(_CXX_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CXX_EVENTS_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(cxx_class,
	TP_PROTO(int a, const char *s),
	TP_ARGS(a, s),
	TP_STRUCT__entry(
		__field(int, a)
		__string(s, s)
	),
	TP_fast_assign(
		__entry->a = a;
		__assign_str(s, s);
	),
	TP_printk("a=%d s=%s", __entry->a, __get_str(s))
);
DEFINE_EVENT(cxx_class, cxx_one, TP_PROTO(int a, const char *s), TP_ARGS(a, s));
DEFINE_EVENT_CONDITION(cxx_class, cxx_two, TP_PROTO(int a, const char *s),
	TP_ARGS(a, s), TP_CONDITION(a > 1));

TRACE_EVENT_FN(cxx_fn,
	TP_PROTO(long long x),
	TP_ARGS(x),
	TP_STRUCT__entry(__field(long long, x)),
	TP_fast_assign(__entry->x = x;),
	TP_printk("x=%lld", __entry->x),
	cxx_reg, cxx_unreg);

DECLARE_EVENT_CLASS(cxx_bytes,
	TP_PROTO(unsigned char c),
	TP_ARGS(c),
	TP_STRUCT__entry(
		__array(unsigned char, c, 2)
		__bitmask(m, 12)
	),
	TP_fast_assign(
		__entry->c[0] = c;
		__entry->c[1] = (unsigned char)(c + 1);
		__assign_bitmask(m, &cxx_mask, 12);
	),
	TP_printk("m=%s", __get_bitmask(m))
);
DEFINE_EVENT(cxx_bytes, cxx_bits, TP_PROTO(unsigned char c), TP_ARGS(c));
DEFINE_EVENT_PRINT(cxx_bytes, cxx_print, TP_PROTO(unsigned char c), TP_ARGS(c),
	TP_printk("c=%s", __print_hex(__entry->c, 2)));

TRACE_EVENT(cxx_more,
	TP_PROTO(int v, unsigned long f, const int *arr, const struct cxx_pair *pr),
	TP_ARGS(v, f, arr, pr),
	TP_STRUCT__entry(
		__field(int, v)
		__field(unsigned long, f)
		__field(char, ch)
		__field(signed char, sc)
		__dynamic_array(int, arr, 3)
		__string_len(sl, "abcdef", 3)
		__field_struct(struct cxx_pair, pr)
		__array(char, name, 8)
	),
	TP_fast_assign(
		__entry->v = v;
		__entry->f = f;
		__entry->ch = 'q';
		__entry->sc = -3;
		memcpy(__get_dynamic_array(arr), arr, 3 * sizeof(int));
		__assign_str_len(sl, "abcdef", 3);
		__entry->pr = *pr;
		memcpy(__entry->name, "cxxname", 8);
	),
	TP_printk("v=%s f=%s arr=%s sl=%s pr=%d/%d name=%s ch=%c sc=%d",
		  __print_symbolic(__entry->v, { 1, "one" }, { 2, "two" }),
		  __print_flags(__entry->f, "|", { 1, "A" }, { 2, "B" }, { 4, "C" }),
		  __print_array(__get_dynamic_array(arr), 3, 4), __get_str(sl),
		  __entry->pr.x, __entry->pr.y, __entry->name, __entry->ch, __entry->sc)
);

#endif /* _CXX_EVENTS_H */

#include <trace/define_trace.h>
