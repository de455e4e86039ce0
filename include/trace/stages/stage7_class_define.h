/* SPDX-License-Identifier: MIT */
/*
 * Stage 7 of <trace/trace_events.h>: the "print fmt:" text, the class and
 * event objects, and their registration when the object is loaded.
 *
 * The print fmt is TP_printk() itself, turned into text: __entry becomes
 * REC and the helpers (__get_str, __print_flags, ...) are left undefined
 * so that they stay as calls for the reader (libtraceevent) to evaluate:
 *
 *	static const char print_fmt_foo[] =
 *		"\"bar=%d str=%s\", REC->bar, __get_str(str)";
 *	static const struct trace_event_class event_class_foo = {
 *		.system = "sys", .probe = (void *)trace_event_raw_event_foo,
 *		.fields_array = trace_event_fields_foo,
 *	};
 *	static struct trace_event_call event_foo_a = {
 *		.event_class = &event_class_foo, .name = "foo_a",
 *		.tp = &__tracepoint_foo_a, .print_fmt = print_fmt_foo,
 *		.output = trace_raw_output_foo,
 *	};
 *	__attribute__((constructor)) static void __ustrace_event_add_foo_a(void)
 *	{ trace_add_event_call(&event_foo_a); }
 *	__attribute__((destructor)) static void __ustrace_event_remove_foo_a(void)
 *	{ trace_remove_event_call(&event_foo_a); }
 */
#undef __entry
#define __entry REC

#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __get_rel_dynamic_array
#undef __get_rel_dynamic_array_len
#undef __get_str
#undef __get_rel_str
#undef __get_bitmask
#undef __get_rel_bitmask
#undef __get_cpumask
#undef __get_rel_cpumask
#undef __get_sockaddr
#undef __get_rel_sockaddr
#undef __print_flags
#undef __print_symbolic
#undef __print_flags_u64
#undef __print_symbolic_u64
#if __SIZEOF_LONG__ == 8
/* As the kernel's: on 64-bit machines these are the plain helpers. */
# define __print_flags_u64(flag, delim, ...)				\
	__print_flags(flag, delim, __VA_ARGS__)
# define __print_symbolic_u64(value, ...)				\
	__print_symbolic(value, __VA_ARGS__)
#endif
#undef __print_hex
#undef __print_hex_str
#undef __print_array
#undef __print_dynamic_array
#undef __print_hex_dump
/* As the kernel's: what readers of the print fmt evaluate instead. */
#undef __print_ns_to_secs
#define __print_ns_to_secs(val)		(val) / 1000000000UL
#undef __print_ns_without_secs
#define __print_ns_without_secs(val)	(val) % 1000000000UL

#undef TP_printk
#define TP_printk(fmt, ...)	"\"" fmt "\", " __stringify(__VA_ARGS__)

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static const char print_fmt_##call[] __attribute__((__unused__)) = \
		print;							\
	__USTRACE_LOCAL_BEGIN						\
	__USTRACE_LOCAL_DEF const struct trace_event_class event_class_##call \
		__attribute__((__unused__)) = {				\
		.system		= TRACE_SYSTEM_STRING,			\
		.probe		= (void *)trace_event_raw_event_##call,	\
		.fields_array	= trace_event_fields_##call,		\
	};								\
	__USTRACE_LOCAL_END

#undef __ustrace_define_event
#define __ustrace_define_event(template, call, fmt, out)		\
	__USTRACE_LOCAL_BEGIN						\
	__USTRACE_LOCAL_DEF struct trace_event_call event_##call = {	\
		.event_class	= &event_class_##template,		\
		.name		= #call,				\
		.tp		= &__tracepoint_##call,			\
		.print_fmt	= fmt,					\
		.output		= out,					\
	};								\
	__USTRACE_LOCAL_END						\
	__attribute__((__constructor__, __used__))			\
	static void __ustrace_event_add_##call(void)			\
	{								\
		trace_add_event_call(&event_##call);			\
	}								\
	__attribute__((__destructor__, __used__))			\
	static void __ustrace_event_remove_##call(void)			\
	{								\
		trace_remove_event_call(&event_##call);			\
	}

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, call, proto, args)			\
	__ustrace_define_event(template, call, print_fmt_##template,	\
			       trace_raw_output_##template)

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, call, proto, args, print)		\
	static const char print_fmt_##call[] = print;			\
	__ustrace_define_event(template, call, print_fmt_##call,	\
			       trace_raw_output_##call)

/*
 * TRACE_DEFINE_ENUM(NAME) and TRACE_DEFINE_SIZEOF(TYPE): a map of the
 * system from the text to its value, handed to the library when the object
 * is loaded.  The library rewrites the print fmt of every event of the
 * system with the value, as the kernel does when it registers events.
 *
 *	static struct trace_eval_map __ustrace_eval_map_7 = {
 *		.system = "irq", .eval_string = "HI_SOFTIRQ",
 *		.eval_value = HI_SOFTIRQ,
 *	};
 *	(a constructor adding it, a destructor removing it)
 */
#undef __ustrace_define_eval
#define __ustrace_define_eval(str, val, n)	___ustrace_define_eval(str, val, n)
#undef ___ustrace_define_eval
#define ___ustrace_define_eval(str, val, n)				\
	static struct trace_eval_map __ustrace_eval_map_##n = {		\
		.system		= TRACE_SYSTEM_STRING,			\
		.eval_string	= str,					\
		.eval_value	= (unsigned long)(val),			\
	};								\
	__attribute__((__constructor__, __used__))			\
	static void __ustrace_eval_add_##n(void)			\
	{								\
		trace_add_eval_map(&__ustrace_eval_map_##n);		\
	}								\
	__attribute__((__destructor__, __used__))			\
	static void __ustrace_eval_remove_##n(void)			\
	{								\
		trace_remove_eval_map(&__ustrace_eval_map_##n);		\
	}
#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)	__ustrace_define_eval(#a, a, __COUNTER__)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)						\
	__ustrace_define_eval("sizeof(" #a ")", sizeof(a), __COUNTER__)

/*
 * TRACE_EVENT_FLAGS(event, flags): TRACE_EVENT_FL_CAP_ANY is for perf and
 * changes nothing here; the value is kept in a constant beside the event.
 * It is not stored into the event's flags by a constructor: the program's
 * constructors run after the library's, whose tracefs threads may
 * already read those flags.
 */
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(name, value)					\
	static const unsigned long __ustrace_event_flags_##name		\
		__attribute__((__unused__)) = (value);

