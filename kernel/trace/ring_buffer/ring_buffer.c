// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lockless per-CPU ring buffers in the kernel's sub-buffer format: the
 * writers, and setting up, resetting and resizing.  ring_buffer_read.c has
 * the readers; rb_internal.h the terminology; rb_layout.h the memory
 * layout; Documentation/trace/ring-buffer-design.rst the protocols.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include "../../internal.h"
#include "rb_fast.h"
#include "rb_internal.h"

/* How long reset and resize wait for writers that hold reservations. */
#define RB_QUIESCE_TIMEOUT_NS	(2ull * 1000 * 1000 * 1000)

#ifndef __x86_64__
bool rb_tail_cmpxchg(struct rb_tail *tail, struct rb_tail *old, struct rb_tail new)
{
	u128 o = (u128)old->ts << 64 | old->pos;
	u128 n = (u128)new.ts << 64 | new.pos;
	u128 r = __sync_val_compare_and_swap((u128 *)tail, o, n);

	if (r == o)
		return true;
	old->pos = (u64)r;
	old->ts = (u64)(r >> 64);
	return false;
}

struct rb_tail rb_tail_snapshot(struct rb_tail *tail)
{
	u128 r = __sync_val_compare_and_swap((u128 *)tail, 0, 0);

	return (struct rb_tail){ .pos = (u64)r, .ts = (u64)(r >> 64) };
}
#endif

/**
 * ring_buffer_event_length - the length of an event's payload
 * @event: an event returned by reserve, peek, consume or the iterator
 *
 * Return: the payload bytes (rounded up to 4, as stored); for padding and
 * time events, the size of the event itself.
 */
unsigned ring_buffer_event_length(struct ring_buffer_event *event)
{
	const u32 *ev = (const u32 *)event;
	u32 t;

	if (rb_is_time_event(ev[0]))
		ev += 2;
	t = rb_hdr_type(ev[0]);
	if (t == RINGBUF_TYPE_PADDING)
		return ev[1] + RB_EVNT_HDR_SIZE;
	if (t > RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
		return RB_LEN_TIME_EXTEND;
	if (t)
		return t * 4;
	return ev[1] - 4;
}

/**
 * ring_buffer_event_data - the payload of an event
 * @event: an event returned by reserve, peek, consume or the iterator
 *
 * Return: a pointer to the payload, 4-byte aligned.
 */
void *ring_buffer_event_data(struct ring_buffer_event *event)
{
	return rb_event_payload(event);
}

/* ------------------------------------------------------------------
 * Choosing a CPU
 */

static noinline unsigned int rb_this_cpu_slow(const struct trace_buffer *buffer)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (unsigned int)cpu % buffer->nr_cpus;
}

/*
 * The CPU the thread runs on now, from the rseq area glibc registered (the
 * kernel updates it on every return to userspace).  The thread may migrate
 * right after: the ring is just the one of the CPU it was on.
 */
static __always_inline unsigned int rb_this_cpu(const struct trace_buffer *buffer)
{
#ifdef RB_HAVE_RSEQ
	const u32 *cpu_id = rb_rseq_cpu_id();
	u32 cpu = __atomic_load_n(cpu_id, __ATOMIC_RELAXED);

	if (likely(cpu < buffer->nr_cpus))
		return cpu;
#endif
	return rb_this_cpu_slow(buffer);
}

/*
 * The thread left @cpu since it chose that ring: a time read before this
 * says nothing of what ran on @cpu then (the kernel's writers cannot
 * migrate while they reserve; ours can).  The writer then starts over on
 * the CPU it is on.  A thread that moved away and back between the two
 * loads is not seen; without rseq nothing is.
 */
static __always_inline bool rb_moved(const struct trace_buffer *buffer, unsigned int cpu)
{
#ifdef RB_HAVE_RSEQ
	const u32 *cpu_id = rb_rseq_cpu_id();
	u32 now = __atomic_load_n(cpu_id, __ATOMIC_RELAXED);

	return unlikely(now != cpu && now < buffer->nr_cpus);
#else
	(void)buffer, (void)cpu;
	return false;
#endif
}

/*
 * The number of CPU ids (the kernel's nr_cpu_ids): one more than the
 * highest possible CPU, so that every CPU rseq may report has its own
 * ring (the rule of rb_rseq.h needs a ring's writers to be on its CPU).
 * _SC_NPROCESSORS_CONF counts the CPUs, which is the same unless their
 * ids have holes.
 */
unsigned int ring_buffer_cpu_ids(void)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned int n = conf < 1 ? 1 : (unsigned int)conf, a, b;
	char buf[256], *p = buf;
	ssize_t len;
	int fd;

	fd = open("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return n;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return n;
	buf[len] = 0;
	/* "0-3,8-11": the last number is the highest. */
	while (*p) {
		int used = 0;

		if (sscanf(p, "%u-%u%n", &a, &b, &used) != 2 &&
		    (sscanf(p, "%u%n", &b, &used) != 1 || !used))
			break;
		if (b < 8192 && b + 1 > n)
			n = b + 1;
		p += used;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

/* ------------------------------------------------------------------
 * Fencing the restartable sequences (rb_rseq.h)
 */

/*
 * Run on @cpu, then back on the CPUs the thread had: while it runs there
 * no other thread does, and a sequence it interrupted restarts.  The
 * fence when membarrier(2) is refused after the buffers were made.
 */
static int rb_visit_cpu(unsigned int cpu)
{
	size_t size = CPU_ALLOC_SIZE(CPU_SETSIZE), one_size = CPU_ALLOC_SIZE(cpu + 1);
	cpu_set_t *saved = NULL, *one;
	int ret = 0;

	for (unsigned int n = CPU_SETSIZE;; n *= 2) {
		size = CPU_ALLOC_SIZE(n);
		saved = CPU_ALLOC(n);
		if (!saved || !sched_getaffinity(0, size, saved))
			break;
		CPU_FREE(saved);
		saved = NULL;
		if (errno != EINVAL || n >= (1u << 20))
			break;
	}
	one = CPU_ALLOC(cpu + 1);
	if (!saved || !one) {
		ret = -ENOMEM;
	} else {
		CPU_ZERO_S(one_size, one);
		CPU_SET_S(cpu, one_size, one);
		if (sched_setaffinity(0, one_size, one))
			/* EINVAL: a CPU none of our threads may run on. */
			ret = errno == EINVAL ? 0 : -errno;
		else
			sched_setaffinity(0, size, saved);
	}
	CPU_FREE(saved);
	CPU_FREE(one);
	return ret;
}

/* This process registered for MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ: its pid, or 0. */
static pid_t rb_fence_pid;

/*
 * Whether this process can fence its sequences with membarrier(2):
 * registered once per process (a forked child registers its own).
 */
static bool rb_fence_ready(void)
{
	pid_t pid = getpid();

	if (__atomic_load_n(&rb_fence_pid, __ATOMIC_ACQUIRE) == pid)
		return true;
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0))
		return false;
	__atomic_store_n(&rb_fence_pid, pid, __ATOMIC_RELEASE);
	return true;
}

int rb_fence_cpu(unsigned int cpu)
{
	int saved = errno, ret = 0;

	if (rb_fence_ready()) {
		if (!syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ,
			     MEMBARRIER_CMD_FLAG_CPU, cpu))
			goto out;
		/* Before Linux 5.10, no MEMBARRIER_CMD_FLAG_CPU: every CPU. */
		if (!syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, 0, 0))
			goto out;
	}
	ret = rb_visit_cpu(cpu);
out:
	errno = saved;
	return ret;
}

/* Hold a copy of @cur: the flag added, every other bit kept. */
static struct rb_tail rb_held(struct rb_tail cur)
{
	return (struct rb_tail){ cur.pos | RB_OFF_HOLD, cur.ts };
}

enum rb_cas rb_tail_change(struct rb_cpu_meta *meta, unsigned int cpu, struct rb_tail *old,
			   rb_tail_fn fn, void *arg)
{
	struct rb_tail cur = *old, new;

	for (unsigned int tries = 0;; tries++) {
		if (rb_tail_open(cur.pos) && rb_rseq_writes()) {
			/*
			 * Hold it, fence the CPU's sequences, and look: a
			 * sequence that compared before the hold and stored
			 * after it has undone it (the tail is open again); one
			 * that had not stored is restarted by the fence, and
			 * none starts on a held tail.
			 */
			new = rb_held(cur);
			if (!rb_tail_cmpxchg(&meta->tail, &cur, new))
				continue;
			if (rb_fence_cpu(cpu)) {
				cur = new;
				new.pos &= ~(u64)RB_OFF_HOLD;
				rb_tail_cmpxchg(&meta->tail, &cur, new);
				return RB_CAS_REFUSED;
			}
			cur = rb_tail_snapshot(&meta->tail);
			if (rb_tail_open(cur.pos)) {
				/* Undone by a sequence that stored before the fence. */
				if (tries > 1000)
					return RB_CAS_REFUSED;
				continue;
			}
		}
		/* Not open: only cmpxchg16b changes it now. */
		if (!fn((struct rb_tail){ cur.pos & ~(u64)RB_OFF_HOLD, cur.ts }, arg, &new)) {
			/* Take our hold down, if it is still there. */
			while ((cur.pos & RB_OFF_HOLD) && !rb_off_frozen(rb_pos_off(cur.pos))) {
				new = (struct rb_tail){ cur.pos & ~(u64)RB_OFF_HOLD, cur.ts };
				if (rb_tail_cmpxchg(&meta->tail, &cur, new))
					break;
			}
			return RB_CAS_ABANDONED;
		}
		/* @fn's value has no hold (it got the tail without it). */
		if (rb_tail_cmpxchg(&meta->tail, &cur, new)) {
			/* What it was, without our hold. */
			*old = (struct rb_tail){ cur.pos & ~(u64)RB_OFF_HOLD, cur.ts };
			return RB_CAS_OK;
		}
	}
}

/* The tail, locked. */
static bool rb_lock_fn(struct rb_tail cur, void *arg, struct rb_tail *new)
{
	(void)arg;
	if (rb_off_frozen(rb_pos_off(cur.pos)) || (cur.pos & RB_OFF_LOCKED))
		return false;
	*new = (struct rb_tail){ cur.pos | RB_OFF_LOCKED, cur.ts };
	return true;
}

int rb_lock_tail(struct rb_cpu_meta *meta, unsigned int cpu)
{
	struct rb_tail old, new;

	/* First: a reset or resize from here on makes its tail locked too. */
	__atomic_store_n(&meta->locked, 1, __ATOMIC_SEQ_CST);
	old = rb_tail_snapshot(&meta->tail);
	if (rb_tail_change(meta, cpu, &old, rb_lock_fn, NULL) != RB_CAS_REFUSED)
		return 0;
	/*
	 * No fence: locked all the same, with the small chance that a
	 * sequence running now undoes it (rb_rseq.h's limits).
	 */
	while (rb_lock_fn(old, NULL, &new) && !rb_tail_cmpxchg(&meta->tail, &old, new))
		;
	return -EPERM;
}

/*
 * Whether the CPU rseq reports has a ring: always, as the rings are as
 * many as the CPU ids (rb_cpu_ids()); a writer on a CPU beyond them could
 * not change any tail (rb_rseq.h), and drops its event rather than loop.
 */
static inline bool rb_cpu_has_ring(const struct trace_buffer *buffer)
{
#ifdef RB_RSEQ_TAIL
	return rb_rseq_cpu() < buffer->nr_cpus;
#else
	(void)buffer;
	return true;
#endif
}

/* rb_reserve_slow() when the writer moved: start over. */
#define RB_RESERVE_MOVED	((struct ring_buffer_event *)-1)

/* ------------------------------------------------------------------
 * Integrity
 */

noinline void rb_corrupt(struct trace_buffer *buffer, int cpu, const char *what)
{
	ustrace_warn_once("ustrace: ring buffer: %s on CPU %d; recording disabled\n",
			  what, cpu);
	ring_buffer_record_off(buffer);
}

/* ------------------------------------------------------------------
 * Writing: changing pages
 */

/*
 * Make the slot after the tail page ready for page @nseq: take the free
 * page it holds, or (overwrite mode) the oldest unread page, counting its
 * events as overrun.  The claim is the slot cmpxchg; it races with other
 * writers claiming the same slot (any of them may win, the others find it
 * claimed) and with the reader swapping the oldest page out (one wins).
 *
 * Return: 0 with the page and slot, -EAGAIN if the tail moved on under us,
 * -ENOBUFS (full, producer/consumer mode), -EBUSY (commit overrun: the
 * page there still has reservations from the last turn; not counted: the
 * writer may reap them, rb_reserve_slow()), -EIO (corrupt).
 */
int rb_claim_next(struct trace_buffer *buffer, char *region, u64 pos,
		  enum rb_claim_mode mode, u32 *npage, u32 *nslot)
{
	struct rb_cpu_meta *meta = (struct rb_cpu_meta *)region;
	u32 n = __atomic_load_n(&meta->nr_slots, __ATOMIC_RELAXED);
	u32 nseq = (rb_pos_seq(pos) + 1) & RB_SEQ_MASK;
	u32 cur = rb_get_page_slot(region, rb_pos_page(pos));
	u64 *slot, w, new;
	u32 old_lost;

	if (unlikely(cur >= n || rb_pos_page(pos) >= RB_MAX_PAGES))
		return -EIO;
	*nslot = cur + 1 == n ? 0 : cur + 1;
	slot = &rb_slots(region)[*nslot];
	w = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	for (;;) {
		u32 seq = rb_slot_seq(w);

		if (seq == nseq) {
			/* Another writer claimed it for the same page. */
			*npage = rb_slot_page(w);
			return 0;
		}
		if (rb_seq_diff(nseq, seq) != (int32_t)n)
			return -EAGAIN;
		if (!(w & RB_SLOT_CONSUMED)) {
			if (rb_slot_committed(w) != RB_SLOT_FULL)
				return -EBUSY;
			if (mode == RB_CLAIM_FLUSH)
				return -ENOBUFS;
			if (!(__atomic_load_n(&buffer->flags, __ATOMIC_RELAXED) &
			      RB_FL_OVERWRITE)) {
				__atomic_add_fetch(&meta->dropped, 1, __ATOMIC_RELAXED);
				return -ENOBUFS;
			}
		}
		/*
		 * The page we may overwrite carries the count of events
		 * refused before it was opened, not yet seen by any reader:
		 * hand it on to the next page opened.  Read it before the
		 * claim; only the claimer's switch can change it afterwards.
		 */
		old_lost = (w & RB_SLOT_CONSUMED) ? 0 : rb_get_lost(region, *nslot);
		new = rb_mkslot(rb_slot_page(w), nseq, 0, 0, false);
		/*
		 * acq_rel: acquire pairs with the release of the reader's swap
		 * (the page it gave back, its page_slot entry) and with the
		 * commits of the page we overwrite; release orders nothing
		 * we wrote yet, but the tail cmpxchg that follows is a full
		 * barrier anyway.
		 */
		if (__atomic_compare_exchange_n(slot, &w, new, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			if (!(w & RB_SLOT_CONSUMED)) {
				__atomic_add_fetch(&meta->overrun, rb_slot_entries(w),
						   __ATOMIC_RELAXED);
				if (old_lost)
					__atomic_add_fetch(&meta->pending_lost, old_lost,
							   __ATOMIC_RELAXED);
			}
			*npage = rb_slot_page(w);
			return 0;
		}
	}
}

/*
 * The switcher's duties, after its tail cmpxchg moved the tail from @old to
 * page @npage (slot @nslot) at time @ts:
 *
 *  1. stamp the new page and flag the losses since the last page opened,
 *     then add the open mark (release: the stamp is visible to whoever
 *     sees the page complete);
 *  2. record the end of the old page's data in its commit word, pad the
 *     rest, then add the padding and the close mark (release: same).
 *
 * Until both marks are in, neither page can complete, so no reader and no
 * overwriting writer can take them from under us.
 */
void rb_finish_switch(char *region, u64 old, u32 npage, u32 nslot, u64 ts)
{
	struct rb_cpu_meta *meta = (struct rb_cpu_meta *)region;
	u32 opage = rb_pos_page(old);
	u32 off = rb_pos_used(old);
	u32 oslot = rb_get_page_slot(region, opage);
	u32 *pad = rb_page_data(region, opage) + off / 4;
	u32 left = RB_DATA_SIZE - off;

	__atomic_store_n(rb_page_stamp(region, npage), ts, __ATOMIC_RELAXED);
	rb_set_lost(region, nslot,
		    (u32)__atomic_exchange_n(&meta->pending_lost, 0, __ATOMIC_RELAXED));
	__atomic_add_fetch(&rb_slots(region)[nslot], RB_MARK_OPEN, __ATOMIC_RELEASE);

	__atomic_store_n(rb_page_commit(region, opage), off, __ATOMIC_RELAXED);
	if (left >= 8) {
		/* A discarded-event padding, as the kernel's rb_reset_tail(). */
		pad[1] = left - RB_EVNT_HDR_SIZE;
		pad[0] = rb_hdr(RINGBUF_TYPE_PADDING, 1);
	} else if (left) {
		pad[0] = rb_hdr(RINGBUF_TYPE_PADDING, 0);
	}
	/*
	 * seq_cst (the same lock add on x86): the writer's load of
	 * meta->wait after it (rb_wait_check()) cannot be ordered before
	 * it, against the reader's store of wait and load of the tail.
	 */
	__atomic_add_fetch(&rb_slots(region)[oslot], left + RB_MARK_CLOSE, __ATOMIC_SEQ_CST);
}

/*
 * Wake every reader sleeping on the mapping's wake word (in the header
 * page, before the view's CPU regions): a bump, then FUTEX_WAKE (shared:
 * a reader may be in another process).  From any context, signal
 * handlers included; errno is left as it was.
 */
noinline void rb_wake_view(uintptr_t view)
{
	struct rb_shared_header *h = (struct rb_shared_header *)(rb_view_base(view) - RB_HDR_SIZE);
	int saved = errno;

	__atomic_add_fetch(&h->wake, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &h->wake, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	errno = saved;
}

/*
 * The page switch reached seq @nseq and a reader waits (@w, loaded from
 * meta->wait): wake it if its watermark is reached.  One switcher takes
 * the word (cmpxchg to 0) and wakes; readers re-arm when they look again.
 */
static noinline void rb_wait_check(struct rb_cpu_meta *meta, uintptr_t view, u32 w, u32 nseq)
{
	if (rb_seq_diff(nseq, w & RB_SEQ_MASK) < 0)
		return;
	if (__atomic_compare_exchange_n(&meta->wait, &w, 0, false, __ATOMIC_SEQ_CST,
					__ATOMIC_RELAXED))
		rb_wake_view(view);
}

static noinline struct ring_buffer_event *rb_drop(struct rb_cpu_meta *meta, int err)
{
	__atomic_add_fetch(&meta->pending_lost, 1, __ATOMIC_RELAXED);
	errno = err;
	return NULL;
}

/*
 * A commit overrun: the page in slot @nslot, a turn behind the tail, is
 * still not complete.  If writers that died left it so, their
 * reservations become padding (rb_reap(), a millisecond after one that failed) and
 * the writer claims it after all.  Return: whether to try the claim
 * again (reaped, or completed meanwhile).
 */
static noinline bool rb_reap_next(uintptr_t view, unsigned int cpu, u32 nslot)
{
	char *region = rb_view_region(view, cpu);
	u64 w = __atomic_load_n(&rb_slots(region)[nslot], __ATOMIC_ACQUIRE);
	u32 page = rb_slot_page(w), end;

	if (rb_slot_committed(w) == RB_SLOT_FULL)
		return true;
	if (page >= RB_MAX_PAGES || !rb_reap_due((struct rb_cpu_meta *)region))
		return false;
	/* Its metadata is in every view; the page maybe only in a newer one. */
	region = rb_region_for(view, cpu, page);
	end = (u32)__atomic_load_n(rb_page_commit(region, page), __ATOMIC_RELAXED);
	return rb_reap(rb_view_base(view) - RB_HDR_SIZE, region, nslot, w, end, RB_SLOT_FULL);
}

/*
 * The event does not fit on the tail page (or the CPU is frozen): move the
 * tail to the next page, or drop.  Every writer in here is counted in
 * meta->switching, so that reset and resize can wait for us.
 */
static noinline struct ring_buffer_event *
rb_reserve_slow(struct trace_buffer *buffer, uintptr_t view, unsigned int cpu, u32 evsize)
{
	char *region = rb_view_region(view, cpu);
	struct rb_cpu_meta *meta = (struct rb_cpu_meta *)region;
	bool abs = __atomic_load_n(&buffer->time_stamp_abs, __ATOMIC_RELAXED);
	struct ring_buffer_event *event = NULL;
	struct rb_tail old, new, seen;
	u32 npage, nslot, off, size, w;
	enum rb_cas cas;
	u64 ts, delta;
	bool ext;
	int ret;

	/* Pairs with the seq_cst tail cmpxchg and load in rb_freeze(). */
	__atomic_add_fetch(&meta->switching, 1, __ATOMIC_SEQ_CST);
	old = rb_tail_snapshot(&meta->tail);
	for (;;) {
		off = rb_pos_off(old.pos);
		if (rb_off_frozen(off)) {
			if (off == RB_OFF_FROZEN_RESIZE) {
				__atomic_add_fetch(&meta->dropped, 1, __ATOMIC_RELAXED);
				rb_drop(meta, EAGAIN);
			} else {
				errno = EBUSY;
			}
			goto out;
		}
		if (unlikely(off & RB_OFF_BELL)) {
			/* A reader waits for any data: take the bell down, wake it. */
			new.pos = old.pos & ~(u64)RB_OFF_BELL;
			new.ts = old.ts;
			if (rb_tail_cas(&meta->tail, cpu, &old, new) == RB_CAS_OK) {
				rb_wake_view(view);
				old = new;
			}
			continue;
		}
		/* Held or locked (rb_rseq.h): reserve as on an open tail, with cmpxchg16b. */
		off = rb_pos_used(old.pos);
		ts = rb_later(rb_clock(buffer), old.ts);
		if (rb_moved(buffer, cpu)) {
			event = RB_RESERVE_MOVED;
			goto out;
		}
		delta = ts - old.ts;
		ext = abs || delta > RB_MARK_DELTA_MAX;
		size = evsize + (ext ? RB_LEN_TIME_EXTEND : 0);
		if (off + size <= RB_DATA_SIZE) {
			/* Someone moved the tail meanwhile: it fits now. */
			new.pos = old.pos + size;
			new.ts = ts;
			cas = rb_tail_cas(&meta->tail, cpu, &old, new);
			if (cas == RB_CAS_ELSEWHERE) {
				event = RB_RESERVE_MOVED;
				goto out;
			}
			if (cas != RB_CAS_OK)
				continue;
			npage = rb_pos_page(old.pos);
			event = rb_fill_event(rb_page_data(rb_region_for(view, cpu, npage), npage) +
					      off / 4, evsize, delta, ts, ext, abs,
					      __atomic_load_n(&rb_mark, __ATOMIC_RELAXED));
			goto out;
		}
		/* On a fresh page the event needs no time extend. */
		size = evsize + (abs ? RB_LEN_TIME_EXTEND : 0);
		if (size > RB_DATA_SIZE) {
			__atomic_add_fetch(&meta->dropped, 1, __ATOMIC_RELAXED);
			rb_drop(meta, EMSGSIZE);
			goto out;
		}
		ret = rb_claim_next(buffer, region, old.pos, RB_CLAIM_WRITER, &npage, &nslot);
		if (ret == -EAGAIN || ret == -EIO) {
			seen = old;
			old = rb_tail_snapshot(&meta->tail);
			if (old.pos != seen.pos || old.ts != seen.ts)
				continue;
			rb_corrupt(buffer, (int)cpu, "slot words disagree with the tail");
			errno = EIO;
			goto out;
		}
		if (ret == -EBUSY) {
			/* The page there was left unfinished by a writer that died? */
			if (rb_reap_next(view, cpu, nslot))
				continue;
			__atomic_add_fetch(&meta->commit_overrun, 1, __ATOMIC_RELAXED);
		}
		if (ret < 0) {
			rb_drop(meta, ENOBUFS);
			goto out;
		}
		/*
		 * A lock stays, and so does a reader's hold: dropped, it would
		 * make the reader start over, which a page switch in every
		 * fence (writers at full speed) could make it do for ever.
		 */
		new.pos = rb_mkpos(npage, rb_pos_seq(old.pos) + 1, size) |
			  (old.pos & (RB_OFF_LOCKED | RB_OFF_HOLD));
		new.ts = ts;
		cas = rb_tail_cas(&meta->tail, cpu, &old, new);
		if (cas == RB_CAS_ELSEWHERE) {
			/* The claim stays: the next switch on @cpu takes it. */
			event = RB_RESERVE_MOVED;
			goto out;
		}
		if (cas != RB_CAS_OK)
			continue;
		/* Both pages may be past the end of the view read (rb_region_for()). */
		region = rb_region_for(view, cpu, npage > rb_pos_page(old.pos) ? npage :
						  rb_pos_page(old.pos));
		rb_finish_switch(region, old.pos, npage, nslot, ts);
		/* The only cost of waiting readers to a writer: a load, a branch. */
		w = __atomic_load_n(&meta->wait, __ATOMIC_SEQ_CST);
		if (unlikely(w))
			rb_wait_check(meta, view, w, rb_pos_seq(new.pos));
		event = rb_fill_event(rb_page_data(region, npage), evsize, 0, ts, abs, abs,
				      __atomic_load_n(&rb_mark, __ATOMIC_RELAXED));
		goto out;
	}
out:
	__atomic_sub_fetch(&meta->switching, 1, __ATOMIC_RELEASE);
	return event;
}

static noinline struct ring_buffer_event *rb_refuse(char *region)
{
	struct rb_cpu_meta *meta = (struct rb_cpu_meta *)region;

	__atomic_add_fetch(&meta->dropped, 1, __ATOMIC_RELAXED);
	return rb_drop(meta, EMSGSIZE);
}

/*
 * Everything the fast path leaves out: clocks other than local, absolute
 * time stamps, no rseq, recording off, refusals.
 */
static noinline struct ring_buffer_event *
rb_reserve_generic(struct trace_buffer *buffer, unsigned long length)
{
	struct ring_buffer_event *event;
	struct rb_cpu_meta *meta;
	struct rb_tail old, new;
	u32 evsize, size, off, page;
	u64 now, ts, delta;
	enum rb_cas cas;
	unsigned int cpu;
	uintptr_t view;
	char *region;
	bool ext, abs;

	if (unlikely(__atomic_load_n(&buffer->record_disabled, __ATOMIC_RELAXED) & ~RB_BUFFER_SLOW)) {
		errno = EBUSY;
		return NULL;
	}
again:
	cpu = rb_this_cpu(buffer);
	view = rb_view(buffer);
	region = rb_view_region(view, cpu);
	meta = (struct rb_cpu_meta *)region;
	/* A write refused because recording is off is not a loss. */
	if (unlikely(__atomic_load_n(&meta->record_disabled, __ATOMIC_RELAXED))) {
		errno = EBUSY;
		return NULL;
	}
	if (unlikely(length > RB_MAX_DATA_SIZE))
		return rb_refuse(region);
	abs = __atomic_load_n(&buffer->time_stamp_abs, __ATOMIC_RELAXED);
	evsize = rb_data_event_size(length);
	old.pos = __atomic_load_n(&meta->tail.pos, __ATOMIC_RELAXED);
	old.ts = __atomic_load_n(&meta->tail.ts, __ATOMIC_RELAXED);
	now = rb_clock(buffer);
	for (;;) {
		if (rb_moved(buffer, cpu))
			goto again;
		ts = rb_later(now, old.ts);
		delta = ts - old.ts;
		ext = abs || delta > RB_MARK_DELTA_MAX;
		size = evsize + (ext ? RB_LEN_TIME_EXTEND : 0);
		off = rb_pos_off(old.pos);
		if (off + size > RB_DATA_SIZE) {
			event = rb_reserve_slow(buffer, view, cpu, evsize);
			if (event == RB_RESERVE_MOVED)
				goto again;
			return event;
		}
		new.pos = old.pos + size;
		new.ts = ts;
		cas = rb_tail_cas(&meta->tail, cpu, &old, new);
		if (cas == RB_CAS_OK)
			break;
		if (cas == RB_CAS_ELSEWHERE) {
			if (unlikely(!rb_cpu_has_ring(buffer))) {
				__atomic_add_fetch(&meta->dropped, 1, __ATOMIC_RELAXED);
				return rb_drop(meta, ENODEV);
			}
			goto again;
		}
		now = rb_clock(buffer);
	}
	page = rb_pos_page(old.pos);
	return rb_fill_event(rb_page_data(rb_region_for(view, cpu, page), page) + off / 4,
			     evsize, delta, ts, ext, abs, __atomic_load_n(&rb_mark, __ATOMIC_RELAXED));
}

/**
 * ring_buffer_lock_reserve - reserve space for an event
 * @buffer: the buffer
 * @length: payload bytes, at most RB_MAX_DATA_SIZE
 *
 * Reserves the event in the ring of the CPU the thread runs on.  The
 * caller fills ring_buffer_event_data() and then calls
 * ring_buffer_unlock_commit() or ring_buffer_discard_commit(), from any
 * thread and CPU.  Reservations may nest and interleave freely; a page is
 * readable once every reservation on it is committed.
 *
 * Return: the event, or NULL with errno EBUSY (recording is off), ENOBUFS
 * (full in producer/consumer mode, or the next page still has
 * uncommitted events: counted), EMSGSIZE (too large: counted), EAGAIN (a
 * resize holds the CPU: counted) or EIO (the buffer is corrupt).
 * Context: any thread, signal handlers included; never blocks, never
 * calls the kernel.
 */
struct ring_buffer_event *ring_buffer_lock_reserve(struct trace_buffer *buffer,
						   unsigned long length)
{
	struct ring_buffer_event *event;
	u64 *word, add;

	event = rb_reserve_fast(buffer, length, RB_MAX_DATA_SIZE, &word, &add, NULL);
	if (likely(event))
		return event;
	return rb_reserve_generic(buffer, length);
}

/*
 * The slot of the page an event lives on.  Stable while the event is
 * reserved: the page cannot complete, so nobody can move it.
 */
static inline u64 *rb_event_slot(char *region, u32 page)
{
	u32 slot = rb_get_page_slot(region, page);

	if (unlikely(slot >= ((struct rb_cpu_meta *)region)->nr_slots))
		return NULL;
	return &rb_slots(region)[slot];
}

/* What a commit may add: never more than the rest of the page. */
static inline u32 rb_commit_size(const u32 *ev, u32 off)
{
	u32 size = rb_reserved_size(ev);

	if (unlikely(size > RB_DATA_SIZE - off))
		return 0;
	return size;
}

static noinline int rb_commit_generic(struct trace_buffer *buffer,
				      struct ring_buffer_event *event)
{
	u32 page, off, size;
	char *region;
	u64 *slot;

	if (rb_locate(buffer, event, &region, &page, &off))
		return -EINVAL;
	size = rb_commit_size((const u32 *)event, off);
	slot = rb_event_slot(region, page);
	if (unlikely(!slot || !size)) {
		rb_corrupt(buffer, rb_region_cpu(buffer, region), "bad event committed");
		return -EINVAL;
	}
	rb_commit_hdr(rb_is_time_event(*(u32 *)event) ? (u32 *)event + 2 : (u32 *)event, slot,
		      RB_SLOT_ONE_ENTRY + size);
	return 0;
}

/**
 * ring_buffer_unlock_commit - commit a reserved event
 * @buffer: the buffer the event was reserved in
 * @event: the event ring_buffer_lock_reserve() returned
 *
 * Return: 0, or -EINVAL if @event does not point into the data of
 * @buffer's pages (a malformed header there disables the buffer).  A
 * pointer into the pages is otherwise trusted: committing one
 * event twice, or an event that was never reserved, corrupts the counts.
 * Context: any thread; never blocks.
 */
int ring_buffer_unlock_commit(struct trace_buffer *buffer, struct ring_buffer_event *event)
{
	uintptr_t view = rb_view(buffer);
	unsigned int shift = rb_view_shift(view);
	char *base = rb_view_base(view);
	uintptr_t a = (uintptr_t)event - (uintptr_t)base;
	uintptr_t in = (a & ((1ul << shift) - 1)) - RB_META_SIZE;
	char *region;
	u32 type;
	u16 slot;

	/*
	 * Small data events of the current view here; everything else is
	 * checked the long way.  The header is read only once the address
	 * is known to be ours.
	 */
	if (unlikely((a >> shift) >= buffer->nr_cpus ||
		     in >= (uintptr_t)rb_stride_pages(shift) << RB_PAGE_SHIFT ||
		     (in & (RB_PAGE_SIZE - 1)) < RB_PAGE_HDR_SIZE))
		return rb_commit_generic(buffer, event);
	type = rb_hdr_type(*(const u32 *)event);
	if (unlikely(type - 1 >= RINGBUF_TYPE_DATA_TYPE_LEN_MAX))
		return rb_commit_generic(buffer, event);
	region = base + (a & ~((1ul << shift) - 1));
	slot = rb_get_page_slot(region, in >> RB_PAGE_SHIFT);
	if (unlikely(slot >= RB_MAX_PAGES))
		return rb_commit_generic(buffer, event);
	rb_commit_hdr((u32 *)event, &rb_slots(region)[slot],
		      RB_SLOT_ONE_ENTRY + type * 4 + RB_EVNT_HDR_SIZE);
	return 0;
}

/* Turn a reserved event into padding, as the kernel's rb_event_discard(). */
static void rb_event_discard(u32 *ev)
{
	if (rb_is_time_event(ev[0]))
		ev += 2;
	rb_make_padding(ev, rb_data_size(ev));
}

/* The delta an event added to the time; 0 for an absolute stamp. */
static u64 rb_reserved_delta(const u32 *ev)
{
	if (rb_hdr_type(ev[0]) == RINGBUF_TYPE_TIME_EXTEND)
		return rb_time_value(ev);
	if (rb_hdr_type(ev[0]) == RINGBUF_TYPE_TIME_STAMP)
		return 0;
	return rb_data_delta(ev[0]);
}

/**
 * ring_buffer_discard_commit - throw a reserved event away
 * @buffer: the buffer the event was reserved in
 * @event: the event ring_buffer_lock_reserve() returned, not committed
 *
 * If nothing was reserved after the event, its space is given back;
 * otherwise it becomes padding (with its time delta kept, so readers
 * keep the time right).  Either way it is not counted as an entry.
 * Do not call ring_buffer_unlock_commit() for it.
 *
 * Context: any thread; never blocks.
 */
void ring_buffer_discard_commit(struct trace_buffer *buffer, struct ring_buffer_event *event)
{
	u32 *ev = (u32 *)event;
	u32 page, off, size;
	struct rb_tail cur, new;
	struct rb_cpu_meta *meta;
	char *region;
	u64 *slot;

	if (unlikely(rb_locate(buffer, event, &region, &page, &off)))
		return;
	meta = (struct rb_cpu_meta *)region;
	size = rb_commit_size(ev, off);
	slot = rb_event_slot(region, page);
	if (unlikely(!slot || !size)) {
		rb_corrupt(buffer, rb_region_cpu(buffer, region), "bad event discarded");
		return;
	}
	cur.pos = __atomic_load_n(&meta->tail.pos, __ATOMIC_RELAXED);
	cur.ts = __atomic_load_n(&meta->tail.ts, __ATOMIC_RELAXED);
	/* The last event reserved (a flag of the tail kept as it is). */
	if ((cur.pos & ~(u64)RB_OFF_FLAGS) ==
	    rb_mkpos(page, rb_slot_seq(__atomic_load_n(slot, __ATOMIC_RELAXED)), off + size)) {
		new.pos = cur.pos - size;
		new.ts = cur.ts - rb_reserved_delta(ev);
		/* From another CPU, or changed meanwhile: padding instead. */
		if (rb_tail_cas(&meta->tail, (unsigned int)rb_region_cpu(buffer, region), &cur,
				new) == RB_CAS_OK)
			return;
	}
	rb_event_discard(ev);
	__atomic_add_fetch(slot, size, __ATOMIC_RELEASE);
}

/**
 * ring_buffer_write - write one event
 * @buffer: the buffer
 * @length: payload bytes
 * @data: the payload
 *
 * Return: 0, or -EBUSY when the event was not written (see
 * ring_buffer_lock_reserve() for why; errno says).
 */
int ring_buffer_write(struct trace_buffer *buffer, unsigned long length, void *data)
{
	struct ring_buffer_event *event;
	u64 *word, add;
	u32 *hdr;

	/*
	 * The fast path knows the word its commit adds to: the commit is
	 * the inline one of the event probes (rb_fast.h), with no need to
	 * find the event's page again.
	 */
	event = rb_reserve_fast(buffer, length, RB_MAX_DATA_SIZE, &word, &add, NULL);
	if (likely(event && word)) {
		hdr = (u32 *)event;
		if (rb_is_time_event(*hdr))
			hdr += 2;
		memcpy(ring_buffer_event_data(event), data, length);
		rb_commit_hdr(hdr, word, add);
		return 0;
	}
	if (!event)
		event = rb_reserve_generic(buffer, length);
	if (!event)
		return -EBUSY;
	memcpy(ring_buffer_event_data(event), data, length);
	return ring_buffer_unlock_commit(buffer, event);
}

/* ------------------------------------------------------------------
 * Setting up, resetting, resizing
 */

/*
 * A fresh ring of @nr_slots pages: the first slot's page open at seq 0 as
 * the tail, every other slot free (consumed, from the turn before).  At
 * allocation (@fresh) page j goes in slot j and the reader gets page
 * nr_slots; on a reset every page stays where it is.  Only while nobody
 * else can touch the CPU: at allocation, or frozen.
 */
static void rb_init_cpu(struct ring_buffer_per_cpu *cpu_buffer, u32 nr_slots, u64 now,
			bool fresh)
{
	struct rb_cpu_meta *meta = cpu_buffer->meta;
	char *region = cpu_buffer->region;
	u32 reader_page = fresh ? nr_slots : cpu_buffer->r.page;
	u32 first = fresh ? 0 : rb_slot_page(cpu_buffer->slots[0]);

	for (u32 j = 0; j < nr_slots; j++) {
		u32 page = fresh ? j : rb_slot_page(cpu_buffer->slots[j]);
		u32 seq = j ? j - nr_slots : 0;

		cpu_buffer->slots[j] = j ? rb_mkslot(page, seq, 0, RB_SLOT_FULL, true)
					 : rb_mkslot(page, 0, 0, RB_MARK_OPEN, false);
		rb_set_page_slot(region, page, j);
		rb_set_lost(region, j, 0);
	}
	*rb_page_stamp(region, first) = now;
	*rb_page_commit(region, first) = 0;
	meta->nr_slots = nr_slots;
	if (fresh)
		meta->nr_pages = nr_slots + 1;
	meta->overrun = 0;
	meta->commit_overrun = 0;
	meta->dropped = 0;
	meta->pending_lost = 0;
	meta->killed = 0;
	memset(&cpu_buffer->r, 0, sizeof(cpu_buffer->r));
	cpu_buffer->r.page = reader_page;
}

static u64 rb_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

/* Every reservation committed, no switch half done, with the tail @tail. */
static bool rb_quiescent(struct ring_buffer_per_cpu *cpu_buffer, struct rb_tail tail)
{
	u32 n = cpu_buffer->meta->nr_slots;
	u32 tslot = rb_get_page_slot(cpu_buffer->region, rb_pos_page(tail.pos));

	/* Signed: a forced reset zeroes it under a writer that then leaves. */
	if ((int32_t)__atomic_load_n(&cpu_buffer->meta->switching, __ATOMIC_SEQ_CST) > 0)
		return false;
	for (u32 j = 0; j < n; j++)
		if (rb_slot_waits(j, __atomic_load_n(&cpu_buffer->slots[j], __ATOMIC_ACQUIRE),
				  tslot, tail.pos))
			return false;
	return true;
}

/*
 * Take a CPU from the writers: a tail that no event fits (@frozen_off says
 * why), then wait until every writer that got in before is out.  The
 * reader lock is held.  *frozen is the tail as frozen, *saved as it was.
 *
 * A writer that died in the middle (a forked child killed) never gets
 * out: with @forced, a wait that times out takes the CPU anyway when a
 * process sharing the mapping died meanwhile (rb_writer_died()), and says
 * so in *forced.
 *
 * Return: 0; -EBUSY (a reservation stayed open); -EPERM (no fence for the
 * CPU's sequences could be had: rb_tail_change()).
 */
static bool rb_freeze_fn(struct rb_tail cur, void *arg, struct rb_tail *new)
{
	/* Frozen already: by a reader of another process sharing the buffer. */
	if (rb_off_frozen(rb_pos_off(cur.pos)))
		return false;
	*new = (struct rb_tail){ (cur.pos & ~0xffffull) | *(u32 *)arg, cur.ts };
	return true;
}

static int rb_freeze(struct ring_buffer_per_cpu *cpu_buffer, u32 frozen_off,
		     struct rb_tail *saved, struct rb_tail *frozen, bool *forced)
{
	struct rb_cpu_meta *meta = cpu_buffer->meta;
	struct rb_tail old, new;
	enum rb_cas ret;
	u64 deadline;

	old = rb_tail_snapshot(&meta->tail);
	ret = rb_tail_change(meta, (unsigned int)cpu_buffer->cpu, &old, rb_freeze_fn, &frozen_off);
	if (ret == RB_CAS_REFUSED)
		return -EPERM;
	if (ret != RB_CAS_OK)
		return -EBUSY;
	new = (struct rb_tail){ (old.pos & ~0xffffull) | frozen_off, old.ts };
	*saved = old;
	*frozen = new;

	/*
	 * The tail change is seq_cst, and so is the load of switching in
	 * rb_quiescent(): a writer either saw the frozen tail, or we see it
	 * counted in switching (it increments before it reads the tail).
	 * The fast path is not counted: its sequence either ended before
	 * the freeze's hold was fenced, and its reservation is in the tail
	 * frozen, or it finds the tail held or frozen.
	 */
	deadline = rb_mono_ns() + RB_QUIESCE_TIMEOUT_NS;
	while (!rb_quiescent(cpu_buffer, old)) {
		struct timespec pause = { .tv_nsec = 50 * 1000 };

		if (rb_mono_ns() > deadline) {
			if (forced && rb_writer_died(cpu_buffer)) {
				*forced = true;
				return 0;
			}
			/* Frozen: no sequence writes it (rb_rseq.h). */
			rb_tail_cmpxchg(&meta->tail, &new, old);
			return -EBUSY;
		}
		/* Reservations that writers gone left are reaped, not waited for. */
		rb_reap_cpu(cpu_buffer, old, false);
		nanosleep(&pause, NULL);
	}
	return 0;
}

/*
 * Give the CPU back with the tail @tail.  Nobody else changes a frozen
 * tail (and no sequence writes it: rb_rseq.h), so the cmpxchg succeeds; it
 * is a full barrier, publishing what we wrote while frozen.
 */
static void rb_thaw(struct ring_buffer_per_cpu *cpu_buffer, struct rb_tail frozen,
		    struct rb_tail tail)
{
	/* A locked CPU stays locked (rb_rseq.h). */
	if (__atomic_load_n(&cpu_buffer->meta->locked, __ATOMIC_SEQ_CST))
		tail.pos |= RB_OFF_LOCKED;
	if (!rb_tail_cmpxchg(&cpu_buffer->meta->tail, &frozen, tail))
		rb_corrupt(cpu_buffer->buffer, cpu_buffer->cpu, "frozen tail changed");
}

/**
 * ring_buffer_reset_cpu - empty a CPU's buffer and zero its counters
 * @buffer: the buffer
 * @cpu: the CPU
 *
 * Writers that arrive meanwhile are turned away without being counted (as
 * when recording is off).  Waits up to 2 s for reservations in progress;
 * if one is still open then, the CPU is left as it was (and a warning is
 * printed once); so it is when the thread may not run on the CPU for the
 * freeze (a seccomp filter refusing sched_setaffinity()).
 *
 * Context: takes the CPU's reader lock; may sleep.
 */
void ring_buffer_reset_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	struct rb_tail saved, frozen;
	bool forced = false;
	u64 now;

	if (!cpu_buffer)
		return;
	pthread_mutex_lock(&buffer->mutex);
	pthread_mutex_lock(&cpu_buffer->reader_lock);
	switch (rb_freeze(cpu_buffer, RB_OFF_FROZEN_RESET, &saved, &frozen, &forced)) {
	case 0:
		break;
	case -EPERM:
		ustrace_warn_once("ustrace: ring buffer: reset of CPU %d refused: its writers "
				  "could not be fenced (membarrier and sched_setaffinity "
				  "refused)\n", cpu);
		goto out;
	default:
		ustrace_warn_once("ustrace: ring buffer: reset of CPU %d gave up: "
				  "an event stays reserved\n", cpu);
		goto out;
	}
	if (forced) {
		/* The dead writer's count of the slow path goes with it. */
		__atomic_store_n(&cpu_buffer->meta->switching, 0, __ATOMIC_SEQ_CST);
		ustrace_warn_once("ustrace: ring buffer: CPU %d had an event reserved and never "
				  "committed by a process that died: reset anyway\n", cpu);
	}
	now = rb_clock(buffer);
	rb_init_cpu(cpu_buffer, cpu_buffer->meta->nr_slots, now, false);
	/* The seqs start over, and the bell is gone: waiters look and re-arm. */
	__atomic_store_n(&cpu_buffer->meta->wait, 0, __ATOMIC_SEQ_CST);
	rb_thaw(cpu_buffer, frozen, (struct rb_tail){
		rb_mkpos(rb_slot_page(cpu_buffer->slots[0]), 0, 0), now });
	rb_wake_view(rb_view(buffer));
out:
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	pthread_mutex_unlock(&buffer->mutex);
}

/** ring_buffer_reset - ring_buffer_reset_cpu() on every CPU */
void ring_buffer_reset(struct trace_buffer *buffer)
{
	for (int cpu = 0; buffer && cpu < (int)buffer->nr_cpus; cpu++)
		ring_buffer_reset_cpu(buffer, cpu);
}

/* A ring page that survives a resize. */
struct rb_keep {
	u32 page;
	u64 w;
	u32 lost;
};

/*
 * Rebuild a frozen ring with @nr_new slots.  The newest unread pages stay
 * (the tail page always), in order, in slots 0..m-1; older unread pages
 * that do not fit count as overrun, as in the kernel's rb_remove_pages().
 *
 * Pages never move: an event a reader got from ring_buffer_consume() stays
 * where it is.  The ring's other pages are reused as its free pages; when
 * there are not enough, the lowest unused page ids are added; when there
 * are too many, the memory of the extra ones is given back.  So page ids
 * are not always 0..nr_slots; meta->nr_pages bounds them.
 */
static int rb_rebuild(struct ring_buffer_per_cpu *cpu_buffer, struct rb_tail *tail, u32 nr_new)
{
	struct rb_cpu_meta *meta = cpu_buffer->meta;
	struct rb_reader *r = &cpu_buffer->r;
	u32 n = meta->nr_slots;
	u32 seq = rb_pos_seq(tail->pos), tpage = rb_pos_page(tail->pos);
	u32 tslot = rb_get_page_slot(cpu_buffer->region, tpage);
	u32 m = 0, nfree = 0, nspare = 0, top = r->page, first;
	u32 *spare, *free_ids;
	struct rb_keep *keep;
	u8 *used;
	int ret = -ENOMEM;

	keep = calloc(n, sizeof(*keep));
	spare = calloc(n, sizeof(*spare));
	free_ids = calloc(nr_new, sizeof(*free_ids));
	used = calloc(RB_MAX_PAGES, sizeof(*used));
	if (!keep || !spare || !free_ids || !used)
		goto out;

	/* Newest first: the tail page, then back until a page is gone. */
	for (u32 k = 0; k < n; k++) {
		u32 slot = (tslot + n - k) % n;
		u32 s = (seq - k) & RB_SEQ_MASK;
		u64 w = cpu_buffer->slots[slot];

		if (k && (rb_slot_seq(w) != s || w & RB_SLOT_CONSUMED ||
			  rb_seq_diff(s, r->head) < 0))
			break;
		keep[m++] = (struct rb_keep){ rb_slot_page(w), w,
					     rb_get_lost(cpu_buffer->region, slot) };
	}
	while (m > nr_new) {
		m--;
		meta->overrun += rb_slot_entries(keep[m].w);
	}
	first = (seq - (m - 1)) & RB_SEQ_MASK;

	/* The pages that stay, the ring's pages that are free, new ones. */
	used[r->page] = 1;
	for (u32 k = 0; k < m; k++)
		used[keep[k].page] = 1;
	for (u32 j = 0; j < n; j++) {
		u32 page = rb_slot_page(cpu_buffer->slots[j]);

		if (!used[page]) {
			used[page] = 2;
			spare[nspare++] = page;
		}
	}
	for (u32 k = 0; k < nspare && nfree < nr_new - m; k++)
		free_ids[nfree++] = spare[k];
	for (u32 id = 0; id < RB_MAX_PAGES && nfree < nr_new - m; id++)
		if (!used[id])
			free_ids[nfree++] = id;
	if (nfree < nr_new - m)
		goto out;

	/* keep[m-1] is the oldest: it goes to slot 0, the tail to m-1. */
	for (u32 k = 0; k < m; k++) {
		u32 slot = m - 1 - k;
		u64 w = keep[k].w;

		cpu_buffer->slots[slot] = rb_mkslot(keep[k].page, rb_slot_seq(w),
						    rb_slot_entries(w), rb_slot_committed(w),
						    false);
		rb_set_page_slot(cpu_buffer->region, keep[k].page, slot);
		rb_set_lost(cpu_buffer->region, slot, keep[k].lost);
		if (keep[k].page > top)
			top = keep[k].page;
	}
	for (u32 slot = m; slot < nr_new; slot++) {
		u32 id = free_ids[slot - m];
		u32 s = (seq + 1 + (slot - m) - nr_new) & RB_SEQ_MASK;

		cpu_buffer->slots[slot] = rb_mkslot(id, s, 0, RB_SLOT_FULL, true);
		rb_set_page_slot(cpu_buffer->region, id, slot);
		rb_set_lost(cpu_buffer->region, slot, 0);
		if (id > top)
			top = id;
	}
	meta->nr_slots = nr_new;
	meta->nr_pages = top + 1;

	/* The ring's pages that are left over: give their memory back. */
	for (u32 k = nr_new - m; k < nspare; k++)
		madvise(rb_page(cpu_buffer->region, spare[k]), RB_PAGE_SIZE, MADV_REMOVE);

	if (rb_seq_diff(r->head, first) < 0)
		r->head = first;
	r->head_slot = (u32)rb_seq_diff(r->head, first);
	ret = 0;
out:
	free(keep);
	free(spare);
	free(free_ids);
	free(used);
	return ret;
}

static int rb_resize_cpu(struct ring_buffer_per_cpu *cpu_buffer, u32 nr_slots)
{
	struct rb_tail saved, frozen;
	int ret;

	pthread_mutex_lock(&cpu_buffer->reader_lock);
	if (nr_slots == cpu_buffer->meta->nr_slots) {
		pthread_mutex_unlock(&cpu_buffer->reader_lock);
		return 0;
	}
	ret = rb_freeze(cpu_buffer, RB_OFF_FROZEN_RESIZE, &saved, &frozen, NULL);
	if (ret == -EPERM)
		ret = -EBUSY;	/* as when a reservation stays open */
	if (!ret) {
		struct rb_tail tail = saved;

		ret = rb_rebuild(cpu_buffer, &tail, nr_slots);
		rb_thaw(cpu_buffer, frozen, ret ? saved : tail);
	}
	pthread_mutex_unlock(&cpu_buffer->reader_lock);
	return ret;
}

static int rb_grow_view(struct trace_buffer *buffer, u32 pages);

static u32 rb_size_to_pages(unsigned long size)
{
	unsigned long nr = (size + RB_DATA_SIZE - 1) / RB_DATA_SIZE;

	return nr < 2 ? 2 : nr > RB_MAX_PAGES - 1 ? 0 : (u32)nr;
}

/**
 * ring_buffer_resize - change the size of a CPU's buffer, or of all
 * @buffer: the buffer
 * @size: bytes of event data per CPU; rounded up to whole pages, at least 2
 * @cpu: the CPU, or RING_BUFFER_ALL_CPUS
 *
 * Unread events are kept, newest first, as many as fit; older ones count
 * as overrun.  Writers that arrive during the resize (a few microseconds,
 * or as long as a reservation made before it stays uncommitted) are
 * dropped and counted in dropped events.
 *
 * Return: 0, -EINVAL (size above RB_MAX_PAGES pages, bad cpu), -ENOMEM,
 * -EBUSY (a reservation stayed open for 2 s).
 * Context: takes the reader locks; may sleep.
 */
int ring_buffer_resize(struct trace_buffer *buffer, unsigned long size, int cpu)
{
	u32 nr = rb_size_to_pages(size);
	int ret = 0;

	if (!buffer || (cpu != RING_BUFFER_ALL_CPUS && !rb_cpu_buffer(buffer, cpu)))
		return -EINVAL;
	if (!nr)
		return -EINVAL;
	pthread_mutex_lock(&buffer->mutex);
	/* A ring of nr slots and the reader's page: ids below nr + 1 (rb_rebuild()). */
	ret = rb_grow_view(buffer, nr + 1);
	for (int c = 0; c < (int)buffer->nr_cpus && !ret; c++)
		if (cpu == RING_BUFFER_ALL_CPUS || cpu == c)
			ret = rb_resize_cpu(&buffer->cpus[c], nr);
	/* Watermarks are in pages of the old size: waiters look and re-arm. */
	for (int c = 0; c < (int)buffer->nr_cpus; c++)
		if (cpu == RING_BUFFER_ALL_CPUS || cpu == c)
			__atomic_store_n(&buffer->cpus[c].meta->wait, 0, __ATOMIC_SEQ_CST);
	rb_wake_view(rb_view(buffer));
	pthread_mutex_unlock(&buffer->mutex);
	return ret;
}

/** ring_buffer_nr_pages - pages in a CPU's ring (0 for a bad cpu) */
size_t ring_buffer_nr_pages(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	return cpu_buffer ? __atomic_load_n(&cpu_buffer->meta->nr_slots, __ATOMIC_RELAXED) : 0;
}

/** ring_buffer_size - bytes of event data a CPU's ring holds (0 for a bad cpu) */
unsigned long ring_buffer_size(struct trace_buffer *buffer, int cpu)
{
	return ring_buffer_nr_pages(buffer, cpu) * RB_DATA_SIZE;
}

/** ring_buffer_nr_cpus - the CPUs of the buffer: 0 .. this - 1 */
int ring_buffer_nr_cpus(struct trace_buffer *buffer)
{
	return buffer ? (int)buffer->nr_cpus : 0;
}

/* ------------------------------------------------------------------
 * Views: the address space a buffer takes (rb_internal.h, "A view")
 *
 * Every view made is in rb_views[], for the commits of events reserved
 * in a view since replaced (rb_views_find()) and for ring_buffer_free(),
 * which unmaps the views of the mapping it holds (map_id: a swap moves
 * mappings between buffers).  Lock-free: an entry is claimed by a
 * cmpxchg of its view word from 0 to RB_VIEW_CLAIMED, filled, then
 * published; so fork() needs nothing here.
 */
#define RB_MAX_VIEWS		1024
#define RB_VIEW_CLAIMED		((uintptr_t)1)

struct rb_view_ent {
	uintptr_t	view;		/* 0: free */
	unsigned int	nr_cpus;
	u64		map_id;
	void		*area;
	size_t		size;
};

static struct rb_view_ent rb_views[RB_MAX_VIEWS];
static unsigned int rb_views_used;	/* entries ever claimed: [0, this) */
static u64 rb_next_map_id;

static int rb_views_add(uintptr_t view, unsigned int nr_cpus, u64 map_id, void *area,
			size_t size)
{
	for (unsigned int i = 0; i < RB_MAX_VIEWS; i++) {
		struct rb_view_ent *e = &rb_views[i];
		uintptr_t free_word = 0;
		unsigned int used;

		if (__atomic_load_n(&e->view, __ATOMIC_RELAXED) ||
		    !__atomic_compare_exchange_n(&e->view, &free_word, RB_VIEW_CLAIMED, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		__atomic_store_n(&e->nr_cpus, nr_cpus, __ATOMIC_RELAXED);
		/* Relaxed atomics: a finder may read an entry being reused. */
		__atomic_store_n(&e->map_id, map_id, __ATOMIC_RELAXED);
		__atomic_store_n(&e->area, area, __ATOMIC_RELAXED);
		__atomic_store_n(&e->size, size, __ATOMIC_RELAXED);
		__atomic_store_n(&e->view, view, __ATOMIC_RELEASE);
		used = __atomic_load_n(&rb_views_used, __ATOMIC_RELAXED);
		while (used < i + 1 &&
		       !__atomic_compare_exchange_n(&rb_views_used, &used, i + 1, false,
						    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			;
		return 0;
	}
	return -ENOMEM;
}

/**
 * rb_views_find - the view that @addr is in, of every buffer's views
 * @nr_cpus: receives its CPUs
 * Return: the view, or 0.  Context: any; lock-free.
 */
uintptr_t rb_views_find(const void *addr, unsigned int *nr_cpus)
{
	unsigned int used = __atomic_load_n(&rb_views_used, __ATOMIC_ACQUIRE);

	for (unsigned int i = 0; i < used && i < RB_MAX_VIEWS; i++) {
		uintptr_t v = __atomic_load_n(&rb_views[i].view, __ATOMIC_ACQUIRE);
		unsigned int nr = __atomic_load_n(&rb_views[i].nr_cpus, __ATOMIC_RELAXED);
		uintptr_t a = (uintptr_t)addr - (uintptr_t)rb_view_base(v);

		if (v > RB_VIEW_CLAIMED && (uintptr_t)addr >= (uintptr_t)rb_view_base(v) &&
		    (a >> rb_view_shift(v)) < nr) {
			*nr_cpus = nr;
			return v;
		}
	}
	return 0;
}

/**
 * rb_region_newest - CPU @cpu's region in the newest view of @view's mapping
 *
 * For a writer whose page is past the end of the view it read: a resize
 * made a larger view before it added the page, and the view stays in
 * rb_views[] as long as the buffer (views are never made smaller).
 * Context: any; lock-free.
 */
noinline char *rb_region_newest(uintptr_t view, unsigned int cpu)
{
	unsigned int used = __atomic_load_n(&rb_views_used, __ATOMIC_ACQUIRE);
	uintptr_t best = view;
	u64 id = 0;
	bool found = false;

	for (unsigned int i = 0; i < used && i < RB_MAX_VIEWS; i++)
		if (__atomic_load_n(&rb_views[i].view, __ATOMIC_ACQUIRE) == view) {
			id = __atomic_load_n(&rb_views[i].map_id, __ATOMIC_RELAXED);
			found = true;
			break;
		}
	for (unsigned int i = 0; found && i < used && i < RB_MAX_VIEWS; i++) {
		uintptr_t v = __atomic_load_n(&rb_views[i].view, __ATOMIC_ACQUIRE);

		if (v > RB_VIEW_CLAIMED &&
		    __atomic_load_n(&rb_views[i].map_id, __ATOMIC_RELAXED) == id &&
		    rb_view_shift(v) > rb_view_shift(best))
			best = v;
	}
	return rb_view_region(best, cpu);
}

/* Unmap every view of mapping @map_id, and forget them. */
static void rb_views_unmap(u64 map_id)
{
	unsigned int used = __atomic_load_n(&rb_views_used, __ATOMIC_ACQUIRE);

	for (unsigned int i = 0; i < used && i < RB_MAX_VIEWS; i++) {
		struct rb_view_ent *e = &rb_views[i];

		if (__atomic_load_n(&e->view, __ATOMIC_ACQUIRE) <= RB_VIEW_CLAIMED ||
		    __atomic_load_n(&e->map_id, __ATOMIC_RELAXED) != map_id)
			continue;
		munmap(__atomic_load_n(&e->area, __ATOMIC_RELAXED),
		       __atomic_load_n(&e->size, __ATOMIC_RELAXED));
		__atomic_store_n(&e->view, 0, __ATOMIC_RELEASE);
	}
}

/*
 * The smallest CPU stride (log2) whose region holds @pages page ids.
 * Under ThreadSanitizer the whole stride at once, so that views never
 * grow: TSan orders memory by address, and a larger view maps the same
 * words at other addresses, so that an atomic operation on a tail or a
 * slot word through one view and the next through another order nothing
 * for it (reports of races that are not: rb-torture's "views growing"
 * phases, about 1 run in 20).  Growing views are tested by the other
 * builds.
 */
static unsigned int rb_view_shift_for(u32 pages)
{
#ifdef RB_TSAN
	(void)pages;
	return RB_CPU_SHIFT;
#endif
	unsigned int shift = RB_CPU_SHIFT_MIN;

	while (shift < RB_CPU_SHIFT && rb_stride_pages(shift) < pages)
		shift++;
	return shift;
}

/* Address space for a view of @size bytes, mapped PROT_NONE until filled. */
static char *rb_view_reserve(size_t size)
{
	void *area = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			  -1, 0);

	return area == MAP_FAILED ? NULL : area;
}

/*
 * The buffer's file and its first view, for @pages page ids per CPU.  The
 * file (a memfd) is laid out at RB_CPU_STRIDE, as its header says, and is
 * sparse: only what the view maps and the writers touch costs memory.
 * Without memfds the mapping is anonymous, and its view the whole of it.
 */
static int rb_map(struct trace_buffer *buffer, u32 pages)
{
	size_t file_size = RB_HDR_SIZE + ((size_t)buffer->nr_cpus << RB_CPU_SHIFT);
	unsigned int shift = RB_CPU_SHIFT;
	char *map;

	buffer->memfd = memfd_create("ustrace-ring-buffer", MFD_CLOEXEC);
	if (buffer->memfd >= 0) {
		if (ftruncate(buffer->memfd, (off_t)file_size))
			return -errno;
		shift = rb_view_shift_for(pages);
		buffer->map_size = RB_HDR_SIZE + ((size_t)buffer->nr_cpus << shift);
		map = rb_view_reserve(buffer->map_size);
		if (!map)
			return -errno;
		buffer->map = map;
		if (mmap(map, RB_HDR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			 buffer->memfd, 0) == MAP_FAILED)
			return -errno;
		for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++)
			if (mmap(map + RB_HDR_SIZE + ((size_t)cpu << shift), (size_t)1 << shift,
				 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE,
				 buffer->memfd,
				 (off_t)(RB_HDR_SIZE + ((size_t)cpu << RB_CPU_SHIFT))) == MAP_FAILED)
				return -errno;
	} else {
		buffer->map_size = file_size;
		map = mmap(NULL, file_size, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (map == MAP_FAILED)
			return -errno;
		buffer->map = map;
	}
	buffer->map_id = __atomic_add_fetch(&rb_next_map_id, 1, __ATOMIC_RELAXED);
	buffer->cpu_view = rb_mkview(map + RB_HDR_SIZE, shift);
	if (rb_views_add(buffer->cpu_view, buffer->nr_cpus, buffer->map_id, map,
			 buffer->map_size)) {
		buffer->map_id = 0;
		return -ENOMEM;
	}
	/*
	 * The mapping keeps the memfd alive: a descriptor kept open could be
	 * the program's own file by the time we closed it (a daemon closes
	 * every descriptor and opens its files under the same numbers).  In
	 * system mode it is kept for the collector, with what it is, so that
	 * it is never taken for the program's file (ring_buffer_foreign.c).
	 * A view made later duplicates the mapping (mremap()), not the file.
	 */
	if (buffer->memfd >= 0 && rb_keeps_memfds()) {
		struct stat st;

		if (!fstat(buffer->memfd, &st)) {
			buffer->memfd_dev = st.st_dev;
			buffer->memfd_ino = st.st_ino;
		} else {
			close(buffer->memfd);
			buffer->memfd = -1;
		}
	} else if (buffer->memfd >= 0) {
		close(buffer->memfd);
		buffer->memfd = -1;
	}
	return 0;
}

/*
 * A view in which @pages page ids fit on every CPU, if the current one is
 * too small: the same pages mapped again (mremap() with an old size of 0
 * duplicates a shared mapping, larger), published before any page past
 * the old view's end enters a ring.  The old view stays mapped, for the
 * writers that still use it (they read the view again after their tail
 * cmpxchg) and the pointers readers were given.  Under the buffer's mutex.
 * Return: 0, -ENOMEM (no address space for it: the resize fails, the
 * buffer stays as it was).
 */
static int rb_grow_view(struct trace_buffer *buffer, u32 pages)
{
	uintptr_t old = buffer->cpu_view, view;
	unsigned int shift = rb_view_shift(old), nshift = rb_view_shift_for(pages);
	char *obase = rb_view_base(old), *area;
	size_t size;

	if (nshift <= shift)
		return 0;
	size = RB_HDR_SIZE + ((size_t)buffer->nr_cpus << nshift);
	area = rb_view_reserve(size);
	if (!area)
		return -ENOMEM;
	if (mremap(obase - RB_HDR_SIZE, 0, RB_HDR_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED,
		   area) == MAP_FAILED)
		goto fail;
	for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		if (mremap(obase + ((size_t)cpu << shift), 0, (size_t)1 << nshift,
			   MREMAP_MAYMOVE | MREMAP_FIXED,
			   area + RB_HDR_SIZE + ((size_t)cpu << nshift)) == MAP_FAILED)
			goto fail;
	view = rb_mkview(area + RB_HDR_SIZE, nshift);
	if (rb_views_add(view, buffer->nr_cpus, buffer->map_id, area, size))
		goto fail;
	for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++) {
		struct ring_buffer_per_cpu *cpu_buffer = &buffer->cpus[cpu];
		char *region = rb_view_region(view, cpu);

		pthread_mutex_lock(&cpu_buffer->reader_lock);
		cpu_buffer->region = region;
		cpu_buffer->meta = (struct rb_cpu_meta *)region;
		cpu_buffer->slots = rb_slots(region);
		pthread_mutex_unlock(&cpu_buffer->reader_lock);
	}
	buffer->map = area;
	buffer->map_size = size;
	/* Release: pairs with the acquire of rb_view(). */
	__atomic_store_n(&buffer->cpu_view, view, __ATOMIC_RELEASE);
	return 0;
fail:
	munmap(area, size);
	return -ENOMEM;
}

static void rb_fill_header(struct trace_buffer *buffer)
{
	struct rb_shared_header *h = buffer->map;

	h->magic = RB_LAYOUT_MAGIC;
	h->version = RB_LAYOUT_VERSION;
	h->header_size = sizeof(*h);
	h->page_size = RB_PAGE_SIZE;
	h->nr_cpus = buffer->nr_cpus;
	h->cpu_shift = RB_CPU_SHIFT;
	h->cpu_offset = RB_HDR_SIZE;
	h->meta_size = RB_META_SIZE;
	h->max_pages = RB_MAX_PAGES;
	h->slots_off = RB_SLOTS_OFF;
	h->page_slot_off = RB_PAGE_SLOT_OFF;
	h->lost_off = RB_LOST_OFF;
	h->flags = buffer->flags;
}

/*
 * Under buffer->mutex (or before the buffer is anyone else's).  The
 * local clock is the scaled TSC for good once it was first read
 * (trace_clock.c): where it is CLOCK_MONOTONIC the fast path never
 * applies, and says so in the same word.
 */
static void rb_update_fast(struct trace_buffer *buffer)
{
	if (buffer->clock_local && !buffer->time_stamp_abs &&
	    __atomic_load_n(&tc_scale.mode, __ATOMIC_ACQUIRE) == TC_TSC)
		__atomic_and_fetch(&buffer->record_disabled, ~RB_BUFFER_SLOW, __ATOMIC_SEQ_CST);
	else
		__atomic_or_fetch(&buffer->record_disabled, RB_BUFFER_SLOW, __ATOMIC_SEQ_CST);
}

/**
 * ring_buffer_alloc - allocate a ring buffer
 * @size: bytes of event data per CPU, rounded up to whole pages (at least 2)
 * @flags: RB_FL_OVERWRITE to overwrite the oldest events when full (as
 *	the kernel's default); without it, new events are dropped
 *
 * One ring per possible CPU, in a memfd mapping: address space is taken
 * for the ring's pages rounded up to a power of two per CPU (2 MiB at
 * least, metadata included; a growing ring_buffer_resize() takes more),
 * memory only for the pages in the ring.  The clock is
 * trace_clock_local().
 *
 * Return: the buffer, or NULL (errno EINVAL, ENOMEM, or from memfd_create,
 * ftruncate or mmap).
 */
struct trace_buffer *ring_buffer_alloc(unsigned long size, unsigned flags)
{
	u32 nr_slots = rb_size_to_pages(size);
	struct trace_buffer *buffer;
	bool locked;
	int err;
	u64 now;

	if (!nr_slots || flags & ~RB_FL_OVERWRITE) {
		errno = EINVAL;
		return NULL;
	}
	buffer = calloc(1, sizeof(*buffer));
	if (!buffer)
		return NULL;
	buffer->nr_cpus = ring_buffer_cpu_ids();
	buffer->flags = flags;
	buffer->clock = trace_clock_local;
	buffer->clock_local = true;
	buffer->memfd = -1;
	pthread_mutex_init(&buffer->mutex, NULL);
	buffer->cpus = aligned_alloc(RB_CACHELINE, buffer->nr_cpus * sizeof(*buffer->cpus));
	if (!buffer->cpus) {
		err = ENOMEM;
		goto fail;
	}
	err = -rb_map(buffer, nr_slots + 1);
	if (err)
		goto fail;
	rb_fill_header(buffer);
	rb_sharers_init(buffer);
	now = trace_clock_local();
	rb_update_fast(buffer);
	/*
	 * Sequences that no reader could fence (membarrier refused) would
	 * make a flush, the bell and a freeze impossible: locked from the
	 * start, before any writer sees the rings (rb_rseq.h).
	 */
	locked = rb_rseq_writes() && !rb_fence_ready();
	for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++) {
		struct ring_buffer_per_cpu *cpu_buffer = &buffer->cpus[cpu];
		char *region = rb_region(buffer, cpu);

		memset(cpu_buffer, 0, sizeof(*cpu_buffer));
		cpu_buffer->buffer = buffer;
		cpu_buffer->hdr = buffer->map;
		cpu_buffer->cpu = (int)cpu;
		cpu_buffer->region = region;
		cpu_buffer->meta = (struct rb_cpu_meta *)region;
		cpu_buffer->slots = rb_slots(region);
		pthread_mutex_init(&cpu_buffer->reader_lock, NULL);
		rb_init_cpu(cpu_buffer, nr_slots, now, true);
		cpu_buffer->meta->locked = locked;
		cpu_buffer->meta->tail = (struct rb_tail){
			rb_mkpos(0, 0, locked ? RB_OFF_LOCKED : 0), now };
	}
	rb_fork_track(buffer);
	return buffer;
fail:
	if (buffer->map_id)
		rb_views_unmap(buffer->map_id);
	else if (buffer->map)
		munmap(buffer->map, buffer->map_size);
	if (buffer->memfd >= 0)
		close(buffer->memfd);
	free(buffer->cpus);
	free(buffer);
	errno = err;
	return NULL;
}

/**
 * ring_buffer_free - free a ring buffer
 * @buffer: the buffer (NULL is ignored)
 *
 * Context: no writer, reader or iterator may use it any more.
 */
void ring_buffer_free(struct trace_buffer *buffer)
{
	if (!buffer)
		return;
	/* A reader in another process, asleep on the wake word, looks and finds it gone. */
	rb_wake_view(buffer->cpu_view);
	rb_fork_untrack(buffer);
	for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		pthread_mutex_destroy(&buffer->cpus[cpu].reader_lock);
	rb_views_unmap(buffer->map_id);
	if (rb_memfd_ours(buffer))
		close(buffer->memfd);
	pthread_mutex_destroy(&buffer->mutex);
	free(buffer->cpus);
	free(buffer);
}

/**
 * ring_buffer_change_overwrite - switch between overwrite and
 * producer/consumer mode
 * @buffer: the buffer
 * @val: non-zero to overwrite the oldest events when full
 */
void ring_buffer_change_overwrite(struct trace_buffer *buffer, int val)
{
	if (val)
		__atomic_or_fetch(&buffer->flags, RB_FL_OVERWRITE, __ATOMIC_RELAXED);
	else
		__atomic_and_fetch(&buffer->flags, ~RB_FL_OVERWRITE, __ATOMIC_RELAXED);
}

/** ring_buffer_get_flags - the RB_FL_* flags @buffer has now (0 for NULL) */
unsigned int ring_buffer_get_flags(struct trace_buffer *buffer)
{
	return buffer ? __atomic_load_n(&buffer->flags, __ATOMIC_RELAXED) : 0;
}

/* ------------------------------------------------------------------
 * Recording on and off
 */

/** ring_buffer_record_disable - stop writes (nests with _enable) */
void ring_buffer_record_disable(struct trace_buffer *buffer)
{
	__atomic_add_fetch(&buffer->record_disabled, 1, __ATOMIC_SEQ_CST);
}

/** ring_buffer_record_enable - undo one ring_buffer_record_disable() */
void ring_buffer_record_enable(struct trace_buffer *buffer)
{
	__atomic_sub_fetch(&buffer->record_disabled, 1, __ATOMIC_SEQ_CST);
}

/** ring_buffer_record_off - stop writes until ring_buffer_record_on() */
void ring_buffer_record_off(struct trace_buffer *buffer)
{
	__atomic_or_fetch(&buffer->record_disabled, RB_BUFFER_OFF, __ATOMIC_SEQ_CST);
}

/** ring_buffer_record_on - undo ring_buffer_record_off() */
void ring_buffer_record_on(struct trace_buffer *buffer)
{
	__atomic_and_fetch(&buffer->record_disabled, ~RB_BUFFER_OFF, __ATOMIC_SEQ_CST);
}

/** ring_buffer_record_is_on - whether writes are accepted */
bool ring_buffer_record_is_on(struct trace_buffer *buffer)
{
	return !(__atomic_load_n(&buffer->record_disabled, __ATOMIC_RELAXED) & ~RB_BUFFER_SLOW);
}

/** ring_buffer_record_is_set_on - whether recording is not switched off (disable aside) */
bool ring_buffer_record_is_set_on(struct trace_buffer *buffer)
{
	return !(__atomic_load_n(&buffer->record_disabled, __ATOMIC_RELAXED) & RB_BUFFER_OFF);
}

/** ring_buffer_record_disable_cpu - stop writes on one CPU (nests) */
void ring_buffer_record_disable_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	if (cpu_buffer)
		__atomic_add_fetch(&cpu_buffer->meta->record_disabled, 1, __ATOMIC_SEQ_CST);
}

/** ring_buffer_record_enable_cpu - undo one ring_buffer_record_disable_cpu() */
void ring_buffer_record_enable_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	if (cpu_buffer)
		__atomic_sub_fetch(&cpu_buffer->meta->record_disabled, 1, __ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------------
 * Time
 */

/**
 * ring_buffer_set_clock - the clock events are stamped with
 * @buffer: the buffer
 * @clock: e.g. trace_clock_local (the default) or another <linux/trace_clock.h>
 *	clock
 *
 * As in the kernel, events already in the buffer keep their times, and
 * time stamps never go backwards within a CPU's ring: reset the buffer
 * after switching to a clock that reads lower than the old one.
 */
void ring_buffer_set_clock(struct trace_buffer *buffer, uint64_t (*clock)(void))
{
	if (!buffer || !clock)
		return;
	pthread_mutex_lock(&buffer->mutex);
	__atomic_store_n(&buffer->clock, clock, __ATOMIC_RELAXED);
	__atomic_store_n(&buffer->clock_local, clock == trace_clock_local, __ATOMIC_RELAXED);
	rb_update_fast(buffer);
	pthread_mutex_unlock(&buffer->mutex);
}

/**
 * ring_buffer_get_clock - the clock events are stamped with
 *
 * Return: what ring_buffer_set_clock() set last (trace_clock_local for a
 * new buffer; after ring_buffer_swap(), the clock of the buffer whose
 * events moved in), or NULL for a NULL @buffer.
 */
uint64_t (*ring_buffer_get_clock(struct trace_buffer *buffer))(void)
{
	if (!buffer)
		return NULL;
	return __atomic_load_n(&buffer->clock, __ATOMIC_RELAXED);
}

/** ring_buffer_time_stamp - the buffer's clock, now */
uint64_t ring_buffer_time_stamp(struct trace_buffer *buffer)
{
	return rb_clock(buffer);
}

/**
 * ring_buffer_set_time_stamp_abs - stamp every event with its absolute time
 * @buffer: the buffer
 * @abs: true for an 8-byte TIME_STAMP before each event (as the kernel's
 *	absolute time stamp mode), false for deltas
 */
void ring_buffer_set_time_stamp_abs(struct trace_buffer *buffer, bool abs)
{
	if (!buffer)
		return;
	pthread_mutex_lock(&buffer->mutex);
	__atomic_store_n(&buffer->time_stamp_abs, abs, __ATOMIC_RELAXED);
	rb_update_fast(buffer);
	pthread_mutex_unlock(&buffer->mutex);
}

/** ring_buffer_time_stamp_abs - whether events carry absolute time stamps */
bool ring_buffer_time_stamp_abs(struct trace_buffer *buffer)
{
	return buffer && __atomic_load_n(&buffer->time_stamp_abs, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------
 * Trading pages: snapshots
 *
 * The kernel's ring_buffer_swap_cpu() exchanges two per-CPU buffers under
 * a spinlock with interrupts off, and update_max_tr() swaps the two
 * buffers' pointers.  Neither works here: a swap may be asked for from a
 * probe, in any thread, while other threads write into either buffer,
 * read it through trace_pipe, or hold pointers to it (every event file of
 * an instance, open iterators, the tracefs tree); and a buffer's CPUs
 * share one mapping.  So the two buffer objects stay where they are and
 * trade their pages instead, all CPUs at once:
 *
 *	a (struct trace_buffer)            b (struct trace_buffer)
 *	  cpu_view ──┐     ┌── cpu_view ◀─┐
 *	  cpus ──────┼──┐  │               │
 *	             ▼  ▼  ▼               │
 *	        mapping A   mapping B ◀────┘  (cpu_view, cpus, map, memfd
 *	                                      exchanged by the swap)
 *
 * The swap holds both buffers' mutexes, which reset, resize and the clock
 * take, and needs both to have the same number of pages per CPU; with
 * @wait false it only tries them (pthread_mutex_trylock()).  Writers take
 * no lock:
 *
 *  - a writer reads cpu_view once (rb_view(), an acquire that pairs
 *    with the release stores below), reserves and fills its event in that
 *    mapping, and commits into the slot word of the page it reserved in;
 *  - the commit finds the page from the event's address, in either
 *    mapping (rb_locate(): cpu_view, then pair_view[]), so an event
 *    reserved before a swap lands in the buffer it was reserved in, now
 *    the other one: the event that triggered a conditional snapshot is in
 *    the snapshot, as in the kernel.  pair_view[] is set by the first
 *    swap, before cpu_view changes, and never changes again: a writer
 *    that sees the new cpu_view (acquire) sees pair_view too (views made
 *    since, by resizes, are found by address: rb_views_find());
 *  - readers look cpu_view and cpus up atomically (rb_cpu_buffer(), an
 *    acquire) and keep what they got for the rest of one operation: an
 *    iterator opened before a swap reads on in the pages it started with.
 *
 * The per-CPU structures keep the owner they were allocated with
 * (ring_buffer_per_cpu.buffer): it is only read to report corruption.
 */

/* Both buffers' mutexes: 0 or -EBUSY (nothing held then). */
static int rb_lock_pair(struct trace_buffer *a, struct trace_buffer *b, bool wait)
{
	if (wait) {
		pthread_mutex_lock(&a->mutex);
		pthread_mutex_lock(&b->mutex);
		return 0;
	}
	if (pthread_mutex_trylock(&a->mutex))
		return -EBUSY;
	if (pthread_mutex_trylock(&b->mutex)) {
		pthread_mutex_unlock(&a->mutex);
		return -EBUSY;
	}
	return 0;
}

/*
 * Whether @a and @b may trade pages: paired with each other (or neither
 * with anything yet), and as many pages on each CPU.  Under both mutexes.
 */
static bool rb_swappable(struct trace_buffer *a, struct trace_buffer *b)
{
	uintptr_t pa = a->pair_view[0], pb = b->pair_view[0];

	if (a->nr_cpus != b->nr_cpus)
		return false;
	if (pa || pb) {
		if (pa != pb || a->pair_view[1] != b->pair_view[1])
			return false;
	}
	for (unsigned int cpu = 0; cpu < a->nr_cpus; cpu++)
		if (a->cpus[cpu].meta->nr_slots != b->cpus[cpu].meta->nr_slots)
			return false;
	return true;
}

/**
 * ring_buffer_swap - trade the pages of two buffers (a snapshot)
 * @a:    the buffer being recorded into (an instance's)
 * @b:    the other (its snapshot buffer), allocated after @a: the swap
 *	  takes @a's mutex first, the order fork() takes them in
 *	  (ring_buffer_fork.c)
 * @wait: block on the buffers' mutexes; false (from a probe): give up
 *	  with -EBUSY when a resize, a reset, a clock change, a fork or
 *	  another swap holds either
 * @cond: NULL, or asked with both mutexes held, just before the swap,
 *	  whether to make it (the kernel asks a conditional snapshot's
 *	  update() under max_lock); it must not call into either buffer
 * @cond_arg: for @cond
 *
 * The whole-buffer form of the kernel's ring_buffer_swap_cpu(): every
 * CPU's pages (a buffer's CPUs share one mapping), their counters and
 * the reader's state move from @a to @b and back; @b gets @a's clock
 * too, so that the events that moved in print in the clock they were
 * stamped with.  @a and @b are paired by their first swap and may only
 * be swapped with each other from then on.  Writers and readers of either
 * buffer go on meanwhile; an event reserved before the swap is committed
 * into the pages it was reserved in.
 *
 * Return: 0; -EINVAL: a NULL or the same buffer twice, buffers of other
 * sizes (the kernel's answer for CPUs whose sizes differ), or a buffer
 * paired with another; -EBUSY: @wait false and a mutex was held;
 * -ECANCELED: @cond said no.
 * Context: any thread; never blocks when @wait is false.
 */
int ring_buffer_swap(struct trace_buffer *a, struct trace_buffer *b, bool wait,
		     bool (*cond)(void *cond_arg), void *cond_arg)
{
	struct ring_buffer_per_cpu *cpus;
	uintptr_t view;
	u64 map_id;
	void *map;
	size_t size;
	int err, fd;
	dev_t dev;
	ino_t ino;

	if (!a || !b || a == b)
		return -EINVAL;
	err = rb_lock_pair(a, b, wait);
	if (err)
		return err;
	if (!rb_swappable(a, b))
		err = -EINVAL;
	else if (cond && !cond(cond_arg))
		err = -ECANCELED;
	if (err)
		goto out;
	if (!a->pair_view[0]) {
		/* Before cpu_view changes: see rb_locate(). */
		uintptr_t pa = a->cpu_view, pb = b->cpu_view;

		__atomic_store_n(&a->pair_view[0], pa, __ATOMIC_RELAXED);
		__atomic_store_n(&a->pair_view[1], pb, __ATOMIC_RELAXED);
		__atomic_store_n(&b->pair_view[0], pa, __ATOMIC_RELAXED);
		__atomic_store_n(&b->pair_view[1], pb, __ATOMIC_RELAXED);
	}
	/* Release: pairs with the acquire loads of rb_view() and rb_cpu_buffer(). */
	view = a->cpu_view;
	__atomic_store_n(&a->cpu_view, b->cpu_view, __ATOMIC_RELEASE);
	__atomic_store_n(&b->cpu_view, view, __ATOMIC_RELEASE);
	cpus = a->cpus;
	__atomic_store_n(&a->cpus, b->cpus, __ATOMIC_RELEASE);
	__atomic_store_n(&b->cpus, cpus, __ATOMIC_RELEASE);
	/* Read only at allocation and by ring_buffer_free(). */
	map = a->map, a->map = b->map, b->map = map;
	size = a->map_size, a->map_size = b->map_size, b->map_size = size;
	map_id = a->map_id, a->map_id = b->map_id, b->map_id = map_id;
	fd = a->memfd, a->memfd = b->memfd, b->memfd = fd;
	dev = a->memfd_dev, a->memfd_dev = b->memfd_dev, b->memfd_dev = dev;
	ino = a->memfd_ino, a->memfd_ino = b->memfd_ino, b->memfd_ino = ino;
	/* @b's events now are @a's, in @a's clock. */
	__atomic_store_n(&b->clock, __atomic_load_n(&a->clock, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&b->clock_local, __atomic_load_n(&a->clock_local, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	rb_update_fast(b);
	/* Readers of either sleep on the word of the pages they had: both look again. */
	rb_wake_view(a->cpu_view);
	rb_wake_view(b->cpu_view);
out:
	pthread_mutex_unlock(&b->mutex);
	pthread_mutex_unlock(&a->mutex);
	return err;
}

/**
 * ring_buffer_call_locked - @fn(@arg) excluded from swaps
 *
 * Runs @fn with @buffer's mutex held: no ring_buffer_swap() of @buffer,
 * and so no @cond of one, runs meanwhile (nor a resize, a reset or a
 * clock change).  For state that a swap's @cond updates, read elsewhere
 * (a conditional snapshot's).  @fn must not call into @buffer.
 * Context: not a probe; blocks.
 */
void ring_buffer_call_locked(struct trace_buffer *buffer, void (*fn)(void *arg), void *arg)
{
	if (!buffer || !fn)
		return;
	pthread_mutex_lock(&buffer->mutex);
	fn(arg);
	pthread_mutex_unlock(&buffer->mutex);
}

/* ------------------------------------------------------------------
 * Format descriptions
 */

/**
 * ring_buffer_print_page_header - the text of events/header_page
 * @buf: where to write it (may be NULL when @size is 0)
 * @size: bytes available
 *
 * Return: the length of the text, as snprintf().
 */
int ring_buffer_print_page_header(char *buf, size_t size)
{
	return snprintf(buf, size,
			"\tfield: u64 timestamp;\toffset:0;\tsize:%u;\tsigned:%u;\n"
			"\tfield: local_t commit;\toffset:%u;\tsize:%u;\tsigned:%u;\n"
			"\tfield: int overwrite;\toffset:%u;\tsize:%u;\tsigned:%u;\n"
			"\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
			8u, 0u, 8u, 8u, 1u, 8u, 1u, 1u,
			RB_PAGE_HDR_SIZE, RB_DATA_SIZE, 0u);
}

/**
 * ring_buffer_print_entry_header - the text of events/header_event
 * @buf: where to write it (may be NULL when @size is 0)
 * @size: bytes available
 *
 * Return: the length of the text, as snprintf().
 */
int ring_buffer_print_entry_header(char *buf, size_t size)
{
	return snprintf(buf, size,
			"# compressed entry header\n"
			"\ttype_len    :    5 bits\n"
			"\ttime_delta  :   27 bits\n"
			"\tarray       :   32 bits\n"
			"\n"
			"\tpadding     : type == %d\n"
			"\ttime_extend : type == %d\n"
			"\ttime_stamp : type == %d\n"
			"\tdata max type_len  == %d\n",
			RINGBUF_TYPE_PADDING, RINGBUF_TYPE_TIME_EXTEND,
			RINGBUF_TYPE_TIME_STAMP, RINGBUF_TYPE_DATA_TYPE_LEN_MAX);
}
