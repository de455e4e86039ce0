/* SPDX-License-Identifier: MIT */
/*
 * Userspace tracepoints, as the kernel's <linux/tracepoint.h>.
 *
 * In a header:
 *
 *	DECLARE_TRACE(subsys_eventname,
 *		TP_PROTO(int firstarg, struct task_struct *p),
 *		TP_ARGS(firstarg, p));
 *
 * gives, in every file that includes it:
 *
 *	trace_subsys_eventname_tp(firstarg, p)    fire the tracepoint
 *	trace_subsys_eventname_enabled()          static-key test
 *	register_trace_subsys_eventname(probe, data)
 *	register_trace_prio_subsys_eventname(probe, data, prio)
 *	unregister_trace_subsys_eventname(probe, data)
 *
 * and exactly one file of the program defines the storage with
 * DEFINE_TRACE(subsys_eventname) (or with CREATE_TRACE_POINTS before the
 * include, through <trace/define_trace.h>).  A probe has the prototype
 * void probe(void *data, int firstarg, struct task_struct *p).
 *
 * Probes run in the context of the thread that fires the tracepoint, inside
 * an RCU read-side critical section (the library's own, inlined into the
 * site; any thread may fire a tracepoint without registering first).  After
 * unregistering a probe, tracepoint_synchronize_unregister() waits until no
 * thread can still be running it.
 */
#ifndef _USTRACE_LINUX_TRACEPOINT_H
#define _USTRACE_LINUX_TRACEPOINT_H

#include <linux/tracepoint-defs.h>

/*
 * The error numbers, as the kernel's <linux/tracepoint.h> gives them: the
 * kernel's own <linux/errno.h> (the UAPI one, which glibc's <errno.h>
 * includes too), not <errno.h>, whose errno macro would rename the
 * kernel's fields called errno (signal.h's signal_generate).
 */
#include <linux/errno.h>

/*
 * The kernel builds with -Werror=incompatible-pointer-types, and that is
 * what turns a probe with the wrong prototype into a compile error at its
 * registration site.  ISO C makes the conversion a constraint violation; we
 * ask the compiler to treat it as the error it is for the rest of the file
 * (GCC 14 and later do so by default).  C++ rejects it without help.
 */
#ifndef __cplusplus
# ifdef __clang__
#  pragma clang diagnostic error "-Wincompatible-pointer-types"
#  pragma clang diagnostic error "-Wincompatible-function-pointer-types"
# else
#  pragma GCC diagnostic error "-Wincompatible-pointer-types"
# endif
#endif

__USTRACE_BEGIN_DECLS

/* The priority probes get from register_trace_<name>(). */
#define TRACEPOINT_DEFAULT_PRIO	10

#define TP_PROTO(...)		__VA_ARGS__
#define TP_ARGS(...)		__VA_ARGS__
#define TP_CONDITION(...)	__VA_ARGS__

/*
 * A program may name "struct task_struct" in a prototype, as the seed
 * example does; in userspace it stands for a thread of the program and is
 * left incomplete (only pointers to it are passed).
 */
struct task_struct;

/*
 * The library itself always has the whole API, whatever the program's
 * configuration; CONFIG_TRACEPOINTS=n only changes what programs compile.
 */
#if defined(CONFIG_TRACEPOINTS) || defined(__USTRACE_CORE)

extern int tracepoint_probe_register(struct tracepoint *tp, void *probe,
				     void *data) __ustrace_visible;
extern int tracepoint_probe_register_prio(struct tracepoint *tp, void *probe,
					  void *data, int prio)
	__ustrace_visible;
extern int tracepoint_probe_unregister(struct tracepoint *tp, void *probe,
				       void *data) __ustrace_visible;
extern void tracepoint_synchronize_unregister(void) __ustrace_visible;
extern void for_each_kernel_tracepoint(void (*fct)(struct tracepoint *tp,
						   void *priv),
				       void *priv) __ustrace_visible;
extern struct tracepoint *tracepoint_lookup(const char *name)
	__ustrace_visible;

/*
 * The read side probes run in (kernel/tp_rcu.c; Documentation/trace/
 * tracepoint-core.rst, "The read side"), inlined into every site: a
 * thread's reader record, found through a thread-local pointer into the
 * library's table.  Its ctr is 0 outside a critical section; inside, the
 * phase bit of __ustrace_tp_gp at the outermost entry plus the nesting
 * depth.  A record's fence is set when the kernel has no
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED): the reader then orders its
 * entry with a fence of its own.  Not for direct use; part of the
 * library's ABI.
 */
struct __ustrace_tp_reader {
	unsigned long ctr;
	unsigned long fence;
};
#define __USTRACE_TP_NEST_MASK	((1UL << (sizeof(long) * 4)) - 1)
extern __ustrace_visible __thread struct __ustrace_tp_reader *__ustrace_tp_reader_self
	__attribute__((__tls_model__("initial-exec")));
extern __ustrace_visible unsigned long __ustrace_tp_gp;
extern struct __ustrace_tp_reader *__ustrace_tp_reader_register(void) __ustrace_visible;
/* The same read side out of line (objects built before it was inline). */
extern void __ustrace_tp_read_lock(void) __ustrace_visible;
extern void __ustrace_tp_read_unlock(void) __ustrace_visible;

/*
 * ThreadSanitizer cannot see a grace period's ordering: its builds call
 * the library's read side, which tells it.
 */
#if defined(__SANITIZE_THREAD__)
# define __USTRACE_TP_READ_SIDE_CALLED 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define __USTRACE_TP_READ_SIDE_CALLED 1
# endif
#endif

/*
 * Enter a read-side critical section: the thread's record, or NULL when
 * it could not get one (no memory), in which case no probe may run.
 */
static __always_inline struct __ustrace_tp_reader *__ustrace_tp_rcu_enter_inline(void)
{
	struct __ustrace_tp_reader *r = __ustrace_tp_reader_self;
	unsigned long ctr;

	if (__builtin_expect(!r, 0)) {
		r = __ustrace_tp_reader_register();
		if (!r)
			return r;
	}
	ctr = __atomic_load_n(&r->ctr, __ATOMIC_RELAXED);
	if (__builtin_expect(!(ctr & __USTRACE_TP_NEST_MASK), 1)) {
		__atomic_store_n(&r->ctr, __atomic_load_n(&__ustrace_tp_gp, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		if (__builtin_expect(r->fence != 0, 0))
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} else {
		__atomic_store_n(&r->ctr, ctr + 1, __ATOMIC_RELAXED);
	}
	/* The probe arrays are read after the entry is stored. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return r;
}

/* Leave it: what the section read is done with before the store. */
static __always_inline void __ustrace_tp_rcu_exit_inline(struct __ustrace_tp_reader *r)
{
	__atomic_store_n(&r->ctr, __atomic_load_n(&r->ctr, __ATOMIC_RELAXED) - 1,
			 __ATOMIC_RELEASE);
}

/* What a site uses: the above, or the library's calls under ThreadSanitizer. */
static __always_inline struct __ustrace_tp_reader *__ustrace_tp_rcu_enter(void)
{
#ifdef __USTRACE_TP_READ_SIDE_CALLED
	__ustrace_tp_read_lock();
	return (struct __ustrace_tp_reader *)&__ustrace_tp_gp;	/* not NULL, not used */
#else
	return __ustrace_tp_rcu_enter_inline();
#endif
}

static __always_inline void __ustrace_tp_rcu_exit(struct __ustrace_tp_reader *r)
{
#ifdef __USTRACE_TP_READ_SIDE_CALLED
	(void)r;
	__ustrace_tp_read_unlock();
#else
	__ustrace_tp_rcu_exit_inline(r);
#endif
}

/* Called by the code the macros below generate; not for direct use. */
extern void __ustrace_tracepoint_define(struct tracepoint *tp,
					const char *signature,
					const void *anchor) __ustrace_visible;
extern void __ustrace_tracepoint_undefine(struct tracepoint *tp,
					  const void *anchor)
	__ustrace_visible;
extern void __ustrace_object_get(const void *anchor) __ustrace_visible;
extern void __ustrace_object_put(const void *anchor) __ustrace_visible;

# ifndef __USTRACE_CORE
/*
 * Every object (the executable, each shared object) that includes this
 * header is counted while it is loaded.  When the last such file of an
 * object is finalized (dlclose, or exit) the library detaches the probes
 * whose code lives in that object, so that a plugin that forgot to
 * unregister cannot leave a dangling probe behind.
 */
__attribute__((__constructor__, __used__))
static void __ustrace_tracepoint_object_init(void)
{
	__ustrace_object_get((const void *)__ustrace_tracepoint_object_init);
}

__attribute__((__destructor__, __used__))
static void __ustrace_tracepoint_object_exit(void)
{
	__ustrace_object_put((const void *)__ustrace_tracepoint_object_init);
}
# endif

/*
 * __DECLARE_TRACE - everything a file needs to fire and probe @name
 * @call:       the name of the firing function (trace_<name>_tp for
 *              DECLARE_TRACE, trace_<name> for TRACE_EVENT)
 * @cond:       evaluated in the out-of-line part; false skips the probes
 * @data_proto: the probe prototype (void *__data, proto)
 * @data_args:  the probe arguments (__data, args)
 *
 * The probes run from a static noinline function so that a site is only
 * the static-key test and a call.  One probe, the common case, is called
 * from it directly; several by __ustrace_do_all_<name>(), which finds the
 * array in the probe's data argument: the arguments are then live across
 * one call only.
 */
# define __DECLARE_TRACE(name, call, proto, args, cond, data_proto, data_args) \
	extern struct tracepoint __tracepoint_##name;			\
	static const char __ustrace_signature_##name[]			\
		__attribute__((__unused__)) = __stringify(proto);	\
	static __attribute__((__noinline__, __unused__)) void		\
	__ustrace_do_all_##name(data_proto)				\
	{								\
		struct tracepoint_func *__it = (struct tracepoint_func *)__data; \
									\
		do {							\
			__data = __it->data;				\
			((void (*)(data_proto))(__it->func))(data_args); \
		} while ((++__it)->func);				\
	}								\
	static __attribute__((__noinline__, __unused__)) void		\
	__ustrace_do_##name(proto)					\
	{								\
		struct __ustrace_tp_reader *__r;			\
		struct tracepoint_func *__it;				\
									\
		if (!(cond))						\
			return;						\
		__r = __ustrace_tp_rcu_enter();				\
		if (__builtin_expect(!__r, 0))				\
			return;						\
		__it = __atomic_load_n(&__tracepoint_##name.funcs,	\
				       __ATOMIC_CONSUME);		\
		if (__builtin_expect(__it && !__it[1].func, 1)) {	\
			void *__data = __it->data;			\
									\
			((void (*)(data_proto))(__it->func))(data_args); \
		} else if (__it) {					\
			void *__data = __it;				\
									\
			__ustrace_do_all_##name(data_args);		\
		}							\
		__ustrace_tp_rcu_exit(__r);				\
	}								\
	static inline __attribute__((__unused__)) void call(proto)	\
	{								\
		if (__ustrace_static_branch_unlikely(__tracepoint_##name, key)) \
			__ustrace_do_##name(args);			\
	}								\
	static inline __attribute__((__unused__)) bool			\
	trace_##name##_enabled(void)					\
	{								\
		return __ustrace_static_branch_unlikely(__tracepoint_##name, key); \
	}								\
	static inline __attribute__((__unused__)) int			\
	register_trace_##name(void (*probe)(data_proto), void *data)	\
	{								\
		return tracepoint_probe_register(&__tracepoint_##name,	\
						 (void *)probe, data);	\
	}								\
	static inline __attribute__((__unused__)) int			\
	register_trace_prio_##name(void (*probe)(data_proto), void *data, \
				   int prio)				\
	{								\
		return tracepoint_probe_register_prio(&__tracepoint_##name, \
						      (void *)probe, data, prio); \
	}								\
	static inline __attribute__((__unused__)) int			\
	unregister_trace_##name(void (*probe)(data_proto), void *data)	\
	{								\
		return tracepoint_probe_unregister(&__tracepoint_##name, \
						   (void *)probe, data); \
	}								\
	static inline __attribute__((__unused__)) void			\
	check_trace_callback_type_##name(void (*cb)(data_proto))	\
	{								\
		(void)cb;						\
	}

/*
 * DEFINE_TRACE_FN - the storage of one tracepoint
 * @reg:   called before the first probe is attached (may return -errno)
 * @unreg: called after the last probe is removed
 *
 * The symbol is global with default visibility even in objects built with
 * -fvisibility=hidden: tracepoint names are one namespace for the whole
 * program, like the kernel's.  A constructor announces the definition to
 * the library, which refuses a second definition of the same name with a
 * different prototype (see Documentation/trace/tracepoints.rst).
 */
# define DEFINE_TRACE_FN(_name, _reg, _unreg)				\
	static const char __tpstrtab_##_name[] = #_name;		\
	__ustrace_visible __attribute__((__used__))			\
	struct tracepoint __tracepoint_##_name = {			\
		.name = __tpstrtab_##_name,				\
		.key = STATIC_KEY_INIT_FALSE,				\
		.regfunc = _reg,					\
		.unregfunc = _unreg,					\
		.funcs = (struct tracepoint_func *)0,			\
		.signature = __ustrace_signature_##_name,		\
		.priv = (void *)0,					\
	};								\
	__attribute__((__constructor__, __used__))			\
	static void __ustrace_define_##_name(void)			\
	{								\
		__ustrace_tracepoint_define(&__tracepoint_##_name,	\
			__ustrace_signature_##_name,			\
			(const void *)__ustrace_define_##_name);	\
	}								\
	__attribute__((__destructor__, __used__))			\
	static void __ustrace_undefine_##_name(void)			\
	{								\
		__ustrace_tracepoint_undefine(&__tracepoint_##_name,	\
			(const void *)__ustrace_define_##_name);	\
	}								\
	extern struct tracepoint __tracepoint_##_name;

/*
 * EXPORT_TRACEPOINT_SYMBOL{,_GPL} - make a tracepoint usable from other
 * objects.  DEFINE_TRACE already gives the symbol default visibility, so
 * what is left to do is the kernel's other promise: the export must sit in
 * the file that defines the tracepoint.  It fails to compile elsewhere.
 */
# define EXPORT_TRACEPOINT_SYMBOL_GPL(name)				\
	extern const char __ustrace_export_check_##name[		\
		sizeof(__tpstrtab_##name)] __attribute__((__unused__));
# define EXPORT_TRACEPOINT_SYMBOL(name)	EXPORT_TRACEPOINT_SYMBOL_GPL(name)

#else /* !CONFIG_TRACEPOINTS: every tracepoint compiles to nothing */

# define __DECLARE_TRACE(name, call, proto, args, cond, data_proto, data_args) \
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wunused-parameter\"")	\
	static inline __attribute__((__unused__)) void call(proto)	\
	{								\
	}								\
	_Pragma("GCC diagnostic pop")					\
	static inline __attribute__((__unused__)) bool			\
	trace_##name##_enabled(void)					\
	{								\
		return false;						\
	}								\
	static inline __attribute__((__unused__)) int			\
	register_trace_##name(void (*probe)(data_proto), void *data)	\
	{								\
		(void)probe; (void)data;				\
		return -ENOSYS;						\
	}								\
	static inline __attribute__((__unused__)) int			\
	register_trace_prio_##name(void (*probe)(data_proto), void *data, \
				   int prio)				\
	{								\
		(void)probe; (void)data; (void)prio;			\
		return -ENOSYS;						\
	}								\
	static inline __attribute__((__unused__)) int			\
	unregister_trace_##name(void (*probe)(data_proto), void *data)	\
	{								\
		(void)probe; (void)data;				\
		return -ENOSYS;						\
	}								\
	static inline __attribute__((__unused__)) void			\
	check_trace_callback_type_##name(void (*cb)(data_proto))	\
	{								\
		(void)cb;						\
	}

# define DEFINE_TRACE_FN(name, reg, unreg)				\
	extern int __ustrace_tracepoint_compiled_out_##name;
# define EXPORT_TRACEPOINT_SYMBOL_GPL(name)				\
	extern int __ustrace_tracepoint_compiled_out_##name;
# define EXPORT_TRACEPOINT_SYMBOL(name)	EXPORT_TRACEPOINT_SYMBOL_GPL(name)

static inline void tracepoint_synchronize_unregister(void)
{
}

#endif /* CONFIG_TRACEPOINTS || __USTRACE_CORE */

#define DEFINE_TRACE(name)	DEFINE_TRACE_FN(name, NULL, NULL)

/*
 * tracepoint_string(str) - a string literal whose address an event
 * records (a "const char *" field), as the kernel's: the address is kept
 * in the object's __tracepoint_str section, and the library lists every
 * such string in printk_formats and in recordings, so that readers of the
 * records (trace-cmd, libtraceevent) print the text instead of the
 * address.  __tracepoint_string puts a pointer variable of one's own there.
 */
#define __tracepoint_string						\
	__attribute__((__used__, __section__("__tracepoint_str")))
#define tracepoint_string(str)						\
	({								\
		static const char *___tp_str __tracepoint_string = str;	\
		___tp_str;						\
	})

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_TRACEPOINT_H */

/*
 * The declaration macros are (re)defined outside the include guard:
 * <trace/define_trace.h> redefines DECLARE_TRACE to DEFINE_TRACE while it
 * rereads a trace header, and puts them back afterwards by including this
 * file again.
 */
#ifndef DECLARE_TRACE
/*
 * DECLARE_TRACE - declare a tracepoint fired with trace_<name>_tp()
 */
# define DECLARE_TRACE(name, proto, args)				\
	__DECLARE_TRACE(name, trace_##name##_tp, PARAMS(proto),		\
			PARAMS(args), 1,				\
			PARAMS(void *__data, proto),			\
			PARAMS(__data, args))

/*
 * DECLARE_TRACE_CONDITION - as DECLARE_TRACE, but the probes only run when
 * @cond (a TP_CONDITION() over the arguments) is true.
 */
# define DECLARE_TRACE_CONDITION(name, proto, args, cond)		\
	__DECLARE_TRACE(name, trace_##name##_tp, PARAMS(proto),		\
			PARAMS(args), PARAMS(cond),			\
			PARAMS(void *__data, proto),			\
			PARAMS(__data, args))

/*
 * DECLARE_TRACE_EVENT{,_CONDITION} - as the kernel's (6.15 and later): the
 * tracepoint of an event, fired with trace_<name>().  The _SYSCALL forms
 * are the kernel's faultable tracepoints (6.13); every tracepoint of a
 * program may fault, so they are the plain ones.
 */
# define DECLARE_TRACE_EVENT(name, proto, args)				\
	__DECLARE_TRACE(name, trace_##name, PARAMS(proto),		\
			PARAMS(args), 1,				\
			PARAMS(void *__data, proto),			\
			PARAMS(__data, args))
# define DECLARE_TRACE_EVENT_CONDITION(name, proto, args, cond)		\
	__DECLARE_TRACE(name, trace_##name, PARAMS(proto),		\
			PARAMS(args), PARAMS(cond),			\
			PARAMS(void *__data, proto),			\
			PARAMS(__data, args))
# define DECLARE_TRACE_SYSCALL(name, proto, args)			\
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
# define DECLARE_TRACE_EVENT_SYSCALL(name, proto, args)			\
	DECLARE_TRACE_EVENT(name, PARAMS(proto), PARAMS(args))
#endif /* DECLARE_TRACE */

/*
 * Annotations of trace headers that only the file defining the events
 * acts on (<trace/trace_events.h>); everywhere else they are nothing.
 *
 * TRACE_DEFINE_ENUM(x), TRACE_DEFINE_SIZEOF(type): the print fmt of the
 * system's events shows the value, not the name (Documentation/trace/
 * events.rst); TRACE_EVENT_FLAGS(event, flags), TRACE_EVENT_PERF_PERM():
 * for perf, which a program has not.  __perf_count() and __perf_task()
 * mark arguments for perf and are the argument itself.
 */
#ifndef TRACE_DEFINE_ENUM
# define TRACE_DEFINE_ENUM(x)
# define TRACE_DEFINE_SIZEOF(x)
#endif
#ifndef TRACE_EVENT_FLAGS
# define TRACE_EVENT_FLAGS(event, flag)
# define TRACE_EVENT_PERF_PERM(event, ...)
#endif
#ifndef __perf_count
# define __perf_count(c)	(c)
# define __perf_task(t)		(t)
#endif

#ifndef TRACE_EVENT
/*
 * TRACE_EVENT - declare a trace event: a tracepoint fired with
 * trace_<name>(args), whose probe records TP_STRUCT__entry into the trace
 * buffer (see <trace/trace_events.h> and Documentation/trace/events.rst).
 * Here, in every file, only the tracepoint is declared; the file that
 * defines CREATE_TRACE_POINTS generates the rest.
 *
 * Every one of these macros is a complete declaration: a definition may
 * be followed by ';' or not, as the kernel accepts both.
 */
# define TRACE_EVENT(name, proto, args, tstruct, assign, print)	\
	DECLARE_TRACE_EVENT(name, PARAMS(proto), PARAMS(args))

/* TRACE_EVENT_CONDITION - fires only when @cond (TP_CONDITION()) holds */
# define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	DECLARE_TRACE_EVENT_CONDITION(name, PARAMS(proto), PARAMS(args), \
				      PARAMS(cond))

/* TRACE_EVENT_FN - with @reg/@unreg called around the first/last probe */
# define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	DECLARE_TRACE_EVENT(name, PARAMS(proto), PARAMS(args))

/* TRACE_EVENT_FN_COND - both */
# define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign, print, \
			     reg, unreg)				\
	DECLARE_TRACE_EVENT_CONDITION(name, PARAMS(proto), PARAMS(args), \
				      PARAMS(cond))

/* TRACE_EVENT_SYSCALL - the kernel's faultable TRACE_EVENT_FN (6.13) */
# define TRACE_EVENT_SYSCALL(name, proto, args, tstruct, assign, print, \
			     reg, unreg)				\
	DECLARE_TRACE_EVENT(name, PARAMS(proto), PARAMS(args))

/* DECLARE_EVENT_CLASS - a record layout and printk shared by events */
# define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
# define DECLARE_EVENT_SYSCALL_CLASS(name, proto, args, tstruct, assign, print)

/* DEFINE_EVENT - an event of class @template (same prototype) */
# define DEFINE_EVENT(template, name, proto, args)			\
	DECLARE_TRACE_EVENT(name, PARAMS(proto), PARAMS(args))

/* DEFINE_EVENT_FN - with @reg/@unreg, as TRACE_EVENT_FN */
# define DEFINE_EVENT_FN(template, name, proto, args, reg, unreg)	\
	DECLARE_TRACE_EVENT(name, PARAMS(proto), PARAMS(args))

/* DEFINE_EVENT_PRINT - as DEFINE_EVENT, with its own TP_printk() */
# define DEFINE_EVENT_PRINT(template, name, proto, args, print)	\
	DECLARE_TRACE_EVENT(name, PARAMS(proto), PARAMS(args))

/* DEFINE_EVENT_CONDITION - as DEFINE_EVENT, fired only when @cond holds */
# define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)	\
	DECLARE_TRACE_EVENT_CONDITION(name, PARAMS(proto), PARAMS(args), \
				      PARAMS(cond))

/*
 * The _NOP forms: events a configuration compiles out.  trace_<name>()
 * exists and does nothing; nothing is defined or registered.
 */
# define DECLARE_EVENT_NOP(name, proto, args)				\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wunused-parameter\"")	\
	static inline __attribute__((__unused__)) void			\
	trace_##name(proto)						\
	{								\
	}								\
	_Pragma("GCC diagnostic pop")					\
	static inline __attribute__((__unused__)) bool			\
	trace_##name##_enabled(void)					\
	{								\
		return false;						\
	}
# define TRACE_EVENT_NOP(name, proto, args, tstruct, assign, print)	\
	DECLARE_EVENT_NOP(name, PARAMS(proto), PARAMS(args))
# define DECLARE_EVENT_CLASS_NOP(name, proto, args, tstruct, assign, print)
# define DEFINE_EVENT_NOP(template, name, proto, args)			\
	DECLARE_EVENT_NOP(name, PARAMS(proto), PARAMS(args))
#endif /* TRACE_EVENT */
