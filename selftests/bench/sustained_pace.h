/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sustained_pace.h - the paced writers shared by sustained_bench.c (our
 * event) and sustained_lttng.c (LTTng-UST's), so that both sides of
 * selftests/bench/sustained.sh fire at a rate set the same way.
 *
 * The program fires RATE events per second in all, split evenly over
 * THREADS writer threads (1 or 2, released together by a barrier), for
 * SECONDS seconds: each thread fires RATE / THREADS * SECONDS events.
 * A thread is paced by CLOCK_MONOTONIC: event i of a thread is due at
 * t0 + i / rate; the thread fires a batch (the events of about 50 us),
 * then sleeps until the next batch is due (clock_nanosleep() to an
 * absolute time, the timer slack set to 1 ns so the sleep ends on time),
 * or fires on at once when it is late.  The events so come in a steady
 * stream of small batches rather than in bursts, and a writer that
 * cannot keep up with its share is seen to fall behind: the run then
 * took longer than SECONDS, and "behind 1" says so (the achieved rate is
 * below 99 % of the one asked for), so that such a rate is not counted
 * as kept.
 *
 * Options (pace_parse()):
 *   -r RATE     events per second, all threads together (default 1000000)
 *   -t THREADS  writer threads, 1 or 2 (default 1)
 *   -d SECONDS  how long to fire (default 2; a decimal number)
 *   -w          print "ready", then wait for a line on standard input
 *               before firing (a recorder started after the program is
 *               ready first)
 *   -H          after the report, wait for end of file on standard input
 *               before exiting (the program's tracefs mount stays while a
 *               recorder drains it)
 *
 * Prints "key value" lines: rate (asked for), threads, seconds, fired
 * (events fired, all threads), elapsed (s, the slowest thread's),
 * achieved (events/s), behind (0 or 1), max_lag_us (the most a thread
 * was ever late on its schedule).  The including program adds its own
 * (the buffer's counters) from pace_report_extra().
 */
#ifndef _SUSTAINED_PACE_H
#define _SUSTAINED_PACE_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* What fires one event; the including program sets it. */
static void (*pace_fire)(long seq, int thread);
/* Extra "key value" lines after the report; may be NULL. */
static void (*pace_report_extra)(void);

static const char pace_comm[16] = "bench-thread-xy";

struct pace_thread {
	int idx;
	long n;			/* events to fire */
	double rate;		/* this thread's events/s */
	pthread_barrier_t *start;
	double elapsed;		/* s */
	double max_lag;		/* s */
};

static double pace_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pace_sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void *pace_writer(void *arg)
{
	struct pace_thread *pt = arg;
	/* The events of about 50 us at this thread's rate, at least one. */
	long batch = (long)(pt->rate * 50e-6);
	double t0, now, due, lag;
	long i = 0;

	if (batch < 1)
		batch = 1;
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	pthread_barrier_wait(pt->start);
	t0 = pace_now();
	while (i < pt->n) {
		long end = i + batch < pt->n ? i + batch : pt->n;

		for (; i < end; i++)
			pace_fire(i, pt->idx);
		if (i >= pt->n)
			break;
		due = t0 + (double)i / pt->rate;
		now = pace_now();
		lag = now - due;
		if (lag > pt->max_lag)
			pt->max_lag = lag;
		if (lag < 0)
			pace_sleep_until(due);
	}
	pt->elapsed = pace_now() - t0;
	return NULL;
}

static double pace_rate = 1e6, pace_seconds = 2;
static int pace_threads = 1, pace_wait_go, pace_hold;

static int pace_parse(int argc, char **argv, const char *prog)
{
	int c;

	while ((c = getopt(argc, argv, "r:t:d:wH")) != -1) {
		switch (c) {
		case 'r':
			pace_rate = strtod(optarg, NULL);
			break;
		case 't':
			pace_threads = atoi(optarg);
			break;
		case 'd':
			pace_seconds = strtod(optarg, NULL);
			break;
		case 'w':
			pace_wait_go = 1;
			break;
		case 'H':
			pace_hold = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc && pace_rate >= 1 && pace_seconds > 0 &&
	    (pace_threads == 1 || pace_threads == 2))
		return 0;
usage:
	fprintf(stderr, "usage: %s [-r RATE] [-t 1|2] [-d SECONDS] [-w] [-H]\n", prog);
	return -1;
}

/* Fire as pace_parse() was told; print the report.  Return: exit status. */
static int pace_run(const char *prog)
{
	struct pace_thread pt[2];
	pthread_barrier_t start;
	pthread_t th[2];
	double elapsed = 0, max_lag = 0, achieved;
	long per = (long)(pace_rate / pace_threads * pace_seconds + 0.5), fired = 0;
	char line[64];
	int behind;

	if (pace_wait_go) {
		printf("ready\n");
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin)) {
			fprintf(stderr, "%s: no go on standard input\n", prog);
			return 1;
		}
	}
	pthread_barrier_init(&start, NULL, (unsigned)pace_threads);
	for (int t = 0; t < pace_threads; t++) {
		pt[t] = (struct pace_thread){
			.idx = t, .n = per, .rate = pace_rate / pace_threads, .start = &start,
		};
		if (pthread_create(&th[t], NULL, pace_writer, &pt[t])) {
			fprintf(stderr, "%s: pthread_create failed\n", prog);
			return 1;
		}
	}
	for (int t = 0; t < pace_threads; t++) {
		pthread_join(th[t], NULL);
		fired += pt[t].n;
		if (pt[t].elapsed > elapsed)
			elapsed = pt[t].elapsed;
		if (pt[t].max_lag > max_lag)
			max_lag = pt[t].max_lag;
	}
	pthread_barrier_destroy(&start);
	achieved = elapsed > 0 ? (double)fired / elapsed : 0;
	behind = achieved < 0.99 * pace_rate;
	printf("rate %.0f\n", pace_rate);
	printf("threads %d\n", pace_threads);
	printf("seconds %g\n", pace_seconds);
	printf("fired %ld\n", fired);
	printf("elapsed %.4f\n", elapsed);
	printf("achieved %.0f\n", achieved);
	printf("behind %d\n", behind);
	printf("max_lag_us %.0f\n", max_lag * 1e6);
	if (pace_report_extra)
		pace_report_extra();
	printf("done\n");
	fflush(stdout);
	if (pace_hold)
		while (fgets(line, sizeof(line), stdin))
			;
	return 0;
}

#endif /* _SUSTAINED_PACE_H */
