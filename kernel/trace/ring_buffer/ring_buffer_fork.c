// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork() and the ring buffers: level USTRACE_FORK_RING_BUFFER of the
 * library's lock order (kernel/fork.c).  The engine's locks are outside
 * (the clock, resize and reset are changed under the event mutex);
 * the tracepoints' read side's (tp_rcu.c) and the saved-cmdlines lock are
 * inside.
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
#include <time.h>
#include <unistd.h>

#include "../../internal.h"
#include "rb_internal.h"
#include "rb_rseq.h"

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
	/*
	 * The child will write these buffers too, and no fence of ours
	 * reaches its restartable sequences: from here on every change of
	 * their tails is a cmpxchg16b (rb_rseq.h).
	 */
	if (!rb_rseq_writes())
		return;
	for (b = rb_buffers; b; b = b->fork_next)
		for (unsigned int cpu = 0; cpu < b->nr_cpus; cpu++)
			if (!__atomic_load_n(&b->cpus[cpu].meta->locked, __ATOMIC_RELAXED) &&
			    rb_lock_tail(b->cpus[cpu].meta, cpu))
				ustrace_warn_once("ustrace: ring buffer: fork(): CPU %u's "
						  "writers could not be fenced\n", cpu);
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
 * The mark of this process (rb_internal.h): owner 0, the creator of the
 * mappings it makes, until a fork() makes it a child sharing some.
 */
u32 rb_mark = RB_HDR_MARK | RB_OWNER_CREATOR << RB_HDR_OWNER_SHIFT;

static u32 rb_mark_owner(void)
{
	return rb_hdr_owner(__atomic_load_n(&rb_mark, __ATOMIC_RELAXED));
}

/*
 * A new mapping: this process made it.  A forked child marks its events
 * with the sharer entry it holds in the mappings it shares, in every
 * mapping: it takes the same entry in this one (a new mapping has every
 * entry free).
 */
void rb_sharers_init(struct trace_buffer *buffer)
{
	struct rb_shared_header *h = buffer->map;
	u32 owner = rb_mark_owner();

	__atomic_store_n(&h->creator, (u32)getpid(), __ATOMIC_RELAXED);
	if (owner != RB_OWNER_CREATOR && owner != RB_OWNER_UNKNOWN)
		__atomic_store_n(&rb_sharers_of(buffer)->pid[owner - 1], (u32)getpid(),
				 __ATOMIC_SEQ_CST);
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

/*
 * In a forked child: the entry @i (below RB_HDR_OWNER_MASK - 1) free (or,
 * with @take_gone, held by a process gone) in every mapping, taken in all
 * of them.
 * Return: false, with none taken, if some mapping has it in use.
 */
static bool rb_sharer_take_all(u32 i, pid_t pid, bool take_gone)
{
	struct trace_buffer *b, *undo;
	u32 cur;

	for (b = rb_buffers; b; b = b->fork_next) {
		struct rb_sharers *s = rb_sharers_of(b);

		cur = __atomic_load_n(&s->pid[i], __ATOMIC_RELAXED);
		if ((cur && (!take_gone || !rb_pid_gone((pid_t)cur))) ||
		    !rb_sharer_take(s, i, cur, (u32)pid))
			goto undo;
	}
	return true;
undo:
	for (undo = rb_buffers; undo != b; undo = undo->fork_next)
		__atomic_store_n(&rb_sharers_of(undo)->pid[i], 0, __ATOMIC_SEQ_CST);
	return false;
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
static void rb_sharers_leave(void *unused __attribute__((__unused__)))
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

/* Every CPU of every mapping (a forked child, alone in its process). */
static void rb_reap_all(void)
{
	for (struct trace_buffer *b = rb_buffers; b; b = b->fork_next)
		for (unsigned int cpu = 0; cpu < b->nr_cpus; cpu++)
			rb_reap_cpu(&b->cpus[cpu], rb_tail_snapshot(&b->cpus[cpu].meta->tail),
				    true);
}

static void rb_fork_child(void)
{
	static bool leave_registered;
	pid_t me = getpid();
	struct trace_buffer *b;

	/*
	 * The child's mark: an entry it holds in every mapping it shares
	 * (owner i + 1), found from the lowest, free ones first: the entry of
	 * a process killed may still mark what it left unfinished, and a
	 * live owner of that mark would keep it from being reaped (a worker
	 * killed and started again by its supervisor).  A child with no mapping is
	 * the creator of whatever it makes; one that finds no entry free in
	 * all of them is not known (owner 63: what it leaves unfinished is
	 * not reaped) and takes an entry in each as it can, for the reset.
	 */
	u32 owner = RB_OWNER_CREATOR;

	if (rb_buffers) {
		owner = RB_OWNER_UNKNOWN;
		for (u32 pass = 0; pass < 2 && owner == RB_OWNER_UNKNOWN; pass++) {
			/*
			 * No entry free: what the processes gone left is reaped
			 * first, so that taking over an entry does not give
			 * their marks a live owner.
			 */
			if (pass)
				rb_reap_all();
			for (u32 i = 0; i < RB_OWNER_UNKNOWN - 1; i++)
				if (rb_sharer_take_all(i, me, pass)) {
					owner = i + 1;
					break;
				}
		}
		if (owner == RB_OWNER_UNKNOWN)
			for (b = rb_buffers; b; b = b->fork_next)
				rb_sharer_add(b, me);
	}
	__atomic_store_n(&rb_mark, rb_mkmark(owner), __ATOMIC_RELAXED);
	if (!leave_registered)
		leave_registered = !ustrace_atexit(rb_sharers_leave);
	for (b = rb_buffers; b; b = b->fork_next) {
		for (unsigned int cpu = 0; cpu < b->nr_cpus; cpu++)
			ustrace_fork_reinit_mutex(&b->cpus[cpu].reader_lock,
						  PTHREAD_MUTEX_DEFAULT);
		ustrace_fork_reinit_mutex(&b->mutex, PTHREAD_MUTEX_DEFAULT);
	}
	ustrace_fork_reinit_mutex(&rb_fork_lock, PTHREAD_MUTEX_DEFAULT);
}

/* ------------------------------------------------------------------
 * Reaping (ring-buffer-design.rst, "Writers that die"): a data event whose
 * header still has its mark on a page that is not complete was reserved
 * and not committed; if the process of its mark is gone, it never will
 * be.  It becomes padding, as a discarded event, and its bytes are added
 * to the slot word so that the page completes; it is counted in
 * meta->killed.
 */

#define RB_REAP_MAX		64
#define RB_REAP_INTERVAL_NS	(1000 * 1000ull)

static u64 rb_reap_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/*
 * A reaper that found nothing it could reap (a reservation of a writer
 * alive, or one whose header is not there) keeps the others of every
 * process away from that CPU for 1 ms: it costs a walk of a page and
 * calls to the kernel, and writers held up by a page call it for every
 * event.  One that reaped lets the next come at once.
 */
bool rb_reap_due(struct rb_cpu_meta *meta)
{
	return rb_reap_now() >= __atomic_load_n(&meta->reap_after, __ATOMIC_RELAXED);
}

/*
 * Is the owner @owner of a mark gone: the creator, or the process in the
 * sharer entry.  An owner not known is never gone, nor one whose entry is
 * free (its process left by exit(), or never was: a mark read out of
 * step); what they leave goes by rb_reap_giveup().
 */
static bool rb_owner_gone(const char *hdr, u32 owner)
{
	const struct rb_shared_header *h = (const struct rb_shared_header *)hdr;
	const struct rb_sharers *s = (const struct rb_sharers *)(hdr + RB_SHARERS_OFF);
	u32 pid;

	if (owner == RB_OWNER_UNKNOWN)
		return false;
	if (owner == RB_OWNER_CREATOR)
		pid = __atomic_load_n(&h->creator, __ATOMIC_RELAXED);
	else
		pid = __atomic_load_n(&s->pid[owner - 1], __ATOMIC_SEQ_CST);
	return pid && rb_pid_gone((pid_t)pid);
}

/* One reaper a CPU, of any process; the entry of one that died is taken over. */
static bool rb_reap_lock(struct rb_cpu_meta *meta, u32 me)
{
	u32 cur = 0;

	if (__atomic_compare_exchange_n(&meta->reaping, &cur, me, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return true;
	return cur != me && rb_pid_gone((pid_t)cur) &&
	       __atomic_compare_exchange_n(&meta->reaping, &cur, me, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/* Did any process that wrote into the mapping die (or leave)? */
static bool rb_any_gone(const char *hdr)
{
	const struct rb_shared_header *h = (const struct rb_shared_header *)hdr;
	const struct rb_sharers *s = (const struct rb_sharers *)(hdr + RB_SHARERS_OFF);

	if (__atomic_load_n(&s->gone, __ATOMIC_RELAXED) ||
	    rb_pid_gone((pid_t)__atomic_load_n(&h->creator, __ATOMIC_RELAXED)))
		return true;
	for (u32 i = 0; i < RB_MAX_SHARERS; i++) {
		u32 pid = __atomic_load_n(&s->pid[i], __ATOMIC_RELAXED);

		if (pid && rb_pid_gone((pid_t)pid))
			return true;
	}
	return false;
}

/*
 * The last resort, for a closed page (slot @slot, word @w) held up by a
 * reservation nobody can tell apart: its writer was killed in the few
 * instructions between its tail change and its header, or between the
 * header's unmark and its commit (an interrupt pending during the
 * cmpxchg16b of a locked tail is taken right after it, so a SIGKILL lands
 * there more often than its few instructions suggest).  Once the page has not moved
 * for RB_REAP_GIVEUP_NS while a process that wrote into the mapping is
 * gone (the rule a reset follows, rb_freeze(), with less patience: the
 * writers of the CPU drop their events meanwhile), it is emptied: its
 * events count as overrun, and one as killed.  A live writer stalled that
 * long in those few instructions would lose its event to it.  The
 * reaper's lock is held.
 */
#define RB_REAP_GIVEUP_NS	(250 * 1000 * 1000ull)

static bool rb_reap_giveup(char *hdr, char *region, u32 slot, u64 w)
{
	struct rb_cpu_meta *meta = (struct rb_cpu_meta *)region;
	u64 now = rb_reap_now(), *sw = &rb_slots(region)[slot], full, *commit, old;

	if (__atomic_load_n(&meta->stuck_word, __ATOMIC_RELAXED) != w) {
		__atomic_store_n(&meta->stuck_word, w, __ATOMIC_RELAXED);
		__atomic_store_n(&meta->stuck_since, now, __ATOMIC_RELAXED);
		return false;
	}
	/* Closed (both marks in: 1 + 1 on top of whole words), nobody gone, not yet. */
	if (rb_slot_committed(w) % 4 != RB_MARK_OPEN + RB_MARK_CLOSE ||
	    now - __atomic_load_n(&meta->stuck_since, __ATOMIC_RELAXED) < RB_REAP_GIVEUP_NS ||
	    !rb_any_gone(hdr))
		return false;
	/*
	 * An empty page (its commit word 0: no events), complete; a commit
	 * since we looked keeps it as it was.  The page is closed, so nobody
	 * else writes its commit word.
	 */
	commit = rb_page_commit(region, rb_slot_page(w));
	old = __atomic_load_n(commit, __ATOMIC_RELAXED);
	__atomic_store_n(commit, 0, __ATOMIC_RELAXED);
	full = rb_mkslot(rb_slot_page(w), rb_slot_seq(w), 0, RB_SLOT_FULL, false);
	if (!__atomic_compare_exchange_n(sw, &w, full, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
		__atomic_store_n(commit, old, __ATOMIC_RELAXED);
		return false;
	}
	__atomic_add_fetch(&meta->overrun, rb_slot_entries(w), __ATOMIC_RELAXED);
	__atomic_add_fetch(&meta->killed, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&meta->stuck_word, 0, __ATOMIC_RELAXED);
	ustrace_warn_once("ustrace: ring buffer: a page held up by an event a process that died "
			  "left half-reserved was emptied (%u events)\n", rb_slot_entries(w));
	return true;
}

bool rb_reap(char *hdr, char *region, u32 slot, u64 w, u32 end, u32 want)
{
	struct rb_cpu_meta *meta = (struct rb_cpu_meta *)region;
	u64 *sw = &rb_slots(region)[slot], dead = 0, live = 0, w2;
	u32 page = rb_slot_page(w), at = 0, bytes = 0, clean = 0, n = 0, ext = 0, me;
	u32 offs[RB_REAP_MAX], sizes[RB_REAP_MAX];
	bool done = false;
	u32 *data;

	if (end > RB_DATA_SIZE || rb_slot_committed(w) >= want || page >= RB_MAX_PAGES)
		return false;
	/* A system call: not for the reads that find nothing to reap (every peek of an idle CPU). */
	me = (u32)getpid();
	if (!rb_reap_lock(meta, me))
		return false;
	data = rb_page_data(region, page);
	/*
	 * The walk must account for the page exactly: every event up to
	 * @end makes sense, and the slot word holds the bytes of those not
	 * marked (and what closes the page: @want - @end), no more, no less.
	 * A reservation whose header is not written yet (its writer between
	 * its tail change and its header) shows what the page held in its
	 * last turn, read out of step: that sum is then not the slot word's,
	 * and nothing is done.  The marked events of processes gone are
	 * reaped; those of live writers stay, they commit in their time (a
	 * page may hold the events of a worker killed and of the one started
	 * in its place).
	 */
	/* Live writers write their events meanwhile: the checks below say what to trust. */
	ustrace_tsan_ignore_begin();
	while (at < end) {
		u32 size = rb_event_size_at(data, at, end);
		u32 hw = __atomic_load_n(&data[at / 4], __ATOMIC_RELAXED), o;

		if (!size)
			break;
		/* A time event is reserved with the data event after it. */
		if (rb_is_time_event(hw)) {
			ext = RB_LEN_TIME_EXTEND;
			at += size;
			continue;
		}
		if (!rb_hdr_marked(hw)) {
			clean += ext + size;
		} else {
			o = rb_hdr_owner(hw);
			if (!(dead >> o & 1) && !(live >> o & 1)) {
				if (rb_owner_gone(hdr, o))
					dead |= 1ull << o;
				else
					live |= 1ull << o;
			}
			if (dead >> o & 1) {
				if (n == RB_REAP_MAX) {
					at = ~0u;	/* too many: not this time */
					break;
				}
				offs[n] = at;
				sizes[n++] = size;
				bytes += ext + size;
			}
		}
		ext = 0;
		at += size;
	}
	ustrace_tsan_ignore_end();
	if (at != end)
		goto out;
	w2 = __atomic_load_n(sw, __ATOMIC_ACQUIRE);
	if (!n || rb_slot_seq(w2) != rb_slot_seq(w) || rb_slot_page(w2) != page ||
	    (w2 & RB_SLOT_CONSUMED) || rb_slot_committed(w2) != want - end + clean)
		goto out;
	for (u32 i = 0; i < n; i++)
		rb_make_padding(data + offs[i] / 4, sizes[i]);
	/*
	 * Release: the padding before the page can complete.  Nobody else
	 * adds these bytes, and the page cannot be taken without them.
	 */
	__atomic_add_fetch(sw, bytes, __ATOMIC_RELEASE);
	__atomic_add_fetch(&meta->killed, n, __ATOMIC_RELAXED);
	done = true;
out:
	if (!done && want == RB_SLOT_FULL && !n && !live && !(w & RB_SLOT_CONSUMED))
		done = rb_reap_giveup(hdr, region, slot, w);
	__atomic_store_n(&meta->reap_after, done ? 0 : rb_reap_now() + RB_REAP_INTERVAL_NS,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&meta->reaping, 0, __ATOMIC_RELEASE);
	return done;
}

void rb_reap_cpu(struct ring_buffer_per_cpu *cpu_buffer, struct rb_tail tail, bool force)
{
	u32 n = cpu_buffer->meta->nr_slots;
	u32 tslot = rb_get_page_slot(cpu_buffer->region, rb_pos_page(tail.pos));

	if (!force && !rb_reap_due(cpu_buffer->meta))
		return;
	for (u32 j = 0; j < n; j++) {
		u64 w = __atomic_load_n(&cpu_buffer->slots[j], __ATOMIC_ACQUIRE);
		u32 page = rb_slot_page(w), end, want;

		if (page >= cpu_buffer->meta->nr_pages || !rb_slot_waits(j, w, tslot, tail.pos))
			continue;
		rb_wait_target(cpu_buffer->region, tail.pos, j == tslot, page, &end, &want);
		if (rb_slot_committed(w) < want)
			rb_reap(cpu_buffer->hdr, cpu_buffer->region, j, w, end, want);
	}
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
