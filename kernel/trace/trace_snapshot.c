// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Snapshot buffers: each instance may have a second buffer of the size of
 * its main one, and a snapshot trades the two, as the kernel's
 * update_max_tr() does: the main buffer's events are kept in the snapshot
 * buffer, and recording goes on into what was the snapshot (which is not
 * cleared, as in the kernel: taking two snapshots swaps back).
 *
 * The kernel swaps two pointers under a spinlock with interrupts off.  A
 * snapshot here may be taken from a probe, in any thread, while other
 * threads write into the buffer, read it through trace_pipe, or hold
 * pointers to it (every event file of the instance, open iterators, the
 * tracefs tree).  So the buffer objects stay where they are and trade
 * their pages: ring_buffer_swap(), whose comment in
 * kernel/trace/ring_buffer/ring_buffer.c ("Trading pages") says why
 * writers and readers of either buffer may go on meanwhile.
 *
 * The swap needs both buffers to have the same number of pages per CPU
 * and takes both buffers' mutexes, which reset, resize, the clock and
 * fork() take; in a probe it only tries them, and a snapshot that finds
 * them busy is not taken (and counted).
 */
#define __USTRACE_CORE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace.h>

#include "trace_array.h"
#include "trace.h"
#include "trace_filter.h"
#include "trace_trigger.h"

/**
 * struct trace_snapshot - the snapshot buffer of one instance
 * @tr:        the instance
 * @buffer:    the snapshot buffer, paired with @tr's; lives as long as @tr
 * @allocated: the kernel's allocated_snapshot: sized as the main buffer
 *             (else shrunk to the least a buffer has)
 * @refused:   snapshots a probe could not take (buffers busy or resized)
 * @next:      the list of all, under the event mutex
 * @cond_data: the conditional snapshot of a hist trigger's snapshot()
 *             action (the kernel's tr->cond_snapshot), or NULL
 * @cond_update: decides, under the swap's mutexes, whether it is taken
 */
struct trace_snapshot {
	struct trace_array	*tr;
	struct trace_buffer	*buffer;
	int			allocated;
	unsigned long		refused;
	struct trace_snapshot	*next;
	void			*cond_data;
	bool			(*cond_update)(void *cond_data, void *ctx);
};

static struct trace_snapshot *snapshots;

/* ------------------------------------------------------------------
 * Trading pages
 */

struct cond_call {
	const struct trace_snapshot *cs;
	void *ctx;
};

/* Asked by ring_buffer_swap() with both buffers' mutexes held. */
static bool cond_update(void *arg)
{
	const struct cond_call *cc = arg;

	return cc->cs->cond_update(cc->cs->cond_data, cc->ctx);
}

/*
 * Trade the pages of @tr's buffer and its snapshot buffer.  @wait: block
 * on the mutexes (a write to the snapshot file) rather than give up (a
 * probe).  @cs (may be NULL): a conditional snapshot, whose update is
 * asked with both mutexes held, as the kernel asks it under max_lock;
 * false: no swap.
 * Return: 0, -EBUSY (a mutex was taken), -EINVAL (the sizes differ),
 * -ECANCELED (the update said no).
 */
static int snap_swap(struct trace_snapshot *snap, bool wait, const struct trace_snapshot *cs,
		     void *ctx)
{
	struct cond_call cc = { cs, ctx };

	return ring_buffer_swap(snap->tr->buffer, snap->buffer, wait,
				cs ? cond_update : NULL, &cc);
}

/* ------------------------------------------------------------------
 * Snapshot buffers
 */

/* Under the event mutex. */
static struct trace_snapshot *snap_find(struct trace_array *tr)
{
	struct trace_snapshot *snap;

	for (snap = snapshots; snap && snap->tr != tr; snap = snap->next)
		;
	return snap;
}

/*
 * @tr's snapshot buffer, made (shrunk, not allocated) on first use.
 * Under the event mutex.
 */
static struct trace_snapshot *snap_get(struct trace_array *tr)
{
	struct trace_snapshot *snap = snap_find(tr);

	if (snap)
		return snap;
	snap = calloc(1, sizeof(*snap));
	if (!snap)
		return NULL;
	snap->buffer = ring_buffer_alloc(1, ring_buffer_get_flags(tr->buffer));
	if (!snap->buffer) {
		free(snap);
		return NULL;
	}
	snap->tr = tr;
	snap->next = snapshots;
	snapshots = snap;
	return snap;
}

/* The kernel's resize_buffer_duplicate_size(): the main buffer's sizes. */
static int snap_resize(struct trace_snapshot *snap)
{
	struct trace_buffer *main = snap->tr->buffer;
	int err = 0;

	for (int cpu = 0; cpu < ring_buffer_nr_cpus(main) && !err; cpu++)
		if (ring_buffer_nr_pages(snap->buffer, cpu) != ring_buffer_nr_pages(main, cpu))
			err = ring_buffer_resize(snap->buffer,
						 ring_buffer_size(main, cpu), cpu);
	return err;
}

/**
 * trace_snapshot_alloc_locked - allocate @tr's snapshot buffer
 * @snapp: receives it
 *
 * The kernel's tracing_alloc_snapshot_instance(): sized as the main
 * buffer, for the snapshot trigger and "echo 1 > snapshot".
 * Return: 0, -ENOMEM, or an error of the resize.
 * Context: the event mutex.
 */
int trace_snapshot_alloc_locked(struct trace_array *tr, struct trace_snapshot **snapp)
{
	struct trace_snapshot *snap = snap_get(tr);
	int err;

	if (!snap)
		return -ENOMEM;
	err = snap_resize(snap);
	if (err)
		return err;
	__atomic_store_n(&snap->allocated, 1, __ATOMIC_RELEASE);
	*snapp = snap;
	return 0;
}

/**
 * trace_snapshot_take - the snapshot trigger fires
 *
 * As the kernel's tracing_snapshot_instance(): with no snapshot buffer,
 * says so in the trace and stops tracing.
 * Context: a probe; never blocks.
 */
void trace_snapshot_take(struct trace_snapshot *snap)
{
	static const char not_allocated[] = "*** SNAPSHOT NOT ALLOCATED ***\n";
	static const char stopping[] = "*** stopping trace here!   ***\n";
	struct trace_array *tr = snap->tr;

	if (!__atomic_load_n(&snap->allocated, __ATOMIC_ACQUIRE)) {
		trace_array_marker_write(tr, not_allocated, sizeof(not_allocated) - 1);
		trace_array_marker_write(tr, stopping, sizeof(stopping) - 1);
		trace_array_tracing_switch(tr, false);
		return;
	}
	if (snap_swap(snap, false, NULL, NULL))
		__atomic_add_fetch(&snap->refused, 1, __ATOMIC_RELAXED);
}

/**
 * trace_snapshot_cond_enable - a conditional snapshot for @tr
 * @cond_data: what @update gets
 * @update:    asked, with the buffers locked, whether to take a snapshot
 *             trace_snapshot_cond_take() was called for
 * @snapp:     receives the snapshot buffer, for trace_snapshot_cond_take()
 *
 * The kernel's tracing_snapshot_cond_enable(): allocates the snapshot
 * buffer; one conditional snapshot per instance, and while it is set
 * the snapshot file refuses writes (-EBUSY).
 * Return: 0, -EBUSY (@tr has one), -ENOMEM, an error of the resize.
 * Context: the event mutex.
 */
int trace_snapshot_cond_enable(struct trace_array *tr, void *cond_data,
			       bool (*update)(void *cond_data, void *ctx),
			       struct trace_snapshot **snapp)
{
	struct trace_snapshot *snap;
	int err = trace_snapshot_alloc_locked(tr, &snap);

	if (err)
		return err;
	if (snap->cond_data)
		return -EBUSY;
	snap->cond_update = update;
	/* Before any probe that could take it: it is set up first. */
	__atomic_store_n(&snap->cond_data, cond_data, __ATOMIC_RELEASE);
	*snapp = snap;
	return 0;
}

/**
 * trace_snapshot_cond_disable - @tr's conditional snapshot goes
 *
 * No probe may be taking it any more (its trigger is gone).
 * Context: the event mutex.
 */
void trace_snapshot_cond_disable(struct trace_array *tr)
{
	struct trace_snapshot *snap = snap_find(tr);

	if (snap)
		__atomic_store_n(&snap->cond_data, NULL, __ATOMIC_RELEASE);
}

/** trace_snapshot_cond_data - the @cond_data of @tr's conditional snapshot, or NULL */
void *trace_snapshot_cond_data(struct trace_array *tr)
{
	struct trace_snapshot *snap = snap_find(tr);

	return snap ? __atomic_load_n(&snap->cond_data, __ATOMIC_ACQUIRE) : NULL;
}

struct cond_read {
	void (*fn)(void *cond_data, void *arg);
	void *cond_data;
	void *arg;
};

static void cond_read(void *arg)
{
	struct cond_read *cr = arg;

	cr->fn(cr->cond_data, cr->arg);
}

/**
 * trace_snapshot_cond_read - @fn(@cond_data, @arg) with the conditional
 *	snapshot's state stable (the mutex its update runs under)
 *
 * Nothing when @tr has no conditional snapshot.
 * Context: the event mutex.
 */
void trace_snapshot_cond_read(struct trace_array *tr, void (*fn)(void *cond_data, void *arg),
			      void *arg)
{
	struct trace_snapshot *snap = snap_find(tr);
	struct cond_read cr;

	if (!snap || !snap->cond_data)
		return;
	cr.fn = fn;
	cr.cond_data = snap->cond_data;
	cr.arg = arg;
	ring_buffer_call_locked(tr->buffer, cond_read, &cr);
}

/**
 * trace_snapshot_cond_take - take the conditional snapshot if its update says so
 * @ctx: for the update
 *
 * The kernel's tracing_snapshot_cond().  Buffers busy (a resize, a
 * clear, another snapshot): not taken, and counted.
 * Context: a probe; never blocks.
 */
void trace_snapshot_cond_take(struct trace_snapshot *snap, void *ctx)
{
	int err;

	if (!__atomic_load_n(&snap->cond_data, __ATOMIC_ACQUIRE))
		return;
	err = snap_swap(snap, false, snap, ctx);
	if (err && err != -ECANCELED)
		__atomic_add_fetch(&snap->refused, 1, __ATOMIC_RELAXED);
}

/**
 * trace_snapshot_resized - the main buffer of @tr was resized
 *
 * An allocated snapshot buffer follows, as the kernel resizes both.
 * Context: the event mutex (trace_array_resize_kb()).
 */
void trace_snapshot_resized(struct trace_array *tr)
{
	struct trace_snapshot *snap = snap_find(tr);

	if (snap && snap->allocated)
		snap_resize(snap);
}

/* Called by trace_triggers_instance_gone(), once no probe can run. */
void trace_snapshot_instance_gone(struct trace_array *tr)
{
	struct trace_snapshot **pp, *snap;

	for (pp = &snapshots; (snap = *pp); pp = &snap->next) {
		if (snap->tr == tr) {
			*pp = snap->next;
			ring_buffer_free(snap->buffer);
			free(snap);
			return;
		}
	}
}

/* ------------------------------------------------------------------
 * The snapshot file
 */

static struct trace_array *tr_or_top(struct trace_array *tr)
{
	return tr ? tr : trace_array_top_locked();
}

/* The event mutex taken, *@trp made the instance, its snapshot buffer. */
static struct trace_snapshot *snap_lock(struct trace_array **trp)
{
	trace_event_lock();
	*trp = tr_or_top(*trp);
	return *trp ? snap_get(*trp) : NULL;
}

/**
 * trace_array_snapshot_write - echo VAL > snapshot
 * @tr:  the instance (NULL: the top level)
 * @val: 0 frees the snapshot buffer (shrinks it), 1 allocates it and
 *       takes a snapshot, anything else clears it if allocated
 *
 * Return: 0, -ENOMEM, -EBUSY (a swap found the buffers busy: a resize),
 * or an error of the resize.
 * Context: not a probe; takes the event mutex.
 */
int trace_array_snapshot_write(struct trace_array *tr, unsigned long val)
{
	struct trace_snapshot *snap;
	int err = 0;

	snap = snap_lock(&tr);
	if (!snap) {
		err = -ENOMEM;
	} else if (snap->cond_data) {
		err = -EBUSY;	/* a hist trigger's snapshot() owns it */
	} else if (val == 0) {
		if (snap->allocated) {
			__atomic_store_n(&snap->allocated, 0, __ATOMIC_RELAXED);
			ring_buffer_resize(snap->buffer, 1, RING_BUFFER_ALL_CPUS);
			ring_buffer_reset(snap->buffer);
		}
	} else if (val == 1) {
		err = trace_snapshot_alloc_locked(tr, &snap);
		if (!err)
			err = snap_swap(snap, true, NULL, NULL) ? -EBUSY : 0;
	} else if (snap->allocated) {
		ring_buffer_reset(snap->buffer);
	}
	trace_event_unlock();
	return err;
}

/** trace_array_snapshot_allocated - is @tr's snapshot buffer allocated? */
bool trace_array_snapshot_allocated(struct trace_array *tr)
{
	struct trace_snapshot *snap;
	bool ret;

	trace_event_lock();
	snap = snap_find(tr_or_top(tr));
	ret = snap && snap->allocated;
	trace_event_unlock();
	return ret;
}

/**
 * trace_array_snapshot_print_header - the header of the snapshot file
 *
 * "# tracer: nop" and, when the snapshot buffer is empty, the kernel's
 * help (allocated or freed, and the commands); otherwise the header of
 * the trace file, with the snapshot buffer's counts.
 * Return: 0, -ENOMEM, -ENOSPC (@s is full).
 */
int trace_array_snapshot_print_header(struct trace_array *tr, struct trace_seq *s)
{
	struct trace_snapshot *snap;
	int err = 0;

	snap = snap_lock(&tr);
	if (!snap) {
		err = -ENOMEM;
	} else if (!ring_buffer_empty(snap->buffer)) {
		err = trace_print_header(s, snap->buffer);
	} else {
		trace_seq_puts(s, "# tracer: nop\n#\n");
		trace_seq_puts(s, snap->allocated ? "#\n# * Snapshot is allocated *\n#\n" :
						    "#\n# * Snapshot is freed *\n#\n");
		trace_seq_puts(s, "# Snapshot commands:\n"
			"# echo 0 > snapshot : Clears and frees snapshot buffer\n"
			"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			"#                      Takes a snapshot of the main buffer.\n"
			"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n"
			"#                      (Doesn't have to be '2' works with any number that\n"
			"#                       is not a '0' or '1')\n");
		err = trace_seq_has_overflowed(s) ? -ENOSPC : 0;
	}
	trace_event_unlock();
	return err;
}

/**
 * trace_array_snapshot_iterator_open - read the snapshot buffer
 *
 * As trace_array_iterator_open() for the trace file: the events stay.
 * Return: the iterator (trace_iterator_close() it), or NULL with errno.
 */
struct trace_iterator *trace_array_snapshot_iterator_open(struct trace_array *tr)
{
	struct trace_snapshot *snap;
	struct trace_iterator *iter = NULL;

	snap = snap_lock(&tr);
	if (snap)
		iter = trace_iterator_open(snap->buffer, 0);
	else
		errno = ENOMEM;
	trace_event_unlock();
	return iter;
}

/** trace_array_snapshot_refused - snapshots a probe could not take */
unsigned long trace_array_snapshot_refused(struct trace_array *tr)
{
	struct trace_snapshot *snap;
	unsigned long n;

	trace_event_lock();
	snap = snap_find(tr_or_top(tr));
	n = snap ? __atomic_load_n(&snap->refused, __ATOMIC_RELAXED) : 0;
	trace_event_unlock();
	return n;
}
