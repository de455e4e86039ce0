/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the files of libustrace.  Not installed.
 */
#ifndef _USTRACE_KERNEL_INTERNAL_H
#define _USTRACE_KERNEL_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Accesses ThreadSanitizer must not take for races, which the code makes
 * safe by checking afterwards: a seqlock read of pages writers may be
 * overwriting (the ring buffer's iterator), the use of a descriptor the
 * program may close meanwhile (the collector's socket, a kept memfd),
 * checked to be ours first.  Nothing outside a TSan build.
 */
#if defined(__SANITIZE_THREAD__)
# define USTRACE_TSAN 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define USTRACE_TSAN 1
# endif
#endif
#ifdef USTRACE_TSAN
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
# define ustrace_tsan_ignore_begin()	AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
# define ustrace_tsan_ignore_end()	AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
# define ustrace_tsan_ignore_begin()	do { } while (0)
# define ustrace_tsan_ignore_end()	do { } while (0)
#endif

/*
 * Integrity and resource problems are reported once on stderr and never
 * stop the host program.
 */
#define ustrace_warn_once(fmt, ...)					\
({									\
	static bool __warned;						\
	if (!__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))	\
		fprintf(stderr, fmt, ##__VA_ARGS__);			\
})

/*
 * Numbers formatted backwards into a buffer, without printf
 * (async-signal-safe; inline: the trace text prints a time on every line),
 * and kernel/lib/seq_buf.c's growing text on a struct seq_buf.
 *
 * ustrace_fmt_decimal() writes @val in decimal, right-aligned in @width
 * columns padded with @pad, so that it ends at @end (max(20, @width) bytes
 * before it at most); ustrace_fmt_usecs() writes "%5llu.%06llu", @ns in
 * seconds and microseconds rounded to the microsecond (the kernel's
 * ns2usecs()), in USTRACE_FMT_USECS_MAX bytes at most.  Both return where
 * the text starts; neither writes a NUL.
 */
#define USTRACE_FMT_USECS_MAX	28

static inline char *ustrace_fmt_decimal(char *end, uint64_t val, int width, char pad)
{
	char *p = end;

	do {
		*--p = (char)('0' + val % 10);
		val /= 10;
		width--;
	} while (val);
	while (width-- > 0)
		*--p = pad;
	return p;
}

static inline char *ustrace_fmt_usecs(char *end, uint64_t ns)
{
	/* The kernel's ns2usecs() rounds to the nearest microsecond. */
	uint64_t usecs = (ns + 500) / 1000;
	char *p;

	p = ustrace_fmt_decimal(end, usecs % 1000000, 6, '0');
	*--p = '.';
	return ustrace_fmt_decimal(p, usecs / 1000000, 5, ' ');
}

/*
 * The irq-info columns of a trace line ("d.h1." and so on: irqs off, need
 * resched, hard/soft irq, the two nibbles of the preempt count), from an
 * entry's common_flags (the kernel's TRACE_FLAG_* bits) and
 * common_preempt_count: five characters at @col, no NUL.
 */
static inline void ustrace_fmt_irq_info(char *col, unsigned int flags, unsigned int preempt)
{
	static const char hex[] = "0123456789abcdef";
	bool hard = flags & 0x08, soft = flags & 0x10;

	col[0] = (flags & 0x01) ? 'd' : '.';
	col[1] = (flags & 0x04) ? 'n' : '.';
	col[2] = hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.';
	col[3] = (preempt & 0xf) ? hex[preempt & 0xf] : '.';
	col[4] = (preempt & 0xf0) ? hex[(preempt >> 4) & 0xf] : '.';
}

/*
 * A growing text: a struct seq_buf that starts zeroed ({ 0 }) and
 * reallocates its buffer as writes need it, NUL-terminated once anything
 * (even "") was written.  A write that fails (ENOMEM) marks the overflow
 * (seq_buf_has_overflowed()) and the writes after it do nothing.  Free the
 * buffer with seq_buf_grow_free().
 */
struct seq_buf;
void seq_buf_grow_putmem(struct seq_buf *s, const void *mem, size_t len);
void seq_buf_grow_puts(struct seq_buf *s, const char *str);
void seq_buf_grow_vprintf(struct seq_buf *s, const char *fmt, va_list args)
	__attribute__((__format__(__printf__, 2, 0)));
void seq_buf_grow_printf(struct seq_buf *s, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));
void seq_buf_grow_free(struct seq_buf *s);

/*
 * fork() (kernel/fork.c): the parts of the library that have locks, in the
 * order the library's paths nest them, outermost first.  The prepare
 * handler takes them in this order; a new lock gets the level of what
 * nests it, and Documentation/trace/fork.rst and kernel/fork.c say why
 * each is where it is.
 */
enum ustrace_fork_level {
	USTRACE_FORK_COLLECTOR,		/* coll.lock, the collector's client */
	USTRACE_FORK_TRACEFS_FUSE,	/* tfs_ctl_lock */
	USTRACE_FORK_TRACEFS,		/* tfs_tree_lock, each tfs_inst.lock */
	USTRACE_FORK_EVENTS,		/* event_mutex */
	USTRACE_FORK_TRACEPOINTS,	/* tracepoints_mutex */
	USTRACE_FORK_JUMP_LABEL,	/* jump_label_mutex */
	USTRACE_FORK_RING_BUFFER,	/* buffer list, mutexes, reader_locks */
	USTRACE_FORK_RCU,		/* tp_rcu_mutex, tp_rcu_gp_mutex: the read side's table */
	USTRACE_FORK_CMDLINES,		/* cmdline_lock */
	USTRACE_FORK_STACK_SYMS,	/* sym_lock */
	USTRACE_FORK_SYMS,		/* syms_lock (%ps, kallsyms, printk_formats) */
	USTRACE_FORK_NR_LEVELS,
};

struct ustrace_fork_ops {
	void (*prepare)(void);
	void (*parent)(void);
	void (*child)(void);
};

void ustrace_fork_register(enum ustrace_fork_level level, const struct ustrace_fork_ops *ops);

/* A mutex as a child must find it: unlocked (@type: PTHREAD_MUTEX_*). */
void ustrace_fork_reinit_mutex(pthread_mutex_t *mutex, int type);

/*
 * atexit() for the library: @fn runs at exit(), or when the library is
 * unloaded (the dlclose() of the last object that needed it), whichever
 * comes first.  glibc's atexit() does that in a shared object; the
 * sanitizers' atexit() interceptors do not (ThreadSanitizer runs @fn at
 * exit, after the library is gone), their __cxa_atexit() ones do.
 */
extern void *__dso_handle;
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

static inline int ustrace_atexit(void (*fn)(void *))
{
	return __cxa_atexit(fn, NULL, &__dso_handle);
}

/*
 * The handlers of a level that is one default mutex: @name##_fork_ops,
 * for ustrace_fork_register().
 */
#define USTRACE_FORK_MUTEX_OPS(name, mutex)				\
static void name##_fork_prepare(void)					\
{									\
	pthread_mutex_lock(mutex);					\
}									\
static void name##_fork_parent(void)					\
{									\
	pthread_mutex_unlock(mutex);					\
}									\
static void name##_fork_child(void)					\
{									\
	ustrace_fork_reinit_mutex(mutex, PTHREAD_MUTEX_DEFAULT);	\
}									\
static const struct ustrace_fork_ops name##_fork_ops = {		\
	.prepare	= name##_fork_prepare,				\
	.parent		= name##_fork_parent,				\
	.child		= name##_fork_child,				\
}

/*
 * kernel/env.c: the USTRACE_* variables, through secure_getenv(); those
 * that name a path are refused too while real and effective ids differ.
 */
const char *ustrace_getenv(const char *name);
const char *ustrace_getenv_path(const char *name);
bool ustrace_env_untrusted(void);

/*
 * The tools' marker (USTRACE_TOOL, <ustrace/tool.h>): a program that
 * defines it hands the USTRACE_* variables on and does not act on them.
 * A weak reference with default visibility, so that the dynamic linker
 * binds it to the program's (or a preloaded object's) definition.
 */
extern const char __ustrace_tool __attribute__((__weak__, __visibility__("default")));

/* Does this process run a tool: no tracefs, no recording from the environment? */
static inline bool ustrace_is_tool(void)
{
	return &__ustrace_tool != NULL;
}

/*
 * kernel/trace/ring_buffer/trace_clock.c: how the local clock derives
 * from the TSC, for recordings whose kernel events are put on its time
 * base (ustrace record -K): local = offset + ((tsc * mult) >> 32).
 * @mode: 1 the TSC scaled, 2 CLOCK_MONOTONIC (no usable TSC).
 * Measured at the first call if the clock was not read yet.
 */
struct ustrace_clock_scale {
	uint32_t	mode;
	uint64_t	mult;
	uint64_t	offset;
};
void ustrace_clock_local_scale(struct ustrace_clock_scale *scale);
bool ustrace_clock_local_adopt(const struct ustrace_clock_scale *scale);

/*
 * kernel/trace/ring_buffer/ring_buffer_foreign.c: buffers shared with the
 * collector (system-mode.rst, "Buffers that outlive their program").  A
 * program keeps its buffers' memfds and hands copies on; the collector
 * copies the pages out of its mapping of them, checking all it reads.
 */
struct trace_buffer;
/* One more than the highest possible CPU id (the kernel's nr_cpu_ids). */
unsigned int ring_buffer_cpu_ids(void);
void ring_buffer_keep_memfds(void);
int ring_buffer_memfd(struct trace_buffer *buffer, size_t *size);
int ring_buffer_foreign_cpus(const void *map, size_t size);
const uint32_t *ring_buffer_foreign_wake_word(const void *map, size_t size);
int ring_buffer_foreign_pages(const void *map, size_t size, int cpu, int fd, uint64_t *pages,
			      uint64_t *killed);
/* A reader of another process's buffer that does not consume (a collector's). */
struct ring_buffer_foreign_pos {
	bool		started;
	uint32_t	seq;		/* the page it is on */
	uint32_t	off;		/* and how far into it it gave */
	uint64_t	lost_pages;	/* overwritten before it got there, to flag */
	uint64_t	unfinished;	/* bytes of pages a dead writer left, dropped */
};
int ring_buffer_foreign_read(const void *map, size_t size, int cpu,
			     struct ring_buffer_foreign_pos *pos, void *page, bool partial);
uint64_t ring_buffer_foreign_first(const void *page);
bool ring_buffer_foreign_split(void *page, uint64_t limit, void *rest);
bool ring_buffer_foreign_event(const void *page, uint32_t *at, uint64_t *stamp,
			       const void **data, uint32_t *len);
/*
 * Waiting for another process's buffer (system-mode.rst, "Waiting"): the
 * reader asks ring_buffer_foreign_wait() what to wait for, and the
 * program arms it on its buffer, ring_buffer_wait_arm_at() (the reader's
 * mapping is read-only).  RING_BUFFER_WAIT_BELL: any data.
 */
#define RING_BUFFER_WAIT_BELL	UINT32_MAX
int ring_buffer_foreign_wait(const void *map, size_t size, int cpu,
			     const struct ring_buffer_foreign_pos *pos, unsigned int held, int full,
			     uint32_t *target);
int ring_buffer_wait_arm_at(struct trace_buffer *buffer, int cpu, uint32_t target);

#endif /* _USTRACE_KERNEL_INTERNAL_H */
