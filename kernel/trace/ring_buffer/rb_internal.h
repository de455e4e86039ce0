/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What ring_buffer.c (writers, setup, control) and ring_buffer_read.c
 * (readers, iterators, accounting) share.  Not installed.
 *
 * Terminology (Documentation/trace/ring-buffer-design.rst has the full
 * story, with drawings):
 *
 *   page        a 4 KiB sub-buffer in the kernel's format (time stamp,
 *               commit, 4080 bytes of events), identified by a page id
 *   slot        a position in a CPU's ring; slot words say which page a
 *               slot holds, its sequence number and how much of it is done
 *   seq         the sequence number of a page: writers enter pages in
 *               sequence, one turn of the ring after another
 *   tail        where the next event goes (page, seq, offset) and the time
 *               of the last event, changed together (rb_rseq.h: by a
 *               restartable sequence on its CPU, or one cmpxchg16b)
 *   reader page the page the consuming reader owns, outside the ring
 *   head        the seq of the next page the reader swaps in
 *   switcher    the writer (or reader) whose tail change moved the tail to
 *               a new page: it stamps and opens the new page, then pads
 *               and closes the old one
 *   complete    a page that was opened, closed, and every byte reserved on
 *               it committed: committed == RB_SLOT_FULL in its slot word
 *
 * Writers never lock and never block: any number of threads may write to a
 * CPU's ring at once (a thread may migrate after choosing it, be preempted
 * in the middle of an event, or nest).  Readers of one CPU serialize on its
 * reader_lock; reset and resize take it too and freeze the tail.  Who may
 * change a tail, and how, is rb_rseq.h's rule.
 */
#ifndef _USTRACE_KERNEL_TRACE_RB_INTERNAL_H
#define _USTRACE_KERNEL_TRACE_RB_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <linux/ring_buffer.h>
#include "rb_layout.h"
#include "trace_clock.h"

#include "../../internal.h"

#ifdef USTRACE_TSAN
# define RB_TSAN 1
#endif

#ifndef noinline
# define noinline		__attribute__((__noinline__))
#endif

#define RB_EVNT_HDR_SIZE	4u
#define RB_MAX_SMALL_DATA	(4u * RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
#define RB_LEN_TIME_EXTEND	8u
#define TS_SHIFT		27
#define TS_MASK			((1ull << TS_SHIFT) - 1)
#define TS_ABS_MASK		((1ull << 59) - 1)
#define TS_MSB			(~TS_ABS_MASK)

/* The reader's state for one CPU; under reader_lock. */
struct rb_reader {
	u32 page;		/* page id outside the ring, owned by the reader */
	u32 head;		/* seq of the next page to swap in */
	u32 head_slot;		/* and its slot */
	u32 read;		/* offset of the next event on the reader page */
	u32 end;		/* end of the events on the reader page */
	u32 entries;		/* data events on it not consumed yet */
	u64 stamp;		/* time of the last event read */
	u64 page_stamp;		/* the reader page's time stamp */
	u64 lost;		/* events lost before the reader page, unreported */
	u64 last_overrun;	/* overrun when the last page was swapped in */
	u64 read_events;	/* data events consumed */
};

struct ring_buffer_per_cpu {
	struct trace_buffer *buffer;
	int cpu;
	char *region;
	struct rb_cpu_meta *meta;
	u64 *slots;
	pthread_mutex_t reader_lock;
	struct rb_reader r;
	u32 gone_seen;		/* sharers gone when a reset last asked (rb_writer_died()) */
	char *hdr;		/* the header page of the mapping (in its first view) */
} __rb_cacheline;

struct trace_buffer {
	/* read by every writer: the view's base and CPU stride (rb_view()) */
	uintptr_t cpu_view;
	u64 (*clock)(void);
	unsigned int nr_cpus;
	/*
	 * Recording off (RB_BUFFER_OFF), disable counts, and RB_BUFFER_SLOW
	 * while the writers' fast path does not apply (a clock other than
	 * the local one, absolute time stamps, a local clock that is not the
	 * TSC): the fast path tests one word.
	 */
	int record_disabled;
	bool clock_local;
	bool time_stamp_abs;
	unsigned int flags;

	/* control */
	pthread_mutex_t mutex;		/* resize, reset, set_clock */
	int memfd;			/* kept in system mode only, see below */
	dev_t memfd_dev;		/* which file it is, so that a */
	ino_t memfd_ino;		/* descriptor reused is not taken */
	void *map;			/* the current view: its header page */
	size_t map_size;		/* and its size */
	u64 map_id;			/* the mapping's, for its views (rb_views_*()) */
	struct ring_buffer_per_cpu *cpus;

	/*
	 * Two buffers trade their pages (ring_buffer_swap(), "Trading
	 * pages" in ring_buffer.c): cpu_view, cpus, map and memfd move
	 * between the two under both mutexes, cpu_view and cpus read
	 * atomically by those who do not hold them.  pair_view[] are the
	 * cpu_view of both, fixed by their first swap: a writer that
	 * reserved before a swap commits into the pages it reserved in,
	 * wherever they went (and in a view since replaced: rb_views_find()).
	 */
	uintptr_t pair_view[2];

	/* ring_buffer_wake_waiters() calls: what ends a ring_buffer_wait() */
	unsigned int wake_all;

	/* Every buffer, in allocation order, for fork() (ring_buffer_fork.c). */
	struct trace_buffer *fork_next, **fork_pprev;
};

/* buffer->record_disabled: ring_buffer_record_off() sets this bit ... */
#define RB_BUFFER_OFF		(1 << 20)
/* ... and this one says the fast path does not apply; neither is a disable. */
#define RB_BUFFER_SLOW		(1 << 21)

/*
 * This process's mark (rb_mkmark(), rb_layout.h), ORed into the header of
 * every data event it reserves, in any buffer: owner 0 in the process
 * that started, the sharer entry a forked child took (the same in every
 * mapping: ring_buffer_fork.c), 63 for a child that found none.
 */
extern u32 rb_mark __attribute__((__visibility__("hidden")));

/* ring_buffer_fork.c: a new mapping: this process, its creator, in its sharers too if a child. */
void rb_sharers_init(struct trace_buffer *buffer);

/* ring_buffer_fork.c: a process sharing the mapping died since the CPU last asked. */
struct ring_buffer_per_cpu;
bool rb_writer_died(struct ring_buffer_per_cpu *cpu_buffer);

/*
 * ring_buffer_fork.c: make the reservations of writers that died on the
 * page in slot @slot of @region (slot word @w, events up to @end, @want
 * its committed count once done) padding, counted in meta->killed; @hdr
 * is the mapping's header page.
 * Return: true if it did (the slot word changed).
 */
bool rb_reap(char *hdr, char *region, u32 slot, u64 w, u32 end, u32 want);

/* Whether a reaper may look at the CPU of @meta now (rb_reap() that failed: 1 ms later). */
bool rb_reap_due(struct rb_cpu_meta *meta);

/*
 * ring_buffer_fork.c: rb_reap() on every page of the CPU that waits for a
 * reservation (the tail page as far as @tail, a snapshot), if due or
 * @force.  Under the reader lock, or alone in the process.
 */
struct rb_tail;
void rb_reap_cpu(struct ring_buffer_per_cpu *cpu_buffer, struct rb_tail tail, bool force);

/* ring_buffer_foreign.c: the memfds kept for the collector (system mode). */
bool rb_keeps_memfds(void);
bool rb_memfd_ours(const struct trace_buffer *buffer);

struct ring_buffer_iter {
	struct ring_buffer_per_cpu *cpu_buffer;
	bool started;
	bool on_reader;		/* the copy is of the reader page */
	bool loaded;		/* the copy is of ring page seq */
	bool complete;		/* which was complete when copied */
	bool dropped;		/* pages were overwritten under the iterator */
	u32 seq;		/* seq of the ring page copied (or to copy next) */
	u32 read;		/* next event in the copy */
	u32 end;		/* valid bytes of the copy */
	u64 stamp;		/* time of the last event walked */
	u32 data[RB_DATA_SIZE / 4];
};

/* ------------------------------------------------------------------
 * Events
 */

static inline u32 rb_hdr(u32 type_len, u32 delta)
{
	return type_len | delta << 5;
}

static inline u32 rb_hdr_type(u32 hdr)
{
	return hdr & 31;
}

static inline u32 rb_hdr_delta(u32 hdr)
{
	return hdr >> 5;
}

/* Bytes of a data event with @length bytes of payload, header included. */
static inline u32 rb_data_event_size(unsigned long length)
{
	if (!length)
		length = 1;
	if (length > RB_MAX_SMALL_DATA)
		length += 4;
	return (u32)(length + RB_EVNT_HDR_SIZE + 3) & ~3u;
}

/*
 * The delta of a data event's header, marked or not (a committed one is
 * below 1 << RB_MARK_DELTA_BITS).
 */
static inline u32 rb_data_delta(u32 hdr)
{
	return (hdr >> 5) & RB_MARK_DELTA_MAX;
}

/* A data event's header, marked with @mark until its commit (rb_layout.h). */
static inline void rb_write_data_header(u32 *ev, u32 size, u32 delta, u32 mark)
{
	u32 len = size - RB_EVNT_HDR_SIZE;

	if (len > RB_MAX_SMALL_DATA) {
		ev[1] = len;
		__atomic_store_n(&ev[0], rb_hdr(0, delta) | mark, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&ev[0], rb_hdr(len >> 2, delta) | mark, __ATOMIC_RELAXED);
	}
}

/*
 * The commit of a data event's header: its mark goes.  Only its writer
 * writes it meanwhile; a reaper reads it (relaxed, no RMW).
 */
static inline void rb_unmark(u32 *hdr)
{
	__atomic_store_n(hdr, __atomic_load_n(hdr, __ATOMIC_RELAXED) & ~RB_HDR_MARK_BITS,
			 __ATOMIC_RELAXED);
}

/*
 * The commit of a data event whose header is @hdr and whose page's slot
 * word is @word, as trace_event_buffer_commit() does inline: the header
 * loses its mark, then one add of @add (an entry and the bytes reserved)
 * to the slot word, release: the event, its header unmarked, is visible
 * to whoever acquires the slot word complete (the reader's swap, the
 * iterator); every later add is in this add's release sequence.
 */
static __always_inline void rb_commit_hdr(u32 *hdr, u64 *word, u64 add)
{
	rb_unmark(hdr);
	__atomic_add_fetch(word, add, __ATOMIC_RELEASE);
}

/*
 * Turn the data event at @ev, @size bytes in all, into padding: the
 * kernel's discarded event (type PADDING, its length in the next word),
 * keeping its time delta so that readers keep the time right (a delta of
 * 0 would mean the padding that ends a page: 1 then).  The header is
 * stored last, in one store, for a reader walking the page meanwhile.
 */
static inline void rb_make_padding(u32 *ev, u32 size)
{
	ev[1] = size - RB_EVNT_HDR_SIZE;
	__atomic_store_n(&ev[0], rb_hdr(RINGBUF_TYPE_PADDING, rb_data_delta(ev[0]) ?: 1),
			 __ATOMIC_RELAXED);
}

/* A time extend (delta) or an absolute time stamp (low 59 bits of ts). */
static inline void rb_write_time(u32 *ev, u32 type, u64 val)
{
	val &= TS_ABS_MASK;
	ev[0] = rb_hdr(type, val & TS_MASK);
	ev[1] = (u32)(val >> TS_SHIFT);
}

static inline u64 rb_time_value(const u32 *ev)
{
	return ((u64)ev[1] << TS_SHIFT) + rb_hdr_delta(ev[0]);
}

/* An absolute stamp carries 59 bits; the top 5 come from the last time. */
static inline u64 rb_fix_abs_ts(u64 abs, u64 prev)
{
	abs |= prev & TS_MSB;
	if (abs < prev && (prev & TS_MSB) != TS_MSB)
		abs += 1ull << 59;
	return abs;
}

/*
 * Size of the event at @off in @data, or 0 when it does not fit in
 * [off, end) or makes no sense.  Everything read from a page goes through
 * here: pages live in shared memory.
 */
static inline u32 rb_event_size_at(const u32 *data, u32 off, u32 end)
{
	const u32 *ev = data + off / 4;
	u32 len;

	if (off & 3 || off >= end || end - off < 4)
		return 0;
	switch (rb_hdr_type(ev[0])) {
	case RINGBUF_TYPE_PADDING:
		if (!rb_hdr_delta(ev[0]))
			return end - off;
		/* fall through */
	case 0:
		if (end - off < 8)
			return 0;
		len = ev[1] + RB_EVNT_HDR_SIZE;
		if (ev[1] > RB_DATA_SIZE)
			return 0;
		break;
	case RINGBUF_TYPE_TIME_EXTEND:
	case RINGBUF_TYPE_TIME_STAMP:
		len = RB_LEN_TIME_EXTEND;
		break;
	default:
		len = rb_hdr_type(ev[0]) * 4 + RB_EVNT_HDR_SIZE;
		break;
	}
	if (len < 8 || len & 3 || len > end - off)
		return 0;
	return len;
}

static inline bool rb_is_time_event(u32 hdr);

/* ring_buffer_event_data(), inline. */
static inline void *rb_event_payload(void *event)
{
	u32 *ev = (u32 *)event;

	if (rb_is_time_event(ev[0]))
		ev += 2;
	return rb_hdr_type(ev[0]) ? ev + 1 : ev + 2;
}

static inline bool rb_is_time_event(u32 hdr)
{
	return rb_hdr_type(hdr) >= RINGBUF_TYPE_TIME_EXTEND;
}

/* Size of a data event (a time event's data event), from its header. */
static inline u32 rb_data_size(const u32 *ev)
{
	u32 t = rb_hdr_type(ev[0]);

	if (t == 0 || t == RINGBUF_TYPE_PADDING)
		return ev[1] + RB_EVNT_HDR_SIZE;
	return t * 4 + RB_EVNT_HDR_SIZE;
}

/* Bytes a reservation took: its time event, if any, and its data event. */
static inline u32 rb_reserved_size(const u32 *ev)
{
	if (rb_is_time_event(ev[0]))
		return RB_LEN_TIME_EXTEND + rb_data_size(ev + 2);
	return rb_data_size(ev);
}

/* ------------------------------------------------------------------
 * Addresses
 */

/*
 * A view: where this process maps a buffer's file ("Address space" in
 * ring-buffer-design.rst).  The file keeps its CPU regions RB_CPU_STRIDE
 * apart; a view maps each region's first 1 << shift bytes, 1 << shift
 * apart, after the header page, with shift as small as the pages in use
 * allow (RB_CPU_SHIFT_MIN to RB_CPU_SHIFT).  A growing resize makes a
 * larger view of the same memory and publishes it; the old ones stay
 * mapped until the buffer is freed, so that a writer still in one writes
 * into the same pages.  One word says both where the CPUs' regions start
 * and their stride (the base is page-aligned): a writer reads it once.
 */
#define RB_VIEW_SHIFT_BITS	63ul

static inline uintptr_t rb_mkview(char *base, unsigned int shift)
{
	return (uintptr_t)base | shift;
}

static inline char *rb_view_base(uintptr_t view)
{
	return (char *)(view & ~RB_VIEW_SHIFT_BITS);
}

static inline unsigned int rb_view_shift(uintptr_t view)
{
	return (unsigned int)(view & RB_VIEW_SHIFT_BITS);
}

static inline char *rb_view_region(uintptr_t view, unsigned int cpu)
{
	return rb_view_base(view) + ((size_t)cpu << rb_view_shift(view));
}

/*
 * Acquire: a swap (ring_buffer_swap()) may have just given the buffer
 * pages set up by another thread, a resize a larger view; pairs with
 * their release stores.  A plain load on x86.
 */
static inline uintptr_t rb_view(const struct trace_buffer *buffer)
{
	return __atomic_load_n(&buffer->cpu_view, __ATOMIC_ACQUIRE);
}

/* ring_buffer.c: CPU @cpu's region of the newest view of @view's mapping. */
char *rb_region_newest(uintptr_t view, unsigned int cpu);

/*
 * CPU @cpu's region in a view of @view's mapping that holds page @page:
 * @view's, unless a resize added pages past its end (and made a larger
 * view first) after @view was read.  What is in a CPU's metadata (the
 * tail, the slot words) is in every view; a page maybe not.
 */
static __always_inline char *rb_region_for(uintptr_t view, unsigned int cpu, u32 page)
{
	if (likely(RB_META_SIZE + ((size_t)page + 1) * RB_PAGE_SIZE <=
		   ((size_t)1 << rb_view_shift(view))))
		return rb_view_region(view, cpu);
	return rb_region_newest(view, cpu);
}

/* The first CPU's region of the current view (the header page is before it). */
static inline char *rb_cpu_base(const struct trace_buffer *buffer)
{
	return rb_view_base(rb_view(buffer));
}

static inline char *rb_region(const struct trace_buffer *buffer, unsigned int cpu)
{
	return rb_view_region(rb_view(buffer), cpu);
}

static inline char *rb_page(const char *region, u32 page)
{
	return (char *)region + RB_META_SIZE + (size_t)page * RB_PAGE_SIZE;
}

static inline u32 *rb_page_data(const char *region, u32 page)
{
	return (u32 *)(rb_page(region, page) + RB_PAGE_HDR_SIZE);
}

static inline u64 *rb_page_stamp(const char *region, u32 page)
{
	return (u64 *)rb_page(region, page);
}

static inline u64 *rb_page_commit(const char *region, u32 page)
{
	return (u64 *)(rb_page(region, page) + 8);
}

static inline u64 *rb_slots(const char *region)
{
	return (u64 *)(region + RB_SLOTS_OFF);
}

static inline u16 *rb_page_slots(const char *region)
{
	return (u16 *)(region + RB_PAGE_SLOT_OFF);
}

static inline u32 *rb_lost_before(const char *region)
{
	return (u32 *)(region + RB_LOST_OFF);
}

/*
 * Whether the page in slot @j (word @w) still waits for reservations to
 * be committed, with the tail at @tail_pos (its page in slot @tslot): the
 * tail page until its slot holds what the tail says was reserved, and
 * any other page that is not consumed, not full, and not the next one
 * still empty.  Freezing waits for none to wait (rb_quiescent()); reapers
 * look for what the writers gone left in those that do (rb_reap_cpu()).
 */
static inline bool rb_slot_waits(u32 j, u64 w, u32 tslot, u64 tail_pos)
{
	u32 c = rb_slot_committed(w);

	if (j == tslot)
		return c != rb_pos_used(tail_pos) + RB_MARK_OPEN;
	return !(w & RB_SLOT_CONSUMED) && c != RB_SLOT_FULL &&
	       !(rb_slot_seq(w) == ((rb_pos_seq(tail_pos) + 1) & RB_SEQ_MASK) && !c);
}

/*
 * What a page that waits is waiting for: the tail page (@is_tail) for the
 * bytes reserved on it (*@end, the tail's offset) and the open mark, any
 * other page for all its bytes and both marks, *@end then being where its
 * last event ends (the page's commit field, set when it was closed).
 */
static inline void rb_wait_target(const char *region, u64 tail_pos, bool is_tail, u32 page,
				  u32 *end, u32 *want)
{
	if (is_tail) {
		*end = rb_pos_used(tail_pos);
		*want = *end + RB_MARK_OPEN;
	} else {
		*end = (u32)__atomic_load_n(rb_page_commit(region, page), __ATOMIC_RELAXED);
		*want = RB_SLOT_FULL;
	}
}

/*
 * page_slot[] and lost_before[] are read speculatively (a reader or a
 * writer holding a stale tail reads them, then finds out with a cmpxchg
 * that they had changed): relaxed atomics, so that the race is benign in
 * C11 terms too.  Their ordering comes from the slot words.
 */
static inline u32 rb_get_page_slot(const char *region, u32 page)
{
	return __atomic_load_n(&rb_page_slots(region)[page], __ATOMIC_RELAXED);
}

static inline void rb_set_page_slot(char *region, u32 page, u32 slot)
{
	__atomic_store_n(&rb_page_slots(region)[page], (u16)slot, __ATOMIC_RELAXED);
}

static inline u32 rb_get_lost(const char *region, u32 slot)
{
	return __atomic_load_n(&rb_lost_before(region)[slot], __ATOMIC_RELAXED);
}

static inline void rb_set_lost(char *region, u32 slot, u32 lost)
{
	__atomic_store_n(&rb_lost_before(region)[slot], lost, __ATOMIC_RELAXED);
}

/*
 * Where an event lives: its CPU's region, its page and its offset in the
 * page's data.  Fails for addresses that are not in the buffer's pages.
 */
static inline int rb_locate_at(uintptr_t view, unsigned int nr_cpus, const void *event,
				char **region, u32 *page, u32 *off)
{
	char *base = rb_view_base(view);
	unsigned int shift = rb_view_shift(view);
	uintptr_t a = (uintptr_t)event - (uintptr_t)base;
	uintptr_t in = a & ((1ul << shift) - 1);
	uintptr_t p;

	if (unlikely((a >> shift) >= nr_cpus || in < RB_META_SIZE || a & 3))
		return -EINVAL;
	p = (in - RB_META_SIZE) >> RB_PAGE_SHIFT;
	in = (in - RB_META_SIZE) & (RB_PAGE_SIZE - 1);
	if (unlikely(p >= rb_stride_pages(shift) || in < RB_PAGE_HDR_SIZE))
		return -EINVAL;
	*region = base + (a & ~((1ul << shift) - 1));
	*page = p;
	*off = in - RB_PAGE_HDR_SIZE;
	return 0;
}

/* ring_buffer.c: every view made, by address (for those since replaced). */
uintptr_t rb_views_find(const void *addr, unsigned int *nr_cpus);

/* In the buffer's pages, or in those a snapshot swap took away, in any view. */
static inline int rb_locate(const struct trace_buffer *buffer, const void *event,
			    char **region, u32 *page, u32 *off)
{
	unsigned int nr;
	uintptr_t view;

	if (likely(!rb_locate_at(rb_view(buffer), buffer->nr_cpus, event, region, page, off)))
		return 0;
	for (int i = 0; i < 2; i++) {
		view = __atomic_load_n(&buffer->pair_view[i], __ATOMIC_RELAXED);
		if (view && !rb_locate_at(view, buffer->nr_cpus, event, region, page, off))
			return 0;
	}
	view = rb_views_find(event, &nr);
	if (view && !rb_locate_at(view, nr, event, region, page, off))
		return 0;
	return -EINVAL;
}

static inline struct ring_buffer_per_cpu *rb_cpu_buffer(struct trace_buffer *buffer, int cpu)
{
	if (!buffer || cpu < 0 || (unsigned int)cpu >= buffer->nr_cpus) {
		errno = EINVAL;
		return NULL;
	}
	return &__atomic_load_n(&buffer->cpus, __ATOMIC_ACQUIRE)[cpu];
}

/* ------------------------------------------------------------------
 * The tail and the clock
 */

#if defined(__x86_64__)
#ifdef RB_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#endif
/*
 * By hand: the builtin would need -mcx16 and makes the compiler spill the
 * 128-bit values through the stack.  A full barrier, as every locked
 * instruction.  On failure @old gets the current value.
 *
 * Under ThreadSanitizer too, with the ordering told to it by hand (a
 * release before, an acquire after, as a seq_cst read-modify-write of
 * the tail makes): its runtime runs the 128-bit builtins under one global
 * spin lock, which a fork() taken while another thread held it leaves
 * locked in the child, whose first event then spins forever (a forked
 * child that never ended, 1 run in 10 of fork-safety's recorder case).
 */
static __always_inline bool rb_tail_cmpxchg(struct rb_tail *tail, struct rb_tail *old,
					    struct rb_tail new)
{
	bool ok;

#ifdef RB_TSAN
	__tsan_release(tail);
#endif
	__asm__ __volatile__("lock cmpxchg16b %[tail]"
			     : "=@ccz" (ok), [tail] "+m" (*tail),
			       "+a" (old->pos), "+d" (old->ts)
			     : "b" (new.pos), "c" (new.ts)
			     : "memory");
#ifdef RB_TSAN
	__tsan_acquire(tail);
#endif
	return ok;
}

/* Both words at one instant (a cmpxchg that changes nothing). */
static inline struct rb_tail rb_tail_snapshot(struct rb_tail *tail)
{
	struct rb_tail old = { 0, 0 };

	rb_tail_cmpxchg(tail, &old, old);
	return old;
}
#else
/* The builtins, out of line (ring_buffer.c). */
bool rb_tail_cmpxchg(struct rb_tail *tail, struct rb_tail *old, struct rb_tail new);
struct rb_tail rb_tail_snapshot(struct rb_tail *tail);
#endif

static __always_inline u64 rb_clock(const struct trace_buffer *buffer)
{
	if (likely(__atomic_load_n(&buffer->clock_local, __ATOMIC_RELAXED)))
		return tc_local();
	return __atomic_load_n(&buffer->clock, __ATOMIC_RELAXED)();
}

/* Time stamps within a CPU's ring never go backwards. */
static __always_inline u64 rb_later(u64 now, u64 last)
{
	return (int64_t)(now - last) > 0 ? now : last;
}

/* ------------------------------------------------------------------
 * Shared by the writers and the reader
 */

enum rb_claim_mode {
	RB_CLAIM_WRITER,	/* may overwrite; counts what it drops */
	RB_CLAIM_FLUSH,		/* the reader: never overwrites, counts nothing */
};

int rb_claim_next(struct trace_buffer *buffer, char *region, u64 pos,
		  enum rb_claim_mode mode, u32 *npage, u32 *nslot);
void rb_finish_switch(char *region, u64 old, u32 npage, u32 nslot, u64 ts);
void rb_corrupt(struct trace_buffer *buffer, int cpu, const char *what);
void rb_wake_view(uintptr_t view);

/* ring_buffer_fork.c: from ring_buffer_alloc() and ring_buffer_free(). */
void rb_fork_track(struct trace_buffer *buffer);
void rb_fork_untrack(struct trace_buffer *buffer);

/* The CPU of a region, in whichever view it is. */
static inline int rb_region_cpu(const struct trace_buffer *buffer, const char *region)
{
	uintptr_t view = rb_view(buffer);
	size_t cpu = (size_t)(region - rb_view_base(view)) >> rb_view_shift(view);
	unsigned int nr;

	for (int i = 0; cpu >= buffer->nr_cpus && i < 2; i++) {
		view = __atomic_load_n(&buffer->pair_view[i], __ATOMIC_RELAXED);
		if (view)
			cpu = (size_t)(region - rb_view_base(view)) >> rb_view_shift(view);
	}
	if (cpu >= buffer->nr_cpus && (view = rb_views_find(region, &nr)))
		cpu = (size_t)(region - rb_view_base(view)) >> rb_view_shift(view);
	return (int)cpu;
}

#endif /* _USTRACE_KERNEL_TRACE_RB_INTERNAL_H */
