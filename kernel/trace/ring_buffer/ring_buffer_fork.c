// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork() and the ring buffers: level USTRACE_FORK_RING_BUFFER of the
 * library's lock order (kernel/fork.c).  The engine's locks are outside
 * (the clock, resize and reset are changed under the event mutex);
 * liburcu-bp's and the saved-cmdlines lock are inside.
 *
 * The prepare handler takes, in this order:
 *
 *   rb_fork_lock                 the list of every buffer
 *   each buffer's mutex          in allocation order: a snapshot buffer is
 *                                allocated after its instance's, and a
 *                                swap takes the instance's first
 *   each CPU's reader_lock       buffer by buffer, CPU by CPU; with every
 *                                mutex held no swap moves them meanwhile
 *
 * so the child finds each reader's state (struct rb_reader, in the
 * process's own memory) between two operations.  The pages themselves are
 * in a shared mapping that parent and child go on writing into.  Writers
 * take none of these; a snapshot trigger that fires while a fork holds the
 * mutexes finds them busy and is refused (and counted), as when a resize
 * holds them.
 */
#include <pthread.h>

#include "../../internal.h"
#include "rb_internal.h"

static pthread_mutex_t rb_fork_lock = PTHREAD_MUTEX_INITIALIZER;
static struct trace_buffer *rb_buffers, **rb_buffers_tail = &rb_buffers;

void rb_fork_track(struct trace_buffer *buffer)
{
	pthread_mutex_lock(&rb_fork_lock);
	buffer->fork_next = NULL;
	buffer->fork_pprev = rb_buffers_tail;
	*rb_buffers_tail = buffer;
	rb_buffers_tail = &buffer->fork_next;
	pthread_mutex_unlock(&rb_fork_lock);
}

void rb_fork_untrack(struct trace_buffer *buffer)
{
	pthread_mutex_lock(&rb_fork_lock);
	*buffer->fork_pprev = buffer->fork_next;
	if (buffer->fork_next)
		buffer->fork_next->fork_pprev = buffer->fork_pprev;
	else
		rb_buffers_tail = buffer->fork_pprev;
	pthread_mutex_unlock(&rb_fork_lock);
}

static void rb_fork_prepare(void)
{
	struct trace_buffer *b;

	pthread_mutex_lock(&rb_fork_lock);
	for (b = rb_buffers; b; b = b->fork_next)
		pthread_mutex_lock(&b->mutex);
	for (b = rb_buffers; b; b = b->fork_next)
		for (unsigned int cpu = 0; cpu < b->nr_cpus; cpu++)
			pthread_mutex_lock(&b->cpus[cpu].reader_lock);
}

static void rb_fork_parent(void)
{
	struct trace_buffer *b;

	for (b = rb_buffers; b; b = b->fork_next)
		for (unsigned int cpu = 0; cpu < b->nr_cpus; cpu++)
			pthread_mutex_unlock(&b->cpus[cpu].reader_lock);
	for (b = rb_buffers; b; b = b->fork_next)
		pthread_mutex_unlock(&b->mutex);
	pthread_mutex_unlock(&rb_fork_lock);
}

static void rb_fork_child(void)
{
	struct trace_buffer *b;

	for (b = rb_buffers; b; b = b->fork_next) {
		for (unsigned int cpu = 0; cpu < b->nr_cpus; cpu++)
			ustrace_fork_reinit_mutex(&b->cpus[cpu].reader_lock,
						  PTHREAD_MUTEX_DEFAULT);
		ustrace_fork_reinit_mutex(&b->mutex, PTHREAD_MUTEX_DEFAULT);
	}
	ustrace_fork_reinit_mutex(&rb_fork_lock, PTHREAD_MUTEX_DEFAULT);
}

static const struct ustrace_fork_ops rb_fork_ops = {
	.prepare	= rb_fork_prepare,
	.parent		= rb_fork_parent,
	.child		= rb_fork_child,
};

__attribute__((__constructor__))
static void rb_fork_init(void)
{
	ustrace_fork_register(USTRACE_FORK_RING_BUFFER, &rb_fork_ops);
}
