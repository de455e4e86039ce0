/* SPDX-License-Identifier: MIT */
/*
 * Trace events: tracepoints with a record layout, a format text and a
 * printk-style rendering, as the kernel's <linux/trace_events.h>.
 *
 * The structures here are filled by the TRACE_EVENT() macro stages
 * (<trace/trace_events.h>) in the file that defines the events, and read
 * by the library.  Programs use the functions at the end: enable events,
 * get their format text, render a record.
 * Documentation/trace/events.rst describes the design.
 */
#ifndef _USTRACE_LINUX_TRACE_EVENTS_H
#define _USTRACE_LINUX_TRACE_EVENTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <linux/compiler.h>
#include <linux/ring_buffer.h>
#include <linux/trace_seq.h>
#include <linux/tracepoint-defs.h>

__USTRACE_BEGIN_DECLS

/**
 * struct trace_entry - the common header of every event record
 * @type:          the event's id (common_type)
 * @flags:         common_flags: always 0 in userspace (the kernel's
 *                 irqs-off, need-resched, hardirq and softirq bits do not
 *                 exist for a thread of a program)
 * @preempt_count: common_preempt_count: always 0 (a program cannot
 *                 disable preemption)
 * @pid:           common_pid: the thread id (gettid()) of the writer
 *
 * Laid out exactly as the kernel's, so the four common fields of a format
 * text are the kernel's.
 */
struct trace_entry {
	unsigned short	type;
	unsigned char	flags;
	unsigned char	preempt_count;
	int		pid;
};

/* The first id given to an event; lower ids are the kernel's ftrace types. */
#define TRACE_EVENT_FIRST_ID	21
#define TRACE_EVENT_TYPE_MAX	65535

/**
 * struct trace_event_fields - one field of an event, as TP_STRUCT__entry
 *	declares it (a table ends with a NULL @name)
 * @type:      the C type as the format shows it ("char[16]",
 *	       "__data_loc char[]")
 * @name:      the field name
 * @size:      bytes in the record
 * @align:     alignment of the field in the record
 * @is_signed: 1 for a signed integer type
 * @is_dynamic: 1 for a __data_loc field (size and offset of the data in
 *	       a u32: length << 16 | offset from the start of the record),
 *	       2 for a __rel_loc field (the offset from the end of the u32)
 * @len:       the elements of an __array() (0 for the others)
 */
struct trace_event_fields {
	const char	*type;
	const char	*name;
	int		size;
	int		align;
	int		is_signed;
	int		is_dynamic;
	int		len;
};

/**
 * struct trace_eval_map - TRACE_DEFINE_ENUM() and TRACE_DEFINE_SIZEOF()
 * @system:      the TRACE_SYSTEM whose print fmts it applies to
 * @eval_string: the text replaced ("HI_SOFTIRQ", "sizeof(struct foo)")
 * @eval_value:  the value printed instead (as a long, "%ld")
 */
struct trace_eval_map {
	const char	*system;
	const char	*eval_string;
	unsigned long	eval_value;
};

struct trace_print_flags {
	unsigned long		mask;
	const char		*name;
};

struct trace_print_flags_u64 {
	unsigned long long	mask;
	const char		*name;
};

/**
 * struct trace_event_class - what the events of one DECLARE_EVENT_CLASS
 *	share
 * @system:       the TRACE_SYSTEM
 * @probe:        the probe that records the event, attached to the
 *	          tracepoint with the event's trace_event_call as data
 * @fields_array: the fields after the common ones
 */
struct trace_event_class {
	const char			*system;
	void				*probe;
	const struct trace_event_fields	*fields_array;
};

/*
 * Renders the TP_printk() of a record into @s; @p is scratch space for the
 * __print_*() helpers.
 */
typedef void (*trace_event_output_fn)(struct trace_seq *s,
				      struct trace_seq *p, const void *entry);

/**
 * struct trace_event_call - one event
 * @event_class: its class (the kernel names it "class", a C++ keyword)
 * @name:      the event name
 * @tp:        the tracepoint that fires it
 * @print_fmt: the "print fmt:" text of the format
 * @output:    renders a record
 * @id:        the event id (common_type), set while the event is registered
 * @priv:      owned by the library
 * @flags:     TRACE_EVENT_FL_*, set by whoever defines the event
 *
 * Programs and the library share this layout; new members go at the end.
 */
struct trace_event_call {
	const struct trace_event_class	*event_class;
	const char			*name;
	struct tracepoint		*tp;
	const char			*print_fmt;
	trace_event_output_fn		output;
	int				id;
	void				*priv;
	unsigned int			flags;
};

/*
 * trace_event_call.flags: the library's own ftrace:print and
 * ftrace:raw_data (the records of trace_marker) cannot be enabled, have a
 * fixed id and print without the "name: " the other events print.
 */
#define TRACE_EVENT_FL_IGNORE_ENABLE	(1u << 0)
#define TRACE_EVENT_FL_FTRACE		(1u << 1)
/*
 * The kernel's TRACE_EVENT_FLAGS(event, TRACE_EVENT_FL_CAP_ANY): perf may
 * use the event without privileges.  Kept; a program has no perf.
 */
#define TRACE_EVENT_FL_CAP_ANY		(1u << 2)

struct trace_event_file;

/**
 * struct trace_event_buffer - a record being written by a probe
 * @commit_word: set by the reserve when the commit is one atomic add of
 *		 @commit_add to this word of the ring buffer (the common
 *		 case, done inline); NULL: the commit goes through the
 *		 library
 *
 * Lives on the probe's stack; the library fills it.
 */
struct trace_event_buffer {
	struct trace_buffer		*buffer;
	struct ring_buffer_event	*event;
	struct trace_event_file		*trace_file;
	void				*entry;
	uint64_t			*commit_word;
	uint64_t			commit_add;
};

/*
 * USTRACE_RB_ABI - the version of what a program's objects inline of the
 * ring buffer: struct trace_event_buffer as above, and the commit of
 * trace_event_buffer_commit() below when the reserve set @commit_word:
 * the record's header, the 32-bit word before @entry, loses its writer's
 * mark (bits 25 to 31 cleared: USTRACE_RB_HDR_KEEP), then one atomic add
 * (release) of @commit_add to the 64-bit slot word @commit_word
 * (Documentation/trace/ring-buffer-design.rst, "What programs inline").
 * An object's events register with the version it was built with
 * (trace_add_event_call()); the library refuses, with one line on
 * stderr, the events of an object built with another: their probes would
 * commit in a way its ring buffer does not read.  Changes with anything
 * those inline functions or that structure do or mean.  2: the mark.
 */
#define USTRACE_RB_ABI			2
#define USTRACE_RB_HDR_KEEP		0x01ffffffu

/* Registry */
__ustrace_visible struct trace_event_call *trace_find_event_call(const char *system,
								 const char *name);
__ustrace_visible void trace_for_each_event_call(void (*fn)(struct trace_event_call *call,
							    void *priv),
						 void *priv);
__ustrace_visible int trace_set_clr_event(const char *system, const char *event, int set);
__ustrace_visible int trace_event_is_enabled(struct trace_event_call *call);

/* The buffer events are recorded into */
__ustrace_visible struct trace_buffer *trace_get_global_buffer(void);

/* Text */
__ustrace_visible int trace_event_format(struct trace_event_call *call, char *buf,
					 size_t size);
__ustrace_visible int trace_print_event(struct trace_seq *s, const void *entry,
					unsigned int len);

/*
 * Called by the code the TRACE_EVENT() stages generate, under the kernel's
 * names; the library exports them with the __ustrace_ prefix.
 */
__ustrace_visible int __ustrace_add_event_call(struct trace_event_call *call);
__ustrace_visible int __ustrace_add_event_call_abi(struct trace_event_call *call,
						   unsigned int abi);
__ustrace_visible int __ustrace_remove_event_call(struct trace_event_call *call);
__ustrace_visible int __ustrace_add_eval_map(struct trace_eval_map *map);
__ustrace_visible void __ustrace_remove_eval_map(struct trace_eval_map *map);
__ustrace_visible void __ustrace_trace_event_vprintf(struct trace_seq *s, const char *fmt,
						     va_list args)
	__attribute__((__format__(__printf__, 2, 0)));
__ustrace_visible void *__ustrace_event_buffer_reserve(struct trace_event_buffer *fbuffer,
						       struct trace_event_file *file,
						       unsigned long len);
__ustrace_visible void __ustrace_event_buffer_commit(struct trace_event_buffer *fbuffer);
__ustrace_visible const char *
__ustrace_print_flags_seq(struct trace_seq *p, const char *delim, unsigned long flags,
			  const struct trace_print_flags *flag_array);
__ustrace_visible const char *
__ustrace_print_symbols_seq(struct trace_seq *p, unsigned long val,
			    const struct trace_print_flags *symbol_array);
__ustrace_visible const char *
__ustrace_print_flags_seq_u64(struct trace_seq *p, const char *delim,
			      unsigned long long flags,
			      const struct trace_print_flags_u64 *flag_array);
__ustrace_visible const char *
__ustrace_print_symbols_seq_u64(struct trace_seq *p, unsigned long long val,
				const struct trace_print_flags_u64 *symbol_array);
__ustrace_visible const char *
__ustrace_print_hex_seq(struct trace_seq *p, const unsigned char *buf, int len,
			int concatenate);
__ustrace_visible const char *
__ustrace_print_array_seq(struct trace_seq *p, const void *buf, int count,
			  size_t el_size);
__ustrace_visible const char *
__ustrace_print_bitmask_seq(struct trace_seq *p, const void *bitmask_ptr,
			    unsigned int bitmask_size);
__ustrace_visible const char *
__ustrace_print_hex_dump_seq(struct trace_seq *p, const char *prefix_str, int prefix_type,
			     int rowsize, int groupsize, const void *buf, size_t len,
			     bool ascii);

/*
 * trace_add_event_call - register an event (its object's constructor),
 * with the USTRACE_RB_ABI the object is built with
 */
static inline int trace_add_event_call(struct trace_event_call *call)
{
	return __ustrace_add_event_call_abi(call, USTRACE_RB_ABI);
}

/* trace_remove_event_call - unregister an event (its object's destructor) */
static inline int trace_remove_event_call(struct trace_event_call *call)
{
	return __ustrace_remove_event_call(call);
}

/*
 * trace_add_eval_map - a TRACE_DEFINE_ENUM()/TRACE_DEFINE_SIZEOF() map
 *	(its object's constructor); trace_remove_eval_map() at unload
 */
static inline int trace_add_eval_map(struct trace_eval_map *map)
{
	return __ustrace_add_eval_map(map);
}

static inline void trace_remove_eval_map(struct trace_eval_map *map)
{
	__ustrace_remove_eval_map(map);
}

/*
 * trace_event_printf - the TP_printk() of a record into @s: printf() with
 * the kernel's %p extensions (Documentation/trace/events.rst)
 */
static inline __attribute__((__format__(__printf__, 2, 3))) void
trace_event_printf(struct trace_seq *s, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	__ustrace_trace_event_vprintf(s, fmt, args);
	va_end(args);
}

/*
 * The probe's data is the instance's file of the event (the probe is
 * attached once per instance that enabled the event).
 */
static inline void *trace_event_buffer_reserve(struct trace_event_buffer *fbuffer,
					       struct trace_event_file *trace_file,
					       unsigned long len)
{
	return __ustrace_event_buffer_reserve(fbuffer, trace_file, len);
}

/*
 * Release: the record is complete for whoever acquires the word (the
 * reader swapping the page out, an iterator).  Inlined into the
 * program's probes: part of USTRACE_RB_ABI.
 */
static inline void trace_event_buffer_commit(struct trace_event_buffer *fbuffer)
{
	uint64_t *word = fbuffer->commit_word;

	if (__builtin_expect(word != NULL, 1)) {
		uint32_t *hdr = (uint32_t *)fbuffer->entry - 1;
		uint64_t add = fbuffer->commit_add;

		__atomic_store_n(hdr, __atomic_load_n(hdr, __ATOMIC_RELAXED) &
				 USTRACE_RB_HDR_KEEP, __ATOMIC_RELAXED);
		__atomic_add_fetch(word, add, __ATOMIC_RELEASE);
	} else {
		__ustrace_event_buffer_commit(fbuffer);
	}
}

/*
 * The __print_*() helpers of TP_printk(): each writes into @p and returns
 * its text, NUL-terminated.
 */
static inline const char *
trace_print_flags_seq(struct trace_seq *p, const char *delim, unsigned long flags,
		      const struct trace_print_flags *flag_array)
{
	return __ustrace_print_flags_seq(p, delim, flags, flag_array);
}

static inline const char *
trace_print_symbols_seq(struct trace_seq *p, unsigned long val,
			const struct trace_print_flags *symbol_array)
{
	return __ustrace_print_symbols_seq(p, val, symbol_array);
}

static inline const char *
trace_print_flags_seq_u64(struct trace_seq *p, const char *delim,
			  unsigned long long flags,
			  const struct trace_print_flags_u64 *flag_array)
{
	return __ustrace_print_flags_seq_u64(p, delim, flags, flag_array);
}

static inline const char *
trace_print_symbols_seq_u64(struct trace_seq *p, unsigned long long val,
			    const struct trace_print_flags_u64 *symbol_array)
{
	return __ustrace_print_symbols_seq_u64(p, val, symbol_array);
}

static inline const char *
trace_print_hex_seq(struct trace_seq *p, const unsigned char *buf, int len,
		    int concatenate)
{
	return __ustrace_print_hex_seq(p, buf, len, concatenate);
}

static inline const char *
trace_print_array_seq(struct trace_seq *p, const void *buf, int count,
		      size_t el_size)
{
	return __ustrace_print_array_seq(p, buf, count, el_size);
}

static inline const char *
trace_print_bitmask_seq(struct trace_seq *p, const void *bitmask_ptr,
			unsigned int bitmask_size)
{
	return __ustrace_print_bitmask_seq(p, bitmask_ptr, bitmask_size);
}

/* The kernel's DUMP_PREFIX_* of __print_hex_dump(). */
enum {
	DUMP_PREFIX_NONE,
	DUMP_PREFIX_ADDRESS,
	DUMP_PREFIX_OFFSET
};

static inline const char *
trace_print_hex_dump_seq(struct trace_seq *p, const char *prefix_str, int prefix_type,
			 int rowsize, int groupsize, const void *buf, size_t len,
			 bool ascii)
{
	return __ustrace_print_hex_dump_seq(p, prefix_str, prefix_type, rowsize, groupsize,
					    buf, len, ascii);
}

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_TRACE_EVENTS_H */
