// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork-killed.c - forked children that write into their parent's buffer
 * and are killed in the middle of an event (ring-buffer-design.rst,
 * "Writers that die").
 *
 * A child killed between the reserve and the commit of an event leaves a
 * page that never completes: the writers of that CPU then drop every
 * event (commit overrun) and the reader waits before that page, as the
 * design says, until a reset.  The reset takes the CPU anyway once it
 * has waited in vain and knows a process that shared the buffer died.
 *
 * The parent forks children that fire without pause and SIGKILLs each
 * after a random time, as supervisors kill stuck workers, until one of
 * them has left a CPU's page unfinished (its events are then dropped);
 * then ring_buffer_reset() must empty every CPU, and the parent's next
 * events must all be recorded.  Every child is reaped before the next
 * is forked, so the dead writers here are gone processes (a zombie not
 * yet reaped counts as dead too, rb_pid_gone(); this test does not reach
 * that case).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#define CREATE_TRACE_POINTS
#include "fork-events.h"

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "kselftest.h"

#define MAX_KILLS	5000
#define PROBE_EVENTS	20000
#define AFTER_EVENTS	1000

static unsigned long long commit_overruns(struct trace_buffer *b)
{
	unsigned long long n = 0;

	for (int cpu = 0; cpu < ring_buffer_nr_cpus(b); cpu++)
		n += ring_buffer_commit_overrun_cpu(b, cpu);
	return n;
}

/* Fork a child that fires until it is killed, after up to 2 ms. */
static int kill_one(unsigned int *seed)
{
	struct timespec t = { 0, (long)(rand_r(seed) % 2000) * 1000 };
	pid_t p = fork();

	if (p < 0)
		return -errno;
	if (!p) {
		for (int i = 0;; i++)
			trace_fork_ev(i);
	}
	nanosleep(&t, NULL);
	kill(p, SIGKILL);
	return waitpid(p, NULL, 0) == p ? 0 : -errno;
}

int main(void)
{
	struct trace_buffer *b;
	unsigned long long before;
	unsigned int seed = (unsigned int)getpid();
	int kills, err;

	ksft_print_header();
	ksft_set_plan(3);
	if (trace_set_clr_event("fork_test", "fork_ev", 1))
		ksft_exit_fail_msg("enabling fork_test:fork_ev failed\n");
	b = trace_get_global_buffer();

	/*
	 * Kill until the parent's own events are dropped: only a page left
	 * unfinished does that here (the parent writes alone).
	 */
	for (kills = 1; kills <= MAX_KILLS; kills++) {
		err = kill_one(&seed);
		if (err)
			ksft_exit_fail_msg("fork/kill/wait: %s\n", strerror(-err));
		if (kills % 10)
			continue;
		for (int i = 0; i < PROBE_EVENTS; i++)
			trace_fork_ev(-1);
		if (commit_overruns(b))
			break;
	}
	ksft_print_msg("%d children killed; events dropped for an unfinished page: %llu\n",
		       kills > MAX_KILLS ? MAX_KILLS : kills, commit_overruns(b));
	ksft_test_result(kills <= MAX_KILLS,
			 "a child killed in the middle of an event leaves a CPU's page unfinished\n");

	ring_buffer_reset(b);
	ksft_test_result(ring_buffer_entries(b) == 0 && commit_overruns(b) == 0,
			 "the reset takes every CPU anyway: entries %llu, commit overruns %llu\n",
			 (unsigned long long)ring_buffer_entries(b), commit_overruns(b));

	before = ring_buffer_entries(b) + ring_buffer_overruns(b);
	for (int i = 0; i < AFTER_EVENTS; i++)
		trace_fork_ev(-2);
	ksft_test_result(ring_buffer_entries(b) + ring_buffer_overruns(b) - before ==
			 AFTER_EVENTS && commit_overruns(b) == 0,
			 "then the parent's %d events are all recorded (%llu)\n", AFTER_EVENTS,
			 ring_buffer_entries(b) + ring_buffer_overruns(b) - before);
	ksft_finished();
}
