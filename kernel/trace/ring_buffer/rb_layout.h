/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memory layout of a ring buffer: what lives in the shared mapping and
 * how its words are packed.  Not installed.  A reader in another process
 * will map the same memfd, so everything here is part of an ABI that is
 * versioned by RB_LAYOUT_VERSION: grow structures at their end only.
 *
 * Documentation/trace/ring-buffer-design.rst explains the protocols that
 * move these words; this file only says what the bits are.
 *
 * The mapping:
 *
 *   offset 0                  struct rb_shared_header (one 4 KiB page)
 *   RB_HDR_SIZE + c << RB_CPU_SHIFT
 *                             the region of CPU c:
 *
 *       +0                    struct rb_cpu_meta (tail, counters)
 *       +RB_SLOTS_OFF         u64 slot[RB_MAX_PAGES]     ring slot words
 *       +RB_PAGE_SLOT_OFF     u16 page_slot[RB_MAX_PAGES] page id -> slot
 *       +RB_LOST_OFF          u32 lost_before[RB_MAX_PAGES] per slot
 *       +RB_META_SIZE + id * RB_PAGE_SIZE
 *                             sub-buffer page "id", in the kernel's format
 *
 * Regions are RB_CPU_STRIDE apart in the file, so that the CPU and the page
 * of an event follow from its offset by shifts.  The file is sparse: only
 * the pages in use are ever touched, and a shrinking resize punches the
 * rest out.  The process that writes maps less of each region, at a
 * smaller stride of its own (rb_internal.h, "A view").
 *
 * A sub-buffer page (struct buffer_data_page in the kernel):
 *
 *   +0   u64 time_stamp   time of the page (first event's delta is from it)
 *   +8   u64 commit       end of the event data; RB_MISSED_* flags on pages
 *                         handed to readers
 *   +16  data[4080]       events, 4-byte aligned
 */
#ifndef _USTRACE_KERNEL_TRACE_RB_LAYOUT_H
#define _USTRACE_KERNEL_TRACE_RB_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ring_buffer.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
# error "the ring buffer writes event headers as little-endian words"
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef unsigned __int128 u128;

#define RB_LAYOUT_MAGIC		0x52425553u	/* "USBR" */
/*
 * 2: the wait words (rb_cpu_meta.wait, rb_shared_header.wake).  3: data
 * headers marked until committed (RB_HDR_MARK), rb_cpu_meta.killed and
 * .reaping, rb_shared_header.creator.  4: the tail's RB_OFF_HOLD and
 * RB_OFF_LOCKED, rb_cpu_meta.locked (who changes the tail: rb_rseq.h).
 */
#define RB_LAYOUT_VERSION	4

#define RB_PAGE_SHIFT		12
#define RB_DATA_SIZE		RB_PAGE_DATA_SIZE

/* Page ids per CPU, the reader's page included. */
#define RB_MAX_PAGES		65280u
#define RB_META_SIZE		(1u << 20)
#define RB_CPU_SHIFT		28
#define RB_CPU_STRIDE		(1ul << RB_CPU_SHIFT)
/*
 * The smallest CPU stride a reader accepts in a header's cpu_shift: the
 * metadata and 256 pages.  This library lays its files out at
 * RB_CPU_SHIFT (its views use strides from RB_CPU_SHIFT_MIN up); a
 * reader takes the header's shift (checked against this range and the
 * mapping's size) and bounds page ids by rb_stride_pages() of it.
 */
#define RB_CPU_SHIFT_MIN	21
#define RB_HDR_SIZE		4096ul

#define RB_SLOTS_OFF		4096u
#define RB_PAGE_SLOT_OFF	(RB_SLOTS_OFF + 129u * 4096u)
#define RB_LOST_OFF		(RB_PAGE_SLOT_OFF + 32u * 4096u)

_Static_assert(RB_SLOTS_OFF + RB_MAX_PAGES * 8u <= RB_PAGE_SLOT_OFF, "slots overlap");
_Static_assert(RB_PAGE_SLOT_OFF + RB_MAX_PAGES * 2u <= RB_LOST_OFF, "page_slot overlaps");
_Static_assert(RB_LOST_OFF + RB_MAX_PAGES * 4u <= RB_META_SIZE, "lost_before overlaps");
_Static_assert(RB_META_SIZE + (u64)RB_MAX_PAGES * RB_PAGE_SIZE <= RB_CPU_STRIDE,
	       "pages overflow the CPU region");

/* Page ids that fit in a CPU region of stride 1 << @shift. */
static inline u32 rb_stride_pages(u32 shift)
{
	u64 pages = ((1ull << shift) - RB_META_SIZE) >> RB_PAGE_SHIFT;

	return pages < RB_MAX_PAGES ? (u32)pages : RB_MAX_PAGES;
}

#define RB_CACHELINE		64
#define __rb_cacheline		__attribute__((__aligned__(RB_CACHELINE)))

/*
 * The tail: where the next event goes, and the time stamp of the last event
 * reserved.  Both change together: with one 16-byte store in a
 * restartable sequence on the tail's CPU, or one cmpxchg16b (rb_rseq.h).
 *
 *   pos:  bits  0..15  offset of the next event in the page's data
 *         bits 16..37  sequence number of the page (22 bits, wraps)
 *         bits 48..63  page id
 *   ts:   full time stamp of the last event reserved (or of the page when
 *         nothing is reserved on it yet)
 *
 * An offset of RB_OFF_FROZEN_* means that reset or resize owns the CPU: no
 * event fits, and writers take the slow path, which drops the event
 * (counting it for a resize, not for a reset).  The reason is in the tail
 * itself, so a writer cannot pair one freeze's tail with another's reason.
 */
struct rb_tail {
	u64 pos;
	u64 ts;
} __attribute__((__aligned__(16)));

#define RB_OFF_FROZEN_RESIZE	0xffffu
#define RB_OFF_FROZEN_RESET	0xfffeu
#define RB_OFF_FROZEN_MIN	RB_OFF_FROZEN_RESET
/*
 * The bell: a reader waiting for any data sets this bit in the offset of
 * an open tail, so that no event fits and the next writer takes the slow
 * path, which clears it and wakes the readers.  Never set in a frozen
 * tail (whose offsets have it set anyway).
 */
#define RB_OFF_BELL		0x2000u
/*
 * Layout 4 (rb_rseq.h).  Hold: a reader about to change the tail from
 * another CPU keeps the CPU's restartable sequences off it meanwhile;
 * writers reserve with cmpxchg16b and keep it, across page switches too.
 * Locked: no sequence changes this tail again (the program forked, or
 * there is no fence for them), every change is a cmpxchg16b; kept by
 * every change, and given back by a reset or resize (rb_cpu_meta.locked).
 */
#define RB_OFF_HOLD		0x4000u
#define RB_OFF_LOCKED		0x8000u
#define RB_OFF_FLAGS		(RB_OFF_BELL | RB_OFF_HOLD | RB_OFF_LOCKED)
#define RB_SEQ_BITS		22
#define RB_SEQ_MASK		((1u << RB_SEQ_BITS) - 1)

static inline bool rb_off_frozen(u32 off)
{
	return off >= RB_OFF_FROZEN_MIN;
}

/* The offset field as it is: with its flags, or a frozen value. */
static inline u32 rb_pos_off(u64 pos)
{
	return pos & 0xffff;
}

/* The offset of the next event in a tail that is not frozen, without the flags. */
static inline u32 rb_pos_used(u64 pos)
{
	return pos & 0xffff & ~RB_OFF_FLAGS;
}

static inline u32 rb_pos_seq(u64 pos)
{
	return (pos >> 16) & RB_SEQ_MASK;
}

static inline u32 rb_pos_page(u64 pos)
{
	return pos >> 48;
}

static inline u64 rb_mkpos(u32 page, u32 seq, u32 off)
{
	return (u64)page << 48 | (u64)(seq & RB_SEQ_MASK) << 16 | off;
}

/* a - b for sequence numbers, as a signed distance. */
static inline int32_t rb_seq_diff(u32 a, u32 b)
{
	return (int32_t)((a - b) << (32 - RB_SEQ_BITS)) >> (32 - RB_SEQ_BITS);
}

/*
 * A data event's header word while it is reserved and not committed yet:
 * its writer's mark.
 *
 *   bits  0..4   type_len, as committed (the event's size)
 *   bits  5..24  time delta, as committed (a reservation whose delta does
 *                not fit in 20 bits takes a time extend before it)
 *   bits 25..30  owner: 0 the process that made the mapping
 *                (rb_shared_header.creator), 1..62 the sharer in entry
 *                owner - 1 (struct rb_sharers), 63 one not known
 *   bit  31      mark
 *
 * The commit clears bits 25..31, leaving the kernel's header (a committed
 * data event's delta is below 1 << 20, so that bit 31 of a data header
 * is set only by the mark).  A page holding a marked header is never
 * complete, so readers never see one; a reservation whose owner died is
 * found by it and made padding (rb_reap(), "Writers that die" in
 * ring-buffer-design.rst).
 */
#define RB_HDR_MARK		(1u << 31)
#define RB_HDR_OWNER_SHIFT	25
#define RB_HDR_OWNER_MASK	0x3fu
#define RB_HDR_MARK_BITS	(RB_HDR_MARK | RB_HDR_OWNER_MASK << RB_HDR_OWNER_SHIFT)
#define RB_OWNER_CREATOR	0u
#define RB_OWNER_UNKNOWN	63u
#define RB_MARK_DELTA_BITS	20
#define RB_MARK_DELTA_MAX	((1u << RB_MARK_DELTA_BITS) - 1)

/* The mark of owner @owner, to OR into a data header. */
static inline u32 rb_mkmark(u32 owner)
{
	return RB_HDR_MARK | (owner & RB_HDR_OWNER_MASK) << RB_HDR_OWNER_SHIFT;
}

/* Whether @hdr is the header of a data event reserved and not committed. */
static inline bool rb_hdr_marked(u32 hdr)
{
	return (hdr & RB_HDR_MARK) && (hdr & 31) <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX;
}

static inline u32 rb_hdr_owner(u32 hdr)
{
	return (hdr >> RB_HDR_OWNER_SHIFT) & RB_HDR_OWNER_MASK;
}

/*
 * A slot word: the page a ring slot holds, which turn of the ring it is
 * in, and how much of it is done.
 *
 *   bits  0..12  committed: bytes committed on the page (events, discarded
 *                events, the padding that closes it) plus one for the open
 *                mark and one for the close mark
 *   bits 13..24  entries: data events committed on the page
 *   bits 25..46  seq: the sequence number of the page in this slot
 *   bit  47      consumed: the reader swapped the page out; the page in
 *                the slot is an empty one it gave back
 *   bits 48..63  page id
 *
 * A commit adds (1 << RB_SLOT_ENTRY_SHIFT) + length with one atomic add;
 * neither field can carry into the next (at most 4082 and 510).  A page is
 * complete when committed == RB_SLOT_FULL: it was opened, closed, and
 * every byte reserved on it was committed.
 */
#define RB_SLOT_COMMIT_MASK	0x1fffu
#define RB_SLOT_ENTRY_SHIFT	13
#define RB_SLOT_ENTRY_MASK	0xfffu
#define RB_SLOT_SEQ_SHIFT	25
#define RB_SLOT_CONSUMED	(1ull << 47)
#define RB_SLOT_PAGE_SHIFT	48

#define RB_MARK_OPEN		1u
#define RB_MARK_CLOSE		1u
#define RB_SLOT_FULL		(RB_DATA_SIZE + RB_MARK_OPEN + RB_MARK_CLOSE)
#define RB_SLOT_ONE_ENTRY	(1ull << RB_SLOT_ENTRY_SHIFT)

static inline u32 rb_slot_committed(u64 w)
{
	return w & RB_SLOT_COMMIT_MASK;
}

static inline u32 rb_slot_entries(u64 w)
{
	return (w >> RB_SLOT_ENTRY_SHIFT) & RB_SLOT_ENTRY_MASK;
}

static inline u32 rb_slot_seq(u64 w)
{
	return (w >> RB_SLOT_SEQ_SHIFT) & RB_SEQ_MASK;
}

static inline u32 rb_slot_page(u64 w)
{
	return w >> RB_SLOT_PAGE_SHIFT;
}

static inline u64 rb_mkslot(u32 page, u32 seq, u32 entries, u32 committed,
			    bool consumed)
{
	return (u64)page << RB_SLOT_PAGE_SHIFT |
	       (consumed ? RB_SLOT_CONSUMED : 0) |
	       (u64)(seq & RB_SEQ_MASK) << RB_SLOT_SEQ_SHIFT |
	       (u64)entries << RB_SLOT_ENTRY_SHIFT | committed;
}

/*
 * Per-CPU state at the start of each region.  Writers touch the first
 * cache line on every event, the second only when they change pages or
 * drop.
 */
struct rb_cpu_meta {
	struct rb_tail tail;
	int record_disabled;		/* ring_buffer_record_disable_cpu() */
	u32 locked;			/* layout 4: the tail stays RB_OFF_LOCKED */

	/* slow path: page switches and losses */
	u64 overrun __rb_cacheline;	/* events of pages overwritten */
	u64 commit_overrun;		/* dropped: next page still being written */
	u64 dropped;			/* dropped: full, resizing, too large */
	u64 pending_lost;		/* drops not yet flagged on a page */
	u32 switching;			/* writers in the slow path */
	u32 reaping;			/* layout 3: pid of the process in rb_reap() */
	u64 killed;			/* layout 3: reservations of writers that died */
	u64 reap_after;			/* layout 3: no reaper before (CLOCK_MONOTONIC ns) */

	/* changed only while frozen */
	u32 nr_slots __rb_cacheline;	/* pages in the ring */
	u32 nr_pages;			/* page ids in use: nr_slots + 1 */

	/*
	 * Layout 2.  Set by readers going to sleep, read by the writer that
	 * switches pages: RB_WAIT_ARMED | the seq of the tail page at which
	 * the earliest waiter's watermark is reached (0: nobody waits).
	 */
	u32 wait __rb_cacheline;
	u32 __pad2;
	/*
	 * Layout 3: a page closed and held up with nothing a reaper could
	 * tell apart: its slot word when first found so, and since when
	 * (CLOCK_MONOTONIC ns); see rb_reap().
	 */
	u64 stuck_word;
	u64 stuck_since;
};

#define RB_WAIT_ARMED		(1u << 31)

_Static_assert(sizeof(struct rb_cpu_meta) <= RB_SLOTS_OFF, "meta too large");

/* The first page of the mapping: what a reader in another process needs. */
struct rb_shared_header {
	u32 magic;
	u32 version;
	u32 header_size;		/* sizeof(struct rb_shared_header) */
	u32 page_size;
	u32 nr_cpus;
	u32 cpu_shift;			/* log2 of the CPU stride (RB_CPU_SHIFT here) */
	u64 cpu_offset;			/* RB_HDR_SIZE */
	u32 meta_size;
	u32 max_pages;
	u32 slots_off;
	u32 page_slot_off;
	u32 lost_off;
	u32 flags;			/* RB_FL_* */
	/*
	 * Layout 2: the futex readers sleep on (not private: a reader in
	 * another process maps the same memfd).  Bumped, then woken, by
	 * whoever wakes them: a writer whose page switch reached an armed
	 * watermark or rang the bell, a reset, a resize, a swap, a close.
	 */
	u32 wake;
	/* Layout 3: the process that made the mapping (owner 0 of a mark). */
	u32 creator;
};

/*
 * Sharers, in the header page from RB_SHARERS_OFF: the processes that
 * write into the mapping besides the one that made it, its forked
 * children (and theirs).
 *
 *   +0   u32 gone               sharers found gone without leaving (a
 *                               SIGKILL, _exit(), a crash): counted when
 *                               their entry is taken over
 *   +4   u32 pid[RB_MAX_SHARERS] 0: free
 *
 * A child takes a free entry at fork() (or the entry of a process that is
 * gone, counting it), and frees it at exit().  An entry whose process is
 * gone is one that died: a reset that finds a reservation never committed
 * may then take the CPU anyway (ring-buffer-design.rst, "Writers that
 * die").  Readers in other processes ignore this area.
 */
#define RB_SHARERS_OFF		2048u
#define RB_MAX_SHARERS		((RB_HDR_SIZE - RB_SHARERS_OFF) / 4 - 1)

struct rb_sharers {
	u32 gone;
	u32 pid[RB_MAX_SHARERS];
};

_Static_assert(sizeof(struct rb_shared_header) <= RB_SHARERS_OFF, "header overlaps the sharers");
_Static_assert(RB_SHARERS_OFF + sizeof(struct rb_sharers) <= RB_HDR_SIZE,
	       "sharers overflow the header page");

#endif /* _USTRACE_KERNEL_TRACE_RB_LAYOUT_H */
