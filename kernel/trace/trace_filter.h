/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Event filters and triggers: the kernel's languages of the filter and
 * trigger files (Documentation/trace/events.rst sections 5 and 6,
 * histogram.rst).  The tracefs tree calls the trace_array_*() functions
 * of trace_array.h; the probe calls the hooks declared in trace.h
 * (trace_filter_match(), trace_triggers_pre(), trace_triggers_post()).
 * Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_FILTER_H
#define _USTRACE_KERNEL_TRACE_TRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/trace_events.h>
#include <linux/trace_seq.h>

#include "trace_array.h"

struct trace_array;
struct event_filter;

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
/*
 * The same, by the instructions' interpreter instead of the steps the
 * probe runs: for the tests, which check that both decide alike.
 */
bool event_filter_match_insns(const struct event_filter *filter, const void *rec,
			      unsigned int len);
/* The expression as set (what reading the filter file shows). */
const char *event_filter_string(const struct event_filter *filter);
void event_filter_free(struct event_filter *filter);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_FILTER_H */
