/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the trigger code shares: trace_events_trigger.c (the trigger
 * files, the commands, the probe hooks), trace_events_hist.c (hist
 * triggers), trace_snapshot.c (the snapshot buffers) and trace_stack.c
 * (stack traces).  Not installed.
 *
 * Terminology, as the kernel's trace_events_trigger.c:
 *
 *   command   a word a trigger file understands ("traceon", "hist", ...),
 *             struct event_command
 *   trigger   one command set on one event file, with its count and
 *             filter: struct event_trigger
 *   post      a trigger that runs after the event is committed
 *             (traceoff, stacktrace), so that the record is in the buffer
 *             before tracing stops or the stack follows it
 *
 * The triggers of a file are an immutable array, struct
 * event_trigger_list, that the probe reads under the tracepoint read
 * lock; every change publishes a new array and frees the old one (and
 * any trigger it dropped) after tracepoint_synchronize_unregister().
 * Everything else is under the event mutex.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_TRIGGER_H
#define _USTRACE_KERNEL_TRACE_TRACE_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/trace_events.h>
#include <linux/trace_seq.h>

#include "trace.h"
#include "trace_filter.h"

struct trace_array;
struct event_trigger;

/* The kernel's enum event_trigger_type: one bit per family of commands. */
enum event_trigger_type {
	ETT_NONE		= 0,
	ETT_TRACE_ONOFF		= 1 << 0,
	ETT_SNAPSHOT		= 1 << 1,
	ETT_STACKTRACE		= 1 << 2,
	ETT_EVENT_ENABLE	= 1 << 3,
	ETT_EVENT_HIST		= 1 << 4,
	ETT_HIST_ENABLE		= 1 << 5,
};

/* struct event_command.flags, the kernel's EVENT_CMD_FL_*. */
#define EVENT_CMD_FL_POST_TRIGGER	(1u << 0)	/* runs after the commit */
#define EVENT_CMD_FL_NEEDS_REC		(1u << 1)	/* reads the record */

/*
 * What a trigger function is called with.  @rec is NULL when the
 * triggers run before anything is reserved (no trigger of the file needs
 * the record); @ret is the return address into the engine's commit, for
 * stack traces to start at the probe.
 */
struct trigger_ctx {
	const void	*rec;
	unsigned int	len;
	const void	*ret;
};

/*
 * A write to a trigger file, split as the kernel's trigger_process_regex()
 * splits it: "!hist:keys=pid if x" has @glob "!hist", @cmd "hist",
 * @param_and_filter "keys=pid if x".  @text is the whole command as
 * written (white space stripped), @err what to log.  The condition was
 * compiled before the event mutex was taken (@pre_expr, @pre_filter or
 * @pre_errno): a filter naming a .function takes the dynamic linker's
 * lock, which a constructor waiting for the event mutex may hold.
 */
struct trigger_parse {
	struct trace_array		*tr;
	struct trace_event_file		*file;
	const char			*text;
	char				*glob;
	char				*cmd;
	char				*param_and_filter;
	bool				remove;
	struct trace_err		*err;
	struct event_filter		*pre_filter;
	char				*pre_expr;
	int				pre_errno;
};

/**
 * struct event_command - a command of the trigger files
 * @name:      what the file calls it
 * @type:      its family: one trigger per family and file (per target
 *             for enable_event), as the kernel's register_trigger()
 * @flags:     EVENT_CMD_FL_*
 * @parse:     a write naming the command; under the event mutex
 * @func:      the trigger fires; probe context: no locks, no allocation
 * @print:     its line in the trigger file, with the newline
 * @free:      the trigger is gone (no probe can be running it)
 * @same:      for enable_event: do two triggers of the family clash
 *             (the same target)?  NULL: every two do
 * @unreg_all: opening the trigger file with O_TRUNC (hist only)
 */
struct event_command {
	const char		*name;
	enum event_trigger_type	type;
	unsigned int		flags;
	int			(*parse)(const struct event_command *cmd, struct trigger_parse *p);
	void			(*func)(struct event_trigger *t, const struct trigger_ctx *ctx);
	void			(*print)(struct trace_seq *s, const struct event_trigger *t);
	void			(*free)(struct event_trigger *t);
	bool			(*same)(const struct event_trigger *a, const struct event_trigger *b);
	void			(*unreg_all)(struct trace_event_file *file);
};

/**
 * struct event_trigger - one command set on one event file
 * @cmd:        its command
 * @file:       the file it is set on
 * @count:      how many more times it may act; -1: unlimited (atomic)
 * @paused:     hist :pause, enable_hist/disable_hist (atomic)
 * @filter:     its condition ("if FILTER"), or NULL
 * @filter_str: the condition as written after "if "
 * @data:       the command's own
 */
struct event_trigger {
	const struct event_command	*cmd;
	struct trace_event_file		*file;
	long				count;
	int				paused;
	struct event_filter		*filter;
	char				*filter_str;
	void				*data;
};

struct event_trigger_list {
	unsigned int		nr;
	struct event_trigger	*t[];
};

/* trace_events_trigger.c */
struct event_trigger *trigger_alloc(const struct event_command *cmd,
				    struct trace_event_file *file, void *data);
void trigger_free(struct event_trigger *t);
int trigger_set_filter(struct trigger_parse *p, struct event_trigger *t, char *filter);
int trigger_register(struct event_trigger *t, bool tail);
void trigger_unregister(struct event_trigger *t);
struct event_trigger_list *trigger_list(struct trace_event_file *file);
bool trigger_take_count(struct event_trigger *t);
void trigger_print_count(struct trace_seq *s, const struct event_trigger *t);
void trigger_err(struct trigger_parse *p, const char *loc, const char *msg,
		 unsigned int pos);
struct trace_event_file *trigger_find_file(struct trace_array *tr, const char *system,
					   const char *event);

/* trace_events_hist.c */
extern const struct event_command trigger_hist_cmd;
extern const struct event_command trigger_hist_enable_cmd;
extern const struct event_command trigger_hist_disable_cmd;
void hist_pause_all(struct trace_event_file *file, bool pause);
int hist_split_filter(char *pf, char **paramp, char **filterp);

/* trace_snapshot.c */
struct trace_snapshot;
int trace_snapshot_alloc_locked(struct trace_array *tr, struct trace_snapshot **snapp);
void trace_snapshot_take(struct trace_snapshot *snap);
int trace_snapshot_cond_enable(struct trace_array *tr, void *cond_data,
			       bool (*update)(void *cond_data, void *ctx),
			       struct trace_snapshot **snapp);
void trace_snapshot_cond_disable(struct trace_array *tr);
void *trace_snapshot_cond_data(struct trace_array *tr);
void trace_snapshot_cond_take(struct trace_snapshot *snap, void *ctx);
void trace_snapshot_cond_read(struct trace_array *tr, void (*fn)(void *cond_data, void *arg),
			      void *arg);
void trace_snapshot_instance_gone(struct trace_array *tr);

/* trace_stack.c */
#define TRACE_STACK_MAX		64
void trace_stack_prepare(void);
unsigned int trace_stack_capture(unsigned long *ips, unsigned int max, const void *after);
void trace_stack_record(struct trace_buffer *buffer, const void *after);
int trace_stack_sym(char *buf, size_t size, unsigned long ip, bool offset);
/* trace_syscalls.c: "sys_write" for this architecture's number, or NULL. */
const char *trace_syscall_name(unsigned long long nr);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_TRIGGER_H */
