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
 * their pages instead:
 *
 *	main (struct trace_buffer)         snapshot (struct trace_buffer)
 *	  cpu_base ──┐     ┌── cpu_base ◀─┐
 *	  cpus ──────┼──┐  │               │
 *	             ▼  ▼  ▼               │
 *	        mapping A   mapping B ◀────┘  (cpu_base, cpus, map, memfd
 *	                                      exchanged by the swap)
 *
 * The swap holds both buffers' mutexes, which reset, resize and the clock
 * take, and needs both to have the same number of pages per CPU; in a
 * probe it only tries them (pthread_mutex_trylock()) and a snapshot that
 * finds them busy is not taken (and counted).  Writers take no lock:
 *
 *  - a writer reads cpu_base once, reserves and fills its event in that
 *    mapping, and commits into the slot word of the page it reserved in;
 *  - the commit finds the page from the event's address, in either
 *    mapping (pair_base[] in struct trace_buffer), so an event reserved
 *    before a swap lands in the buffer it was reserved in, now the
 *    snapshot: the event that triggered a conditional snapshot is in it,
 *    as in the kernel;
 *  - readers look cpu_base and cpus up atomically and keep what they got
 *    for the rest of one operation: an iterator opened before a swap
 *    reads on in the pages it started with.
 *
 * The per-CPU structures keep the owner they were allocated with
 * (ring_buffer_per_cpu.buffer): it is only read to report corruption.
 */
#define __USTRACE_CORE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace.h>

#include "ring_buffer/rb_internal.h"
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

/* The pages of CPU @cpu's ring in @buffer; under its mutex. */
static u32 ring_pages(struct trace_buffer *buffer, unsigned int cpu)
{
	return __atomic_load_n(&rb_cpu_buffer(buffer, (int)cpu)->meta->nr_slots,
			       __ATOMIC_RELAXED);
}

/* Release: pairs with the acquire loads of rb_cpu_base() and rb_cpu_buffer(). */
static void swap_ptr(char **a, char **b)
{
	char *t = *a;

	__atomic_store_n(a, *b, __ATOMIC_RELEASE);
	__atomic_store_n(b, t, __ATOMIC_RELEASE);
}

/*
 * Trade the pages of @main and @snap.  @wait: block on the mutexes (a
 * write to the snapshot file) rather than give up (a probe).  @cond (may
 * be NULL): asked with both mutexes held, as the kernel asks the
 * conditional snapshot's update() under max_lock; false: no swap.
 * Return: 0, -EBUSY (a mutex was taken), -EINVAL (the sizes differ),
 * -ECANCELED (@cond said no).
 */
static int rb_swap_pages(struct trace_buffer *main, struct trace_buffer *snap, bool wait,
			 const struct trace_snapshot *cs, void *ctx)
{
	struct ring_buffer_per_cpu *cpus;
	int err = 0, fd;
	void *map;
	size_t size;

	if (wait) {
		pthread_mutex_lock(&main->mutex);
		pthread_mutex_lock(&snap->mutex);
	} else {
		if (pthread_mutex_trylock(&main->mutex))
			return -EBUSY;
		if (pthread_mutex_trylock(&snap->mutex)) {
			pthread_mutex_unlock(&main->mutex);
			return -EBUSY;
		}
	}
	for (unsigned int cpu = 0; cpu < main->nr_cpus; cpu++)
		if (ring_pages(main, cpu) != ring_pages(snap, cpu))
			err = -EINVAL;
	if (!err && cs && !cs->cond_update(cs->cond_data, ctx))
		err = -ECANCELED;
	if (!err) {
		swap_ptr(&main->cpu_base, &snap->cpu_base);
		cpus = main->cpus;
		__atomic_store_n(&main->cpus, snap->cpus, __ATOMIC_RELEASE);
		__atomic_store_n(&snap->cpus, cpus, __ATOMIC_RELEASE);
		map = main->map, main->map = snap->map, snap->map = map;
		size = main->map_size, main->map_size = snap->map_size, snap->map_size = size;
		fd = main->memfd, main->memfd = snap->memfd, snap->memfd = fd;
		/* The snapshot's events are in the main buffer's clock. */
		__atomic_store_n(&snap->clock, __atomic_load_n(&main->clock, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&snap->clock_local,
				 __atomic_load_n(&main->clock_local, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&snap->mutex);
	pthread_mutex_unlock(&main->mutex);
	return err;
}

/* From now on, either buffer's commits find pages in both mappings. */
static void rb_pair(struct trace_buffer *main, struct trace_buffer *snap)
{
	char *a = rb_cpu_base(main), *b = rb_cpu_base(snap);

	__atomic_store_n(&main->pair_base[0], a, __ATOMIC_RELAXED);
	__atomic_store_n(&main->pair_base[1], b, __ATOMIC_RELAXED);
	__atomic_store_n(&snap->pair_base[0], a, __ATOMIC_RELAXED);
	__atomic_store_n(&snap->pair_base[1], b, __ATOMIC_RELAXED);
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
	snap->buffer = ring_buffer_alloc(1, tr->buffer->flags);
	if (!snap->buffer) {
		free(snap);
		return NULL;
	}
	snap->tr = tr;
	rb_pair(tr->buffer, snap->buffer);
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
	if (rb_swap_pages(tr->buffer, snap->buffer, false, NULL, NULL))
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

	if (!snap || !snap->cond_data)
		return;
	pthread_mutex_lock(&tr->buffer->mutex);
	fn(snap->cond_data, arg);
	pthread_mutex_unlock(&tr->buffer->mutex);
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
	struct trace_array *tr = snap->tr;
	int err;

	if (!__atomic_load_n(&snap->cond_data, __ATOMIC_ACQUIRE))
		return;
	err = rb_swap_pages(tr->buffer, snap->buffer, false, snap, ctx);
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
			err = rb_swap_pages(tr->buffer, snap->buffer, true, NULL, NULL) ? -EBUSY : 0;
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
