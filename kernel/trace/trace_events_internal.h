/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by trace_events.c and trace_output.c.  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_EVENTS_INTERNAL_H
#define _USTRACE_KERNEL_TRACE_EVENTS_INTERNAL_H

#include <stdbool.h>

struct trace_event_call;

/**
 * struct trace_event_priv - what the library keeps per registered event
 * @enabled:   the probe is attached
 * @nr_fields: entries in the class's fields_array
 * @offsets:   the offset of each field in the record
 */
struct trace_event_priv {
	bool		enabled;
	unsigned int	nr_fields;
	unsigned int	offsets[];
};

void trace_event_lock(void);
void trace_event_unlock(void);
/* With trace_event_lock() held. */
struct trace_event_call *trace_find_event_call_by_id(int id);
/* kernel/trace/trace.c: remember the calling thread's name for @pid. */
void trace_save_cmdline(int pid);

#endif /* _USTRACE_KERNEL_TRACE_EVENTS_INTERNAL_H */
