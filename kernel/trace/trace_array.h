/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Trace instances (the kernel's struct trace_array): the top-level tree
 * and each instances/NAME have their own ring buffer, their own event
 * enables, tracing_on, clock, options and pid filters.  Events record into
 * every instance that enabled them: the class's probe is attached once per
 * (event, instance), with the instance's struct trace_event_file as data,
 * as in the kernel.
 *
 * This is the engine's control interface: kernel/trace/tracefs/ (the
 * file tree the FUSE server serves) reaches the engine only through the
 * functions declared here and the read side of the ring buffer.  Not
 * installed.
 *
 * Locking: every function takes the event mutex itself unless it says
 * otherwise; none may be called from a probe.  Errors are negative errno
 * values, the ones the kernel returns for the same tracefs write.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_ARRAY_H
#define _USTRACE_KERNEL_TRACE_TRACE_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>
#include <linux/trace_seq.h>

struct trace_array;

/* ------------------------------------------------------------------
 * Instances
 */

/* The top-level instance (what /sys/kernel/tracing itself shows). */
struct trace_array *trace_array_top(void);

/*
 * mkdir instances/NAME: a new instance with a buffer of the default size
 * (1408 KiB per CPU), every event disabled, tracing on, clock "local".
 * Returns NULL with errno EEXIST, EINVAL (bad name: empty, "/" in it,
 * "." or ".."), ENAMETOOLONG (over NAME_MAX, 255 bytes) or ENOMEM.  The instance holds one reference for its
 * directory.
 */
struct trace_array *trace_array_create(const char *name);

/*
 * rmdir instances/NAME: -EBUSY while anything else holds a reference (an
 * open file), -EINVAL for the top-level instance; otherwise disables its
 * events, waits until no probe can still write into it, frees it.
 */
int trace_array_destroy(struct trace_array *tr);

/* The instance NAME (a reference the caller puts), or NULL. */
struct trace_array *trace_array_get_by_name(const char *name);

/* References: an open file of an instance holds one (rmdir is EBUSY). */
void trace_array_get(struct trace_array *tr);
void trace_array_put(struct trace_array *tr);

/* NULL for the top-level instance. */
const char *trace_array_name(const struct trace_array *tr);

/* The instances (not the top level), in creation order. */
void trace_array_for_each_instance(void (*fn)(struct trace_array *tr, void *priv),
				   void *priv);

/* Its buffer: never NULL once the instance exists. */
struct trace_buffer *trace_array_buffer(struct trace_array *tr);

/* ------------------------------------------------------------------
 * Events per instance
 */

/* What events/.../enable reads for one event. */
enum trace_event_state {
	TRACE_EVENT_DISABLED	= 0,	/* "0" */
	TRACE_EVENT_ENABLED	= 1,	/* "1" */
	TRACE_EVENT_SOFT_DISABLED = 2,	/* "0*": attached, soft disabled */
	TRACE_EVENT_SOFT_ENABLED = 3,	/* "1*": enabled through soft mode */
};

/*
 * As trace_set_clr_event(), for one instance: @system / @event NULL match
 * all.  Return: 0, -EINVAL (nothing matched), or the first error.
 */
int trace_array_set_clr_event(struct trace_array *tr, const char *system,
			      const char *event, int set);

/* enum trace_event_state of @call in @tr (0 for an unknown event). */
int trace_array_event_state(struct trace_array *tr, struct trace_event_call *call);

/*
 * Soft mode (the kernel's SOFT_MODE / SOFT_DISABLED, used by the
 * enable_event / disable_event triggers): in soft mode the probe stays
 * attached and @soft_disabled decides whether records are kept.
 * trace_array_soft_mode(tr, call, 1) enters soft mode (counted: each
 * call needs a matching 0), trace_array_soft_disable() sets the bit.
 */
int trace_array_soft_mode(struct trace_array *tr, struct trace_event_call *call, int on);
int trace_array_soft_disable(struct trace_array *tr, struct trace_event_call *call,
			     int disabled);

/*
 * The set_event file: every enabled event of @tr as "system:event\n"
 * lines, in registration order.  Appends to @s.
 */
void trace_array_print_set_event(struct trace_array *tr, struct trace_seq *s);

/* ------------------------------------------------------------------
 * Recording control
 */

/* tracing_on: 1 or 0.  Turning it off keeps the events enabled. */
int trace_array_tracing_on(struct trace_array *tr);
void trace_array_set_tracing_on(struct trace_array *tr, int on);

/*
 * buffer_size_kb: the size of one CPU's buffer in KiB (@cpu, or
 * RING_BUFFER_ALL_CPUS: the common size, or -1 when the CPUs differ, which
 * the file shows as "X").  Resize keeps the newest events.
 * Return of the setter: 0, -EINVAL (0 KiB), -ENOMEM.
 */
long trace_array_buffer_size_kb(struct trace_array *tr, int cpu);
int trace_array_resize_kb(struct trace_array *tr, unsigned long kb, int cpu);

/* trace_clock: the index of the current clock (trace_clock_get()). */
unsigned int trace_array_clock(struct trace_array *tr);
/* Return: 0 or -EINVAL (unknown name).  Clears the buffer, as the kernel. */
int trace_array_set_clock(struct trace_array *tr, const char *name);

/* Empty every CPU's buffer (echo > trace), or one (@cpu). */
void trace_array_clear(struct trace_array *tr, int cpu);

/* ------------------------------------------------------------------
 * Options (trace_options, options/NAME)
 */

/* The names, in the order trace_options lists them; NULL-terminated. */
extern const char *const trace_option_names[];

/* 1, 0, or -EINVAL for a name not in trace_option_names. */
int trace_array_get_option(struct trace_array *tr, const char *name);
/*
 * Return: 0, or -EINVAL (no such option; a change of test_nop_refuse,
 * which the nop tracer refuses).
 */
int trace_array_set_option(struct trace_array *tr, const char *name, int on);

/* ------------------------------------------------------------------
 * set_event_pid / set_event_notrace_pid
 */

/*
 * Replace (@append 0) or extend the list; @n 0 with @append 0 clears it.
 * With a non-empty set_event_pid, only those threads record; threads in
 * set_event_notrace_pid never record.  With the event-fork option, a
 * thread created by a listed thread is added (the kernel follows fork;
 * here a new thread's first event checks its creator, see events.rst).
 * Return: 0, -EINVAL (a negative pid), -ENOMEM.
 */
int trace_array_set_event_pids(struct trace_array *tr, int notrace, const pid_t *pids,
			       size_t n, int append);
/* The list as the file shows it: one pid per line, ascending. */
void trace_array_print_event_pids(struct trace_array *tr, int notrace, struct trace_seq *s);
/* The same as a walk, for lists longer than a trace_seq holds. */
void trace_array_for_each_event_pid(struct trace_array *tr, int notrace,
				    void (*fn)(pid_t pid, void *priv), void *priv);

/* ------------------------------------------------------------------
 * trace_marker, trace_marker_raw
 */

/*
 * Record @len bytes of text as an ftrace:print event (a missing newline
 * is added, as the kernel's); trace_marker_raw: the first 4 bytes are the
 * id, the rest the data, as ftrace:raw_data.
 * Return: @len, -EBADF when the markers option is off, -EINVAL (raw: fewer
 * than 4 bytes), -ENOSPC/-EBUSY when not recorded (full, tracing off).
 */
ssize_t trace_array_marker_write(struct trace_array *tr, const char *buf, size_t len);
ssize_t trace_array_marker_write_raw(struct trace_array *tr, const void *buf, size_t len);

/* ------------------------------------------------------------------
 * Text of the trace / trace_pipe files of an instance
 */

/*
 * As trace_print_header() / trace_iterator_open() of <linux/trace.h>, for
 * one instance, honouring its options (raw, hex, bin, latency-format,
 * context-info, record-tgid, irq-info...); @cpu is RING_BUFFER_ALL_CPUS
 * or one CPU (per_cpu/cpuN/trace).
 */
struct trace_iterator;
int trace_array_print_header(struct trace_array *tr, struct trace_seq *s);
struct trace_iterator *trace_array_iterator_open(struct trace_array *tr, int consume, int cpu);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_ARRAY_H */
