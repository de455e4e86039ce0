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

# ifdef __x86_64__
/*
 * The same, read once more each call, %fs-relative: no pointer to keep
 * in a register (the writers' fast path reads it before and after the
 * clock; volatile keeps both reads, in order with rdtsc's).
 */
static __always_inline u32 rb_rseq_cpu(void)
{
	u32 cpu;

	__asm__ __volatile__("movl %%fs:%c1(%2), %0"
			     : "=r" (cpu)
			     : "i" (offsetof(struct rseq, cpu_id)), "r" (__rseq_offset));
	return cpu;
}
# endif
#endif

/*
 * Write the headers of a reservation made at @ev with time delta @delta
 * (below 1 << RB_MARK_DELTA_BITS unless @ext), the data header marked
 * with @mark until the commit.
 */
static __always_inline struct ring_buffer_event *
rb_fill_event(u32 *ev, u32 evsize, u64 delta, u64 ts, bool ext, bool abs, u32 mark)
{
	if (unlikely(ext)) {
		if (abs)
			rb_write_time(ev, RINGBUF_TYPE_TIME_STAMP, ts);
		else
			rb_write_time(ev, RINGBUF_TYPE_TIME_EXTEND, delta);
		rb_write_data_header(ev + 2, evsize, 0, mark);
	} else {
		rb_write_data_header(ev, evsize, (u32)delta, mark);
	}
	return (struct ring_buffer_event *)ev;
}

/**
 * rb_reserve_fast - reserve @length bytes on the tail page of this CPU
 * @max:         the largest @length taken (a constant)
 * @commit_word: set to the slot word the commit adds to
 * @commit_add:  and what it adds (one entry and the bytes reserved)
 * @payload:     NULL, or (a constant @max of small events only) set to
 *               where the payload goes
 *
 * One attempt, for the common case only: the event fits on the tail page
 * of the view read, follows the tail's time by less than
 * 1 << RB_MARK_DELTA_BITS ns (no time extend, no clamp), and the tail did
 * not move between its read and the cmpxchg (nobody else on this CPU
 * meanwhile).  Anything else returns NULL and the caller takes the
 * generic path, which handles everything and retries: keeping the retry
 * loop, the time extend and the resize's views out of here leaves the
 * fast path few enough live values to stay in registers.
 *
 * Return: the event, or NULL when the fast path does not apply (nothing
 * was reserved; nothing was counted).
 * Context: any thread; lock-free: a cmpxchg16b on the CPU's tail.
 */
static __always_inline struct ring_buffer_event *
rb_reserve_fast(struct trace_buffer *buffer, unsigned long length, unsigned long max,
		u64 **commit_word, u64 *commit_add, u32 **payload)
{
#if defined(RB_HAVE_RSEQ) && defined(__x86_64__)
	struct rb_cpu_meta *meta;
	struct rb_tail old, new;
	u32 evsize, off, cpu, slot, page, hdr;
	u64 now, delta;
	uintptr_t view;
	char *region;
	u32 *ev;

	/*
	 * Recording off or disabled, or RB_BUFFER_SLOW (which includes a
	 * local clock that is not the TSC); an empty event (its size is
	 * that of a one-byte one: the generic path's) or a larger one.
	 */
	if (unlikely(__atomic_load_n(&buffer->record_disabled, __ATOMIC_RELAXED) ||
		     length - 1 >= max))
		return NULL;
	cpu = rb_rseq_cpu();
	if (unlikely(cpu >= buffer->nr_cpus))
		return NULL;
	view = rb_view(buffer);
	region = rb_view_region(view, cpu);
	meta = (struct rb_cpu_meta *)region;
	if (unlikely(__atomic_load_n(&meta->record_disabled, __ATOMIC_RELAXED)))
		return NULL;
	evsize = max <= RB_MAX_SMALL_DATA ? (u32)(length + RB_EVNT_HDR_SIZE + 3) & ~3u :
					    rb_data_event_size(length);
	/*
	 * Torn reads are fine: the cmpxchg compares both words.  The clock
	 * is read after the tail, so that it is later than the tail's time
	 * unless another writer on this CPU came in between.
	 */
	old.pos = __atomic_load_n(&meta->tail.pos, __ATOMIC_RELAXED);
	old.ts = __atomic_load_n(&meta->tail.ts, __ATOMIC_RELAXED);
	now = tc_local_tsc();
	/* Still on @cpu after the clock read, or the time is another CPU's. */
	if (unlikely(rb_rseq_cpu() != cpu))
		return NULL;
	delta = now - old.ts;
	off = rb_pos_off(old.pos);
	page = rb_pos_page(old.pos);
	if (unlikely(delta - 1 >= RB_MARK_DELTA_MAX || off + evsize > RB_DATA_SIZE ||
		     RB_META_SIZE + ((size_t)page + 1) * RB_PAGE_SIZE >
		     ((size_t)1 << rb_view_shift(view))))
		return NULL;
	/*
	 * Where the event goes and its header, worked out before the
	 * cmpxchg: the header is written right after it, so that a writer
	 * killed in between leaves little a reaper cannot read
	 * (ring-buffer-design.rst, "Writers that die").
	 */
	ev = rb_page_data(region, page) + off / 4;
	hdr = rb_hdr((evsize - RB_EVNT_HDR_SIZE) >> 2, (u32)delta) |
	      __atomic_load_n(&rb_mark, __ATOMIC_RELAXED);
	new.pos = old.pos + evsize;
	new.ts = now;
	if (unlikely(!rb_tail_cmpxchg(&meta->tail, &old, new)))
		return NULL;
	if (likely(evsize <= RB_MAX_SMALL_DATA + RB_EVNT_HDR_SIZE))
		__atomic_store_n(ev, hdr, __ATOMIC_RELAXED);
	else
		rb_fill_event(ev, evsize, delta, now, false, false, hdr & RB_HDR_MARK_BITS);
	/*
	 * The page cannot complete while our reservation on it is open, so
	 * nobody moves it: its slot is stable until the commit.
	 */
	slot = rb_get_page_slot(region, page);
	*commit_word = likely(slot < RB_MAX_PAGES) ? &rb_slots(region)[slot] : NULL;
	*commit_add = RB_SLOT_ONE_ENTRY + evsize;
	if (payload)
		*payload = ev + 1;
	return (struct ring_buffer_event *)ev;
#else
	(void)buffer, (void)length, (void)max, (void)commit_word, (void)commit_add, (void)payload;
	return NULL;
#endif
}

#endif /* _USTRACE_KERNEL_TRACE_RB_FAST_H */
