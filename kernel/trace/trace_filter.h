/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Event filters and triggers: the kernel's languages of the filter and
 * trigger files (Documentation/trace/events.rst sections 5 and 6,
 * histogram.rst).  The tracefs tree calls the trace_array_*() functions
 * below; the probe calls the hooks declared in trace.h
 * (trace_filter_match(), trace_triggers_pre(), trace_triggers_post()).
 * Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_FILTER_H
#define _USTRACE_KERNEL_TRACE_TRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/trace_events.h>
#include <linux/trace_seq.h>

struct trace_array;
struct event_filter;

/*
 * Why a write to a filter or trigger file was refused, for the caller to
 * put in the instance's error_log (tfs_log_err()) as the kernel's
 * tracing_log_err() would: @loc is the kernel's location text ("event
 * filter parse error", "hist:sched:sched_switch", ...), @msg its message,
 * @pos the offset in the command the caret points at.  @loc NULL: the
 * kernel logs nothing for this error.
 */
struct trace_err {
	const char	*loc;
	char		msg[128];
	unsigned int	pos;
};

/* ------------------------------------------------------------------
 * Filters (trace_events_filter.c)
 */

/*
 * Compile @expr for the fields of @call (and the common fields, CPU,
 * COMM).  On a parse error returns NULL with errno EINVAL and fills @err
 * (may be NULL) with the kernel's text for the filter file:
 *
 *	"EXPR\n" "    ^\n" "parse_error: MESSAGE\n"
 *
 * and @err_pos with the caret position (for error_log).
 */
struct event_filter *event_filter_compile(struct trace_event_call *call, const char *expr,
					  struct trace_seq *err, int *err_pos);
/*
 * The same, with the error_log entry in @terr (may be NULL).  errno on an
 * error: the kernel's for the same write, EINVAL, or its quirks EPERM
 * (unbalanced ')' and other "-1" failures), ENOENT (unbalanced '('),
 * ESRCH (unterminated quote); ENOMEM; ENOENT for an unregistered @call.
 */
struct event_filter *event_filter_compile_log(struct trace_event_call *call, const char *expr,
					      struct trace_seq *err, struct trace_err *terr);
/*
 * Is @call registered?  @call may be stale (found before the event mutex
 * was let go): it is compared with the registry's before it is read.
 * Under the event mutex.
 */
bool trace_event_call_registered(struct trace_event_call *call);
/* Does the record (@len bytes, the common header first) pass? */
bool event_filter_match(const struct event_filter *filter, const void *rec,
			unsigned int len);
/* The expression as set (what reading the filter file shows). */
const char *event_filter_string(const struct event_filter *filter);
void event_filter_free(struct event_filter *filter);

/*
 * The filter file of one event / one system of @tr (NULL: top level).
 * Setting "0" clears; an empty expression is an error ("Error: (0)"), as
 * in the kernel.  On error: -EINVAL (or the kernel's -EPERM, -ENOENT,
 * -ESRCH, see event_filter_compile_log()), the event keeps no filter (as
 * the kernel leaves it), reading the file shows the error text, and @err
 * says what to log; its Command is @expr with trailing spaces removed.
 * Return: 0, -EINVAL, -EPERM, -ESRCH, -ENOMEM, -ENOENT.
 */
int trace_array_set_filter(struct trace_array *tr, struct trace_event_call *call,
			   const char *expr, struct trace_err *err);
int trace_array_set_system_filter(struct trace_array *tr, const char *system,
				  const char *expr, struct trace_err *err);
/*
 * As trace_array_set_system_filter(); *@nr_failed: how many of the
 * system's events could not take the filter (they are left unfiltered,
 * showing the error): the kernel logs @err once for each.  The write
 * succeeds even then, as the kernel's.
 */
int trace_array_set_system_filter_count(struct trace_array *tr, const char *system,
					const char *expr, struct trace_err *err,
					unsigned int *nr_failed);
/* The text the filter file reads ("none\n" when there is none). */
void trace_array_print_filter(struct trace_array *tr, struct trace_event_call *call,
			      struct trace_seq *s);
void trace_array_print_system_filter(struct trace_array *tr, const char *system,
				     struct trace_seq *s);

/* ------------------------------------------------------------------
 * Triggers (trace_events_trigger.c, trace_events_hist.c)
 */

/*
 * A write to an event's trigger file: "CMD[:ARGS][:N] [if FILTER]",
 * "!CMD..." removes.  Return: 0, -EINVAL (bad command: nothing changed;
 * @err filled for hist errors), -EEXIST, -ENOENT, -ERANGE, -ENOMEM, or
 * the filter's errno for a bad condition.  @err->loc is thread-local
 * storage, valid until the thread's next call.  Call it without the
 * event mutex held: a condition may need the dynamic linker's lock.
 */
int trace_array_set_trigger(struct trace_array *tr, struct trace_event_call *call,
			    const char *cmd, struct trace_err *err);
/* The trigger file's text: the active triggers, or the help. */
void trace_array_print_triggers(struct trace_array *tr, struct trace_event_call *call,
				struct trace_seq *s);
/* The hist file of an event (cut to what @s holds). */
void trace_array_print_hist(struct trace_array *tr, struct trace_event_call *call,
			    struct trace_seq *s);
/*
 * The whole hist file: a histogram is often longer than a trace_seq.
 * Return: the text (free() it; "" when the event has no hist trigger),
 * its length in *@lenp, or NULL with errno ENOMEM.
 */
char *trace_array_hist_text(struct trace_array *tr, struct trace_event_call *call,
			    size_t *lenp);
/*
 * The trigger file opened with O_TRUNC: as the kernel, the hist triggers
 * and enable_hist/disable_hist go, the other triggers stay.
 */
void trace_array_trigger_truncate(struct trace_array *tr, struct trace_event_call *call);

/* ------------------------------------------------------------------
 * The snapshot file (trace_snapshot.c)
 */

/*
 * echo VAL > snapshot: 0 frees the snapshot buffer, 1 allocates it (as
 * large as the main buffer) and takes a snapshot, other values clear it
 * (if allocated).  The caller parses VAL as the kernel (decimal, -EINVAL
 * otherwise).  Return: 0, -ENOMEM, -EBUSY.
 */
int trace_array_snapshot_write(struct trace_array *tr, unsigned long val);
bool trace_array_snapshot_allocated(struct trace_array *tr);
/*
 * Reading it: the header (the kernel's help when the snapshot buffer is
 * empty, else the trace file's header with its counts), then the lines
 * of an iterator over the snapshot buffer (trace_iterator_print_line(),
 * trace_iterator_close()).
 */
int trace_array_snapshot_print_header(struct trace_array *tr, struct trace_seq *s);
struct trace_iterator *trace_array_snapshot_iterator_open(struct trace_array *tr);
/* Snapshots a probe could not take: the buffers were busy (a resize). */
unsigned long trace_array_snapshot_refused(struct trace_array *tr);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_FILTER_H */
