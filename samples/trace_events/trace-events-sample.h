/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A trace header that shows every kind of trace event and field.
 *
 * Like any trace header it may be read several times, so its guard lets
 * TRACE_HEADER_MULTI_READ through, and it ends, outside the guard, with
 * <trace/define_trace.h>.  Every file that includes it gets trace_<event>()
 * for each event below; the one file that defines CREATE_TRACE_POINTS
 * before including it (trace-events-sample.c) gets the events themselves.
 *
 * TRACE_SYSTEM names the group the events belong to (the directory they
 * would have under tracefs's events/); TRACE_INCLUDE_PATH and
 * TRACE_INCLUDE_FILE tell <trace/define_trace.h> where to find this file
 * again, since it is not under <trace/events/>.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sample_trace

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace-events-sample

#if !defined(_TRACE_EVENT_SAMPLE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EVENT_SAMPLE_H

#include <linux/tracepoint.h>

#ifndef _SAMPLE_TYPES_ONCE
#define _SAMPLE_TYPES_ONCE
/* A struct recorded whole with __field_struct(). */
struct sample_pair {
	int	first;
	int	second;
};

/* Called when the first probe attaches to foo_bar_with_fn, and after the last leaves. */
int foo_bar_reg(void);
void foo_bar_unreg(void);
#endif

/*
 * TRACE_EVENT(name, proto, args, struct, assign, print):
 *
 *   TP_PROTO        the prototype of trace_foo_bar()
 *   TP_ARGS         its argument names
 *   TP_STRUCT__entry the record, after the common header:
 *     __field(type, name)            a scalar
 *     __field_struct(type, name)     a struct, copied whole (signed:0;
 *                                    readers cannot print its members)
 *     __array(type, name, len)       a fixed array
 *     __dynamic_array(type, name, n) n elements stored after the fixed
 *                                    fields ("__data_loc type[] name")
 *     __string(name, src)            a NUL-terminated copy of src
 *     __string_len(name, src, len)   len bytes of src and a NUL
 *     __bitmask(name, nr_bits)       a bitmask of nr_bits bits
 *   TP_fast_assign  fills the record: __entry->field, __assign_str(),
 *                   __assign_str_len(), __assign_bitmask(),
 *                   __get_dynamic_array()
 *   TP_printk       how to print it: the same format for us and for the
 *                   readers of the format text (libtraceevent), with
 *                   __get_str(), __get_bitmask(), __print_flags(),
 *                   __print_symbolic(), __print_array()...
 */
TRACE_EVENT(foo_bar,

	TP_PROTO(const char *foo, int bar, const int *lst, int nr,
		 const char *string, const unsigned long *mask,
		 const struct sample_pair *pair),

	TP_ARGS(foo, bar, lst, nr, string, mask, pair),

	TP_STRUCT__entry(
		__array(	char,	foo,    10		)
		__field(	int,	bar			)
		__dynamic_array(int,	list,   nr		)
		__string(	str,	string			)
		__string_len(	lstr,	string, 3		)
		__bitmask(	cpus,	64			)
		__field_struct(	struct sample_pair, pair	)
	),

	TP_fast_assign(
		strncpy(__entry->foo, foo, 9);
		__entry->foo[9] = '\0';
		__entry->bar	= bar;
		memcpy(__get_dynamic_array(list), lst, nr * sizeof(int));
		__assign_str(str, string);
		__assign_str_len(lstr, string, 3);
		__assign_bitmask(cpus, mask, 64);
		__entry->pair	= *pair;
	),

	TP_printk("foo %s %d %s %s %s %s %s",
		  __entry->foo, __entry->bar,
		  __print_flags(__entry->bar, "|",
				{ 1, "BIT1" },
				{ 2, "BIT2" },
				{ 4, "BIT3" },
				{ 8, "BIT4" }),
		  __print_symbolic(__entry->bar,
				   { 0, "zero" },
				   { 3, "three" },
				   { 42, "answer" }),
		  __get_str(str), __get_str(lstr), __get_bitmask(cpus))
);

/*
 * __print_array(array, count, el_size): "{0x1,0x2}", as the kernel prints
 * it.  (libtraceevent 1.7 prints the same array as "1 2", and its parser
 * reads freed memory on "sizeof(int)" in a print fmt, hence the literal 4.)
 */
TRACE_EVENT(foo_array,

	TP_PROTO(const int *lst, int nr),

	TP_ARGS(lst, nr),

	TP_STRUCT__entry(
		__dynamic_array(int,	list,	nr	)
	),

	TP_fast_assign(
		memcpy(__get_dynamic_array(list), lst, nr * sizeof(int));
	),

	TP_printk("(%s)", __print_array(__get_dynamic_array(list),
					 __get_dynamic_array_len(list) / 4, 4))
);

/*
 * TRACE_EVENT_CONDITION: as TRACE_EVENT, but the probes only run when the
 * TP_CONDITION holds (it is tested after the static key, before the
 * probes): here, only for multiples of 10.
 */
TRACE_EVENT_CONDITION(foo_bar_with_cond,

	TP_PROTO(const char *foo, int bar),

	TP_ARGS(foo, bar),

	TP_CONDITION(!(bar % 10)),

	TP_STRUCT__entry(
		__string(	foo,    foo		)
		__field(	int,	bar		)
	),

	TP_fast_assign(
		__assign_str(foo, foo);
		__entry->bar	= bar;
	),

	TP_printk("foo %s %d", __get_str(foo), __entry->bar)
);

/*
 * TRACE_EVENT_FN: as TRACE_EVENT, with a function called before the first
 * probe attaches (enabling the event) and one after the last detaches.
 */
TRACE_EVENT_FN(foo_bar_with_fn,

	TP_PROTO(const char *foo, int bar),

	TP_ARGS(foo, bar),

	TP_STRUCT__entry(
		__string(	foo,    foo		)
		__field(	int,	bar		)
	),

	TP_fast_assign(
		__assign_str(foo, foo);
		__entry->bar	= bar;
	),

	TP_printk("foo %s %d", __get_str(foo), __entry->bar),

	foo_bar_reg, foo_bar_unreg
);

/*
 * DECLARE_EVENT_CLASS + DEFINE_EVENT: many events, one record layout and
 * one probe.  Each DEFINE_EVENT must have the class's prototype (a
 * compile error otherwise).
 */
DECLARE_EVENT_CLASS(foo_template,

	TP_PROTO(const char *foo, int bar),

	TP_ARGS(foo, bar),

	TP_STRUCT__entry(
		__string(	foo,    foo		)
		__field(	int,	bar		)
	),

	TP_fast_assign(
		__assign_str(foo, foo);
		__entry->bar	= bar;
	),

	TP_printk("foo %s %d", __get_str(foo), __entry->bar)
);

DEFINE_EVENT(foo_template, foo_with_template_simple,
	TP_PROTO(const char *foo, int bar),
	TP_ARGS(foo, bar));

/* DEFINE_EVENT_CONDITION: an event of the class, with a condition. */
DEFINE_EVENT_CONDITION(foo_template, foo_with_template_cond,
	TP_PROTO(const char *foo, int bar),
	TP_ARGS(foo, bar),
	TP_CONDITION(!(bar % 8)));

/* DEFINE_EVENT_PRINT: an event of the class that prints differently. */
DEFINE_EVENT_PRINT(foo_template, foo_with_template_print,
	TP_PROTO(const char *foo, int bar),
	TP_ARGS(foo, bar),
	TP_printk("bar %s %d", __get_str(foo), __entry->bar));

/*
 * Bytes and 64-bit flags: __print_hex() ("de ad"), __print_hex_str()
 * ("dead"), and the _u64 forms of __print_flags() and __print_symbolic(),
 * for values that do not fit an unsigned long on 32-bit machines.
 */
TRACE_EVENT(foo_hex,

	TP_PROTO(const unsigned char *buf, int len, unsigned long long flags),

	TP_ARGS(buf, len, flags),

	TP_STRUCT__entry(
		__dynamic_array(unsigned char,	buf,	len	)
		__field(	unsigned long long, flags	)
		__array(	unsigned short,	small,	2	)
	),

	TP_fast_assign(
		memcpy(__get_dynamic_array(buf), buf, len);
		__entry->flags	= flags;
		__entry->small[0] = (unsigned short)len;
		__entry->small[1] = 0xbeef;
	),

	TP_printk("hex=[%s] str=%s flags=%s sym=%s small=%s",
		  __print_hex(__get_dynamic_array(buf),
			      __get_dynamic_array_len(buf)),
		  __print_hex_str(__get_dynamic_array(buf),
				  __get_dynamic_array_len(buf)),
		  __print_flags_u64(__entry->flags, "|",
				    { 0x10000000000, "HIGH" },
				    { 0x1, "LOW" }),
		  __print_symbolic_u64(__entry->flags,
				       { 0x10000000001, "BOTH" },
				       { 0x1, "ONE" }),
		  __print_hex(__entry->small, 4))
);

#endif /* _TRACE_EVENT_SAMPLE_H */

/* Outside the guard: read once per inclusion. */
#include <trace/define_trace.h>
