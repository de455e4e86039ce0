/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench_harness.h - the timing harness shared by event_bench.c and
 * lttng_bench.c, so that both sides of the comparison are measured the
 * same way: a loop of N events (run_loop), run by one thread pinned to the
 * first CPU of the affinity mask, or by two threads pinned to the first two
 * and released together by a barrier; best of BENCH_REPS runs each, the
 * one-thread and two-thread runs taken in turns, so that a stretch of time
 * when the host takes a CPU from the guest falls on both alike rather than
 * on whichever ran then (the scaling is their ratio).
 *
 * Each program prints "key value" lines for selftests/bench/
 * lttng_compare.sh:
 *   ns_1thread X       ns per event, one thread
 *   ns_2threads X      ns per event per thread, two threads at once
 *   scaling X          events/s with two threads over events/s with one
 */
#ifndef _BENCH_HARNESS_H
#define _BENCH_HARNESS_H

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_NOINLINE	__attribute__((__noinline__, __used__))
#define BENCH_REPS	9

/* 15 characters and the NUL: the "16-char string" of the event. */
static const char bench_comm[16] = "bench-thread-xy";

static void (*run_loop)(long n);
static int bench_cpus[2];
static int bench_nr_cpus;

static double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bench_find_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE && bench_nr_cpus < 2; cpu++)
		if (CPU_ISSET(cpu, &set))
			bench_cpus[bench_nr_cpus++] = cpu;
}

struct bench_run {
	int cpu;
	long n;
	pthread_barrier_t *start;
	double ns;
};

static void *bench_writer(void *arg)
{
	struct bench_run *run = arg;
	cpu_set_t set;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(run->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	run_loop(1000);
	pthread_barrier_wait(run->start);
	t0 = bench_now_ns();
	run_loop(run->n);
	run->ns = bench_now_ns() - t0;
	return NULL;
}

/* Events per second of @threads writers running at once. */
static double bench_rate(int threads, long n)
{
	pthread_barrier_t start;
	struct bench_run runs[2];
	pthread_t tids[2];
	double longest = 0;

	pthread_barrier_init(&start, NULL, (unsigned int)threads);
	for (int t = 0; t < threads; t++) {
		runs[t] = (struct bench_run){ .cpu = bench_cpus[t], .n = n, .start = &start };
		pthread_create(&tids[t], NULL, bench_writer, &runs[t]);
	}
	for (int t = 0; t < threads; t++) {
		pthread_join(tids[t], NULL);
		if (runs[t].ns > longest)
			longest = runs[t].ns;
	}
	pthread_barrier_destroy(&start);
	return (double)threads * (double)n / longest * 1e9;
}

/* The best events per second of @threads writers over BENCH_REPS runs. */
static __attribute__((__unused__)) double bench_best_rate(int threads, long n)
{
	double best = 0;

	for (int rep = 0; rep < BENCH_REPS; rep++) {
		double r = bench_rate(threads, n);

		if (r > best)
			best = r;
	}
	return best;
}

/* Print the ns_1thread, ns_2threads and scaling lines. */
static __attribute__((__unused__)) void bench_report(long n)
{
	double one, two;

	bench_find_cpus();
	if (bench_nr_cpus < 1) {
		bench_cpus[0] = 0;
		bench_nr_cpus = 1;
	}
	one = two = 0;
	for (int rep = 0; rep < BENCH_REPS; rep++) {
		double r = bench_rate(1, n);

		if (r > one)
			one = r;
		if (bench_nr_cpus < 2)
			continue;
		r = bench_rate(2, n);
		if (r > two)
			two = r;
	}
	printf("ns_1thread %.2f\n", 1e9 / one);
	if (bench_nr_cpus < 2) {
		printf("ns_2threads -\nscaling -\n");
		return;
	}
	printf("ns_2threads %.2f\n", 2e9 / two);
	printf("scaling %.2f\n", two / one);
}

/*
 * A figure for the table "make bench" prints at the end
 * (scripts/bench-table.sh): "KEY VALUE" appended to the file
 * USTRACE_BENCH_TABLE names, when it is set.
 */
static __attribute__((__unused__)) void bench_table(const char *key, double value)
{
	const char *path = getenv("USTRACE_BENCH_TABLE");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s %.2f\n", key, value);
	fclose(f);
}

/* Events per thread per run: USTRACE_BENCH_EVENTS, or @def. */
static long bench_events(long def)
{
	const char *s = getenv("USTRACE_BENCH_EVENTS");

	if (s && atol(s) > 0)
		return atol(s);
	return def;
}

#endif /* _BENCH_HARNESS_H */
