/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Trace instances (the kernel's struct trace_array): the top-level tree
 * and each instances/NAME have their own ring buffer, their own event
 * enables, tracing_on, clock, options and pid filters.  Events record into
 * every instance that enabled them: the class's probe is attached once per
 * (event, instance), with the instance's struct trace_event_file as data,
 * as in the kernel.
 *
 * This is the engine's control interface: the tracefs tree
 * (kernel/trace/tracefs/) and the recorder (kernel/trace/record/) reach
 * the engine only through what is declared here and the read side of the
 * ring buffer (scripts/check-includes.py checks).  Not installed.
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

/*
 * buffer_percent (0..100, default 50): how full a CPU's buffer is before
 * the readers that honour it (trace_pipe_raw's poll, the recorder) wake.
 */
unsigned int trace_array_buffer_percent(const struct trace_array *tr);
void trace_array_set_buffer_percent(struct trace_array *tr, unsigned int percent);

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
 * set_event_notrace_pid never record.  A process's id in a list stands
 * for every thread of that process (the kernel's lists match thread ids
 * only; tracefs.rst says why).  With the event-fork option, a
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

/* ------------------------------------------------------------------
 * Events, the saved cmdlines and the trace marker (trace_events.c,
 * trace.c, trace_marker.c)
 */

/*
 * Told when an event is registered (@added 1) or about to be removed (0),
 * with the event mutex held: the tracefs tree, USTRACE_EVENTS patterns.
 * Return: 0 or -ENOMEM.
 */
int trace_event_notifier_register(void (*fn)(struct trace_event_call *call, int added));

/*
 * Called after each event a program's object registers
 * (__ustrace_add_event_call_abi()), in the registering thread, with no
 * lock of the library held: the collector's client applies the control
 * writes it remembers to the new event there (kernel/trace/collector/).
 * One function; a second call replaces it.
 */
void trace_event_post_register(void (*fn)(void));

/*
 * trace.c: the saved-cmdlines table: a walk (for texts longer than a
 * trace_seq), the saved_cmdlines ("PID COMM") and saved_tgids
 * ("PID TGID") texts, and its size.
 */
void trace_for_each_saved_cmdline(void (*fn)(int pid, int tgid, const char *comm, void *priv),
				  void *priv);

/*
 * A copy of every name saved from now on (system mode: the collector's
 * client keeps them where the collector finds them after a SIGKILL), or
 * NULL.  @fn runs with the table locked, for the thread's first record:
 * it must not block or record events.
 */
void trace_set_cmdline_mirror(void (*fn)(int pid, int tgid, const char *comm));
void trace_print_saved_cmdlines(struct trace_seq *s);
void trace_print_saved_tgids(struct trace_seq *s);
unsigned int trace_saved_cmdlines_size(void);
int trace_find_tgid(int pid);
/* trace.c: slot @slot of the saved-cmdlines table (see trace.c). */
#define TRACE_SAVED_CMDLINES	1024
int trace_saved_cmdline_get(unsigned int slot, char comm[16], bool nolock);

/*
 * The ip of ftrace:print records.  The kernel records that of
 * tracing_mark_write(); a program has no such function, and 0 would print
 * as a bare address.  The text output prints the kernel's name, and the
 * trace.dat writer's kallsyms maps this address to it, so that trace-cmd
 * prints it too: the last page of the address space, where no code of the
 * program can be.
 */
#define TRACE_MARKER_IP		(~0ul << 12)

/*
 * trace_marker.c: ftrace:print, the one event without a tracepoint that
 * takes triggers (as in Linux 6.18: its records are trace_marker's).
 */
bool trace_marker_is_print(const struct trace_event_call *call);
/* The event mutex (trace_events.c), for a walk of the registry. */
void trace_event_lock(void);
void trace_event_unlock(void);
/*
 * trace_marker.c: the thread whose write(2) the calling thread serves
 * (tracefs over FUSE says who wrote), 0 for none: trace_marker records
 * carry its pid and name and land on its CPU.
 */
void trace_marker_writer(pid_t tid);

/* ------------------------------------------------------------------
 * Filters (trace_events_filter.c)
 */

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

/* ------------------------------------------------------------------
 * The synthetic_events and dynamic_events files
 */

/*
 * One line written to synthetic_events (@dyn false: "NAME FIELD[;FIELD]",
 * "!NAME ..." removes) or dynamic_events (@dyn true: "s:[synthetic/]NAME
 * FIELD...", "-:[synthetic/]NAME" or "!s:..." removes), comments already
 * cut.  On an error the kernel logs, @err says what (location
 * "synthetic_events"), the caret counting from the line without its
 * leading white space.
 * Return: 0, -EINVAL, -EEXIST, -ENOENT (removing what is not there),
 * -EBUSY (in use: enabled, or a hist trigger uses it), -ENOMEM.
 * Context: takes the event mutex.
 */
int trace_synth_command(const char *line, bool dyn, struct trace_err *err);
/*
 * The text of synthetic_events ("NAME\tTYPE NAME; TYPE NAME\n" each) or
 * of dynamic_events (the same after "s:synthetic/").  free() it.
 * Return: the text, or NULL (ENOMEM).
 */
char *trace_synth_text(bool dyn, size_t *lenp);
/*
 * Opening the file with O_TRUNC: every synthetic event goes, or none
 * when one is in use.  Return: 0, -EBUSY.
 */
int trace_synth_release_all(void);

/* ------------------------------------------------------------------
 * The program's symbols (trace_syms.c): kallsyms and printk_formats
 */

/*
 * Bring the texts below up to date with the objects loaded now (cheap
 * when none came or went).
 * Context: not a probe, not a signal handler.
 */
void trace_syms_update(void);

/*
 * The latest texts trace_syms_update() made (NULL before the first):
 * "ADDR T name[\t[module]]" lines, as /proc/kallsyms, with the trace
 * marker's name (TRACE_MARKER_IP); "0xADDR : \"text\"" lines, as
 * printk_formats, one per tracepoint_string() of every loaded object.
 * They stay valid for the life of the process.
 * Context: any, fatal-signal handlers included (one atomic load).
 */
const char *trace_syms_kallsyms(void);
const char *trace_syms_printk(void);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_ARRAY_H */
