// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Waking the tree's blocked readers (Documentation/trace/system-mode.rst,
 * "Waiting"): a blocked read of a trace_pipe of the collector's tree sleeps
 * on one word of ours, coll_wake, instead of asking the programs every
 * COLL_POLL_MS.
 *
 *   the FUSE server         loads coll_wake, arms each program's file
 *                           (COLL_WAIT_ARM: the program arms its buffer
 *                           as its own readers do), then sleeps on
 *                           coll_wake
 *   a program's writer      finds the bell rung, bumps and wakes the
 *                           wake word in its buffer's header page
 *   the watcher (here)      sleeps on the wake word of every running
 *                           program's buffer at once, in our read-only
 *                           mappings of their memfds (futex_waitv(): a
 *                           shared futex is the file's word, whoever
 *                           maps it), and bumps coll_wake when one moves
 *
 * The watcher loads the words and only then bumps coll_wake, so that a
 * program's bump it did not wait for is followed by one of coll_wake,
 * after the server's load.  A program that registers or goes bumps
 * watch_changed, one more word the watcher sleeps on, and it looks again,
 * and so does a buffer of a program's added to the watch (an instance's:
 * coll_record_watch()).  More words than futex_waitv() takes, or a kernel
 * without it: no word (coll_wait_word() NULL), and the server looks every
 * COLL_POLL_MS.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "../../internal.h"
#include "collector.h"

#ifndef FUTEX_WAITV_MAX
# define FUTEX_WAITV_MAX	128
#endif

static uint32_t coll_wake;	/* the tree's blocked readers sleep on it */
static uint32_t watch_changed;	/* the programs to watch are others now */
static bool watch_stopping;
static bool watch_covers;	/* the watcher watches every running program */
static bool watch_running;
static pthread_t watch_thread;

static void word_wake(uint32_t *word, int op)
{
	__atomic_add_fetch(word, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, word, op, INT_MAX, NULL, NULL, 0);
}

/*
 * Wake the tree's blocked readers: data came (a program's, or ours).  Not
 * a private wake: the FUSE server sleeps on its files' words as on the
 * buffers' (FUTEX_WAIT, shared).
 */
void coll_wait_wake(void)
{
	word_wake(&coll_wake, FUTEX_WAKE);
}

/* A program registered or went: the watcher looks again. */
void coll_wait_changed(void)
{
	word_wake(&watch_changed, FUTEX_WAKE_PRIVATE);
}

/*
 * The word the tree's blocked readers sleep on, or NULL when nothing
 * would wake them (they look every COLL_POLL_MS).
 */
uint32_t *coll_wait_word(void)
{
	if (!__atomic_load_n(&watch_running, __ATOMIC_ACQUIRE) ||
	    !__atomic_load_n(&watch_covers, __ATOMIC_ACQUIRE))
		return NULL;
	return &coll_wake;
}

static void *watch_fn(void *arg)
{
	struct futex_waitv w[FUTEX_WAITV_MAX];
	const uint32_t *words[FUTEX_WAITV_MAX - 1];
	uint32_t vals[FUTEX_WAITV_MAX - 1];
	int n;

	(void)arg;
	while (!__atomic_load_n(&watch_stopping, __ATOMIC_ACQUIRE)) {
		w[0] = (struct futex_waitv){
			.val = __atomic_load_n(&watch_changed, __ATOMIC_SEQ_CST),
			.uaddr = (uintptr_t)&watch_changed,
			.flags = FUTEX_32 | FUTEX_PRIVATE_FLAG,
		};
		n = coll_records_wake_words(words, vals, FUTEX_WAITV_MAX - 1);
		__atomic_store_n(&watch_covers, n >= 0, __ATOMIC_RELEASE);
		for (int i = 0; i < n; i++)
			w[i + 1] = (struct futex_waitv){
				.val = vals[i],
				.uaddr = (uintptr_t)words[i],
				.flags = FUTEX_32,	/* shared: the memfd's word */
			};
		/* After the loads: see the file's comment. */
		coll_wait_wake();
		if (syscall(SYS_futex_waitv, w, (unsigned int)(n < 0 ? 1 : n + 1), 0, NULL,
			    CLOCK_MONOTONIC) < 0 && errno == ENOSYS)
			break;
	}
	/* No word from now on: the readers look every COLL_POLL_MS. */
	__atomic_store_n(&watch_covers, false, __ATOMIC_RELEASE);
	coll_wait_wake();
	return NULL;
}

/* Start the watcher; without it the tree's readers poll.  The collector's thread. */
void coll_wait_start(void)
{
	sigset_t all, old;

	__atomic_store_n(&watch_stopping, false, __ATOMIC_RELAXED);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!pthread_create(&watch_thread, NULL, watch_fn, NULL)) {
		pthread_setname_np(watch_thread, "ustrace-cwatch");
		__atomic_store_n(&watch_running, true, __ATOMIC_RELEASE);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Stop it (the collector's thread, after the tree is unmounted). */
void coll_wait_stop(void)
{
	if (!__atomic_load_n(&watch_running, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&watch_stopping, true, __ATOMIC_RELEASE);
	coll_wait_changed();
	pthread_join(watch_thread, NULL);
	__atomic_store_n(&watch_running, false, __ATOMIC_RELEASE);
}
