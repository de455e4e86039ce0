/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The writers' fast path, inline: ring_buffer_lock_reserve() uses it, and
 * so does the trace event probe's reserve (trace_events.c), which saves a
 * call and learns the word its commit adds to.  Not installed.
 *
 * The fast path is the common case only: the local clock on an invariant
 * TSC, relative time stamps, rseq's CPU number, an event that fits on the
 * tail page.  Anything else returns NULL and the caller takes
 * ring_buffer_lock_reserve(), which handles everything.
 */
#ifndef _USTRACE_KERNEL_TRACE_RB_FAST_H
#define _USTRACE_KERNEL_TRACE_RB_FAST_H

#include <stddef.h>
#if __has_include(<sys/rseq.h>)
# include <sys/rseq.h>
#endif

#include "rb_internal.h"
#include "trace_clock.h"

#if defined(__GLIBC__) && defined(RSEQ_SIG) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
# define RB_HAVE_RSEQ 1
#endif

#ifdef RB_HAVE_RSEQ
/* The CPU rseq says the thread is on (the kernel updates it on every return to userspace). */
static __always_inline const u32 *rb_rseq_cpu_id(void)
{
	return (const u32 *)((char *)__builtin_thread_pointer() + __rseq_offset +
			     offsetof(struct rseq, cpu_id));
}
#endif

/* Write the headers of a reservation made at @ev with time delta @delta. */
static __always_inline struct ring_buffer_event *
rb_fill_event(u32 *ev, u32 evsize, u64 delta, u64 ts, bool ext, bool abs)
{
	if (unlikely(ext)) {
		if (abs)
			rb_write_time(ev, RINGBUF_TYPE_TIME_STAMP, ts);
		else
			rb_write_time(ev, RINGBUF_TYPE_TIME_EXTEND, delta);
		rb_write_data_header(ev + 2, evsize, 0);
	} else {
		rb_write_data_header(ev, evsize, (u32)delta);
	}
	return (struct ring_buffer_event *)ev;
}

/**
 * rb_reserve_fast - reserve @length bytes on the tail page of this CPU
 * @commit_word: set to the slot word the commit adds to
 * @commit_add:  and what it adds (one entry and the bytes reserved)
 *
 * Return: the event, or NULL when the fast path does not apply (nothing
 * was reserved; nothing was counted).
 * Context: any thread; lock-free: a cmpxchg16b on the CPU's tail.
 */
static __always_inline struct ring_buffer_event *
rb_reserve_fast(struct trace_buffer *buffer, unsigned long length,
		u64 **commit_word, u64 *commit_add)
{
#if defined(RB_HAVE_RSEQ) && defined(__x86_64__)
	const u32 *cpu_id = rb_rseq_cpu_id();
	struct rb_cpu_meta *meta;
	struct rb_tail old, new;
	u32 evsize, size, off, cpu, slot, page;
	u64 now, ts, delta;
	uintptr_t view;
	char *region;

	if (unlikely(__atomic_load_n(&buffer->record_disabled, __ATOMIC_RELAXED) ||
		     !__atomic_load_n(&buffer->fast, __ATOMIC_RELAXED) ||
		     length > RB_MAX_DATA_SIZE ||
		     __atomic_load_n(&tc_scale.mode, __ATOMIC_ACQUIRE) != TC_TSC))
		return NULL;
	cpu = __atomic_load_n(cpu_id, __ATOMIC_RELAXED);
	if (unlikely(cpu >= buffer->nr_cpus))
		return NULL;
	view = rb_view(buffer);
	region = rb_view_region(view, cpu);
	meta = (struct rb_cpu_meta *)region;
	if (unlikely(__atomic_load_n(&meta->record_disabled, __ATOMIC_RELAXED)))
		return NULL;
	evsize = rb_data_event_size(length);
	/*
	 * Torn reads are fine: the cmpxchg compares both words and hands
	 * back the current ones.  The clock is read after the tail, so that
	 * the clamp in rb_later() rarely has anything to do.
	 */
	old.pos = __atomic_load_n(&meta->tail.pos, __ATOMIC_RELAXED);
	old.ts = __atomic_load_n(&meta->tail.ts, __ATOMIC_RELAXED);
	now = tc_local_tsc();
	for (;;) {
		/*
		 * Still on @cpu after the clock read, or the time is another
		 * CPU's: the generic path starts over (rb_moved()).
		 */
		if (unlikely(__atomic_load_n(cpu_id, __ATOMIC_RELAXED) != cpu))
			return NULL;
		ts = rb_later(now, old.ts);
		delta = ts - old.ts;
		size = evsize + (delta > TS_MASK ? RB_LEN_TIME_EXTEND : 0);
		off = rb_pos_off(old.pos);
		if (unlikely(off + size > RB_DATA_SIZE))
			return NULL;
		new.pos = old.pos + size;
		new.ts = ts;
		if (likely(rb_tail_cmpxchg(&meta->tail, &old, new)))
			break;
		now = tc_local_tsc();
	}
	/*
	 * The page cannot complete while our reservation on it is open, so
	 * nobody moves it: its slot is stable until the commit.  A resize
	 * may have added it since we read the view (rb_region_for()).
	 */
	page = rb_pos_page(old.pos);
	slot = rb_get_page_slot(region, page);
	*commit_word = likely(slot < RB_MAX_PAGES) ? &rb_slots(region)[slot] : NULL;
	*commit_add = RB_SLOT_ONE_ENTRY + size;
	return rb_fill_event(rb_page_data(rb_region_for(view, cpu, page), page) + off / 4,
			     evsize, delta, ts, delta > TS_MASK, false);
#else
	(void)buffer, (void)length, (void)commit_word, (void)commit_add;
	return NULL;
#endif
}

#endif /* _USTRACE_KERNEL_TRACE_RB_FAST_H */
