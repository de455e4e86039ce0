// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork-killed.c - forked children that write into their parent's buffer
 * and are SIGKILLed in the middle of an event (ring-buffer-design.rst,
 * "Writers that die").
 *
 * A child killed between the reserve and the commit of an event leaves a
 * record that is never committed, so a page that never completes.  Its
 * header still carries the child's mark; whoever is held up by the page
 * (a writer coming round to it, the reader, a reset) finds the owner
 * gone and makes the record padding, counted as killed, and the CPU goes
 * on: nothing wedges, and per CPU
 *
 *   read + overrun + commit overrun + dropped + killed = attempts
 *
 * Everything runs on one CPU (the parent pins itself first; children
 * inherit it), in a buffer of 32 pages that the writers go round often.
 *
 *  1. Writers killed in a loop while two other processes write at full
 *     speed: each victim reserves an event with ring_buffer_lock_reserve(),
 *     says so through a pipe and waits; the parent SIGKILLs it.  Every
 *     attempt is counted (the full-speed writers end with exit(), their
 *     counts in shared memory), so the identity holds exactly, with
 *     killed = the victims.
 *  2. The supervisor's way: children that fire without pause, each
 *     SIGKILLed after a random time up to 2 ms, 300 of them, then the
 *     parent fires; the identity (with the events not read yet) holds
 *     within the one event each kill may leave uncounted.  A kill that
 *     lands in the few instructions between a reservation and its
 *     header, or between the header's unmark and the commit, leaves a
 *     record nobody can tell apart: that page holds the CPU up until a
 *     reset (ring-buffer-design.rst), so this part asserts no more.
 *  3. A reset after all that empties the CPU; the next events are all
 *     recorded.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define CREATE_TRACE_POINTS
#include "fork-events.h"

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "kselftest.h"

#define PAGES		32
#define VICTIMS		200
#define FULL_SPEED	2
#define RANDOM_KILLS	300
#define AFTER_EVENTS	20000

struct shared {
	volatile int stop;
	unsigned long long attempts[FULL_SPEED];
	unsigned long long random_attempts;
};

static struct shared *sh;
static struct trace_buffer *b;
static int cpu;

struct counts {
	unsigned long long entries, overrun, commit_overrun, dropped, killed;
};

static void counts_of(struct counts *c)
{
	c->entries = ring_buffer_entries_cpu(b, cpu);
	c->overrun = ring_buffer_overrun_cpu(b, cpu);
	c->commit_overrun = ring_buffer_commit_overrun_cpu(b, cpu);
	c->killed = ring_buffer_killed_events_cpu(b, cpu);
	/* ring_buffer_dropped_events_cpu() counts the killed too. */
	c->dropped = ring_buffer_dropped_events_cpu(b, cpu) - c->killed;
}

/*
 * Consume everything on the CPU; the reader reaps what is left
 * unfinished on the pages it comes to (at most every 10 ms).  Until
 * @killed records were reaped, or 5 s.
 */
static unsigned long long drain(unsigned long long killed)
{
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	unsigned long long n = 0;

	for (int i = 0; i < 2500; i++) {
		while (ring_buffer_consume(b, cpu, NULL, NULL))
			n++;
		if (ring_buffer_killed_events_cpu(b, cpu) >= killed &&
		    !ring_buffer_entries_cpu(b, cpu))
			break;
		nanosleep(&pause, NULL);
	}
	return n;
}

static pid_t full_speed(int k)
{
	pid_t p = fork();

	if (p)
		return p;
	while (!sh->stop) {
		trace_fork_ev(k);
		__atomic_add_fetch(&sh->attempts[k], 1, __ATOMIC_RELAXED);
	}
	exit(0);
}

/* A victim: reserves, says whether it got the event, waits to be killed. */
static int victim(void)
{
	int fds[2];
	char got;
	pid_t p;

	if (pipe(fds))
		return -errno;
	p = fork();
	if (p < 0)
		return -errno;
	if (!p) {
		struct ring_buffer_event *ev = ring_buffer_lock_reserve(b, 24);

		if (ev)
			memset(ring_buffer_event_data(ev), 0x5a, 8);	/* half of it */
		got = ev ? 'y' : 'n';
		if (write(fds[1], &got, 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &got, 1) != 1)
		got = '?';
	close(fds[0]);
	kill(p, SIGKILL);
	if (waitpid(p, NULL, 0) != p)
		return -errno;
	return got == 'y' ? 1 : got == 'n' ? 0 : -EIO;
}

/* A child firing until it is killed, after up to 2 ms. */
static int random_kill(unsigned int *seed)
{
	struct timespec t = { 0, (long)(rand_r(seed) % 2000) * 1000 };
	pid_t p = fork();

	if (p < 0)
		return -errno;
	if (!p) {
		for (int i = 0;; i++) {
			trace_fork_ev(i);
			__atomic_add_fetch(&sh->random_attempts, 1, __ATOMIC_RELAXED);
		}
	}
	nanosleep(&t, NULL);
	kill(p, SIGKILL);
	return waitpid(p, NULL, 0) == p ? 0 : -errno;
}

int main(void)
{
	unsigned long long reserved = 0, attempts, read, total;
	unsigned int seed = (unsigned int)getpid();
	pid_t writers[FULL_SPEED];
	struct counts c;
	cpu_set_t set;
	int err;

	ksft_print_header();
	ksft_set_plan(5);
	if (sched_getaffinity(0, sizeof(set), &set))
		ksft_exit_fail_msg("sched_getaffinity: %s\n", strerror(errno));
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_exit_fail_msg("sched_setaffinity: %s\n", strerror(errno));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	if (trace_set_clr_event("fork_test", "fork_ev", 1))
		ksft_exit_fail_msg("enabling fork_test:fork_ev failed\n");
	b = trace_get_global_buffer();
	if (ring_buffer_resize(b, PAGES * 4080, RING_BUFFER_ALL_CPUS))
		ksft_exit_fail_msg("resize failed\n");
	ring_buffer_reset(b);

	/* 1. Victims killed in a loop, two processes at full speed. */
	for (int k = 0; k < FULL_SPEED; k++)
		writers[k] = full_speed(k);
	for (int v = 0; v < VICTIMS; v++) {
		err = victim();
		if (err < 0)
			ksft_exit_fail_msg("victim %d: %s\n", v, strerror(-err));
		reserved += (unsigned long long)err;
	}
	sh->stop = 1;
	for (int k = 0; k < FULL_SPEED; k++) {
		int status;

		if (waitpid(writers[k], &status, 0) != writers[k] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			ksft_exit_fail_msg("full-speed writer %d did not exit(0)\n", k);
	}
	read = drain(reserved);
	counts_of(&c);
	/* A victim whose reserve was refused (a page held up) counts as dropped. */
	attempts = sh->attempts[0] + sh->attempts[1] + VICTIMS;
	ksft_print_msg("CPU %d: %llu victims reserved an event; %llu attempts in all: read %llu, "
		       "unread %llu, overrun %llu, commit overrun %llu, dropped %llu, killed %llu\n",
		       cpu, reserved, attempts, read, c.entries, c.overrun, c.commit_overrun,
		       c.dropped, c.killed);
	ksft_test_result(reserved > 0 && c.killed == reserved && !c.entries,
			 "every event reserved by a writer killed before its commit is found and "
			 "counted as killed (%llu of %llu), everything else read\n", c.killed, reserved);
	total = read + c.entries + c.overrun + c.commit_overrun + c.dropped + c.killed;
	ksft_test_result(total == attempts,
			 "read + overrun + commit overrun + dropped + killed = attempts (%llu = %llu)\n",
			 total, attempts);

	/* 2. Children fired at full speed and killed at random moments. */
	ring_buffer_reset(b);
	for (int k = 0; k < RANDOM_KILLS; k++) {
		err = random_kill(&seed);
		if (err)
			ksft_exit_fail_msg("fork/kill/wait: %s\n", strerror(-err));
	}
	for (int i = 0; i < AFTER_EVENTS; i++)
		trace_fork_ev(-1);
	read = drain(0);
	counts_of(&c);
	total = read + c.entries + c.overrun + c.commit_overrun + c.dropped + c.killed;
	ksft_print_msg("%d children killed at random: %llu attempts counted, killed %llu, "
		       "commit overrun %llu, unread %llu; accounted %llu\n", RANDOM_KILLS,
		       sh->random_attempts + AFTER_EVENTS, c.killed, c.commit_overrun, c.entries,
		       total);
	ksft_test_result(total >= sh->random_attempts + AFTER_EVENTS &&
			 total <= sh->random_attempts + AFTER_EVENTS + RANDOM_KILLS,
			 "read + overrun + commit overrun + dropped + killed = attempts, within one "
			 "uncounted event a kill (%llu in [%llu, %llu])\n", total,
			 sh->random_attempts + AFTER_EVENTS,
			 sh->random_attempts + AFTER_EVENTS + RANDOM_KILLS);

	/* 3. A reset empties the CPU; the next events are all there. */
	ring_buffer_reset(b);
	ksft_test_result(ring_buffer_entries(b) == 0 && ring_buffer_commit_overrun_cpu(b, cpu) == 0,
			 "a reset empties the CPU: entries %llu\n",
			 (unsigned long long)ring_buffer_entries(b));
	for (int i = 0; i < 1000; i++)
		trace_fork_ev(-2);
	ksft_test_result(ring_buffer_entries(b) + ring_buffer_overruns(b) == 1000 &&
			 ring_buffer_commit_overrun_cpu(b, cpu) == 0,
			 "then 1000 events are all recorded (%llu)\n",
			 (unsigned long long)(ring_buffer_entries(b) + ring_buffer_overruns(b)));
	ksft_finished();
}
