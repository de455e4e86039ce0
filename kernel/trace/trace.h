/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The engine's private header, as the kernel's kernel/trace/trace.h: what
 * the files of kernel/trace/ share (the event files, the instances, the
 * probe's hooks, the saved cmdlines, the output helpers).  The tracefs
 * tree and the recorder reach the engine through trace_array.h instead
 * (Documentation/process/layout.rst).  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_H
#define _USTRACE_KERNEL_TRACE_TRACE_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "trace_array.h"

/* @s past its leading white space (the kernel's skip_spaces()). */
static inline char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return (char *)s;
}

/* @s without its leading and trailing white space, cut in place (strim()). */
static inline char *strim(char *s)
{
	size_t n;

	s = skip_spaces(s);
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

struct trace_buffer;
struct trace_event_call;
struct trace_array;
struct trace_seq;

/**
 * struct trace_event_priv - what the library keeps per registered event
 * @print_fmt: the print fmt with the TRACE_DEFINE_ENUM() values written
 *             in (trace_eval.c), or NULL for the event's own
 * @nr_fields: entries in the class's fields_array
 * @offsets:   the offset of each field in the record
 */
struct trace_event_priv {
	char		*print_fmt;
	unsigned int	nr_fields;
	unsigned int	offsets[];
};

/*
 * file->flags, the kernel's EVENT_FILE_FL_*: the probe tests them all in
 * one load (EVENT_FILE_FL_SLOW_MASK) before it reserves.
 */
enum {
	EVENT_FILE_FL_ENABLED		= 1ul << 0,	/* the probe is attached */
	EVENT_FILE_FL_SOFT_MODE		= 1ul << 1,	/* a trigger holds it */
	EVENT_FILE_FL_SOFT_DISABLED	= 1ul << 2,	/* attached, not recording */
	EVENT_FILE_FL_PID_FILTER	= 1ul << 3,	/* the instance filters pids */
	EVENT_FILE_FL_FILTERED		= 1ul << 4,	/* @filter is set */
	EVENT_FILE_FL_TRIGGER_MODE	= 1ul << 5,	/* triggers run unconditionally */
	EVENT_FILE_FL_TRIGGER_COND	= 1ul << 6,	/* triggers need the record */
	EVENT_FILE_FL_FILTER_INPLACE	= 1ul << 7,	/* filtered in the ring buffer */
};
#define EVENT_FILE_FL_SLOW_MASK	(EVENT_FILE_FL_SOFT_DISABLED | EVENT_FILE_FL_PID_FILTER | \
				 EVENT_FILE_FL_FILTERED | EVENT_FILE_FL_TRIGGER_MODE | \
				 EVENT_FILE_FL_TRIGGER_COND)

struct event_filter;
struct event_trigger_list;

/**
 * struct trace_event_file - an event in one instance: the probe's data
 * @flags:      EVENT_FILE_FL_*, changed atomically
 * @buffer:     the instance's buffer (a copy: one load fewer per event)
 * @id:         the event's id (a copy)
 * @tr:         the instance
 * @event_call: the event
 * @sm_ref:     soft-mode users; under the event mutex
 * @filter:     the compiled filter (EVENT_FILE_FL_FILTERED), replaced
 *              whole and freed after tracepoint_synchronize_unregister()
 * @triggers:   the triggers (EVENT_FILE_FL_TRIGGER_*), the same way
 * @filter_votes: the probes' votes for the other way of filtering
 *              (EVENT_FILE_FL_FILTER_INPLACE; trace_events.c), racy by
 *              design: a vote lost is a vote
 */
struct trace_event_file {
	unsigned long			flags;
	struct trace_buffer		*buffer;
	unsigned short			id;
	struct trace_array		*tr;
	struct trace_event_call		*event_call;
	int				sm_ref;
	struct event_filter		*filter;
	struct event_trigger_list	*triggers;
	unsigned int			filter_votes;
};

/* Set or clear EVENT_FILE_FL_* bits of @file: probes read them unlocked. */
static inline void trace_file_set_flag(struct trace_event_file *file, unsigned long bit,
				       bool on)
{
	if (on)
		__atomic_or_fetch(&file->flags, bit, __ATOMIC_RELAXED);
	else
		__atomic_and_fetch(&file->flags, ~bit, __ATOMIC_RELAXED);
}

/*
 * The trace_options, in the order of the kernel's file (as Linux 6.18
 * lists them for the nop tracer), and whether each is on by default.
 */
#define TRACE_OPTIONS							\
	TRACE_OPTION(PRINT_PARENT,	"print-parent",		1)	\
	TRACE_OPTION(SYM_OFFSET,	"sym-offset",		0)	\
	TRACE_OPTION(SYM_ADDR,		"sym-addr",		0)	\
	TRACE_OPTION(VERBOSE,		"verbose",		0)	\
	TRACE_OPTION(RAW,		"raw",			0)	\
	TRACE_OPTION(HEX,		"hex",			0)	\
	TRACE_OPTION(BIN,		"bin",			0)	\
	TRACE_OPTION(BLOCK,		"block",		0)	\
	TRACE_OPTION(FIELDS,		"fields",		0)	\
	TRACE_OPTION(TRACE_PRINTK,	"trace_printk",		1)	\
	TRACE_OPTION(ANNOTATE,		"annotate",		1)	\
	TRACE_OPTION(USERSTACKTRACE,	"userstacktrace",	0)	\
	TRACE_OPTION(SYM_USEROBJ,	"sym-userobj",		0)	\
	TRACE_OPTION(PRINTK_MSGONLY,	"printk-msg-only",	0)	\
	TRACE_OPTION(CONTEXT_INFO,	"context-info",		1)	\
	TRACE_OPTION(LATENCY_FMT,	"latency-format",	0)	\
	TRACE_OPTION(RECORD_CMD,	"record-cmd",		1)	\
	TRACE_OPTION(RECORD_TGID,	"record-tgid",		0)	\
	TRACE_OPTION(OVERWRITE,		"overwrite",		1)	\
	TRACE_OPTION(STOP_ON_FREE,	"disable_on_free",	0)	\
	TRACE_OPTION(IRQ_INFO,		"irq-info",		1)	\
	TRACE_OPTION(MARKERS,		"markers",		1)	\
	TRACE_OPTION(EVENT_FORK,	"event-fork",		0)	\
	TRACE_OPTION(TRACE_PRINTK_DEST,	"trace_printk_dest",	0)	\
	TRACE_OPTION(COPY_MARKER,	"copy_trace_marker",	0)	\
	TRACE_OPTION(PAUSE_ON_TRACE,	"pause-on-trace",	0)	\
	TRACE_OPTION(HASH_PTR,		"hash-ptr",		1)	\
	TRACE_OPTION(FUNCTION_TRACE,	"function-trace",	1)	\
	TRACE_OPTION(FUNCTION_FORK,	"function-fork",	0)	\
	TRACE_OPTION(STACKTRACE,	"stacktrace",		0)	\
	TRACE_OPTION(TEST_NOP_ACCEPT,	"test_nop_accept",	0)	\
	TRACE_OPTION(TEST_NOP_REFUSE,	"test_nop_refuse",	0)

enum trace_option {
#define TRACE_OPTION(sym, name, on)	TRACE_OPT_##sym,
	TRACE_OPTIONS
#undef TRACE_OPTION
	TRACE_OPT_MAX
};

/**
 * struct trace_array - one instance (the top level, or instances/NAME)
 * @name:        NULL for the top level
 * @buffer:      its ring buffer
 * @ref:         references: 1 for the directory, 1 per open file
 * @files:       the event files, indexed by id - TRACE_EVENT_FIRST_ID
 * @nr_files:    entries in @files
 * @size_kb:     buffer_size_kb per CPU, as last written
 * @nr_cpus:     entries in @size_kb
 * @options:     bit TRACE_OPT_x set when the option is on
 * @clock_idx:   the trace_clock, an index for trace_clock_get()
 * @time_start:  the buffer's clock when it was last cleared (the zero of
 *               latency-format times)
 * @pid_filtered: set_event_pid or set_event_notrace_pid is not empty
 * @pids:        [0] set_event_pid, [1] set_event_notrace_pid, sorted;
 *               replaced whole (the probe reads them under the tracepoint
 *               read lock)
 * @nr_pids:     their lengths
 * @marker_file: the file of ftrace:print (trace_marker's records), made
 *               when a trigger is set on it (the kernel's
 *               trace_marker_file); the marker write reads it unlocked
 *
 * Everything is under the event mutex except what the probe reads.
 */
struct trace_array {
	char				*name;
	struct trace_buffer		*buffer;
	int				ref;
	struct trace_event_file		**files;
	unsigned int			nr_files;
	unsigned long			*size_kb;
	int				nr_cpus;
	unsigned long			options;
	unsigned int			clock_idx;
	uint64_t			time_start;
	bool				pid_filtered;
	pid_t				*pids[2];
	size_t				nr_pids[2];
	struct trace_event_file		*marker_file;
	unsigned int			buffer_percent;	/* atomic */
};

/* The options a new instance starts with (trace_instance.c). */
extern const unsigned long trace_option_defaults;
#define TRACE_OPT_DEFAULTS	trace_option_defaults

#define TRACE_OPT_ON(tr, opt) \
	((__atomic_load_n(&(tr)->options, __ATOMIC_RELAXED) >> TRACE_OPT_##opt) & 1)

/* trace_instance.c, for trace_events.c and trace.c */
struct trace_array *trace_array_top_locked(void);
struct trace_event_file *trace_top_file_locked(struct trace_event_call *call, bool create);
/* @tr's file of @call (@tr NULL: the top level), made if @create; NULL if none. */
struct trace_event_file *trace_array_file_locked(struct trace_array *tr,
						 struct trace_event_call *call, bool create);
struct trace_event_file **trace_array_forget_call_locked(struct trace_event_call *call,
							 unsigned int *nr);
bool trace_array_pid_ignored(struct trace_array *tr, pid_t pid, pid_t tgid);
/* tracing_on, from any thread, a probe included. */
void trace_array_tracing_switch(struct trace_array *tr, bool on);
void trace_array_fork_child(pid_t parent, pid_t parent_tgid, pid_t child);
/*
 * The probe's hooks for filters and triggers (trace_events_filter.c,
 * trace_events_trigger.c).  Called in probe context, under the
 * tracepoint read lock, for files whose flags ask for them:
 *
 * trace_filter_match():    the record passes @file's filter (1) or is
 *                          discarded (0), before it is committed (the
 *                          commit runs it inline:
 *                          trace_filter_match_inline(), trace_filter_run.h);
 * trace_triggers_pre():    EVENT_FILE_FL_TRIGGER_MODE, before anything
 *                          is reserved: runs the triggers that need no
 *                          record; returns whether to record at all
 *                          (a soft-disabled event is not recorded);
 * trace_triggers_post():   EVENT_FILE_FL_TRIGGER_COND, with the record,
 *                          before the commit and before the filter (the
 *                          kernel's order: the triggers see records the
 *                          filter or soft disable then discard); returns
 *                          the post triggers (traceoff, stacktrace) to run
 *                          after the commit, 0 for none;
 * trace_triggers_post_commit(): after the commit or the discard, with
 *                          what trace_triggers_post() returned.
 */
int trace_filter_match(struct trace_event_file *file, const void *rec, unsigned int len);
bool trace_triggers_pre(struct trace_event_file *file);
unsigned int trace_triggers_post(struct trace_event_file *file, const void *rec,
				 unsigned int len);
void trace_triggers_post_commit(struct trace_event_file *file, unsigned int tt);
/*
 * The buffer a record goes to when its own refuses it (recording off,
 * full) but triggers need it, or NULL: never read, discarded at commit.
 */
struct trace_buffer *trace_triggers_temp_buffer(void);
/*
 * Frees what the filter code hung on @file: called by the engine right
 * before it frees a file, once no probe can be using it.
 */
void trace_filter_file_free(struct trace_event_file *file);
/*
 * trace_events_trigger.c: an instance is being destroyed (called by
 * trace_array_destroy() once no probe can run for it, before its files
 * are freed): its triggers and its snapshot buffer go.
 * trace_snapshot.c: its buffer was resized (trace_array_resize_kb(),
 * event mutex held): the snapshot buffer follows.
 */
void trace_triggers_instance_gone(struct trace_array *tr);
void trace_snapshot_resized(struct trace_array *tr);

/* trace_events.c: the record-cmd option of the top level. */
void trace_set_record_cmd(bool on);
/* trace_events.c: the calling thread's id (cached). */
int trace_current_tid(void);
/* trace_marker.c: the text of ftrace:print and ftrace:raw_data records. */
struct trace_seq;
int trace_ftrace_print(struct trace_seq *s, const void *rec, unsigned int len);
int trace_ftrace_print_raw(struct trace_seq *s, const void *rec, unsigned int len);
int trace_ftrace_print_msg(struct trace_seq *s, const void *rec, unsigned int len);
/* trace_stack.c: the text of an ftrace:kernel_stack record (stacktrace trigger). */
#define TRACE_STACK_ID		4
int trace_stack_print(struct trace_seq *s, const void *rec, unsigned int len);

/*
 * trace_eval.c: an event registered (its system's TRACE_DEFINE_ENUM()
 * maps apply to its print fmt) or going; with the event mutex held.
 */
void trace_eval_event_added(struct trace_event_call *call);
void trace_eval_event_removed(struct trace_event_call *call);

/*
 * trace_printf.c: the rendering of one record by this thread, between
 * begin and end: how %p prints (TRACE_PRINT_*), and what the %p
 * extensions may read (the record, the scratch text).
 */
#define TRACE_PRINT_RAW_PTR	(1u << 0)	/* hash-ptr off: %p is %px */
void trace_printf_begin(unsigned int flags, const void *rec, unsigned int len,
			const struct trace_seq *scratch);
void trace_printf_end(void);
/* trace_output.c: trace_print_event() with TRACE_PRINT_* flags. */
int trace_print_event_flags(struct trace_seq *s, const void *entry, unsigned int len,
			    unsigned int flags);

/* trace_events.c: register @call with its fields at @offsets (synthetic events). */
int trace_add_event_call_at(struct trace_event_call *call, const unsigned int *offsets);

/* With trace_event_lock() held. */
struct trace_event_call *trace_find_event_call_by_id(int id);
/* kernel/trace/trace.c: remember the calling thread's name for @pid. */
void trace_save_cmdline(int pid);
void trace_save_cmdline_of(int pid, int tgid, const char *comm);
/*
 * The name of the task an event is of, for execname keys and comm
 * filters: a trace_marker writer's while its record is made, else the
 * calling thread's.
 */
void trace_current_comm(char comm[16]);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_H */
