// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading the ring buffers: the consuming reader (reader page swaps, as
 * trace_pipe and trace_pipe_raw), the non-consuming iterator (as the trace
 * file), and the per-CPU accounting (as per_cpu/cpuN/stats).  Readers of
 * one CPU serialize on its reader_lock; they never make a writer wait.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>
#include <linux/ring_buffer.h>
#include "../../internal.h"
#include "rb_internal.h"
#include "rb_rseq.h"

/*
 * The iterator copies pages that writers may be overwriting and checks
 * afterwards whether they did (a seqlock read).  Tell ThreadSanitizer.
 */
#define rb_racy_reads_begin()	ustrace_tsan_ignore_begin()
#define rb_racy_reads_end()	ustrace_tsan_ignore_end()

/* ------------------------------------------------------------------
 * Reading: the reader page
 */

struct rb_flush {
	struct ring_buffer_per_cpu *cpu_buffer;
	u32 seq, npage;
	int ret;		/* when the flush is off: 0 look again, -EAGAIN nothing */
};

/* The tail as a flush leaves it, if the tail page can be closed now. */
static bool rb_flush_fn(struct rb_tail cur, void *arg, struct rb_tail *new)
{
	struct rb_flush *f = arg;
	struct ring_buffer_per_cpu *cpu_buffer = f->cpu_buffer;
	u64 w = __atomic_load_n(&cpu_buffer->slots[cpu_buffer->r.head_slot], __ATOMIC_ACQUIRE);
	u32 off = rb_pos_used(cur.pos);

	f->ret = -EAGAIN;
	if (rb_off_frozen(rb_pos_off(cur.pos)))
		return false;
	if (rb_pos_seq(cur.pos) != f->seq) {
		f->ret = rb_seq_diff(rb_pos_seq(cur.pos), f->seq) > 0 ? 0 : -EAGAIN;
		return false;
	}
	if (!off || rb_slot_seq(w) != f->seq || !rb_slot_entries(w) ||
	    rb_slot_committed(w) != off + RB_MARK_OPEN)
		return false;
	/*
	 * The new page gets the bell: a reader that flushes has read up to
	 * the tail, and likely waits for any data next, which would take
	 * another change of the tail from here (a fence of the CPU's
	 * sequences, rb_rseq.h).  If it does not wait, the next writer's
	 * slow path takes the bell down for nothing.  A lock stays.
	 */
	*new = (struct rb_tail){
		rb_mkpos(f->npage, f->seq + 1, RB_OFF_BELL | (cur.pos & RB_OFF_LOCKED)), cur.ts };
	return true;
}

/*
 * Close the tail page early, so that the reader can take what is on it
 * (trace_pipe wants events as they come).  Only when every reservation on
 * it is committed, and only into a free slot: the reader never
 * overwrites.  The reader is the switcher then.
 *
 * Return: 0 to look again, -EAGAIN when there is nothing to take.
 */
static int rb_flush_tail(struct ring_buffer_per_cpu *cpu_buffer, u32 seq, u64 w)
{
	struct rb_flush f = { .cpu_buffer = cpu_buffer, .seq = seq };
	char *region = cpu_buffer->region;
	struct rb_cpu_meta *meta = cpu_buffer->meta;
	struct rb_tail old;
	u32 nslot, off;

	old = rb_tail_snapshot(&meta->tail);
	if (rb_off_frozen(rb_pos_off(old.pos)))
		return -EAGAIN;
	off = rb_pos_used(old.pos);
	if (rb_pos_seq(old.pos) != seq)
		return rb_seq_diff(rb_pos_seq(old.pos), seq) > 0 ? 0 : -EAGAIN;
	if (!off || !rb_slot_entries(w) || rb_slot_committed(w) != off + RB_MARK_OPEN)
		return -EAGAIN;
	if (rb_claim_next(cpu_buffer->buffer, region, old.pos, RB_CLAIM_FLUSH, &f.npage, &nslot))
		return -EAGAIN;
	switch (rb_tail_change(meta, (unsigned int)cpu_buffer->cpu, &old, rb_flush_fn, &f)) {
	case RB_CAS_OK:
		break;
	case RB_CAS_ABANDONED:
		/* The claim stays for the switch that fills the page. */
		return f.ret;
	default:
		/* No fence: trace_pipe gets the page when it fills. */
		return -EAGAIN;
	}
	rb_finish_switch(region, old.pos, f.npage, nslot, old.ts);
	return 0;
}

/*
 * The page at the head (slot @slot, word @w) is not complete: if writers
 * that died left it so (the tail page: its reservations so far), their
 * reservations are reaped (rb_reap(), a millisecond after one that failed).
 * Return: true if it did.
 */
static bool rb_reap_stuck(struct ring_buffer_per_cpu *cpu_buffer, u32 slot, u64 w)
{
	u32 page = rb_slot_page(w), end, want;
	struct rb_tail tail;
	bool is_tail;

	if (page >= cpu_buffer->meta->nr_pages || !rb_reap_due(cpu_buffer->meta))
		return false;
	tail = rb_tail_snapshot(&cpu_buffer->meta->tail);
	is_tail = rb_pos_seq(tail.pos) == rb_slot_seq(w);
	if (is_tail && rb_off_frozen(rb_pos_off(tail.pos)))
		return false;
	rb_wait_target(cpu_buffer->region, tail.pos, is_tail, page, &end, &want);
	return rb_reap(cpu_buffer->hdr, cpu_buffer->region, slot, w, end, want);
}

/* Point the head at the oldest page the ring can still hold. */
static void rb_reader_resync(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct rb_reader *r = &cpu_buffer->r;
	struct rb_tail tail = rb_tail_snapshot(&cpu_buffer->meta->tail);
	u32 n = cpu_buffer->meta->nr_slots;
	u32 tslot = rb_get_page_slot(cpu_buffer->region, rb_pos_page(tail.pos));
	u32 oldest = (rb_pos_seq(tail.pos) - (n - 1)) & RB_SEQ_MASK;

	if (tslot >= n || rb_seq_diff(oldest, r->head) <= 0) {
		r->head = (r->head + 1) & RB_SEQ_MASK;
		r->head_slot = r->head_slot + 1 == n ? 0 : r->head_slot + 1;
		return;
	}
	r->head = oldest;
	r->head_slot = tslot + 1 == n ? 0 : tslot + 1;
}

/*
 * Swap the page at the head for the reader page (which is empty by now),
 * as the kernel's rb_get_reader_page(): one cmpxchg on the head's slot
 * word, racing with a writer that wants to overwrite that page.
 *
 * Return: 0 with a new reader page, -EAGAIN if no page is ready, -EIO.
 */
static int rb_swap_reader_page(struct ring_buffer_per_cpu *cpu_buffer, bool flush)
{
	struct rb_reader *r = &cpu_buffer->r;
	char *region = cpu_buffer->region;
	u32 n = cpu_buffer->meta->nr_slots;
	u64 w, spare, ov;
	u32 page, end, lost;
	int ret;

	for (u32 tries = 0; tries < 2 * n + 4; tries++) {
		u64 *slot = &cpu_buffer->slots[r->head_slot];

		w = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
		if (rb_slot_seq(w) != r->head || w & RB_SLOT_CONSUMED) {
			/* Overwritten (or claimed for the next turn) under us. */
			rb_reader_resync(cpu_buffer);
			continue;
		}
		if (rb_slot_committed(w) != RB_SLOT_FULL) {
			if (rb_reap_stuck(cpu_buffer, r->head_slot, w))
				continue;
			if (!flush)
				return -EAGAIN;
			ret = rb_flush_tail(cpu_buffer, r->head, w);
			if (ret)
				return ret;
			continue;
		}
		/*
		 * Read what we need before the swap: once the slot holds our
		 * page, a writer may claim it and rewrite lost_before.
		 */
		ov = __atomic_load_n(&cpu_buffer->meta->overrun, __ATOMIC_RELAXED);
		lost = rb_get_lost(region, r->head_slot);
		spare = rb_mkslot(r->page, r->head, 0, RB_SLOT_FULL, true);
		rb_set_page_slot(region, r->page, r->head_slot);
		/*
		 * Release: the spare's page_slot entry and our last reads of
		 * it happen before a writer claims it (acquire in
		 * rb_claim_next()).  Acquire: the events on the page we take.
		 */
		if (!__atomic_compare_exchange_n(slot, &w, spare, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		page = rb_slot_page(w);
		end = (u32)*rb_page_commit(region, page);
		if (page >= cpu_buffer->meta->nr_pages || end > RB_DATA_SIZE) {
			rb_corrupt(cpu_buffer->buffer, cpu_buffer->cpu, "bad page in the ring");
			return -EIO;
		}
		r->page = page;
		r->read = 0;
		r->end = end;
		r->entries = rb_slot_entries(w);
		r->page_stamp = *rb_page_stamp(region, page);
		r->stamp = r->page_stamp;
		r->lost += ov - r->last_overrun + lost;
		r->last_overrun = ov;
		r->head = (r->head + 1) & RB_SEQ_MASK;
		r->head_slot = r->head_slot + 1 == n ? 0 : r->head_slot + 1;
		return 0;
	}
	return -EAGAIN;
}

/*
 * Walk a page's events from *@read towards @end over padding and time
 * events, taking their time into *@stamp, to the next data event.
 *
 * Return: the data event (its time in *@ts when @ts is not NULL), or NULL
 * at @end.  An event whose size makes no sense ends the walk: *@read is
 * set to @end and *@malformed to true.
 */
static u32 *rb_walk_to_data(const u32 *data, u32 *read, u32 end, u64 *stamp,
			    u64 *ts, bool *malformed)
{
	while (*read < end) {
		u32 size = rb_event_size_at(data, *read, end);
		const u32 *ev = data + *read / 4;

		if (!size) {
			*malformed = true;
			*read = end;
			return NULL;
		}
		switch (rb_hdr_type(ev[0])) {
		case RINGBUF_TYPE_PADDING:
			*stamp += rb_hdr_delta(ev[0]);
			break;
		case RINGBUF_TYPE_TIME_EXTEND:
			*stamp += rb_time_value(ev);
			break;
		case RINGBUF_TYPE_TIME_STAMP:
			*stamp = rb_fix_abs_ts(rb_time_value(ev), *stamp);
			break;
		default:
			if (ts)
				*ts = *stamp + rb_hdr_delta(ev[0]);
			return (u32 *)ev;
		}
		*read += size;
	}
	return NULL;
}

/*
 * The next data event on the reader page, with its time; padding and time
 * events before it are stepped over (and their time taken in).  Swaps in a
 * new page when the reader page is done.
 */
static u32 *rb_reader_peek(struct ring_buffer_per_cpu *cpu_buffer, u64 *ts, bool flush)
{
	struct rb_reader *r = &cpu_buffer->r;

	for (u32 pages = 0; pages <= cpu_buffer->meta->nr_slots + 1; pages++) {
		const u32 *data = rb_page_data(cpu_buffer->region, r->page);
		bool malformed = false;
		u32 *ev = rb_walk_to_data(data, &r->read, r->end, &r->stamp, ts,
					  &malformed);

		if (ev)
			return ev;
		if (malformed)
			rb_corrupt(cpu_buffer->buffer, cpu_buffer->cpu,
				   "malformed event on a page");
		if (rb_swap_reader_page(cpu_buffer, flush))
			return NULL;
	}
	return NULL;
}

/* Consume the data event rb_reader_peek() returned. */
static void rb_reader_advance(struct ring_buffer_per_cpu *cpu_buffer, const u32 *ev)
{
	struct rb_reader *r = &cpu_buffer->r;

	r->stamp += rb_hdr_delta(ev[0]);
	r->read += rb_event_size_at(rb_page_data(cpu_buffer->region, r->page), r->read,
				    r->end);
	if (r->entries)
		r->entries--;
	r->read_events++;
}

/**
 * ring_buffer_peek - the next event of a CPU, without consuming it
 * @buffer: the buffer
 * @cpu: the CPU
 * @ts: where to store the event's time (may be NULL)
 * @lost_events: where to store how many events were lost before it
 *	(may be NULL)
 *
 * The event stays valid until the next read of this CPU.  A tail page
 * whose events are all committed is closed early so that they can be read.
 *
 * Return: the event, or NULL (errno EAGAIN: nothing to read; EINVAL).
 * Context: takes the CPU's reader lock.
 */
struct ring_buffer_event *ring_buffer_peek(struct trace_buffer *buffer, int cpu, uint64_t *ts,
					   unsigned long *lost_events)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	u32 *ev;

	if (!cpu_buffer)
		return NULL;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	ev = rb_reader_peek(cpu_buffer, ts, true);
	if (ev && lost_events)
		*lost_events = cpu_buffer->r.lost;
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	if (!ev)
		errno = EAGAIN;
	return (struct ring_buffer_event *)ev;
}

/**
 * ring_buffer_consume - take the next event of a CPU
 * @buffer: the buffer
 * @cpu: the CPU
 * @ts: where to store the event's time (may be NULL)
 * @lost_events: where to store how many events were lost before it (may
 *	be NULL); reported once
 *
 * As trace_pipe: the event counts as read.  It stays valid until the next
 * read of this CPU.
 *
 * Return: the event, or NULL (errno EAGAIN: nothing to read; EINVAL).
 * Context: takes the CPU's reader lock.
 */
struct ring_buffer_event *ring_buffer_consume(struct trace_buffer *buffer, int cpu,
					      uint64_t *ts, unsigned long *lost_events)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	u32 *ev;

	if (!cpu_buffer)
		return NULL;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	ev = rb_reader_peek(cpu_buffer, ts, true);
	if (ev) {
		if (lost_events)
			*lost_events = cpu_buffer->r.lost;
		cpu_buffer->r.lost = 0;
		rb_reader_advance(cpu_buffer, ev);
	}
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	if (!ev)
		errno = EAGAIN;
	return (struct ring_buffer_event *)ev;
}

/**
 * ring_buffer_alloc_read_page - a page for ring_buffer_read_page()
 * @buffer: the buffer
 * @cpu: the CPU it will read (any page works for any CPU here)
 *
 * Return: a page-aligned RB_PAGE_SIZE block, or NULL (errno ENOMEM).
 */
void *ring_buffer_alloc_read_page(struct trace_buffer *buffer, int cpu)
{
	void *page;

	if (!rb_cpu_buffer(buffer, cpu))
		return NULL;
	if (posix_memalign(&page, RB_PAGE_SIZE, RB_PAGE_SIZE)) {
		errno = ENOMEM;
		return NULL;
	}
	memset(page, 0, RB_PAGE_SIZE);
	return page;
}

/** ring_buffer_free_read_page - free a page from ring_buffer_alloc_read_page() */
void ring_buffer_free_read_page(struct trace_buffer *buffer, int cpu, void *data)
{
	(void)buffer;
	(void)cpu;
	free(data);
}

/*
 * Copy events from the reader position into @dst, as many as fit in @len
 * bytes, a time event always with the event it belongs to.  The events
 * taken are consecutive on the reader page (which is the reader's: no
 * writer touches it), so they are counted one by one and copied with one
 * memcpy() at the end: a whole page, as trace_pipe_raw and the recorder
 * take it, was some ninety calls of memcpy() for 44-byte events.
 */
static u32 rb_copy_events(struct ring_buffer_per_cpu *cpu_buffer, char *dst, u32 len)
{
	struct rb_reader *r = &cpu_buffer->r;
	const u32 *data = rb_page_data(cpu_buffer->region, r->page);
	u32 start = r->read, pos = 0;

	while (r->read < r->end) {
		u32 size = rb_event_size_at(data, r->read, r->end);
		u32 total = size;
		const u32 *ev = data + r->read / 4;

		if (!size)
			break;
		if (rb_is_time_event(ev[0]) && r->read + size < r->end)
			total += rb_event_size_at(data, r->read + size, r->end);
		if (pos + total > len)
			break;
		pos += total;
		for (u32 done = 0; done < total; ) {
			ev = data + r->read / 4;
			size = rb_event_size_at(data, r->read, r->end);
			if (!size)
				break;
			switch (rb_hdr_type(ev[0])) {
			case RINGBUF_TYPE_PADDING:
				r->stamp += rb_hdr_delta(ev[0]);
				break;
			case RINGBUF_TYPE_TIME_EXTEND:
				r->stamp += rb_time_value(ev);
				break;
			case RINGBUF_TYPE_TIME_STAMP:
				r->stamp = rb_fix_abs_ts(rb_time_value(ev), r->stamp);
				break;
			default:
				r->stamp += rb_hdr_delta(ev[0]);
				if (r->entries)
					r->entries--;
				r->read_events++;
				break;
			}
			r->read += size;
			done += size;
		}
	}
	memcpy(dst, (const char *)data + start, pos);
	return pos;
}

/**
 * ring_buffer_read_page - take a page of events out of a CPU's ring
 * @buffer: the buffer
 * @data_page: a page from ring_buffer_alloc_read_page(); filled in
 * @len: its size (RB_PAGE_SIZE to take whole pages)
 * @cpu: the CPU
 * @full: only a complete, unread page will do (trace_pipe_raw's reads of
 *	a whole page)
 *
 * Fills @data_page in the kernel's format: time stamp, commit (the size of
 * the data, with RB_MISSED_EVENTS if events were lost before it, and
 * RB_MISSED_STORED if their count follows the data), the events, zeroes.
 * The events count as read.
 *
 * Return: 0, -EAGAIN (nothing to read, or not a full page when @full),
 * -ENOSPC (@len holds no event), -EINVAL.
 * Context: takes the CPU's reader lock.
 */
int ring_buffer_read_page(struct trace_buffer *buffer, void **data_page, size_t len, int cpu,
			  int full)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	struct rb_reader *r;
	u64 commit, stamp;
	char *dst;
	u32 pos;
	int ret = 0;

	if (!cpu_buffer || !data_page || !*data_page || len <= RB_PAGE_HDR_SIZE)
		return -EINVAL;
	r = &cpu_buffer->r;
	dst = *data_page;
	len -= RB_PAGE_HDR_SIZE;
	if (len > RB_DATA_SIZE)
		len = RB_DATA_SIZE;

	pthread_mutex_lock(&cpu_buffer->reader_lock);
	/* A reader page with data events left, or a new one. */
	for (u32 tries = 0; !r->entries || r->read >= r->end; tries++) {
		r->read = r->end;
		ret = tries > cpu_buffer->meta->nr_slots + 1 ? -EAGAIN :
		      rb_swap_reader_page(cpu_buffer, !full);
		if (ret)
			goto out;
	}
	if (full && (r->read || len < r->end)) {
		ret = -EAGAIN;
		goto out;
	}
	stamp = r->stamp;
	pos = rb_copy_events(cpu_buffer, dst + RB_PAGE_HDR_SIZE, (u32)len);
	if (!pos) {
		ret = -ENOSPC;
		goto out;
	}
	commit = pos;
	if (r->lost) {
		if (RB_DATA_SIZE - pos >= sizeof(u64)) {
			memcpy(dst + RB_PAGE_HDR_SIZE + pos, &r->lost, sizeof(u64));
			pos += sizeof(u64);
			commit |= RB_MISSED_STORED;
		}
		commit |= RB_MISSED_EVENTS;
		r->lost = 0;
	}
	memset(dst + RB_PAGE_HDR_SIZE + pos, 0, RB_DATA_SIZE - pos);
	memcpy(dst, &stamp, sizeof(stamp));
	memcpy(dst + 8, &commit, sizeof(commit));
out:
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return ret;
}

/* ------------------------------------------------------------------
 * Non-consuming reads
 */

/*
 * The slot of page @seq: pages follow each other in the slots, so it is
 * found back from the tail's.  -EAGAIN if @seq is newer than the tail,
 * -ESTALE if it is older than any page the ring holds.  The reader lock
 * is held, so the layout cannot change (resize takes the lock).
 */
static int rb_slot_of(struct ring_buffer_per_cpu *cpu_buffer, u32 seq)
{
	struct rb_tail tail = rb_tail_snapshot(&cpu_buffer->meta->tail);
	u32 n = cpu_buffer->meta->nr_slots;
	u32 tslot = rb_get_page_slot(cpu_buffer->region, rb_pos_page(tail.pos));
	int32_t back = rb_seq_diff(rb_pos_seq(tail.pos), seq);

	if (back < 0)
		return -EAGAIN;
	if (tslot >= n || back >= (int32_t)n)
		return -ESTALE;
	return (int)((tslot + n - (u32)back) % n);
}

/*
 * Copy what is readable of ring page @seq, from offset @from on, into the
 * iterator: a complete page to its end, the tail page as far as every
 * reservation on it is committed.  A writer may overwrite the page while
 * we copy; the slot word says afterwards whether one did (a seqlock read:
 * the slot word is the sequence count).
 *
 * Return: 0, -EAGAIN (nothing readable yet), -ESTALE (the page is gone).
 */
static int rb_iter_copy(struct ring_buffer_iter *iter, u32 seq, u32 from)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	char *region = cpu_buffer->region;
	int slot = rb_slot_of(cpu_buffer, seq);
	u64 *sw, w;
	u32 page, end;
	bool complete;

	if (slot < 0)
		return slot;
	sw = &cpu_buffer->slots[slot];
	w = __atomic_load_n(sw, __ATOMIC_ACQUIRE);
	page = rb_slot_page(w);
	complete = rb_slot_committed(w) == RB_SLOT_FULL;
	if (rb_slot_seq(w) != seq || w & RB_SLOT_CONSUMED ||
	    page >= cpu_buffer->meta->nr_pages)
		return -ESTALE;
	if (complete) {
		end = (u32)__atomic_load_n(rb_page_commit(region, page), __ATOMIC_RELAXED);
	} else {
		struct rb_tail tail = rb_tail_snapshot(&cpu_buffer->meta->tail);

		if (rb_pos_seq(tail.pos) != seq || rb_off_frozen(rb_pos_off(tail.pos)))
			return -EAGAIN;
		end = rb_pos_used(tail.pos);
		if (rb_slot_committed(w) != end + RB_MARK_OPEN)
			return -EAGAIN;
	}
	if (end > RB_DATA_SIZE || from > end)
		return -ESTALE;
	rb_racy_reads_begin();
	memcpy((char *)iter->data + from, (char *)rb_page_data(region, page) + from, end - from);
	if (!from)
		iter->stamp = __atomic_load_n(rb_page_stamp(region, page), __ATOMIC_RELAXED);
	rb_racy_reads_end();
	/* Order the copy before the check, as read_seqretry(). */
#ifdef RB_TSAN
	w = __atomic_load_n(sw, __ATOMIC_ACQUIRE);	/* tsan has no fences */
#else
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	w = __atomic_load_n(sw, __ATOMIC_RELAXED);
#endif
	if (rb_slot_seq(w) != seq || w & RB_SLOT_CONSUMED)
		return -ESTALE;
	iter->end = end;
	iter->complete = complete;
	return 0;
}

/* Position the iterator on the oldest unread event. */
static void rb_iter_start(struct ring_buffer_iter *iter)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	struct rb_reader *r = &cpu_buffer->r;

	iter->started = true;
	iter->seq = r->head;
	iter->read = iter->end = 0;
	iter->loaded = false;
	iter->on_reader = r->read < r->end;
	if (iter->on_reader) {
		memcpy(iter->data, rb_page_data(cpu_buffer->region, r->page), r->end);
		iter->read = r->read;
		iter->end = r->end;
		iter->stamp = r->stamp;
	}
}

/* The page at the iterator is gone: go to where reading can go on. */
static void rb_iter_skip(struct ring_buffer_iter *iter)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	struct rb_tail tail;
	u32 oldest;

	if (rb_seq_diff(cpu_buffer->r.head, iter->seq) > 0) {
		/* The reader consumed it. */
		iter->seq = cpu_buffer->r.head;
		return;
	}
	/* A writer overwrote it: the oldest page the ring can still hold. */
	iter->dropped = true;
	tail = rb_tail_snapshot(&cpu_buffer->meta->tail);
	oldest = (rb_pos_seq(tail.pos) - (cpu_buffer->meta->nr_slots - 1)) & RB_SEQ_MASK;
	if (rb_seq_diff(oldest, iter->seq) > 0)
		iter->seq = oldest;
	else
		iter->seq = (iter->seq + 1) & RB_SEQ_MASK;
}

/*
 * More events for the iterator: the rest of the tail page it is on, or
 * the next page.  Return: 0, or -EAGAIN at the end (for now).
 */
static int rb_iter_fill(struct ring_buffer_iter *iter)
{
	u32 n = iter->cpu_buffer->meta->nr_slots;
	int ret;

	for (u32 tries = 0; tries < 2 * n + 4; tries++) {
		if (iter->loaded && !iter->complete) {
			ret = rb_iter_copy(iter, iter->seq, iter->end);
			if (ret == -EAGAIN || (!ret && iter->read < iter->end))
				return ret;
			if (!ret && !iter->complete)
				return -EAGAIN;
		}
		if (iter->loaded)
			iter->seq = (iter->seq + 1) & RB_SEQ_MASK;
		iter->on_reader = false;
		iter->loaded = false;
		iter->read = iter->end = 0;
		ret = rb_iter_copy(iter, iter->seq, 0);
		if (ret == -EAGAIN)
			return ret;
		if (ret == -ESTALE) {
			rb_iter_skip(iter);
			continue;
		}
		iter->loaded = true;
		if (iter->read < iter->end)
			return 0;
	}
	return -EAGAIN;
}

/**
 * ring_buffer_read_start - start a non-consuming walk of a CPU
 * @buffer: the buffer
 * @cpu: the CPU
 *
 * The iterator sees the events a reader would consume next, in order,
 * without consuming them; writers go on writing.  Pages overwritten under
 * it are skipped (ring_buffer_iter_dropped() says so).
 *
 * Return: the iterator, or NULL (errno EINVAL, ENOMEM).
 */
struct ring_buffer_iter *ring_buffer_read_start(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	struct ring_buffer_iter *iter;

	if (!cpu_buffer)
		return NULL;
	iter = calloc(1, sizeof(*iter));
	if (!iter)
		return NULL;
	iter->cpu_buffer = cpu_buffer;
	return iter;
}

/** ring_buffer_read_finish - end a walk started by ring_buffer_read_start() */
void ring_buffer_read_finish(struct ring_buffer_iter *iter)
{
	free(iter);
}

/** ring_buffer_iter_reset - walk again from the oldest unread event */
void ring_buffer_iter_reset(struct ring_buffer_iter *iter)
{
	if (iter)
		iter->started = false;
}

/**
 * ring_buffer_iter_peek - the event at the iterator
 * @iter: the iterator
 * @ts: where to store its time (may be NULL)
 *
 * Return: the event (a copy, valid until the iterator moves), or NULL at
 * the end.
 * Context: takes the CPU's reader lock.
 */
struct ring_buffer_event *ring_buffer_iter_peek(struct ring_buffer_iter *iter, uint64_t *ts)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	u32 *ev = NULL;

	if (!iter)
		return NULL;
	cpu_buffer = iter->cpu_buffer;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	if (!iter->started)
		rb_iter_start(iter);
	for (;;) {
		/* The iterator walks a copy: a bad event only ends that page. */
		bool malformed = false;

		ev = rb_walk_to_data(iter->data, &iter->read, iter->end,
				     &iter->stamp, ts, &malformed);
		if (ev || rb_iter_fill(iter))
			break;
	}
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return (struct ring_buffer_event *)ev;
}

/** ring_buffer_iter_advance - step over the event ring_buffer_iter_peek() returned */
void ring_buffer_iter_advance(struct ring_buffer_iter *iter)
{
	u32 size;

	if (!iter || !ring_buffer_iter_peek(iter, NULL))
		return;
	size = rb_event_size_at(iter->data, iter->read, iter->end);
	iter->stamp += rb_hdr_delta(iter->data[iter->read / 4]);
	iter->read += size ? size : iter->end - iter->read;
}

/** ring_buffer_iter_empty - whether the iterator has no event left (for now) */
int ring_buffer_iter_empty(struct ring_buffer_iter *iter)
{
	return !ring_buffer_iter_peek(iter, NULL);
}

/** ring_buffer_iter_dropped - whether pages were lost under the iterator; clears it */
bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter)
{
	bool ret = iter && iter->dropped;

	if (iter)
		iter->dropped = false;
	return ret;
}

/* ------------------------------------------------------------------
 * Accounting
 */

/*
 * Calls @fn for every ring page the reader has not taken yet, newest
 * first (from the tail back to the head, or to the oldest page the ring
 * holds).
 */
static void rb_for_each_unread(struct ring_buffer_per_cpu *cpu_buffer,
			       void (*fn)(struct ring_buffer_per_cpu *, u64 w, void *),
			       void *arg)
{
	struct rb_tail tail = rb_tail_snapshot(&cpu_buffer->meta->tail);
	u32 n = cpu_buffer->meta->nr_slots;
	u32 seq = rb_pos_seq(tail.pos);
	u32 slot = rb_get_page_slot(cpu_buffer->region, rb_pos_page(tail.pos));

	for (u32 i = 0; i < n && slot < n && rb_seq_diff(seq, cpu_buffer->r.head) >= 0; i++) {
		u64 w = __atomic_load_n(&cpu_buffer->slots[slot], __ATOMIC_ACQUIRE);

		if (rb_slot_seq(w) == seq && !(w & RB_SLOT_CONSUMED))
			fn(cpu_buffer, w, arg);
		seq = (seq - 1) & RB_SEQ_MASK;
		slot = slot ? slot - 1 : n - 1;
	}
}

static void rb_add_entries(struct ring_buffer_per_cpu *cpu_buffer, u64 w, void *arg)
{
	(void)cpu_buffer;
	*(u64 *)arg += rb_slot_entries(w);
}

static void rb_add_bytes(struct ring_buffer_per_cpu *cpu_buffer, u64 w, void *arg)
{
	u32 c = rb_slot_committed(w);

	(void)cpu_buffer;
	if (c == RB_SLOT_FULL)
		*(u64 *)arg += RB_DATA_SIZE;
	else if (c)
		*(u64 *)arg += c - RB_MARK_OPEN;
}

/* Called newest first: the last page with events wins. */
static void rb_oldest_stamp(struct ring_buffer_per_cpu *cpu_buffer, u64 w, void *arg)
{
	if (rb_slot_entries(w))
		*(u64 *)arg = __atomic_load_n(rb_page_stamp(cpu_buffer->region,
							    rb_slot_page(w)),
					      __ATOMIC_RELAXED);
}

/**
 * ring_buffer_entries_cpu - events in a CPU's buffer, not yet read
 * @buffer: the buffer
 * @cpu: the CPU
 *
 * Committed events only.  Exact when no writer runs; a snapshot otherwise.
 *
 * Return: the count (0 for a bad cpu).
 */
unsigned long ring_buffer_entries_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	u64 n;

	if (!cpu_buffer)
		return 0;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	n = cpu_buffer->r.entries;
	rb_for_each_unread(cpu_buffer, rb_add_entries, &n);
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return n;
}

/** ring_buffer_bytes_cpu - bytes of unread events (padding included) in a CPU's buffer */
unsigned long ring_buffer_bytes_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	u64 n;

	if (!cpu_buffer)
		return 0;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	n = cpu_buffer->r.end - cpu_buffer->r.read;
	rb_for_each_unread(cpu_buffer, rb_add_bytes, &n);
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return n;
}

/** ring_buffer_oldest_event_ts - time stamp of the page of the oldest unread event, or 0 */
uint64_t ring_buffer_oldest_event_ts(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	u64 ts = 0;

	if (!cpu_buffer)
		return 0;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	if (cpu_buffer->r.entries)
		ts = cpu_buffer->r.page_stamp;
	else
		rb_for_each_unread(cpu_buffer, rb_oldest_stamp, &ts);
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return ts;
}

static unsigned long rb_counter(struct trace_buffer *buffer, int cpu, size_t offset)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	if (!cpu_buffer)
		return 0;
	return __atomic_load_n((u64 *)((char *)cpu_buffer->meta + offset), __ATOMIC_RELAXED);
}

/** ring_buffer_overrun_cpu - events lost to overwriting on a CPU (and to shrinking) */
unsigned long ring_buffer_overrun_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_counter(buffer, cpu, offsetof(struct rb_cpu_meta, overrun));
}

/**
 * ring_buffer_commit_overrun_cpu - events dropped because the next page
 * still held uncommitted events of a preempted writer
 */
unsigned long ring_buffer_commit_overrun_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_counter(buffer, cpu, offsetof(struct rb_cpu_meta, commit_overrun));
}

/**
 * ring_buffer_dropped_events_cpu - events dropped: buffer full in
 * producer/consumer mode, larger than a page, written during a resize, or
 * reserved by a writer that died before its commit (those also in
 * ring_buffer_killed_events_cpu())
 */
unsigned long ring_buffer_dropped_events_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_counter(buffer, cpu, offsetof(struct rb_cpu_meta, dropped)) +
	       rb_counter(buffer, cpu, offsetof(struct rb_cpu_meta, killed));
}

/**
 * ring_buffer_killed_events_cpu - events reserved by writers that died
 * before their commit (a forked child killed in the middle of an event),
 * found and made padding (ring-buffer-design.rst, "Writers that die")
 */
unsigned long ring_buffer_killed_events_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_counter(buffer, cpu, offsetof(struct rb_cpu_meta, killed));
}

/** ring_buffer_read_events_cpu - events consumed by readers of a CPU */
unsigned long ring_buffer_read_events_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	unsigned long n;

	if (!cpu_buffer)
		return 0;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	n = cpu_buffer->r.read_events;
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return n;
}

/** ring_buffer_entries - ring_buffer_entries_cpu() summed over the CPUs */
unsigned long ring_buffer_entries(struct trace_buffer *buffer)
{
	unsigned long n = 0;

	for (int cpu = 0; buffer && cpu < (int)buffer->nr_cpus; cpu++)
		n += ring_buffer_entries_cpu(buffer, cpu);
	return n;
}

/** ring_buffer_overruns - ring_buffer_overrun_cpu() summed over the CPUs */
unsigned long ring_buffer_overruns(struct trace_buffer *buffer)
{
	unsigned long n = 0;

	for (int cpu = 0; buffer && cpu < (int)buffer->nr_cpus; cpu++)
		n += ring_buffer_overrun_cpu(buffer, cpu);
	return n;
}

/** ring_buffer_empty_cpu - whether a CPU has no committed unread event */
bool ring_buffer_empty_cpu(struct trace_buffer *buffer, int cpu)
{
	return ring_buffer_entries_cpu(buffer, cpu) == 0;
}

/** ring_buffer_empty - whether no CPU has a committed unread event */
bool ring_buffer_empty(struct trace_buffer *buffer)
{
	return ring_buffer_entries(buffer) == 0;
}

/* ------------------------------------------------------------------
 * Waiting (ring-buffer-design.rst, "Waiting")
 */

static struct rb_shared_header *rb_header(struct trace_buffer *buffer)
{
	return (struct rb_shared_header *)(rb_cpu_base(buffer) - RB_HDR_SIZE);
}

/** ring_buffer_wait_word - the futex word readers of @buffer sleep on (shared) */
uint32_t *ring_buffer_wait_word(struct trace_buffer *buffer)
{
	return buffer ? &rb_header(buffer)->wake : NULL;
}

/** ring_buffer_wait_seq - the wake word's value, to load before arming */
uint32_t ring_buffer_wait_seq(struct trace_buffer *buffer)
{
	return buffer ? __atomic_load_n(&rb_header(buffer)->wake, __ATOMIC_SEQ_CST) : 0;
}

/* Committed data a consuming read could take now (reader lock held). */
static bool rb_has_data(struct ring_buffer_per_cpu *cpu_buffer)
{
	u64 n = cpu_buffer->r.entries;

	if (!n)
		rb_for_each_unread(cpu_buffer, rb_add_entries, &n);
	return n != 0;
}

/*
 * An event reserved and not committed on the tail page, or a page closed
 * with a reservation still open: the writer's commit wakes nobody, so the
 * waiter looks again soon.
 */
static bool rb_in_flight(struct ring_buffer_per_cpu *cpu_buffer, struct rb_tail tail)
{
	u32 n = cpu_buffer->meta->nr_slots;
	u32 seq = rb_pos_seq(tail.pos);
	u32 slot = rb_get_page_slot(cpu_buffer->region, rb_pos_page(tail.pos));

	if (rb_off_frozen(rb_pos_off(tail.pos)) || slot >= n)
		return false;
	for (u32 i = 0; i < n && rb_seq_diff(seq, cpu_buffer->r.head) >= 0; i++) {
		u64 w = __atomic_load_n(&cpu_buffer->slots[slot], __ATOMIC_ACQUIRE);
		u32 want = i ? RB_SLOT_FULL : rb_pos_used(tail.pos) + RB_MARK_OPEN;

		if (rb_slot_seq(w) == seq && !(w & RB_SLOT_CONSUMED) &&
		    rb_slot_committed(w) != want)
			return true;
		seq = (seq - 1) & RB_SEQ_MASK;
		slot = slot ? slot - 1 : n - 1;
	}
	return false;
}

/* Whether @tail has the bell up (or is frozen: no bell needed). */
static bool rb_bell_up(struct rb_tail tail)
{
	return rb_off_frozen(rb_pos_off(tail.pos)) || (rb_pos_off(tail.pos) & RB_OFF_BELL);
}

/* The tail with the bell, unless it has it or is frozen. */
static bool rb_bell_fn(struct rb_tail cur, void *arg, struct rb_tail *new)
{
	(void)arg;
	if (rb_bell_up(cur))
		return false;
	*new = (struct rb_tail){ cur.pos | RB_OFF_BELL, cur.ts };
	return true;
}

/* Any data: ring the bell, so that the next event wakes us. */
/*
 * Ring the bell on a CPU's tail: its next event wakes the readers.  A
 * frozen tail is left as it is: the reset or resize wakes everyone at its
 * end.  Return: the tail after.
 */
static struct rb_tail rb_ring_bell(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct rb_cpu_meta *meta = cpu_buffer->meta;
	struct rb_tail old = rb_tail_snapshot(&meta->tail);

	if (rb_bell_up(old))
		return old;
	/*
	 * Rung: the tail as we left it (a writer may have taken the bell
	 * down since, and woken us).  Not rung (no fence could be had): as
	 * it is now, and rb_bell_up() says so.
	 */
	if (rb_tail_change(meta, (unsigned int)cpu_buffer->cpu, &old, rb_bell_fn, NULL) ==
	    RB_CAS_OK)
		return (struct rb_tail){ old.pos | RB_OFF_BELL, old.ts };
	return rb_tail_snapshot(&meta->tail);
}

/*
 * Arm a CPU's watermark at the tail page seq @target: the earliest
 * watermark of all waiters wins.  Return: the tail after (against the
 * switcher, which stores the tail, then loads wait).
 */
static struct rb_tail rb_arm_watermark(struct rb_cpu_meta *meta, u32 target)
{
	u32 w = __atomic_load_n(&meta->wait, __ATOMIC_RELAXED), armed;

	do {
		armed = RB_WAIT_ARMED | target;
		if ((w & RB_WAIT_ARMED) && rb_seq_diff(w & RB_SEQ_MASK, target) < 0)
			armed = w;
	} while (!__atomic_compare_exchange_n(&meta->wait, &w, armed, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return rb_tail_snapshot(&meta->tail);
}

static int rb_arm_any(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct rb_tail old;

	if (rb_has_data(cpu_buffer))
		return RING_BUFFER_WAIT_READY;
	old = rb_ring_bell(cpu_buffer);
	/* The tail change is a full barrier: what was committed before it shows. */
	if (rb_has_data(cpu_buffer))
		return RING_BUFFER_WAIT_READY;
	/* A bell that could not be rung: look again soon. */
	if (!rb_bell_up(old) || rb_in_flight(cpu_buffer, old))
		return RING_BUFFER_WAIT_INFLIGHT;
	return RING_BUFFER_WAIT_ARMED;
}

/*
 * buffer_percent, as the kernel's full_hit(): the pages written and not
 * read, the writer's own counted, reach @full percent of the ring; and, as
 * its "page busy" test, a whole page is there to take.  So the watermark
 * is reached when the tail page's seq reaches head + max(need - 1, 1).
 */
static int rb_arm_full(struct ring_buffer_per_cpu *cpu_buffer, int full)
{
	struct rb_cpu_meta *meta = cpu_buffer->meta;
	u32 n = meta->nr_slots;
	u32 need = (u32)(((u64)full * n + 99) / 100);
	u32 target = (cpu_buffer->r.head + (need > 2 ? need - 1 : 1)) & RB_SEQ_MASK;
	struct rb_tail tail = rb_arm_watermark(meta, target);

	if (rb_seq_diff(rb_pos_seq(tail.pos), target) < 0 && !rb_off_frozen(rb_pos_off(tail.pos)))
		return RING_BUFFER_WAIT_ARMED;
	if (rb_off_frozen(rb_pos_off(tail.pos)))
		return RING_BUFFER_WAIT_ARMED;
	/* Reached, but the oldest page still has a reservation open. */
	{
		u64 sw = __atomic_load_n(&cpu_buffer->slots[cpu_buffer->r.head_slot],
					 __ATOMIC_ACQUIRE);

		if (rb_slot_seq(sw) == cpu_buffer->r.head && !(sw & RB_SLOT_CONSUMED) &&
		    rb_slot_committed(sw) != RB_SLOT_FULL)
			return RING_BUFFER_WAIT_INFLIGHT;
	}
	return RING_BUFFER_WAIT_READY;
}

static int rb_arm_cpu(struct ring_buffer_per_cpu *cpu_buffer, int full)
{
	int ret;

	pthread_mutex_lock(&cpu_buffer->reader_lock);
	ret = full > 0 ? rb_arm_full(cpu_buffer, full) : rb_arm_any(cpu_buffer);
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return ret;
}

/**
 * ring_buffer_wait_arm - ask the writers of a CPU to wake the readers
 * @buffer: the buffer
 * @cpu: the CPU, or RING_BUFFER_ALL_CPUS (any data of any CPU, as the
 *	kernel's reads of all CPUs: @full is ignored)
 * @full: 0 for any data, else the percent of the ring (buffer_percent)
 *
 * Load ring_buffer_wait_seq() before, sleep on it after.  Arming stays
 * until a writer wakes the readers; it costs the writers nothing until
 * then but a load at each page switch (any data: the next event takes the
 * slow path once, and wakes).
 *
 * Return: RING_BUFFER_WAIT_READY (look, do not sleep), _ARMED (sleep
 * until woken), _INFLIGHT (sleep at most RING_BUFFER_WAIT_INFLIGHT_MS:
 * a reservation is open), or -EINVAL.
 * Context: takes the reader locks.
 */
int ring_buffer_wait_arm(struct trace_buffer *buffer, int cpu, int full)
{
	int ret = RING_BUFFER_WAIT_ARMED;

	if (full < 0 || full > 100)
		return -EINVAL;
	if (cpu != RING_BUFFER_ALL_CPUS) {
		struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

		return cpu_buffer ? rb_arm_cpu(cpu_buffer, full) : -EINVAL;
	}
	if (!buffer)
		return -EINVAL;
	for (int c = 0; c < (int)buffer->nr_cpus; c++) {
		int r = rb_arm_cpu(rb_cpu_buffer(buffer, c), 0);

		if (r == RING_BUFFER_WAIT_READY)
			return r;
		if (r == RING_BUFFER_WAIT_INFLIGHT)
			ret = r;
	}
	return ret;
}

/**
 * ring_buffer_wait_arm_at - arm a CPU for a reader whose position is its own
 * @buffer: the buffer
 * @cpu:    the CPU
 * @target: the seq of the tail page at which its writers are to wake the
 *          readers (a watermark, as ring_buffer_wait_arm() arms one for
 *          the buffer's own readers), or RING_BUFFER_WAIT_BELL: at the
 *          next event (the bell), whatever the buffer's own readers have
 *          left unread
 *
 * For a reader in another process that reads without consuming (the
 * collector's trace_pipe_raw, system-mode.rst "Waiting"): it worked out
 * what to arm from its read-only mapping (ring_buffer_foreign_wait()),
 * looks again once this returned, and sleeps on the wake word.
 * Return: RING_BUFFER_WAIT_ARMED, _READY (the tail is at @target
 * already), or -EINVAL.
 * Context: takes the CPU's reader lock.
 */
int ring_buffer_wait_arm_at(struct trace_buffer *buffer, int cpu, uint32_t target)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer ? rb_cpu_buffer(buffer, cpu) : NULL;
	int ret = RING_BUFFER_WAIT_ARMED;
	struct rb_tail old;

	if (!cpu_buffer || (target != RING_BUFFER_WAIT_BELL && target > RB_SEQ_MASK))
		return -EINVAL;
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	if (target == RING_BUFFER_WAIT_BELL) {
		/* As rb_arm_any(), without looking for data of our readers. */
		if (!rb_bell_up(rb_ring_bell(cpu_buffer)))
			ret = RING_BUFFER_WAIT_INFLIGHT;
	} else {
		/* As rb_arm_full(), at the reader's own watermark. */
		old = rb_arm_watermark(cpu_buffer->meta, target);
		if (!rb_off_frozen(rb_pos_off(old.pos)) &&
		    rb_seq_diff(rb_pos_seq(old.pos), target) >= 0)
			ret = RING_BUFFER_WAIT_READY;
	}
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return ret;
}

/**
 * ring_buffer_wait_sleep - sleep until the readers are woken after @seq
 * @buffer: the buffer
 * @seq: ring_buffer_wait_seq(), loaded before arming
 * @timeout_ms: at most this long; -1 for no limit
 *
 * Return: 0 (woken, or woken already), -ETIMEDOUT, -EINTR (a signal).
 */
int ring_buffer_wait_sleep(struct trace_buffer *buffer, uint32_t seq, int timeout_ms)
{
	struct timespec ts = { .tv_sec = timeout_ms / 1000,
			       .tv_nsec = (timeout_ms % 1000) * 1000000L };
	uint32_t *word = ring_buffer_wait_word(buffer);

	if (!word)
		return -EINVAL;
	if (syscall(SYS_futex, word, FUTEX_WAIT, seq, timeout_ms < 0 ? NULL : &ts, NULL, 0))
		return errno == EAGAIN ? 0 : -errno;
	return 0;
}

/**
 * ring_buffer_wait - block until ring_buffer_wait_arm() says READY
 * @buffer: the buffer
 * @cpu: the CPU or RING_BUFFER_ALL_CPUS
 * @full: as for ring_buffer_wait_arm()
 * @timeout_ms: at most this long in all; -1 for no limit
 *
 * Return: 0 when there is data to look at, -ETIMEDOUT, -EINTR, -EINVAL.
 * ring_buffer_wake_waiters() ends it too (0).
 */
int ring_buffer_wait(struct trace_buffer *buffer, int cpu, int full, int timeout_ms)
{
	struct timespec now;
	long long end = 0, left;
	unsigned int all;
	int ret;

	if (!buffer)
		return -EINVAL;
	all = __atomic_load_n(&buffer->wake_all, __ATOMIC_ACQUIRE);
	if (timeout_ms >= 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		end = now.tv_sec * 1000ll + now.tv_nsec / 1000000 + timeout_ms;
	}
	for (;;) {
		uint32_t seq = ring_buffer_wait_seq(buffer);
		int ms = -1;

		ret = ring_buffer_wait_arm(buffer, cpu, full);
		if (ret < 0)
			return ret;
		if (ret == RING_BUFFER_WAIT_READY)
			return 0;
		if (ret == RING_BUFFER_WAIT_INFLIGHT)
			ms = RING_BUFFER_WAIT_INFLIGHT_MS;
		if (timeout_ms >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left = end - (now.tv_sec * 1000ll + now.tv_nsec / 1000000);
			if (left <= 0)
				return -ETIMEDOUT;
			if (ms < 0 || left < ms)
				ms = (int)left;
		}
		ret = ring_buffer_wait_sleep(buffer, seq, ms);
		if (ret == -EINTR)
			return ret;
		/*
		 * Woken.  By ring_buffer_wake_waiters(): return.  Otherwise
		 * look again: a writer that took the bell down wakes us
		 * before it reserves (and may be preempted by us right
		 * there), a reset, a resize or another reader's watermark
		 * wakes us too; the next arm says READY once the event is
		 * committed, INFLIGHT while it is reserved, and ARMED (the
		 * bell up again, or the watermark) when nothing came yet.
		 */
		if (__atomic_load_n(&buffer->wake_all, __ATOMIC_ACQUIRE) != all)
			return 0;
	}
}

/**
 * ring_buffer_wake_waiters - wake every reader sleeping on @buffer
 * @buffer: the buffer
 * @cpu: ignored (all readers of the buffer share one word)
 *
 * For a close, a stop, or anything else a sleeping reader must notice.
 * Context: any, signal handlers included.
 */
void ring_buffer_wake_waiters(struct trace_buffer *buffer, int cpu)
{
	(void)cpu;
	if (buffer) {
		__atomic_add_fetch(&buffer->wake_all, 1, __ATOMIC_SEQ_CST);
		rb_wake_view(rb_view(buffer));
	}
}
