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

#include "rb_internal.h"
#include "rb_rseq.h"
#include "trace_clock.h"

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

#ifdef RB_RSEQ_TAIL
/*
 * The reservation of rb_reserve_fast(), from the tail @old it read: with
 * a restartable sequence (an open tail), or with cmpxchg16b (@locked).
 */
static __always_inline struct ring_buffer_event *
rb_reserve_fast_at(char *region, struct rb_cpu_meta *meta, u32 cpu, struct rb_tail old,
		   u32 evsize, u32 off, u32 page, u64 now, u64 delta, bool locked,
		   u64 **commit_word, u64 *commit_add, u32 **payload)
{
	struct rb_tail new;
	u32 slot, hdr;
	u32 *ev;

	/*
	 * Where the event goes and its header, worked out before the
	 * reservation: the header is written right after it, so that a
	 * writer killed in between leaves little a reaper cannot read
	 * (ring-buffer-design.rst, "Writers that die").
	 */
	ev = rb_page_data(region, page) + off / 4;
	hdr = rb_hdr((evsize - RB_EVNT_HDR_SIZE) >> 2, (u32)delta) |
	      __atomic_load_n(&rb_mark, __ATOMIC_RELAXED);
	new.pos = old.pos + evsize;
	new.ts = now;
	if (unlikely(locked)) {
		/* Still on @cpu after the clock read, or the time is another CPU's. */
		if (rb_rseq_cpu() != cpu || !rb_tail_cmpxchg(&meta->tail, &old, new))
			return NULL;
	} else if (unlikely(!rb_tail_rseq_cas(&meta->tail, cpu, old.pos, old.ts, new))) {
		/* An open tail (the offset's check): rb_rseq.h's rule. */
		return NULL;
	}
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
}
#endif

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
 * not move between its read and the reservation (nobody else on this
 * CPU meanwhile).  Anything else returns NULL and the caller takes the
 * generic path, which handles everything and retries: keeping the retry
 * loop, the time extend and the resize's views out of here leaves the
 * fast path few enough live values to stay in registers.
 *
 * Return: the event, or NULL when the fast path does not apply (nothing
 * was reserved; nothing was counted).
 * Context: any thread; lock-free, with no locked instruction: a
 * restartable sequence on the CPU's tail (rb_rseq.h); a cmpxchg16b when
 * the tail is locked (the program forked).
 */
static __always_inline struct ring_buffer_event *
rb_reserve_fast(struct trace_buffer *buffer, unsigned long length, unsigned long max,
		u64 **commit_word, u64 *commit_add, u32 **payload)
{
#ifdef RB_RSEQ_TAIL
	struct rb_cpu_meta *meta;
	struct rb_tail old;
	u32 evsize, off, cpu, page;
	u64 now, delta;
	uintptr_t view;
	char *region;

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
	 * Torn reads are fine: the sequence (or cmpxchg) compares both
	 * words.  The clock is read after the tail, so that it is later than
	 * the tail's time unless another writer on this CPU came in between
	 * (then the tail has changed).  A thread that moved to another CPU
	 * and back meanwhile read a time of the other CPU: the TSC is
	 * invariant, and a time before the tail's fails the delta's check.
	 */
	old.pos = __atomic_load_n(&meta->tail.pos, __ATOMIC_RELAXED);
	old.ts = __atomic_load_n(&meta->tail.ts, __ATOMIC_RELAXED);
	now = tc_local_tsc();
	delta = now - old.ts;
	off = rb_pos_off(old.pos);
	page = rb_pos_page(old.pos);
	/* The last: the page is past the end of the view read (a resize grew it). */
	if (unlikely(delta - 1 >= RB_MARK_DELTA_MAX ||
		     (RB_META_SIZE + ((size_t)page + 1) * RB_PAGE_SIZE - 1) >>
		     rb_view_shift(view)))
		return NULL;
	if (likely(off + evsize <= RB_DATA_SIZE))
		return rb_reserve_fast_at(region, meta, cpu, old, evsize, off, page, now, delta,
					  false, commit_word, commit_add, payload);
	/* Locked, and nothing else (rb_rseq.h): the same with cmpxchg16b. */
	if ((off & RB_OFF_FLAGS) != RB_OFF_LOCKED || rb_off_frozen(off) ||
	    (off & ~RB_OFF_FLAGS) + evsize > RB_DATA_SIZE)
		return NULL;
	return rb_reserve_fast_at(region, meta, cpu, old, evsize, off & ~RB_OFF_FLAGS, page, now,
				  delta, true, commit_word, commit_add, payload);
#else
	(void)buffer, (void)length, (void)max, (void)commit_word, (void)commit_add, (void)payload;
	return NULL;
#endif
}

#endif /* _USTRACE_KERNEL_TRACE_RB_FAST_H */
