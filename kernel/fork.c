// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork(): one set of pthread_atfork() handlers for the whole library, so
 * that the locks are taken in one documented order and none is held by a
 * thread that does not exist in the child.
 *
 * Terminology:
 *   level     a part of the library with locks of its own (enum
 *             ustrace_fork_level in internal.h); levels are numbered in
 *             the order the library's paths nest their locks, outermost
 *             first
 *   forker    the thread that calls fork(); the only thread of the child
 *
 * The prepare handler blocks every signal, then takes every lock of every
 * level, level by level in that order, so the forker waits for the
 * holders to finish what they are doing (none is held across a wait for
 * anything but another of these locks, a grace period, or the ring
 * buffer's bounded wait for reservations) and the child gets every
 * structure in a state some thread left it in.  The parent's handler
 * releases them, innermost first.  The child's handler initialises them
 * anew: a recursive or error-checking mutex may only be unlocked by its
 * owner, which was the forker's thread id in the parent (the child's only
 * thread has another), and that is exactly what made a child's exit()
 * hang on the recursive event mutex.
 *
 * The lock order, as kernel/internal.h numbers it:
 *
 *   1  coll.lock                collector/coll_client.c: the collector's
 *                               connection and remembered writes
 *   2  tfs_ctl_lock             tracefs_fuse.c: the mount's state
 *   3  tfs_tree_lock, then each instance's tfs_inst.lock   tracefs.c
 *   4  event_mutex              trace_events.c (recursive): the registry,
 *                               instances, filters, triggers, hist
 *   5  tracepoints_mutex        tracepoint.c
 *   6  jump_label_mutex         jump_label.c
 *   7  the ring buffers' list, each buffer's mutex (in allocation order: an
 *      instance's before its snapshot's), then each CPU's reader_lock
 *   8  tp_rcu_gp_mutex, then tp_rcu_mutex   tp_rcu.c: the read side's
 *                               grace periods and reader slot table
 *   9  cmdline_lock             trace.c: taken by a traced thread's first
 *                               event, inside an RCU read-side section, so
 *                               after the read side's (a grace period may be
 *                               waiting for that thread)
 *  10  sym_lock                 trace_stack.c
 *
 * Left alone, because the child never takes them: the FUSE server's
 * per-server lock and each open file's lock (the child inherits no server
 * and no open file: tracefs_fuse.c forsakes them), and the recorder's lock
 * (trace_record.c: only the process that started the recording takes it).
 * vfork() and posix_spawn() (and so system() and popen()) run no handler:
 * the child shares the parent's memory only until it calls exec.
 */
#include <pthread.h>
#include <signal.h>

#include "internal.h"

static const struct ustrace_fork_ops *fork_ops[USTRACE_FORK_NR_LEVELS];
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/*
 * The levels this thread's prepare handler took, for its parent's and
 * child's handlers: a level that registers in between (the tracepoint
 * core does so at its first use) must not be released by them.  And the
 * signal mask it had.  Per thread, because glibc lets two threads run
 * their prepare handlers at once, and the child's thread is the forker's,
 * with its TLS.
 */
static __thread unsigned int fork_taken;
static __thread sigset_t fork_sigmask;

static const struct ustrace_fork_ops *fork_level(int i)
{
	return fork_taken & (1u << i) ? fork_ops[i] : NULL;
}

/*
 * Every signal is blocked while the forker holds the locks: a handler
 * that ran on it then (the recorder's on a fatal signal reads the buffer
 * under a reader lock; a program's handler may fire an event, which takes
 * the saved cmdlines' lock) would wait for a lock its own thread holds.
 * The signals wait until the parent's or child's handler is done.
 */
static void fork_prepare(void)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &fork_sigmask);
	fork_taken = 0;
	for (int i = 0; i < USTRACE_FORK_NR_LEVELS; i++) {
		const struct ustrace_fork_ops *ops = __atomic_load_n(&fork_ops[i],
								     __ATOMIC_ACQUIRE);

		if (!ops)
			continue;
		fork_taken |= 1u << i;
		ops->prepare();
	}
}

static void fork_parent(void)
{
	for (int i = USTRACE_FORK_NR_LEVELS; i-- > 0; )
		if (fork_level(i))
			fork_level(i)->parent();
	pthread_sigmask(SIG_SETMASK, &fork_sigmask, NULL);
}

static void fork_child(void)
{
	for (int i = USTRACE_FORK_NR_LEVELS; i-- > 0; )
		if (fork_level(i))
			fork_level(i)->child();
	pthread_sigmask(SIG_SETMASK, &fork_sigmask, NULL);
}

static void fork_init_once(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/**
 * ustrace_fork_register - have fork() take and give back a level's locks
 * @level: which (enum ustrace_fork_level); one registration each
 * @ops:   its handlers, all three set: prepare takes the level's locks,
 *         parent releases them, child makes them usable again
 *         (re-initialises them); never changed afterwards
 *
 * Context: a constructor, or the level's first use.
 */
void ustrace_fork_register(enum ustrace_fork_level level, const struct ustrace_fork_ops *ops)
{
	pthread_once(&fork_once, fork_init_once);
	__atomic_store_n(&fork_ops[level], ops, __ATOMIC_RELEASE);
}

/**
 * ustrace_fork_reinit_mutex - make a mutex usable again in a fork child
 * @mutex: a mutex the prepare handler locked (in the parent)
 * @type:  PTHREAD_MUTEX_DEFAULT, PTHREAD_MUTEX_RECURSIVE, ...
 *
 * Unlocked first, then initialised anew.  The unlock is for the tools that
 * follow which locks a thread holds by its calls (ThreadSanitizer would
 * otherwise see the child's thread hold every lock forever); for a
 * recursive mutex it fails (the owner is the forker's id in the parent),
 * and the initialisation is what frees it.
 *
 * Context: a child's fork handler (the only thread).
 */
void ustrace_fork_reinit_mutex(pthread_mutex_t *mutex, int type)
{
	pthread_mutexattr_t attr;

	pthread_mutex_unlock(mutex);
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, type);
	pthread_mutex_init(mutex, &attr);
	pthread_mutexattr_destroy(&attr);
}
