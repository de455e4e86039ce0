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
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ------------------------------------------------------------------
 * Sharers (rb_layout.h): the processes that write into a mapping they did
 * not make, so that a reset knows when one of them died in the middle of
 * a record (ring-buffer-design.rst, "Writers that die").
 */

static struct rb_sharers *rb_sharers_of(struct trace_buffer *buffer)
{
	return (struct rb_sharers *)((char *)buffer->map + RB_SHARERS_OFF);
}

/*
 * Is process @pid gone: no such process, or a zombie nobody reaped yet
 * (kill() still finds those).  Keeps errno.
 */
static bool rb_pid_gone(pid_t pid)
{
	char path[32], buf[512], *p;
	int saved = errno, fd;
	bool gone = false;
	ssize_t n;

	if (kill(pid, 0) && errno == ESRCH) {
		gone = true;
	} else {
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			gone = errno == ENOENT;
		} else {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			buf[n > 0 ? n : 0] = 0;
			p = strrchr(buf, ')');
			gone = p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
		}
	}
	errno = saved;
	return gone;
}

/* Take over the entry @i held by @old, a process gone: count it. */
static bool rb_sharer_take(struct rb_sharers *s, u32 i, u32 old, u32 pid)
{
	if (!__atomic_compare_exchange_n(&s->pid[i], &old, pid, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_RELAXED))
		return false;
	if (old)
		__atomic_add_fetch(&s->gone, 1, __ATOMIC_SEQ_CST);
	return true;
}

/* In a forked child: say we write into @buffer too (a free entry, else one of the gone). */
static void rb_sharer_add(struct trace_buffer *buffer, pid_t pid)
{
	struct rb_sharers *s = rb_sharers_of(buffer);
	u32 i, cur;

	for (i = 0; i < RB_MAX_SHARERS; i++)
		if (!__atomic_load_n(&s->pid[i], __ATOMIC_RELAXED) &&
		    rb_sharer_take(s, i, 0, (u32)pid))
			return;
	for (i = 0; i < RB_MAX_SHARERS; i++) {
		cur = __atomic_load_n(&s->pid[i], __ATOMIC_RELAXED);
		if (cur && cur != (u32)pid && rb_pid_gone((pid_t)cur) &&
		    rb_sharer_take(s, i, cur, (u32)pid))
			return;
	}
	/* All taken by live processes: this one is not known (fork.rst). */
}

/**
 * rb_writer_died - did a process writing into @cpu_buffer's mapping die since last asked?
 *
 * Counts the entries of the processes gone (a SIGKILL, _exit(), a crash:
 * one that leaves by exit() frees its entry), and says whether the count
 * moved since this CPU last asked (so each CPU is taken once per death).
 * Context: the CPU's reader lock held; calls the kernel.
 */
bool rb_writer_died(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct rb_sharers *s = rb_sharers_of(cpu_buffer->buffer);
	u32 gone;

	for (u32 i = 0; i < RB_MAX_SHARERS; i++) {
		u32 cur = __atomic_load_n(&s->pid[i], __ATOMIC_RELAXED);

		if (cur && rb_pid_gone((pid_t)cur))
			rb_sharer_take(s, i, cur, 0);
	}
	gone = __atomic_load_n(&s->gone, __ATOMIC_SEQ_CST);
	if (gone == cpu_buffer->gone_seen)
		return false;
	cpu_buffer->gone_seen = gone;
	return true;
}

/* exit() of a forked child: it leaves, it did not die. */
static void rb_sharers_leave(void)
{
	u32 me = (u32)getpid();
	struct trace_buffer *b;

	pthread_mutex_lock(&rb_fork_lock);
	for (b = rb_buffers; b; b = b->fork_next) {
		struct rb_sharers *s = rb_sharers_of(b);

		for (u32 i = 0; i < RB_MAX_SHARERS; i++) {
			u32 cur = me;

			if (__atomic_load_n(&s->pid[i], __ATOMIC_RELAXED) == me)
				__atomic_compare_exchange_n(&s->pid[i], &cur, 0, false,
							    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_unlock(&rb_fork_lock);
}

static void rb_fork_child(void)
{
	static bool leave_registered;
	pid_t me = getpid();
	struct trace_buffer *b;

	for (b = rb_buffers; b; b = b->fork_next)
		rb_sharer_add(b, me);
	if (!leave_registered)
		leave_registered = !atexit(rb_sharers_leave);
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
