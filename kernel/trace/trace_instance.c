// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace instances: the top level and instances/NAME, each with its own
 * buffer, event enables, tracing_on, clock, options and pid filters.
 *
 * An event is recorded by the instances that enabled it: its class's
 * probe is attached to the tracepoint once per (event, instance), with
 * that instance's trace_event_file as the probe's data, so the probe
 * knows the buffer, the id and the flags without looking anything up.
 *
 *	tracepoint foo ──▶ probe(file A) ──▶ top-level buffer
 *	               └─▶ probe(file B) ──▶ instances/x buffer
 *
 * The soft mode and pid filter bits live in file->flags, the one word
 * the probe tests before it reserves.
 */
#define __USTRACE_CORE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "../internal.h"
#include "trace_array.h"
#include "trace.h"

/* The kernel's default buffer_size_kb: 1408 KiB per CPU. */
#define TRACE_BUF_SIZE_DEFAULT_KB	1408ul

/*
 * The kernel's trace_options, in its order (6.1).  Those marked "on" are
 * set by default.  The ones that change what we do are named in
 * enum trace_option; the others are accepted and shown, as the kernel's
 * function-tracer options are on a kernel with events only.
 */
const char *const trace_option_names[] = {
#define TRACE_OPTION(sym, name, on)	name,
	TRACE_OPTIONS
#undef TRACE_OPTION
	NULL
};

const unsigned long trace_option_defaults = 0
#define TRACE_OPTION(sym, name, on)	| ((unsigned long)(on) << TRACE_OPT_##sym)
	TRACE_OPTIONS
#undef TRACE_OPTION
	;

static struct trace_array top_tr = {
	.ref = 1,
};
static bool top_init_done;

/* Instances, in creation order.  Under the event mutex. */
static struct trace_array **instances;
static unsigned int nr_instances;

/* ------------------------------------------------------------------
 * Event files
 */

static unsigned int call_index(const struct trace_event_call *call)
{
	return (unsigned int)(call->id - TRACE_EVENT_FIRST_ID);
}

/* @tr's file of @call, or NULL; under the event mutex. */
static struct trace_event_file *find_file(struct trace_array *tr,
					  const struct trace_event_call *call)
{
	unsigned int i;

	if (trace_marker_is_print(call))
		return tr->marker_file;
	if (call->id < TRACE_EVENT_FIRST_ID)
		return NULL;
	i = call_index(call);
	return i < tr->nr_files ? tr->files[i] : NULL;
}

/* @tr's file of @call, made on first use; under the event mutex. */
static struct trace_event_file *get_file(struct trace_array *tr,
					 struct trace_event_call *call)
{
	struct trace_event_file *file, **files;
	unsigned int i;

	if (trace_marker_is_print(call)) {
		if (!tr->marker_file && (file = calloc(1, sizeof(*file)))) {
			file->event_call = call;
			file->tr = tr;
			file->buffer = tr->buffer;
			file->id = (unsigned short)call->id;
			/* Read by trace_marker.c without the mutex. */
			__atomic_store_n(&tr->marker_file, file, __ATOMIC_RELEASE);
		}
		return tr->marker_file;
	}
	if (call->id < TRACE_EVENT_FIRST_ID)
		return NULL;
	i = call_index(call);
	if (i >= tr->nr_files) {
		unsigned int n = i + 16;

		files = realloc(tr->files, n * sizeof(*files));
		if (!files)
			return NULL;
		memset(files + tr->nr_files, 0, (n - tr->nr_files) * sizeof(*files));
		tr->files = files;
		tr->nr_files = n;
	}
	if (!tr->files[i]) {
		file = calloc(1, sizeof(*file));
		if (!file)
			return NULL;
		file->event_call = call;
		file->tr = tr;
		file->buffer = tr->buffer;
		file->id = (unsigned short)call->id;
		file->flags = tr->pid_filtered ? EVENT_FILE_FL_PID_FILTER : 0;
		tr->files[i] = file;
	}
	return tr->files[i];
}

static unsigned long file_flags(const struct trace_event_file *file)
{
	return __atomic_load_n(&file->flags, __ATOMIC_RELAXED);
}

/* ftrace:print has no tracepoint: trace_marker.c reads its flags itself. */
static int file_attach(struct trace_event_file *file)
{
	struct trace_event_call *call = file->event_call;

	if (!call->tp)
		return 0;
	return tracepoint_probe_register(call->tp, call->event_class->probe, file);
}

static void file_detach(struct trace_event_file *file)
{
	struct trace_event_call *call = file->event_call;

	/* -ENOENT: the core detached it when its object went away. */
	if (call->tp)
		tracepoint_probe_unregister(call->tp, call->event_class->probe, file);
}

/*
 * The kernel's __ftrace_event_enable_disable(): @soft counts soft-mode
 * users (the enable_event/disable_event triggers); in soft mode the probe
 * stays attached and SOFT_DISABLED decides.  Under the event mutex.
 */
static int file_enable(struct trace_event_file *file, int enable, int soft)
{
	/* Atomic: a probe may set SOFT_DISABLED (trace_array_soft_disable()). */
	unsigned long flags = file_flags(file);
	bool detach;
	int err;

	if (!enable) {
		if (!(flags & EVENT_FILE_FL_ENABLED))
			return 0;
		if (soft) {
			if (--file->sm_ref > 0)
				return 0;
			detach = flags & EVENT_FILE_FL_SOFT_DISABLED;
			trace_file_set_flag(file, EVENT_FILE_FL_SOFT_MODE, false);
		} else {
			detach = !(flags & EVENT_FILE_FL_SOFT_MODE);
		}
		if (detach) {
			file_detach(file);
			trace_file_set_flag(file, EVENT_FILE_FL_ENABLED, false);
		}
		trace_file_set_flag(file, EVENT_FILE_FL_SOFT_DISABLED,
			      file_flags(file) & EVENT_FILE_FL_SOFT_MODE);
		return 0;
	}
	if (!soft) {
		trace_file_set_flag(file, EVENT_FILE_FL_SOFT_DISABLED, false);
	} else {
		if (++file->sm_ref > 1)
			return 0;
		trace_file_set_flag(file, EVENT_FILE_FL_SOFT_MODE, true);
	}
	if (flags & EVENT_FILE_FL_ENABLED)
		return 0;
	if (soft)
		trace_file_set_flag(file, EVENT_FILE_FL_SOFT_DISABLED, true);
	err = file_attach(file);
	if (err) {
		if (soft) {
			file->sm_ref--;
			trace_file_set_flag(file, EVENT_FILE_FL_SOFT_MODE |
					    EVENT_FILE_FL_SOFT_DISABLED, false);
		}
		return err;
	}
	trace_file_set_flag(file, EVENT_FILE_FL_ENABLED, true);
	return 0;
}

/* ------------------------------------------------------------------
 * Instances
 */

/* Under the event mutex. */
static int tr_alloc_buffer(struct trace_array *tr)
{
	unsigned long size = TRACE_BUF_SIZE_DEFAULT_KB << 10;
	int cpu;

	tr->buffer = ring_buffer_alloc(size, RB_FL_OVERWRITE);
	if (!tr->buffer)
		return -errno;
	tr->nr_cpus = ring_buffer_nr_cpus(tr->buffer);
	tr->size_kb = calloc((size_t)tr->nr_cpus, sizeof(*tr->size_kb));
	if (!tr->size_kb) {
		ring_buffer_free(tr->buffer);
		tr->buffer = NULL;
		return -ENOMEM;
	}
	for (cpu = 0; cpu < tr->nr_cpus; cpu++)
		tr->size_kb[cpu] = TRACE_BUF_SIZE_DEFAULT_KB;
	tr->options = trace_option_defaults;
	tr->buffer_percent = 50;
	return 0;
}

/*
 * The top-level instance, its buffer allocated on first use.  Under the
 * event mutex; NULL with errno when the buffer cannot be allocated.
 */
struct trace_array *trace_array_top_locked(void)
{
	int err;

	if (__atomic_load_n(&top_init_done, __ATOMIC_ACQUIRE))
		return &top_tr;
	err = tr_alloc_buffer(&top_tr);
	if (err) {
		errno = -err;
		return NULL;
	}
	/* Pairs with the acquire load above and in trace_get_global_buffer(). */
	__atomic_store_n(&top_init_done, true, __ATOMIC_RELEASE);
	return &top_tr;
}

/**
 * trace_array_top - the top-level instance
 *
 * Return: the instance, or NULL with errno set when its buffer cannot be
 * allocated.
 */
struct trace_array *trace_array_top(void)
{
	struct trace_array *tr;

	if (__atomic_load_n(&top_init_done, __ATOMIC_ACQUIRE))
		return &top_tr;
	trace_event_lock();
	tr = trace_array_top_locked();
	trace_event_unlock();
	return tr;
}

/* The global buffer: the top-level instance's. */
struct trace_buffer *trace_get_global_buffer(void)
{
	struct trace_array *tr = trace_array_top();

	return tr ? tr->buffer : NULL;
}

/* 0, -EINVAL, or -ENAMETOOLONG past NAME_MAX, as the kernel's VFS says. */
static int check_instance_name(const char *name)
{
	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	return strlen(name) > NAME_MAX ? -ENAMETOOLONG : 0;
}

static struct trace_array *find_instance_locked(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_instances; i++)
		if (!strcmp(instances[i]->name, name))
			return instances[i];
	return NULL;
}

/**
 * trace_array_create - a new instance (mkdir instances/NAME)
 *
 * Return: the instance, or NULL with errno EEXIST, EINVAL, ENAMETOOLONG
 * (more than NAME_MAX bytes) or ENOMEM.
 */
struct trace_array *trace_array_create(const char *name)
{
	struct trace_array *tr = NULL, **arr;
	int err = check_instance_name(name);

	if (err) {
		errno = -err;
		return NULL;
	}
	trace_event_lock();
	err = -EEXIST;
	if (find_instance_locked(name))
		goto out;
	err = -ENOMEM;
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		goto out;
	tr->name = strdup(name);
	arr = realloc(instances, (nr_instances + 1) * sizeof(*arr));
	if (!tr->name || !arr)
		goto fail;
	instances = arr;
	err = tr_alloc_buffer(tr);
	if (err)
		goto fail;
	tr->ref = 1;
	instances[nr_instances++] = tr;
	trace_event_unlock();
	return tr;
fail:
	free(tr->name);
	free(tr);
	tr = NULL;
out:
	trace_event_unlock();
	errno = -err;
	return tr;
}

/* Detach every probe of @tr; under the event mutex.  Return: any detached. */
static bool tr_detach_all(struct trace_array *tr)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < tr->nr_files; i++) {
		struct trace_event_file *file = tr->files[i];

		if (file && (file_flags(file) & EVENT_FILE_FL_ENABLED)) {
			file_detach(file);
			trace_file_set_flag(file, EVENT_FILE_FL_ENABLED, false);
			any = true;
		}
	}
	return any;
}

/**
 * trace_array_destroy - remove an instance (rmdir instances/NAME)
 *
 * Return: 0; -EINVAL for the top level; -EBUSY while another reference
 * is held (an open file of the instance).
 * Context: not a probe; waits for probes still writing into it.
 */
int trace_array_destroy(struct trace_array *tr)
{
	unsigned int i;

	if (!tr || tr == &top_tr)
		return -EINVAL;
	trace_event_lock();
	if (tr->ref > 1) {
		trace_event_unlock();
		return -EBUSY;
	}
	for (i = 0; i < nr_instances && instances[i] != tr; i++)
		;
	if (i == nr_instances) {
		trace_event_unlock();
		return -EINVAL;
	}
	memmove(&instances[i], &instances[i + 1], (nr_instances - i - 1) * sizeof(*instances));
	nr_instances--;
	tr_detach_all(tr);
	trace_event_unlock();
	/* No probe may still hold one of its files or its buffer. */
	tracepoint_synchronize_unregister();
	trace_triggers_instance_gone(tr);
	for (i = 0; i < tr->nr_files; i++) {
		if (tr->files[i])
			trace_filter_file_free(tr->files[i]);
		free(tr->files[i]);
	}
	free(tr->files);
	free(tr->marker_file);
	free(tr->pids[0]);
	free(tr->pids[1]);
	ring_buffer_free(tr->buffer);
	free(tr->size_kb);
	free(tr->name);
	free(tr);
	return 0;
}

/** trace_array_get_by_name - the instance @name, with a reference */
struct trace_array *trace_array_get_by_name(const char *name)
{
	struct trace_array *tr;

	if (!name)
		return NULL;
	trace_event_lock();
	tr = find_instance_locked(name);
	if (tr)
		tr->ref++;
	trace_event_unlock();
	return tr;
}

void trace_array_get(struct trace_array *tr)
{
	trace_event_lock();
	tr->ref++;
	trace_event_unlock();
}

void trace_array_put(struct trace_array *tr)
{
	trace_event_lock();
	if (tr->ref > 1)
		tr->ref--;
	trace_event_unlock();
}

const char *trace_array_name(const struct trace_array *tr)
{
	return tr ? tr->name : NULL;
}

void trace_array_for_each_instance(void (*fn)(struct trace_array *tr, void *priv),
				   void *priv)
{
	unsigned int i;

	trace_event_lock();
	for (i = 0; i < nr_instances; i++)
		fn(instances[i], priv);
	trace_event_unlock();
}

struct trace_buffer *trace_array_buffer(struct trace_array *tr)
{
	return tr->buffer;
}

unsigned int trace_array_buffer_percent(const struct trace_array *tr)
{
	return __atomic_load_n(&tr->buffer_percent, __ATOMIC_RELAXED);
}

void trace_array_set_buffer_percent(struct trace_array *tr, unsigned int percent)
{
	__atomic_store_n(&tr->buffer_percent, percent, __ATOMIC_RELAXED);
	/* Waiters armed with the old value look again. */
	ring_buffer_wake_waiters(tr->buffer, RING_BUFFER_ALL_CPUS);
}

/* ------------------------------------------------------------------
 * Events per instance
 */

/* For trace_events.c: the top-level file of @call; under the event mutex. */
struct trace_event_file *trace_top_file_locked(struct trace_event_call *call, bool create)
{
	struct trace_array *tr = trace_array_top_locked();

	if (!tr)
		return NULL;
	return create ? get_file(tr, call) : find_file(tr, call);
}

/* For the filter and trigger code: any instance's file; under the event mutex. */
struct trace_event_file *trace_array_file_locked(struct trace_array *tr,
						 struct trace_event_call *call, bool create)
{
	if (!tr)
		tr = trace_array_top_locked();
	if (!tr || !call->priv)
		return NULL;
	return create ? get_file(tr, call) : find_file(tr, call);
}

static void forget_file(struct trace_array *tr, struct trace_event_call *call,
			struct trace_event_file ***gone, unsigned int *nr_gone)
{
	struct trace_event_file *file = find_file(tr, call);

	if (!file)
		return;
	if (file_flags(file) & EVENT_FILE_FL_ENABLED)
		file_detach(file);
	tr->files[call_index(call)] = NULL;
	(*gone)[(*nr_gone)++] = file;
}

/*
 * An event is going away (its object is unloaded): detach it from every
 * instance and free its files once no probe can use them.  Called by
 * trace_events.c with the event mutex held; returns the files to free
 * after tracepoint_synchronize_unregister() (NULL: none), their number in
 * @nr.
 */
struct trace_event_file **trace_array_forget_call_locked(struct trace_event_call *call,
							 unsigned int *nr)
{
	struct trace_event_file **gone;
	unsigned int i;

	*nr = 0;
	gone = calloc(nr_instances + 1, sizeof(*gone));
	if (!gone)
		return NULL;
	if (__atomic_load_n(&top_init_done, __ATOMIC_ACQUIRE))
		forget_file(&top_tr, call, &gone, nr);
	for (i = 0; i < nr_instances; i++)
		forget_file(instances[i], call, &gone, nr);
	return gone;
}

static bool call_matches(const struct trace_event_call *call, const char *system,
			 const char *event)
{
	if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
		return false;
	if (system && strcmp(system, call->event_class->system))
		return false;
	return !event || !strcmp(event, call->name);
}

struct set_clr_ctx {
	struct trace_array	*tr;
	const char		*system, *event;
	int			set, ret, first_err;
};

static void set_clr_one(struct trace_event_call *call, void *priv)
{
	struct set_clr_ctx *ctx = priv;
	struct trace_event_file *file;
	int err;

	if (!call_matches(call, ctx->system, ctx->event))
		return;
	ctx->ret = 0;
	file = ctx->set ? get_file(ctx->tr, call) : find_file(ctx->tr, call);
	if (!file) {
		err = ctx->set ? -ENOMEM : 0;
	} else {
		err = file_enable(file, ctx->set, 0);
	}
	if (err && !ctx->first_err)
		ctx->first_err = err;
}

/**
 * trace_array_set_clr_event - enable or disable events in one instance
 * @tr:     the instance (NULL: the top level)
 * @system: the TRACE_SYSTEM, NULL for all
 * @event:  the event name, NULL for all of @system
 * @set:    1 or 0
 *
 * Return: 0; -EINVAL when nothing matched; the first error otherwise.
 */
int trace_array_set_clr_event(struct trace_array *tr, const char *system,
			      const char *event, int set)
{
	struct set_clr_ctx ctx = {
		.system = system, .event = event, .set = !!set, .ret = -EINVAL,
	};

	trace_event_lock();
	ctx.tr = tr ? tr : trace_array_top_locked();
	if (ctx.tr)
		trace_for_each_event_call(set_clr_one, &ctx);
	else
		ctx.first_err = -ENOMEM;
	trace_event_unlock();
	return ctx.first_err ? ctx.first_err : ctx.ret;
}

/* Kept for the API of <linux/trace_events.h>: the top-level instance. */
int trace_set_clr_event(const char *system, const char *event, int set)
{
	return trace_array_set_clr_event(NULL, system, event, set);
}

static int file_state(const struct trace_event_file *file)
{
	unsigned long flags = file ? file_flags(file) : 0;
	int state = (flags & EVENT_FILE_FL_ENABLED) &&
		    !(flags & EVENT_FILE_FL_SOFT_DISABLED);

	if (flags & (EVENT_FILE_FL_SOFT_DISABLED | EVENT_FILE_FL_SOFT_MODE))
		state += 2;
	return state;
}

/** trace_array_event_state - enum trace_event_state of @call in @tr */
int trace_array_event_state(struct trace_array *tr, struct trace_event_call *call)
{
	int state;

	trace_event_lock();
	if (!tr)
		tr = trace_array_top_locked();
	state = tr && call->priv ? file_state(find_file(tr, call)) : 0;
	trace_event_unlock();
	return state;
}

/** trace_event_is_enabled - is @call recording in the top-level instance? */
int trace_event_is_enabled(struct trace_event_call *call)
{
	return trace_array_event_state(NULL, call) & 1;
}

/**
 * trace_array_soft_mode - enter (@on 1) or leave (@on 0) soft mode
 *
 * Counted: each enter needs a leave.  Entering attaches the probe with the
 * event soft disabled unless it was enabled already.
 * Return: 0, -ENOMEM, or an error of tracepoint_probe_register().
 */
int trace_array_soft_mode(struct trace_array *tr, struct trace_event_call *call, int on)
{
	struct trace_event_file *file;
	int err = 0;

	trace_event_lock();
	if (!tr)
		tr = trace_array_top_locked();
	file = tr && call->priv ? (on ? get_file(tr, call) : find_file(tr, call)) : NULL;
	if (file)
		err = file_enable(file, !!on, 1);
	else if (on)
		err = -ENOMEM;
	trace_event_unlock();
	return err;
}

/**
 * trace_array_soft_disable - set or clear the soft-disabled bit
 *
 * Return: 0, or -EINVAL when the event is not in soft mode.
 * Context: any thread, a probe included (no lock: one atomic bit).
 */
int trace_array_soft_disable(struct trace_array *tr, struct trace_event_call *call,
			     int disabled)
{
	struct trace_event_file *file;

	if (!tr)
		tr = __atomic_load_n(&top_init_done, __ATOMIC_ACQUIRE) ? &top_tr : NULL;
	if (!tr || call->id < TRACE_EVENT_FIRST_ID)
		return -EINVAL;
	/* The files array only grows under the mutex; a stale read is NULL. */
	file = call_index(call) < __atomic_load_n(&tr->nr_files, __ATOMIC_ACQUIRE) ?
	       __atomic_load_n(&tr->files[call_index(call)], __ATOMIC_ACQUIRE) : NULL;
	if (!file || !(__atomic_load_n(&file->flags, __ATOMIC_RELAXED) & EVENT_FILE_FL_SOFT_MODE))
		return -EINVAL;
	trace_file_set_flag(file, EVENT_FILE_FL_SOFT_DISABLED, disabled);
	return 0;
}

static void print_if_enabled(struct trace_event_call *call, void *priv)
{
	struct trace_seq *s = ((void **)priv)[1];
	struct trace_array *tr = ((void **)priv)[0];
	const struct trace_event_file *file = find_file(tr, call);

	if (file && (file_flags(file) & EVENT_FILE_FL_ENABLED) &&
	    !(file_flags(file) & EVENT_FILE_FL_SOFT_DISABLED))
		trace_seq_printf(s, "%s:%s\n", call->event_class->system, call->name);
}

/** trace_array_print_set_event - the text of the set_event file */
void trace_array_print_set_event(struct trace_array *tr, struct trace_seq *s)
{
	void *ctx[2];

	trace_event_lock();
	ctx[0] = tr ? tr : trace_array_top_locked();
	ctx[1] = s;
	if (ctx[0])
		trace_for_each_event_call(print_if_enabled, ctx);
	trace_event_unlock();
}

/* ------------------------------------------------------------------
 * Recording control
 */

static struct trace_array *tr_or_top(struct trace_array *tr)
{
	return tr ? tr : trace_array_top();
}

/*
 * tracing_on is the buffer's off bit, as the kernel's
 * tracer_tracing_is_on() reads it: the file, the traceon/traceoff
 * triggers and a snapshot with no buffer all change that one atomic bit,
 * from any thread, so what the file shows is what the buffer does.
 */
int trace_array_tracing_on(struct trace_array *tr)
{
	tr = tr_or_top(tr);
	return tr ? ring_buffer_record_is_set_on(tr->buffer) : 0;
}

/**
 * trace_array_tracing_switch - turn recording into @tr on or off
 *
 * Context: any thread, a probe included (one atomic bit).
 */
void trace_array_tracing_switch(struct trace_array *tr, bool on)
{
	if (on) {
		ring_buffer_record_on(tr->buffer);
	} else if (ring_buffer_record_is_set_on(tr->buffer)) {
		ring_buffer_record_off(tr->buffer);
		/* A trace_pipe that read something ends when tracing stops. */
		ring_buffer_wake_waiters(tr->buffer, RING_BUFFER_ALL_CPUS);
	}
}

void trace_array_set_tracing_on(struct trace_array *tr, int on)
{
	tr = tr_or_top(tr);
	if (tr)
		trace_array_tracing_switch(tr, on);
}

/**
 * trace_array_buffer_size_kb - the buffer_size_kb of a CPU, or of all
 *
 * Return: KiB as last set (the kernel shows the size asked for, not the
 * pages it rounded to); for RING_BUFFER_ALL_CPUS, -1 when the CPUs differ;
 * -EINVAL for a bad CPU.
 */
long trace_array_buffer_size_kb(struct trace_array *tr, int cpu)
{
	long kb = -EINVAL;
	int c;

	tr = tr_or_top(tr);
	if (!tr)
		return -ENOMEM;
	trace_event_lock();
	if (cpu == RING_BUFFER_ALL_CPUS) {
		kb = (long)tr->size_kb[0];
		for (c = 1; c < tr->nr_cpus; c++)
			if ((long)tr->size_kb[c] != kb)
				kb = -1;
	} else if (cpu >= 0 && cpu < tr->nr_cpus) {
		kb = (long)tr->size_kb[cpu];
	}
	trace_event_unlock();
	return kb;
}

/**
 * trace_array_resize_kb - write buffer_size_kb
 *
 * A size the ring buffer cannot have (more than RB_MAX_PAGES - 1 pages
 * of a CPU) is -ENOMEM, as the kernel says for a size it cannot
 * allocate; one whose bytes overflow an unsigned long too (the kernel's
 * arithmetic wraps round to a tiny buffer there).
 *
 * Return: 0, -EINVAL (0, bad CPU), -ENOMEM, -EBUSY.
 */
int trace_array_resize_kb(struct trace_array *tr, unsigned long kb, int cpu)
{
	int err, c;

	tr = tr_or_top(tr);
	if (!tr)
		return -ENOMEM;
	if (!kb || (cpu != RING_BUFFER_ALL_CPUS && (cpu < 0 || cpu >= tr->nr_cpus)))
		return -EINVAL;
	if (kb > ULONG_MAX >> 10)
		return -ENOMEM;
	trace_event_lock();
	err = ring_buffer_resize(tr->buffer, kb << 10, cpu);
	/* The CPU is good: ring_buffer_resize() refuses the size. */
	if (err == -EINVAL)
		err = -ENOMEM;
	if (!err)
		for (c = 0; c < tr->nr_cpus; c++)
			if (cpu == RING_BUFFER_ALL_CPUS || cpu == c)
				tr->size_kb[c] = kb;
	if (!err)
		trace_snapshot_resized(tr);
	trace_event_unlock();
	return err;
}

unsigned int trace_array_clock(struct trace_array *tr)
{
	tr = tr_or_top(tr);
	return tr ? __atomic_load_n(&tr->clock_idx, __ATOMIC_RELAXED) : 0;
}

/**
 * trace_array_set_clock - write trace_clock
 *
 * As the kernel, the buffer is cleared: times of two clocks do not mix.
 * Return: 0 or -EINVAL.
 */
int trace_array_set_clock(struct trace_array *tr, const char *name)
{
	const struct trace_clock *tc;
	unsigned int i;

	tr = tr_or_top(tr);
	if (!tr)
		return -ENOMEM;
	for (i = 0; (tc = trace_clock_get(i)); i++)
		if (name && !strcmp(tc->name, name))
			break;
	if (!tc)
		return -EINVAL;
	trace_event_lock();
	ring_buffer_set_clock(tr->buffer, tc->read);
	ring_buffer_reset(tr->buffer);
	__atomic_store_n(&tr->time_start, ring_buffer_time_stamp(tr->buffer), __ATOMIC_RELAXED);
	__atomic_store_n(&tr->clock_idx, i, __ATOMIC_RELAXED);
	trace_event_unlock();
	return 0;
}

void trace_array_clear(struct trace_array *tr, int cpu)
{
	tr = tr_or_top(tr);
	if (!tr)
		return;
	if (cpu == RING_BUFFER_ALL_CPUS) {
		ring_buffer_reset(tr->buffer);
		__atomic_store_n(&tr->time_start, ring_buffer_time_stamp(tr->buffer),
				 __ATOMIC_RELAXED);
	}
	else if (cpu >= 0 && cpu < tr->nr_cpus)
		ring_buffer_reset_cpu(tr->buffer, cpu);
}

/* ------------------------------------------------------------------
 * Options
 */

static int option_index(const char *name)
{
	int i;

	for (i = 0; name && trace_option_names[i]; i++)
		if (!strcmp(trace_option_names[i], name))
			return i;
	return -EINVAL;
}

int trace_array_get_option(struct trace_array *tr, const char *name)
{
	int i = option_index(name);

	tr = tr_or_top(tr);
	if (i < 0 || !tr)
		return -EINVAL;
	return (int)((__atomic_load_n(&tr->options, __ATOMIC_RELAXED) >> i) & 1);
}

/* What an option changes besides its bit; under the event mutex. */
static void option_changed(struct trace_array *tr, int opt, bool on)
{
	if (opt == TRACE_OPT_OVERWRITE)
		ring_buffer_change_overwrite(tr->buffer, on);
	else if (opt == TRACE_OPT_RECORD_CMD && tr == &top_tr)
		trace_set_record_cmd(on);
}

int trace_array_set_option(struct trace_array *tr, const char *name, int on)
{
	int i = option_index(name);
	unsigned long bit;

	tr = tr_or_top(tr);
	if (i < 0 || !tr)
		return -EINVAL;
	bit = 1ul << i;
	trace_event_lock();
	/* The nop tracer's set_flag() refuses test_nop_refuse, for its tests. */
	if (i == TRACE_OPT_TEST_NOP_REFUSE && !!(tr->options & bit) != !!on) {
		trace_event_unlock();
		return -EINVAL;
	}
	if (!!(tr->options & bit) != !!on) {
		if (on)
			__atomic_or_fetch(&tr->options, bit, __ATOMIC_RELAXED);
		else
			__atomic_and_fetch(&tr->options, ~bit, __ATOMIC_RELAXED);
		option_changed(tr, i, on);
	}
	trace_event_unlock();
	return 0;
}

/* ------------------------------------------------------------------
 * Pid filters
 */

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static bool pid_in(const pid_t *list, size_t n, pid_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (list[mid] == pid)
			return true;
		if (list[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Under the event mutex: the PID_FILTER bit of every file of @tr. */
static void tr_update_pid_flag(struct trace_array *tr)
{
	bool on = tr->nr_pids[0] || tr->nr_pids[1];
	unsigned int i;

	tr->pid_filtered = on;
	for (i = 0; i < tr->nr_files; i++)
		if (tr->files[i])
			trace_file_set_flag(tr->files[i], EVENT_FILE_FL_PID_FILTER, on);
}

/*
 * Under the event mutex: the new list of @tr; the old one is returned in
 * @old, to free once no probe can be reading it.
 */
static int set_event_pids_locked(struct trace_array *tr, int notrace, const pid_t *pids,
				 size_t n, int append, pid_t **old)
{
	size_t i, m = 0, keep = append ? tr->nr_pids[notrace] : 0;
	pid_t *list = NULL;

	if (keep + n) {
		list = malloc((keep + n) * sizeof(*list));
		if (!list)
			return -ENOMEM;
		if (keep)
			memcpy(list, tr->pids[notrace], keep * sizeof(*list));
		if (n)
			memcpy(list + keep, pids, n * sizeof(*list));
		qsort(list, keep + n, sizeof(*list), cmp_pid);
		for (i = 0; i < keep + n; i++)
			if (!m || list[m - 1] != list[i])
				list[m++] = list[i];
	}
	*old = tr->pids[notrace];
	/* Count first: a reader never sees a count larger than its list. */
	__atomic_store_n(&tr->nr_pids[notrace], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&tr->pids[notrace], list, __ATOMIC_RELEASE);
	__atomic_store_n(&tr->nr_pids[notrace], m, __ATOMIC_RELEASE);
	tr_update_pid_flag(tr);
	return 0;
}

/**
 * trace_array_set_event_pids - write set_event_pid / set_event_notrace_pid
 *
 * Return: 0, -EINVAL (a negative pid) or -ENOMEM; the list is unchanged
 * on error.
 * Context: not a probe; waits until no probe reads the old list.
 */
int trace_array_set_event_pids(struct trace_array *tr, int notrace, const pid_t *pids,
			       size_t n, int append)
{
	pid_t *old = NULL;
	size_t i;
	int err;

	tr = tr_or_top(tr);
	if (!tr)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (pids[i] < 0)
			return -EINVAL;
	trace_event_lock();
	err = set_event_pids_locked(tr, !!notrace, pids, n, append, &old);
	trace_event_unlock();
	if (err)
		return err;
	/* Probes read the old list under the tracepoint read lock. */
	tracepoint_synchronize_unregister();
	free(old);
	return 0;
}

/**
 * trace_array_for_each_event_pid - call @fn for each pid of a list
 *
 * Ascending; @fn runs with the event mutex held.
 */
void trace_array_for_each_event_pid(struct trace_array *tr, int notrace,
				    void (*fn)(pid_t pid, void *priv), void *priv)
{
	size_t i;

	tr = tr_or_top(tr);
	if (!tr)
		return;
	notrace = !!notrace;
	trace_event_lock();
	for (i = 0; i < tr->nr_pids[notrace]; i++)
		fn(tr->pids[notrace][i], priv);
	trace_event_unlock();
}

static void print_pid(pid_t pid, void *priv)
{
	trace_seq_printf(priv, "%d\n", (int)pid);
}

void trace_array_print_event_pids(struct trace_array *tr, int notrace, struct trace_seq *s)
{
	trace_array_for_each_event_pid(tr, notrace, print_pid, s);
}

/*
 * Is thread @pid of process @tgid in @list: its own id, or its process's
 * (a process id names every thread of the process; the kernel's lists
 * hold thread ids only, see tracefs.rst).
 */
static bool task_in(const pid_t *list, size_t n, pid_t pid, pid_t tgid)
{
	return pid_in(list, n, pid) || (tgid != pid && pid_in(list, n, tgid));
}

/*
 * May thread @pid of process @tgid record into @tr?  Called from the
 * probe (under the tracepoint read lock, which keeps the lists alive).
 */
bool trace_array_pid_ignored(struct trace_array *tr, pid_t pid, pid_t tgid)
{
	size_t n;
	pid_t *list;

	n = __atomic_load_n(&tr->nr_pids[1], __ATOMIC_ACQUIRE);
	list = __atomic_load_n(&tr->pids[1], __ATOMIC_ACQUIRE);
	if (n && task_in(list, n, pid, tgid))
		return true;
	n = __atomic_load_n(&tr->nr_pids[0], __ATOMIC_ACQUIRE);
	list = __atomic_load_n(&tr->pids[0], __ATOMIC_ACQUIRE);
	return n && !task_in(list, n, pid, tgid);
}

/*
 * event-fork: a forked child of a listed thread (or of a thread of a
 * listed process) is listed too.
 */
void trace_array_fork_child(pid_t parent, pid_t parent_tgid, pid_t child)
{
	unsigned int i;

	/*
	 * In the child, from the atfork handler: the only thread; the
	 * parent's prepare handler took the event mutex and the child's
	 * handler releases it after this.
	 */
	for (i = 0; i <= nr_instances; i++) {
		struct trace_array *tr = i ? instances[i - 1] : &top_tr;

		if (!i && !__atomic_load_n(&top_init_done, __ATOMIC_ACQUIRE))
			continue;

		if (!((tr->options >> TRACE_OPT_EVENT_FORK) & 1))
			continue;
		for (int notrace = 0; notrace < 2; notrace++) {
			pid_t *old = NULL;

			/* The old list leaks: the child cannot wait for readers. */
			if (tr->nr_pids[notrace] &&
			    task_in(tr->pids[notrace], tr->nr_pids[notrace], parent, parent_tgid))
				set_event_pids_locked(tr, notrace, &child, 1, 1, &old);
		}
	}
}
