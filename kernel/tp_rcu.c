// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracepoints' RCU: the read-side critical section a firing thread
 * runs its probes in, and the grace period tracepoint.c waits for before
 * it frees a replaced probe array (tracepoint_synchronize_unregister()).
 *
 * Why not liburcu: its read side is inline only for LGPL code
 * (_LGPL_SOURCE); anything else calls into the library twice per firing,
 * and a tracepoint site is compiled into every program, whatever its
 * licence.  Those two calls were most of the cost of dispatching to a
 * probe (Documentation/trace/tracepoint-core.rst, "The read side").  The
 * read side here is a few instructions the site inlines (<linux/tracepoint.h>,
 * __ustrace_tp_rcu_enter()/__ustrace_tp_rcu_exit()): the algorithm is the
 * classic one of a per-thread counter that copies the grace-period phase
 * on its outermost entry, with membarrier(2) on the update side, so that
 * the read side needs no fence.
 *
 * Readers.  A thread's reader record is a slot in a table the library
 * owns (its memory is never unmapped), found through a thread-local
 * pointer; the thread takes one at its first firing (any thread of the
 * host may fire, without registering first) and gives it back when it
 * exits (a pthread key's destructor).  The record's ctr is 0 outside a
 * critical section; inside, the phase bit of __ustrace_tp_gp as it was at
 * the outermost entry, plus the nesting depth (signal handlers and probes
 * that fire tracepoints nest).
 *
 * Grace period.  membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) first: a
 * reader whose counter store is not visible after it will see the new
 * probe arrays.  Then twice: flip the phase, and wait until every reader
 * is outside or has entered in the new phase.  A reader that entered
 * before the first flip has the old phase at one of the two waits (it can
 * have read the phase before a previous grace period's flip and stored it
 * late, which is why there are two), and one that enters after a flip
 * copies the new phase and is not waited for: readers that keep firing do
 * not hold the writer off.  The reader's exit is a release store and the
 * writer's scan an acquire load, so what a reader did in its section
 * happens before the free.
 *
 * Without membarrier (old kernels, seccomp), every reader orders its
 * counter store before its loads with a fence (its record's fence flag,
 * set when it takes the slot) and the writer uses a fence too.
 *
 * Signals are blocked while a thread takes or gives back its slot (under
 * the table's mutex) and during a grace period: a handler that fires a
 * tracepoint in a thread without a slot would otherwise take the mutex
 * its own thread holds.  A grace period does not hold the table's mutex
 * while it waits: threads come and go meanwhile.
 */
#define __USTRACE_CORE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/tracepoint.h>
#include "internal.h"
#include "tp_rcu.h"

#define TP_RCU_PHASE	(__USTRACE_TP_NEST_MASK + 1)

/* One reader record, alone on its cache line (threads write their own). */
struct tp_rcu_slot {
	struct __ustrace_tp_reader r;
	struct tp_rcu_slot *next_free;
	bool in_use;
} __attribute__((__aligned__(64)));

#define TP_RCU_CHUNK_BYTES	16384
#define TP_RCU_CHUNK_SLOTS	((TP_RCU_CHUNK_BYTES - 64) / sizeof(struct tp_rcu_slot))

/*
 * Slots come in chunks; a chunk is never given back, and a slot is only
 * ever added (nr grows) or taken and given back (its ctr is 0 while it is
 * free), so a grace period walks the chunks without the table's mutex.
 */
struct tp_rcu_chunk {
	struct tp_rcu_chunk *next;
	unsigned int nr;		/* slots ever handed out from it */
	struct tp_rcu_slot slots[TP_RCU_CHUNK_SLOTS] __attribute__((__aligned__(64)));
};

/* The phase and a nesting count of 1: what an outermost entry stores. */
__ustrace_visible unsigned long __ustrace_tp_gp = 1;

__ustrace_visible __thread struct __ustrace_tp_reader *__ustrace_tp_reader_self
	__attribute__((__tls_model__("initial-exec")));

/*
 * Readers of the library's out-of-line read side (objects built before
 * the inline one, and ThreadSanitizer builds) whose thread could not get a
 * slot: counted here (atomically), and waited for until none is left.
 */
static unsigned long tp_rcu_unslotted;
static __thread unsigned int tp_rcu_unslotted_depth
	__attribute__((__tls_model__("initial-exec")));

static pthread_mutex_t tp_rcu_mutex = PTHREAD_MUTEX_INITIALIZER;	/* the table */
static pthread_mutex_t tp_rcu_gp_mutex = PTHREAD_MUTEX_INITIALIZER;	/* one grace period at a time */
static struct tp_rcu_chunk tp_rcu_first;	/* no allocation for most programs */
static struct tp_rcu_chunk *tp_rcu_chunks = &tp_rcu_first;
static struct tp_rcu_slot *tp_rcu_free;
static pthread_once_t tp_rcu_once = PTHREAD_ONCE_INIT;
static pthread_key_t tp_rcu_key;
static bool tp_rcu_key_ok;
static bool tp_rcu_membarrier;		/* readers need no fence */

static void tp_rcu_thread_exit(void *arg);

static bool tp_rcu_register_membarrier(void)
{
	long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	return cmds >= 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
	       !syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
}

static void tp_rcu_init_once(void)
{
	tp_rcu_key_ok = !pthread_key_create(&tp_rcu_key, tp_rcu_thread_exit);
	tp_rcu_membarrier = tp_rcu_register_membarrier();
}

static void tp_rcu_block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

static void tp_rcu_restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* A free slot, or NULL (no memory).  Called with tp_rcu_mutex held. */
static struct tp_rcu_slot *tp_rcu_take_slot(void)
{
	struct tp_rcu_slot *s = tp_rcu_free;
	struct tp_rcu_chunk *c;

	if (s) {
		tp_rcu_free = s->next_free;
		return s;
	}
	for (c = tp_rcu_chunks; c; c = c->next)
		if (c->nr < TP_RCU_CHUNK_SLOTS) {
			__atomic_store_n(&c->nr, c->nr + 1, __ATOMIC_RELEASE);
			return &c->slots[c->nr - 1];
		}
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return NULL;
	c->nr = 1;
	c->next = tp_rcu_chunks;
	__atomic_store_n(&tp_rcu_chunks, c, __ATOMIC_RELEASE);
	return &c->slots[0];
}

/**
 * __ustrace_tp_reader_register - give the calling thread its reader record
 *
 * Called by the inline read side the first time a thread fires.
 *
 * Return: the record (also in __ustrace_tp_reader_self), or NULL when
 * there is no memory for one: the caller then runs no probe.
 * Context: any thread, also in a signal handler; takes tp_rcu_mutex with
 * signals blocked.
 */
struct __ustrace_tp_reader *__ustrace_tp_reader_register(void)
{
	struct tp_rcu_slot *s;
	sigset_t old;

	tp_rcu_block_signals(&old);
	if (__ustrace_tp_reader_self) {	/* a signal handler's firing took one */
		tp_rcu_restore_signals(&old);
		return __ustrace_tp_reader_self;
	}
	pthread_once(&tp_rcu_once, tp_rcu_init_once);
	pthread_mutex_lock(&tp_rcu_mutex);
	s = tp_rcu_take_slot();
	if (s) {
		s->r.fence = !tp_rcu_membarrier;
		__atomic_store_n(&s->r.ctr, 0, __ATOMIC_RELAXED);
		s->in_use = true;
	}
	pthread_mutex_unlock(&tp_rcu_mutex);
	if (s) {
		/*
		 * The destructor gives the slot back at thread exit.  Without
		 * a key (none left) the slot stays taken after the thread is
		 * gone: a little memory, never a wrong answer (its ctr is 0).
		 */
		if (tp_rcu_key_ok)
			pthread_setspecific(tp_rcu_key, s);
		__ustrace_tp_reader_self = &s->r;
	}
	tp_rcu_restore_signals(&old);
	return s ? &s->r : NULL;
}

/*
 * Thread exit: the slot goes back to the free list (its ctr 0: a thread
 * that exits inside a critical section, with pthread_exit() from a probe,
 * does not hold grace periods off for ever).  A tracepoint fired by
 * a later destructor takes a slot again (and sets the key again, so that
 * this runs again).
 */
static void tp_rcu_thread_exit(void *arg)
{
	struct tp_rcu_slot *s = arg;
	sigset_t old;

	tp_rcu_block_signals(&old);
	__ustrace_tp_reader_self = NULL;
	pthread_mutex_lock(&tp_rcu_mutex);
	__atomic_store_n(&s->r.ctr, 0, __ATOMIC_RELEASE);
	s->in_use = false;
	s->next_free = tp_rcu_free;
	tp_rcu_free = s;
	pthread_mutex_unlock(&tp_rcu_mutex);
	tp_rcu_restore_signals(&old);
}

/*
 * The library's out-of-line read side: what objects built before the
 * inline one call, and what ThreadSanitizer builds call (its annotations
 * are in tracepoint.c's wrappers).  A thread without a slot is counted in
 * tp_rcu_unslotted.
 */
void tp_rcu_read_lock(void)
{
	struct __ustrace_tp_reader *r = NULL;

	if (!tp_rcu_unslotted_depth)
		r = __ustrace_tp_rcu_enter_inline();
	if (!r) {
		tp_rcu_unslotted_depth++;
		__atomic_add_fetch(&tp_rcu_unslotted, 1, __ATOMIC_SEQ_CST);
	}
}

void tp_rcu_read_unlock(void)
{
	if (tp_rcu_unslotted_depth) {
		tp_rcu_unslotted_depth--;
		__atomic_sub_fetch(&tp_rcu_unslotted, 1, __ATOMIC_RELEASE);
		return;
	}
	__ustrace_tp_rcu_exit_inline(__ustrace_tp_reader_self);
}

/* Whether the calling thread is inside a read-side critical section. */
bool tp_rcu_read_ongoing(void)
{
	struct __ustrace_tp_reader *r = __ustrace_tp_reader_self;

	return tp_rcu_unslotted_depth ||
	       (r && (__atomic_load_n(&r->ctr, __ATOMIC_RELAXED) & __USTRACE_TP_NEST_MASK));
}

/* Every running thread of the process executes a full barrier. */
static void tp_rcu_barrier_all(void)
{
	if (!tp_rcu_membarrier ||
	    syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Whether @s is in a critical section it entered in another phase than @gp's. */
static bool tp_rcu_slot_old(const struct tp_rcu_slot *s, unsigned long gp)
{
	unsigned long ctr = __atomic_load_n(&s->r.ctr, __ATOMIC_ACQUIRE);

	return (ctr & __USTRACE_TP_NEST_MASK) && ((ctr ^ gp) & TP_RCU_PHASE);
}

/* A short wait: spin a little, then sleep longer each time, up to 1 ms. */
static void tp_rcu_backoff(unsigned int *round)
{
	if (*round < 100) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	} else {
		unsigned int shift = *round - 100 < 5 ? *round - 100 : 5;
		struct timespec ts = { 0, 31250L << shift };	/* 31 us .. 1 ms */

		nanosleep(&ts, NULL);
	}
	(*round)++;
}

/*
 * Wait until no reader is in a critical section of the phase before @gp's.
 * Without the table's mutex: threads that come and go meanwhile are not
 * held up.  A chunk added meanwhile holds only threads that took their
 * slot after the grace period's barrier, whose sections see the new
 * arrays.
 */
static void tp_rcu_wait_old(unsigned long gp)
{
	struct tp_rcu_chunk *c;
	unsigned int i, round = 0;

	for (c = __atomic_load_n(&tp_rcu_chunks, __ATOMIC_ACQUIRE); c; c = c->next)
		for (i = 0; i < __atomic_load_n(&c->nr, __ATOMIC_ACQUIRE); i++)
			while (tp_rcu_slot_old(&c->slots[i], gp))
				tp_rcu_backoff(&round);
}

/**
 * tp_rcu_synchronize - wait for a grace period
 *
 * When it returns, every read-side critical section that began before the
 * call has ended.  Must not be called from one (it would wait for itself:
 * tracepoint.c checks tp_rcu_read_ongoing()).
 *
 * Context: may sleep; takes tp_rcu_gp_mutex with signals blocked.
 */
void tp_rcu_synchronize(void)
{
	unsigned int round = 0;
	sigset_t old;
	int i;

	tp_rcu_block_signals(&old);
	pthread_once(&tp_rcu_once, tp_rcu_init_once);
	pthread_mutex_lock(&tp_rcu_gp_mutex);
	tp_rcu_barrier_all();
	for (i = 0; i < 2; i++) {
		unsigned long gp = __ustrace_tp_gp ^ TP_RCU_PHASE;

		__atomic_store_n(&__ustrace_tp_gp, gp, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		tp_rcu_wait_old(gp);
	}
	while (__atomic_load_n(&tp_rcu_unslotted, __ATOMIC_ACQUIRE))
		tp_rcu_backoff(&round);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&tp_rcu_gp_mutex);
	tp_rcu_restore_signals(&old);
}

/*
 * fork(): the child has only the thread that forked; the other threads'
 * slots go back to the free list (one of them may have been inside a
 * critical section, which would hold every grace period of the child off).
 */
static void tp_rcu_fork_prepare(void)
{
	pthread_mutex_lock(&tp_rcu_gp_mutex);
	pthread_mutex_lock(&tp_rcu_mutex);
}

static void tp_rcu_fork_parent(void)
{
	pthread_mutex_unlock(&tp_rcu_mutex);
	pthread_mutex_unlock(&tp_rcu_gp_mutex);
}

static void tp_rcu_fork_child(void)
{
	struct tp_rcu_slot *self = NULL;
	struct tp_rcu_chunk *c;
	unsigned int i;

	if (__ustrace_tp_reader_self)
		self = (struct tp_rcu_slot *)((char *)__ustrace_tp_reader_self -
					      offsetof(struct tp_rcu_slot, r));
	tp_rcu_free = NULL;
	for (c = tp_rcu_chunks; c; c = c->next) {
		for (i = 0; i < c->nr; i++) {
			struct tp_rcu_slot *s = &c->slots[i];

			if (s == self)
				continue;
			__atomic_store_n(&s->r.ctr, 0, __ATOMIC_RELAXED);
			s->in_use = false;
			s->next_free = tp_rcu_free;
			tp_rcu_free = s;
		}
	}
	/* Only this thread counted: the others' unslotted sections are gone. */
	__atomic_store_n(&tp_rcu_unslotted, tp_rcu_unslotted_depth, __ATOMIC_RELAXED);
	/*
	 * The registration is the memory map's, which the child copied; should
	 * the kernel not keep it, the child's one thread orders itself.
	 */
	if (tp_rcu_membarrier &&
	    syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0)) {
		tp_rcu_membarrier = false;
		if (self)
			self->r.fence = 1;
	}
	ustrace_fork_reinit_mutex(&tp_rcu_mutex, PTHREAD_MUTEX_DEFAULT);
	ustrace_fork_reinit_mutex(&tp_rcu_gp_mutex, PTHREAD_MUTEX_DEFAULT);
}

static const struct ustrace_fork_ops tp_rcu_fork_ops = {
	.prepare	= tp_rcu_fork_prepare,
	.parent		= tp_rcu_fork_parent,
	.child		= tp_rcu_fork_child,
};

/*
 * The library unloaded (dlclose() of the last object that needed it): the
 * key's destructor would be called at the exit of threads that outlive it.
 */
__attribute__((__destructor__))
static void tp_rcu_unload(void)
{
	if (__atomic_exchange_n(&tp_rcu_key_ok, false, __ATOMIC_RELAXED))
		pthread_key_delete(tp_rcu_key);
}

/* Called once by the tracepoint core's initialisation. */
void tp_rcu_init(void)
{
	pthread_once(&tp_rcu_once, tp_rcu_init_once);
	ustrace_fork_register(USTRACE_FORK_RCU, &tp_rcu_fork_ops);
}
