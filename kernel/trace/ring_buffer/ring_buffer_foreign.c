// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Buffers shared with another process (Documentation/trace/system-mode.rst,
 * "Buffers that outlive their program").
 *
 * A program in system mode keeps the memfd of its ring buffers open
 * (ring_buffer_keep_memfds()) and hands a copy of it to the collector
 * (ring_buffer_memfd()).  The collector maps it read-only and, whether
 * the program still runs or died (SIGKILL, abort, OOM), copies out the
 * pages the ring holds, oldest first, in the kernel's format
 * (ring_buffer_foreign_pages()): the flight recorder of every program.
 *
 * The mapping is written by another process, which may be buggy, killed
 * in the middle of a record, or hostile: every word read from it is
 * checked before it is used as an offset, a length or a count, and it is
 * only ever read (the collector's mapping is PROT_READ, so no atomic
 * read-modify-write, which would fault, is used here).  The worst a
 * writer can do is garbage in its own records.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../../internal.h"
#include "rb_internal.h"

/*
 * The program may close a kept memfd while another thread checks it (a
 * daemon closing every descriptor): the check is what makes that safe.
 * ThreadSanitizer sees a race on the descriptor: our accesses are ignored.
 */
#define rb_fd_use_begin()	ustrace_tsan_ignore_begin()
#define rb_fd_use_end()		ustrace_tsan_ignore_end()

static bool rb_keep;

/**
 * ring_buffer_keep_memfds - keep the memfd of every buffer allocated from now on
 *
 * Called by the collector's client before the first buffer of the process
 * is made.  The descriptor stays open (close-on-exec) so that
 * ring_buffer_memfd() can hand it on; a program that closes it takes that
 * away, and nothing else: the mapping lives on (the descriptor is checked
 * to be ours before each use, and never closed unless it is).
 */
void ring_buffer_keep_memfds(void)
{
	__atomic_store_n(&rb_keep, true, __ATOMIC_RELEASE);
}

bool rb_keeps_memfds(void)
{
	return __atomic_load_n(&rb_keep, __ATOMIC_ACQUIRE);
}

/* Is the buffer's kept memfd still the one it made? */
bool rb_memfd_ours(const struct trace_buffer *buffer)
{
	struct stat st;
	bool same;

	if (buffer->memfd < 0)
		return false;
	rb_fd_use_begin();
	same = !fstat(buffer->memfd, &st) && st.st_dev == buffer->memfd_dev &&
	       st.st_ino == buffer->memfd_ino;
	rb_fd_use_end();
	return same;
}

/**
 * ring_buffer_memfd - a new descriptor of the buffer's memory
 * @buffer: the buffer
 * @size:   receives the file's size (what the collector maps)
 *
 * Return: a close-on-exec descriptor the caller owns, or -ENOENT (the
 * memfd was not kept, or the program closed it), -errno of dup.
 */
int ring_buffer_memfd(struct trace_buffer *buffer, size_t *size)
{
	int fd;

	pthread_mutex_lock(&buffer->mutex);
	rb_fd_use_begin();
	fd = rb_memfd_ours(buffer) ? fcntl(buffer->memfd, F_DUPFD_CLOEXEC, 0) : -1;
	rb_fd_use_end();
	if (fd < 0)
		fd = rb_memfd_ours(buffer) ? -errno : -ENOENT;
	/* The file's size: its CPU regions are RB_CPU_STRIDE apart, whatever our view. */
	*size = RB_HDR_SIZE + ((size_t)buffer->nr_cpus << RB_CPU_SHIFT);
	pthread_mutex_unlock(&buffer->mutex);
	return fd;
}

/*
 * What a foreign mapping's header says, read once and checked: the header
 * is in memory the other process may still write (or a hostile one may
 * have filled), so nothing is taken from it twice.
 */
struct rb_foreign_layout {
	u32 nr_cpus;
	u32 cpu_shift;
	u32 max_pages;		/* page ids that fit in one CPU's region */
};

/*
 * The header of a foreign mapping, checked: our layout, every CPU's region
 * within @size.  The CPU stride is the header's (a power of two between
 * RB_CPU_SHIFT_MIN and RB_CPU_SHIFT); page ids are bounded by what fits in
 * a region of that stride.
 */
static int rb_foreign_header(const void *map, size_t size, struct rb_foreign_layout *l)
{
	const struct rb_shared_header *h = map;
	u32 shift, nr_cpus;

	if (size < RB_HDR_SIZE)
		return -EINVAL;
	shift = __atomic_load_n(&h->cpu_shift, __ATOMIC_RELAXED);
	nr_cpus = __atomic_load_n(&h->nr_cpus, __ATOMIC_RELAXED);
	if (h->magic != RB_LAYOUT_MAGIC ||
	    h->version != RB_LAYOUT_VERSION || h->header_size < sizeof(*h) ||
	    h->page_size != RB_PAGE_SIZE ||
	    shift < RB_CPU_SHIFT_MIN || shift > RB_CPU_SHIFT ||
	    h->cpu_offset != RB_HDR_SIZE || h->meta_size != RB_META_SIZE ||
	    h->max_pages != RB_MAX_PAGES || h->slots_off != RB_SLOTS_OFF ||
	    h->page_slot_off != RB_PAGE_SLOT_OFF || h->lost_off != RB_LOST_OFF ||
	    !nr_cpus || nr_cpus > 8192 ||
	    (size - RB_HDR_SIZE) >> shift < nr_cpus)
		return -EINVAL;
	l->nr_cpus = nr_cpus;
	l->cpu_shift = shift;
	l->max_pages = rb_stride_pages(shift);
	return 0;
}

/* CPU @cpu's region of a checked foreign mapping. */
static const char *rb_foreign_region(const void *map, const struct rb_foreign_layout *l,
				     int cpu)
{
	return (const char *)map + RB_HDR_SIZE + ((size_t)cpu << l->cpu_shift);
}

/**
 * ring_buffer_foreign_cpus - the CPUs of another process's buffer
 * @map:  its memfd, mapped (read-only)
 * @size: the mapping's size
 *
 * Return: the number of CPUs, or -EINVAL (not a ring buffer of this
 * layout version).
 */
int ring_buffer_foreign_cpus(const void *map, size_t size)
{
	struct rb_foreign_layout l;
	int err = rb_foreign_header(map, size, &l);

	return err ? err : (int)l.nr_cpus;
}

/**
 * ring_buffer_foreign_wake_word - the word the readers of a buffer sleep on
 * @map:  another process's buffer, mapped (read-only is enough)
 * @size: the mapping's size
 *
 * The writers of that process bump it and wake it (a shared futex: it
 * is the same word in every mapping of the memfd) when they wake the
 * readers its own readers armed, ring_buffer_wait_arm().
 *
 * Return: the word, or NULL (not a ring buffer of this layout version).
 */
const uint32_t *ring_buffer_foreign_wake_word(const void *map, size_t size)
{
	struct rb_foreign_layout l;

	if (rb_foreign_header(map, size, &l))
		return NULL;
	return &((const struct rb_shared_header *)map)->wake;
}

/*
 * How far the events on a page that is not complete can be trusted: the
 * events whose headers make sense, up to @limit.  A writer killed between
 * its reservation and its commit leaves such a page: its record and those
 * after it on the page are dropped (and counted by the caller).
 */
static u32 rb_foreign_valid(const u32 *data, u32 limit)
{
	u32 off = 0, size;

	while (off + RB_EVNT_HDR_SIZE <= limit) {
		if (!__atomic_load_n(&data[off / 4], __ATOMIC_RELAXED))
			break;	/* reserved, never written */
		size = rb_event_size_at(data, off, limit);
		if (!size)
			break;
		off += size;
	}
	return off;
}

/*
 * The copy of a page left unfinished: the records still marked
 * (rb_layout.h: reserved, never committed, their writer killed) become
 * padding, as the program's own reaper makes them.  Return: their bytes.
 */
static u32 rb_foreign_unmark(u32 *data, u32 end)
{
	u32 off = 0, size, bytes = 0;

	while (off < end && (size = rb_event_size_at(data, off, end))) {
		u32 *ev = data + off / 4;

		if (rb_hdr_marked(ev[0])) {
			rb_make_padding(ev, size);
			bytes += size;
		}
		off += size;
	}
	return bytes;
}

/*
 * One event of a page: its size (0 if its header makes no sense before
 * @end), @stamp moved to its time, @is_data whether it is a record.
 */
static u32 rb_foreign_step(const u32 *data, u32 at, u32 end, u64 *stamp, bool *is_data)
{
	const u32 *ev = data + at / 4;
	u32 size = rb_event_size_at(data, at, end);

	*is_data = false;
	if (!size)
		return 0;
	switch (rb_hdr_type(ev[0])) {
	case RINGBUF_TYPE_TIME_EXTEND:
		*stamp += rb_time_value(ev);
		break;
	case RINGBUF_TYPE_TIME_STAMP:
		*stamp = rb_fix_abs_ts(rb_time_value(ev), *stamp);
		break;
	case RINGBUF_TYPE_PADDING:
		*stamp += rb_hdr_delta(ev[0]);
		break;
	default:
		*stamp += rb_hdr_delta(ev[0]);
		*is_data = true;
		break;
	}
	return size;
}

/*
 * The time of the event at @off of a page: the page's stamp and the
 * deltas of the events before it.  Return: false if the events before it
 * do not lead there.
 */
static bool rb_foreign_stamp_at(const u32 *data, u32 off, u64 stamp, u64 *out)
{
	u32 at = 0, size;
	bool is_data;

	while (at < off) {
		size = rb_foreign_step(data, at, off, &stamp, &is_data);
		if (!size)
			return false;
		at += size;
	}
	*out = stamp;
	return true;
}

/**
 * ring_buffer_foreign_read - read another process's buffer as trace_pipe_raw does
 * @map:     its memfd, mapped (read-only)
 * @size:    the mapping's size
 * @cpu:     the CPU
 * @pos:     where this reader is (zeroed for a new one), moved on
 * @page:    receives one page in the kernel's format (RB_PAGE_SIZE bytes)
 * @partial: also the page being written, as far as it is committed (a
 *           reader flushing at its end); else only pages the writers left
 *
 * A reader of its own, which does not consume: the program's buffer is
 * not changed (the collector maps it read-only).  Pages the writers
 * overwrote before it got to them are skipped, and counted in @pos->lost
 * (as events lost, flagged on the next page given).  The events of a page
 * already given in part are given from where that part ended, on a page
 * whose stamp is the time there.
 * Return: 1 (a page in @page), 0 (nothing now), -EINVAL (not a buffer of
 * this layout, or no such CPU).
 */
int ring_buffer_foreign_read(const void *map, size_t size, int cpu,
			     struct ring_buffer_foreign_pos *pos, void *page, bool partial)
{
	struct rb_foreign_layout l;
	const char *region;
	const struct rb_cpu_meta *meta;
	const u64 *slots;
	u32 n, nr_pages, tpage, tseq, toff, tslot;
	char *out = page;
	u64 p;
	int err = rb_foreign_header(map, size, &l);

	if (err)
		return err;
	if (cpu < 0 || (u32)cpu >= l.nr_cpus)
		return -EINVAL;
	region = rb_foreign_region(map, &l, cpu);
	meta = (const struct rb_cpu_meta *)region;
	slots = (const u64 *)(region + RB_SLOTS_OFF);
	for (u32 tries = 0; tries < RB_MAX_PAGES; tries++) {
		u64 w, w2, stamp, commit;
		u32 page_id, committed, end, back, slot, lost;
		bool complete, unfinished = false;
		const char *src;

		n = __atomic_load_n(&meta->nr_slots, __ATOMIC_RELAXED);
		nr_pages = __atomic_load_n(&meta->nr_pages, __ATOMIC_RELAXED);
		p = __atomic_load_n(&meta->tail.pos, __ATOMIC_ACQUIRE);
		tpage = rb_pos_page(p);
		tseq = rb_pos_seq(p);
		toff = rb_pos_off(p);
		if (n < 2 || n >= RB_MAX_PAGES || nr_pages > l.max_pages || tpage >= nr_pages)
			return 0;
		tslot = __atomic_load_n(&((const u16 *)(region + RB_PAGE_SLOT_OFF))[tpage],
					__ATOMIC_RELAXED);
		if (tslot >= n)
			return 0;
		if (!pos->started) {
			pos->started = true;
			pos->seq = (tseq - (n - 1)) & RB_SEQ_MASK;
			pos->off = 0;
		}
		if (rb_seq_diff(tseq, pos->seq) < 0)
			return 0;	/* ahead of the writers: a reset */
		back = (u32)rb_seq_diff(tseq, pos->seq);
		if (back >= n) {
			/* Overwritten before we got there. */
			pos->lost_pages += back - (n - 1);
			pos->seq = (tseq - (n - 1)) & RB_SEQ_MASK;
			pos->off = 0;
			continue;
		}
		slot = (tslot + n - back) % n;
		w = __atomic_load_n(&slots[slot], __ATOMIC_ACQUIRE);
		page_id = rb_slot_page(w);
		committed = rb_slot_committed(w);
		if (rb_slot_seq(w) != pos->seq || page_id >= nr_pages) {
			if (back == 0)
				return 0;	/* the tail page, not opened yet */
			pos->seq = (pos->seq + 1) & RB_SEQ_MASK, pos->off = 0;
			continue;
		}
		if (w & RB_SLOT_CONSUMED) {
			/* The program's own reader took it. */
			pos->seq = (pos->seq + 1) & RB_SEQ_MASK, pos->off = 0;
			continue;
		}
		src = region + RB_META_SIZE + (size_t)page_id * RB_PAGE_SIZE;
		commit = __atomic_load_n((const u64 *)(src + 8), __ATOMIC_RELAXED);
		complete = committed == RB_SLOT_FULL;
		if (complete) {
			if (commit > RB_DATA_SIZE) {
				pos->seq = (pos->seq + 1) & RB_SEQ_MASK, pos->off = 0;
				continue;
			}
			end = (u32)commit;
		} else if (back == 0) {
			/* The bell (a waiting reader's) is no offset: rb_pos_used(). */
			if (!partial || rb_off_frozen(toff) || rb_pos_used(p) > RB_DATA_SIZE ||
			    committed != rb_pos_used(p) + RB_MARK_OPEN)
				return 0;	/* still being written */
			end = rb_pos_used(p);
		} else {
			/* Left unfinished: a writer died on it. */
			end = rb_foreign_valid((const u32 *)(src + RB_PAGE_HDR_SIZE), RB_DATA_SIZE);
			if (!pos->off)
				pos->unfinished += RB_DATA_SIZE - end;
			complete = true;
			unfinished = true;
		}
		if (pos->off >= end) {
			if (!complete)
				return 0;
			pos->seq = (pos->seq + 1) & RB_SEQ_MASK, pos->off = 0;
			continue;
		}
		stamp = __atomic_load_n((const u64 *)src, __ATOMIC_RELAXED);
		memcpy(out + RB_PAGE_HDR_SIZE, src + RB_PAGE_HDR_SIZE + pos->off, end - pos->off);
		if (pos->off && !rb_foreign_stamp_at((const u32 *)(src + RB_PAGE_HDR_SIZE),
						     pos->off, stamp, &stamp)) {
			pos->seq = (pos->seq + 1) & RB_SEQ_MASK, pos->off = 0;
			continue;
		}
		lost = pos->off ? 0 : __atomic_load_n(&((const u32 *)(region + RB_LOST_OFF))[slot],
						      __ATOMIC_RELAXED);
		w2 = __atomic_load_n(&slots[slot], __ATOMIC_ACQUIRE);
		if (rb_slot_seq(w2) != pos->seq || (w2 & RB_SLOT_CONSUMED) ||
		    rb_slot_page(w2) != page_id)
			continue;	/* overwritten while copied: try again from the ring */
		commit = end - pos->off;
		if (unfinished)
			pos->unfinished += rb_foreign_unmark((u32 *)(out + RB_PAGE_HDR_SIZE),
							     (u32)commit);
		memset(out + RB_PAGE_HDR_SIZE + commit, 0, RB_DATA_SIZE - commit);
		if (lost || pos->lost_pages) {
			commit |= RB_MISSED_EVENTS;
			if ((commit & 0xffff) + 8 <= RB_DATA_SIZE && lost && !pos->lost_pages) {
				u64 count = lost;

				memcpy(out + RB_PAGE_HDR_SIZE + end - pos->off, &count, 8);
				commit |= RB_MISSED_STORED;
			}
			pos->lost_pages = 0;
		}
		memcpy(out, &stamp, 8);
		memcpy(out + 8, &commit, 8);
		pos->off = end;
		if (complete)
			pos->seq = (pos->seq + 1) & RB_SEQ_MASK, pos->off = 0;
		return 1;
	}
	return 0;
}

/**
 * ring_buffer_foreign_wait - what a blocked reader of another process's buffer waits for
 * @map:    its memfd, mapped (read-only)
 * @size:   the mapping's size
 * @cpu:    the CPU
 * @pos:    the reader's position, as ring_buffer_foreign_read() left it
 * @held:   pages the reader took and did not give yet (counted as unread)
 * @full:   0 for any data; else buffer_percent, as ring_buffer_wait_arm()'s
 *          watermark: the pages written and not read, the writer's own
 *          counted, reach @full percent of the ring, and a whole page is
 *          there
 * @target: receives what the program is to arm for the reader
 *          (ring_buffer_wait_arm_at()): the seq of the tail page at which
 *          the watermark is reached, or RING_BUFFER_WAIT_BELL (@full 0)
 *
 * Whether there is any data (@full 0) is for the caller to find out (a
 * partial read); this says only whether a reservation is open on the page
 * being written, whose commit would wake nobody.  Nothing is written: the
 * reader arms through the program, then asks again, then sleeps.
 * Return: RING_BUFFER_WAIT_READY (the watermark is reached: read), _ARMED
 * (arm @target; sleep if it is still not reached after), _INFLIGHT (a
 * reservation is open where it waits, or on the page closed last: look
 * again after RING_BUFFER_WAIT_INFLIGHT_MS), or -EINVAL.
 */
int ring_buffer_foreign_wait(const void *map, size_t size, int cpu,
			     const struct ring_buffer_foreign_pos *pos, unsigned int held, int full,
			     uint32_t *target)
{
	struct rb_foreign_layout l;
	const struct rb_cpu_meta *meta;
	const char *region;
	const u64 *slots;
	u32 n, nr_pages, tpage, tseq, tslot, need, thr, head;
	int32_t unread;
	u64 p, w;
	int err = rb_foreign_header(map, size, &l);

	if (err)
		return err;
	if (cpu < 0 || (u32)cpu >= l.nr_cpus || full < 0 || full > 100)
		return -EINVAL;
	*target = RING_BUFFER_WAIT_BELL;
	region = rb_foreign_region(map, &l, cpu);
	meta = (const struct rb_cpu_meta *)region;
	slots = (const u64 *)(region + RB_SLOTS_OFF);
	n = __atomic_load_n(&meta->nr_slots, __ATOMIC_RELAXED);
	nr_pages = __atomic_load_n(&meta->nr_pages, __ATOMIC_RELAXED);
	p = __atomic_load_n(&meta->tail.pos, __ATOMIC_ACQUIRE);
	tpage = rb_pos_page(p);
	tseq = rb_pos_seq(p);
	/*
	 * Frozen: the reset or resize wakes the readers at its end.  Not a
	 * ring of ours (a program that wrote over it): nothing to wait for
	 * but the wakes that come anyway.
	 */
	if (n < 2 || n >= RB_MAX_PAGES || nr_pages > l.max_pages || tpage >= nr_pages ||
	    rb_off_frozen(rb_pos_off(p)))
		return RING_BUFFER_WAIT_ARMED;
	tslot = __atomic_load_n(&((const u16 *)(region + RB_PAGE_SLOT_OFF))[tpage],
				__ATOMIC_RELAXED);
	if (tslot >= n)
		return RING_BUFFER_WAIT_ARMED;
	if (!full) {
		/* The tail page opened, and each of its reservations committed? */
		w = __atomic_load_n(&slots[tslot], __ATOMIC_ACQUIRE);
		if (rb_slot_seq(w) != tseq ||
		    rb_slot_committed(w) != rb_pos_used(p) + RB_MARK_OPEN)
			return RING_BUFFER_WAIT_INFLIGHT;
		return RING_BUFFER_WAIT_ARMED;
	}
	need = (u32)(((u64)(u32)full * n + 99) / 100);
	thr = need > 2 ? need - 1 : 1;
	/* A reader not started yet starts at the oldest page of the ring. */
	head = pos->started ? pos->seq : (tseq - (n - 1)) & RB_SEQ_MASK;
	unread = rb_seq_diff(tseq, head);
	if (unread < 0)
		unread = 0;	/* ahead of the writers: a reset */
	if (unread > (int32_t)n)
		unread = (int32_t)n;	/* far behind: overwritten, it catches up */
	unread += (int32_t)(held > 1 ? 1 : held);
	if (unread < (int32_t)thr) {
		*target = (tseq + thr - (u32)unread) & RB_SEQ_MASK;
		return RING_BUFFER_WAIT_ARMED;
	}
	/* Reached; the page closed last still has a reservation open? */
	w = __atomic_load_n(&slots[tslot ? tslot - 1 : n - 1], __ATOMIC_ACQUIRE);
	if (rb_slot_seq(w) == ((tseq - 1) & RB_SEQ_MASK) && !(w & RB_SLOT_CONSUMED) &&
	    rb_slot_committed(w) != RB_SLOT_FULL)
		return RING_BUFFER_WAIT_INFLIGHT;
	return RING_BUFFER_WAIT_READY;
}

/*
 * Pages of several programs' buffers given as one CPU's stream (the
 * collector's trace_pipe_raw) must be in time order event by event, as
 * the kernel's one buffer is: a page that runs past the first event of
 * another program's next page is given in two.  The events after the cut
 * keep their deltas on a page whose stamp is the time at the cut, as
 * ring_buffer_foreign_read() gives the rest of a page given in part.
 */

/* The length of a page's data from its commit word, or 0 if it makes no sense. */
static u32 rb_foreign_page_len(const char *page, u64 *commit)
{
	u64 c, len;

	memcpy(&c, page + 8, 8);
	len = c & ~(u64)(RB_MISSED_EVENTS | RB_MISSED_STORED);
	*commit = c;
	return len <= RB_DATA_SIZE ? (u32)len : 0;
}

/**
 * ring_buffer_foreign_first - the time of the first data event of a page
 * @page: a page as ring_buffer_foreign_read() gives them
 * Return: that time, or the page's stamp if it has none.
 */
uint64_t ring_buffer_foreign_first(const void *page)
{
	const u32 *data = (const u32 *)((const char *)page + RB_PAGE_HDR_SIZE);
	u64 stamp, commit;
	u32 len = rb_foreign_page_len(page, &commit), at = 0, size;
	bool is_data;

	memcpy(&stamp, page, 8);
	while (at < len) {
		size = rb_foreign_step(data, at, len, &stamp, &is_data);
		if (!size || is_data)
			break;
		at += size;
	}
	return stamp;
}

/**
 * ring_buffer_foreign_event - the next record of a page
 * @page:  a page as ring_buffer_foreign_read() gives them
 * @at:    the offset in its data to look from (0: its first event); moved
 *         past the record
 * @stamp: the time of the event before @at (the page's stamp for 0); moved
 *         to the record's
 * @data:  receives the record's payload (in @page)
 * @len:   and its length, as the kernel's ring_buffer_event_length()
 * Return: true for a record; false at the end of the page's data, or at an
 * event whose header makes no sense there.
 */
bool ring_buffer_foreign_event(const void *page, uint32_t *at, uint64_t *stamp,
			       const void **data, uint32_t *len)
{
	const u32 *d = (const u32 *)((const char *)page + RB_PAGE_HDR_SIZE), *ev;
	u64 commit;
	u32 end = rb_foreign_page_len(page, &commit), size;
	bool is_data;

	while (*at < end) {
		ev = d + *at / 4;
		size = rb_foreign_step(d, *at, end, stamp, &is_data);
		if (!size)
			return false;
		*at += size;
		if (!is_data)
			continue;
		if (rb_hdr_type(ev[0]) == 0) {
			/* array[0]: the length, itself included */
			*data = ev + 2;
			*len = ev[1] - 4;
		} else {
			*data = ev + 1;
			*len = rb_hdr_type(ev[0]) * 4;
		}
		return true;
	}
	return false;
}

/**
 * ring_buffer_foreign_split - cut a page after its last event at or before @limit
 * @page:  a page as ring_buffer_foreign_read() gives them; keeps the events
 *         up to @limit (always its first data event), its lost-events flags
 *         and count
 * @limit: the time of the next event of another stream
 * @rest:  receives the events after the cut, on a page of their own
 * Return: true if @page was cut (@rest holds the rest), false if all of it
 * is within @limit (or it cannot be cut).
 */
bool ring_buffer_foreign_split(void *page, uint64_t limit, void *rest)
{
	char *pg = page, *out = rest;
	u32 *data = (u32 *)(pg + RB_PAGE_HDR_SIZE);
	u64 stamp, commit, rest_commit, cut_stamp = 0, missed = 0;
	u32 len = rb_foreign_page_len(pg, &commit), at = 0, size, cut = 0;
	bool seen = false, is_data;

	memcpy(&stamp, pg, 8);
	while (at < len) {
		size = rb_foreign_step(data, at, len, &stamp, &is_data);
		if (!size)
			return false;
		if (is_data) {
			if (seen && stamp > limit)
				break;
			seen = true;
			cut = at + size;
			cut_stamp = stamp;
		}
		at += size;
	}
	if (!seen || at >= len || cut >= len)
		return false;
	/* The rest: a page of its own, stamped with the time at the cut. */
	memset(out, 0, RB_PAGE_SIZE);
	memcpy(out, &cut_stamp, 8);
	rest_commit = len - cut;
	memcpy(out + 8, &rest_commit, 8);
	memcpy(out + RB_PAGE_HDR_SIZE, (char *)data + cut, len - cut);
	/* The page: its events up to the cut, the lost count moved after them. */
	if ((commit & RB_MISSED_STORED) && len + 8 <= RB_DATA_SIZE)
		memcpy(&missed, (char *)data + len, 8);
	memset((char *)data + cut, 0, RB_DATA_SIZE - cut);
	if (commit & RB_MISSED_STORED)
		memcpy((char *)data + cut, &missed, 8);
	commit = cut | (commit & (RB_MISSED_EVENTS | RB_MISSED_STORED));
	memcpy(pg + 8, &commit, 8);
	return true;
}

/**
 * ring_buffer_foreign_pages - copy out a CPU's pages of another process's buffer
 * @map:    its memfd, mapped (read-only)
 * @size:   the mapping's size
 * @cpu:    the CPU
 * @fd:     where the pages go (written at its current position)
 * @pages:  receives the number of pages written
 * @killed: receives the bytes of pages that were never finished (a
 *          writer killed in the middle of a record), dropped
 *
 * Every page the ring holds, oldest first, each RB_PAGE_SIZE bytes in the
 * kernel's format: what ring_buffer_foreign_read() gives a new reader
 * that takes the pages being written too.
 * Return: 0, -EINVAL (a bad @cpu or mapping), -errno of write().
 */
int ring_buffer_foreign_pages(const void *map, size_t size, int cpu, int fd, uint64_t *pages,
			      uint64_t *killed)
{
	struct ring_buffer_foreign_pos pos = { 0 };
	char page[RB_PAGE_SIZE];
	int ret;

	*pages = *killed = 0;
	while ((ret = ring_buffer_foreign_read(map, size, cpu, &pos, page, true)) == 1) {
		for (size_t done = 0; done < sizeof(page);) {
			ssize_t r = write(fd, page + done, sizeof(page) - done);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return r < 0 ? -errno : -EIO;
			done += (size_t)r;
		}
		(*pages)++;
		/* A ring turns at most once under us: then it is a live writer's race. */
		if (*pages > RB_MAX_PAGES)
			break;
	}
	*killed = pos.unfinished;
	return ret < 0 ? ret : 0;
}
