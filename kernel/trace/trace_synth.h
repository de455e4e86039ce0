/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Synthetic events (trace_events_synth.c): events a user defines by
 * writing to synthetic_events (or "s:" lines to dynamic_events), which
 * hist triggers generate with onmatch().trace() and friends
 * (trace_events_hist_action.c).  Not installed.
 *
 * Terminology, as the kernel's trace_synth.h:
 *
 *   field   one "type name" of the definition: a number of 1, 2, 4 or 8
 *           bytes, a string (char[N]: static, N <= 256; char[]: dynamic,
 *           a __data_loc) or a stack (long[]: dynamic)
 *   slot    a u64 of the record after the common header: each field
 *           takes one, a static string STR_VAR_LEN_MAX bytes
 *   ref     hist triggers that use the event (a trigger on it, an
 *           action generating it): while any, "!name" is -EBUSY
 *
 * The record, as the kernel's struct synth_trace_event:
 *
 *	offset 0        8          8 + 8 * n_u64
 *	       +--------+----------+----------+--------------------+
 *	       | header | slot 0   | slot ... | dynamic data ...   |
 *	       +--------+----------+----------+--------------------+
 *
 * A dynamic field's slot holds the kernel's __data_loc word (length << 16
 * | offset from the record's start) in its low 32 bits, zero above.
 *
 * Everything but synth_event_trace() is under the event mutex.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_SYNTH_H
#define _USTRACE_KERNEL_TRACE_TRACE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/trace_events.h>
#include <linux/tracepoint-defs.h>

#include "trace_filter.h"

#define SYNTH_SYSTEM		"synthetic"
#define SYNTH_FIELDS_MAX	64
/* The kernel's MAX_FILTER_STR_VAL: a multiple of 8. */
#define STR_VAR_LEN_MAX		256
/* A stack field's frames at most (the kernel's HIST_STACKTRACE_DEPTH). */
#define SYNTH_STACK_DEPTH	16

struct synth_field {
	char		*type;
	char		*name;
	size_t		size;
	unsigned int	offset;		/* its first slot */
	unsigned int	field_pos;
	bool		is_signed;
	bool		is_string;
	bool		is_dynamic;
	bool		is_stack;
};

/**
 * struct synth_event - one synthetic event
 * @name:     its name (the event is synthetic/@name)
 * @ref:      hist triggers using it
 * @fields:   its fields, in order
 * @n_u64:    slots of the record (static strings take 32)
 * @class:    its class: system "synthetic", the probe, @fields_array
 * @call:     the event, registered with the engine
 * @tp:       the tracepoint synth_event_trace() fires; enabling the event
 *            attaches the probe to it, once per instance
 * @next:     the synthetic events, in creation order
 */
struct synth_event {
	char				*name;
	int				ref;
	struct synth_field		**fields;
	unsigned int			n_fields;
	struct synth_field		**dynamic_fields;
	unsigned int			n_dynamic_fields;
	unsigned int			n_u64;
	struct trace_event_class	class;
	struct trace_event_call		call;
	struct tracepoint		tp;
	struct trace_event_fields	*fields_array;
	unsigned int			*offsets;
	char				*print_fmt;
	struct synth_event		*next;
};

/* The synthetic event @name, or NULL. */
struct synth_event *find_synth_event(const char *name);
/* The synthetic event that @call is, or NULL. */
struct synth_event *find_synth_event_call(const struct trace_event_call *call);

/*
 * Generate @se's event in every instance that enabled it: field i takes
 * vals[idx[i]] (a number, or for a string field the address of a
 * NUL-terminated string of at most STR_VAR_LEN_MAX bytes).
 * Context: a probe, under the tracepoint read lock; no lock, no
 * allocation.  Nested generation (an action of a trigger on a synthetic
 * event generating one) stops a few levels deep.
 */
void synth_event_trace(struct synth_event *se, const uint64_t *vals, const unsigned int *idx);


#endif /* _USTRACE_KERNEL_TRACE_TRACE_SYNTH_H */
