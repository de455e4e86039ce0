// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ktl-app - the program of the kernel-timeline tests (selftests/kernel/):
 * recorded by ustrace record -K, with the kernel's sched_switch.
 *
 *   -w N   N workers (default 4) in a ring, with N / 2 tokens going round:
 *          a worker that holds one is woken, spins (firing ktl_mark every
 *          few microseconds, for 20 us to 2 ms), passes the token on (a
 *          wake-up of the next) and sleeps, now and then in nanosleep()
 *          first; so threads sleep, spin, are preempted and wake each other
 *   -r N   N rounds per worker (default 200)
 *   -S N   instead: N times ktl_sync(i, 0), prctl(PR_SET_NAME), ktl_sync(i, 1)
 *          (the kernel's task:task_rename falls between the two)
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define CREATE_TRACE_POINTS
#include "ktl-events.h"

#define MAX_WORKERS	64

static int nr_workers = 4, nr_rounds = 200;
static int tokens[MAX_WORKERS];		/* futex words: tokens held */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void give(int w)
{
	__atomic_add_fetch(&tokens[w], 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &tokens[w], FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void take(int w)
{
	for (;;) {
		int v = __atomic_load_n(&tokens[w], __ATOMIC_ACQUIRE);

		if (v > 0 && __atomic_compare_exchange_n(&tokens[w], &v, v - 1, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return;
		if (v <= 0)
			syscall(SYS_futex, &tokens[w], FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
	}
}

static void *worker(void *arg)
{
	int w = (int)(long)arg;
	unsigned long seq = 0;
	unsigned int rnd = (unsigned int)w * 2654435761u + 1;

	for (int r = 0; r < nr_rounds; r++) {
		uint64_t end;

		take(w);
		trace_ktl_mark(w, seq++, 0);
		rnd = rnd * 1103515245u + 12345u;
		end = now_ns() + 20000 + (rnd >> 8) % 2000000;
		while (now_ns() < end) {
			trace_ktl_mark(w, seq++, 1);
			for (volatile int i = 0; i < 20000; i++)
				;
		}
		trace_ktl_mark(w, seq++, 2);
		give((w + 1) % nr_workers);
		if (r % 3 == 0) {
			struct timespec ts = { .tv_nsec = 50000 };

			nanosleep(&ts, NULL);
			trace_ktl_mark(w, seq++, 0);
		}
	}
	return NULL;
}

static int run_workers(void)
{
	pthread_t th[MAX_WORKERS];

	for (int w = 0; w < nr_workers; w += 2)
		tokens[w] = 1;
	for (int w = 0; w < nr_workers; w++)
		if (pthread_create(&th[w], NULL, worker, (void *)(long)w))
			return 1;
	for (int w = 0; w < nr_workers; w++)
		pthread_join(th[w], NULL);
	return 0;
}

static int run_sync(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		trace_ktl_sync(i, 0);
		prctl(PR_SET_NAME, i & 1 ? "ktl-sync" : "ktl-app");
		trace_ktl_sync(i, 1);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long sync = 0;
	int c;

	while ((c = getopt(argc, argv, "w:r:S:")) != -1) {
		switch (c) {
		case 'w': nr_workers = atoi(optarg); break;
		case 'r': nr_rounds = atoi(optarg); break;
		case 'S': sync = atol(optarg); break;
		default:
			fprintf(stderr, "usage: ktl-app [-w N] [-r N] [-S N]\n");
			return 2;
		}
	}
	if (nr_workers < 2 || nr_workers > MAX_WORKERS || nr_rounds < 1) {
		fprintf(stderr, "ktl-app: -w 2..%d, -r 1 or more\n", MAX_WORKERS);
		return 2;
	}
	/* The ring holds tokens on every other worker: N / 2 at once. */
	return sync ? run_sync((unsigned long)sync) : run_workers();
}
