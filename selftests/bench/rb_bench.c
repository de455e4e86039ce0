// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rb_bench: what an event costs the thread that writes it.
 *
 * One event is ring_buffer_lock_reserve() of 28 bytes, three ints and a
 * 16-character string stored into it, ring_buffer_unlock_commit(): the
 * shape of a typical TRACE_EVENT.  The buffer overwrites (1 MiB per CPU),
 * so page switches and overwrites are part of the cost, as in a long
 * trace.
 *
 *   1 thread    pinned to the first CPU of the process's affinity mask
 *   2 threads   pinned to the first two, writing at the same time into
 *               their own CPUs' rings: the scaling figure is events per
 *               second with two threads over events per second with one
 *   clock       trace_clock_local() alone, the largest part of an event
 *   reference   the same two-thread run of a loop that shares nothing by
 *               construction (rdtsc, a cmpxchg16b and a locked add on
 *               thread-private lines, 32 bytes of stores): the most two
 *               threads can gain on this machine, to compare with (on a
 *               shared or SMT-sibling vCPU pair it is far below 2)
 *
 * Every figure is the best of five runs.  Timings are printed, never
 * asserted.
 *
 * Usage:
 *   rb_bench                 the table
 *   rb_bench --callgrind N   write N events from loop_events() and call an
 *                            empty function N times from loop_empty(), for
 *                            callgrind: (Ir(loop_events) - Ir(loop_empty))
 *                            / N is the instructions per event.  Valgrind
 *                            implements no rseq; this mode writes CPU 0 into
 *                            the thread's (unregistered) rseq area, standing
 *                            in for the kernel, so that the fast path runs
 *                            as it does natively
 *
 * USTRACE_BENCH_SCALE (default 1) scales the number of events.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench_rseq.h"

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>

#define BENCH_NOINLINE	__attribute__((__noinline__, __used__))
#define REPS		5
#define N_EVENTS	20000000L

struct bench_entry {
	int a, b, c;
	char comm[16];
};

static struct trace_buffer *buffer;
static long scale = 1;

BENCH_NOINLINE void loop_events(long n);
BENCH_NOINLINE void loop_empty(long n);
BENCH_NOINLINE void bench_empty(long i);

static const char comm[16] = "rb_bench-thread";

BENCH_NOINLINE void loop_events(long n)
{
	for (long i = 0; i < n; i++) {
		struct ring_buffer_event *event;
		struct bench_entry *entry;

		event = ring_buffer_lock_reserve(buffer, sizeof(*entry));
		if (!event)
			continue;
		entry = ring_buffer_event_data(event);
		entry->a = (int)i;
		entry->b = (int)(i >> 8);
		entry->c = 42;
		memcpy(entry->comm, comm, sizeof(entry->comm));
		ring_buffer_unlock_commit(buffer, event);
	}
}

BENCH_NOINLINE void bench_empty(long i)
{
	__asm__ __volatile__("" : : "r" (i));
}

BENCH_NOINLINE void loop_empty(long n)
{
	for (long i = 0; i < n; i++)
		bench_empty(i);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cpus[2];
static int nr_cpus_allowed;

static void find_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE && nr_cpus_allowed < 2; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[nr_cpus_allowed++] = cpu;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

struct run {
	int cpu;
	long n;
	pthread_barrier_t *start;
	double ns;
};

/* What an event is made of, on thread-private memory. */
struct ref_state {
	unsigned __int128 tail;
	uint64_t commit;
	char page[4096];
} __attribute__((__aligned__(64)));

static __thread struct ref_state ref;

BENCH_NOINLINE void loop_reference(long n);

__attribute__((__target__("cx16"))) BENCH_NOINLINE void loop_reference(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned __int128 old = ref.tail;
		uint64_t ts = __builtin_ia32_rdtsc();
		unsigned __int128 new = ((unsigned __int128)ts << 64) | (uint64_t)(old + 32);
		char *p = ref.page + ((uint64_t)old & 4064);

		__sync_bool_compare_and_swap(&ref.tail, old, new);
		memcpy(p, comm, 16);
		memcpy(p + 16, &i, 8);
		memcpy(p + 24, &ts, 8);
		__atomic_add_fetch(&ref.commit, 32, __ATOMIC_RELEASE);
	}
}

static void (*run_loop)(long n) = loop_events;

static void *writer(void *arg)
{
	struct run *run = arg;
	double t0;

	pin(run->cpu);
	run_loop(1000);
	pthread_barrier_wait(run->start);
	t0 = now_ns();
	run_loop(run->n);
	run->ns = now_ns() - t0;
	return NULL;
}

/* Events per second of @threads writers running at once. */
static double rate(int threads, long n)
{
	pthread_barrier_t start;
	struct run runs[2];
	pthread_t tids[2];
	double longest = 0;

	pthread_barrier_init(&start, NULL, (unsigned)threads);
	for (int t = 0; t < threads; t++) {
		runs[t] = (struct run){ .cpu = cpus[t], .n = n, .start = &start };
		pthread_create(&tids[t], NULL, writer, &runs[t]);
	}
	for (int t = 0; t < threads; t++) {
		pthread_join(tids[t], NULL);
		if (runs[t].ns > longest)
			longest = runs[t].ns;
	}
	pthread_barrier_destroy(&start);
	return threads * n / longest * 1e9;
}

static double best_rate(int threads, long n)
{
	double best = 0;

	for (int rep = 0; rep < REPS; rep++) {
		double r = rate(threads, n);

		if (r > best)
			best = r;
	}
	return best;
}

static double clock_ns(long n)
{
	double best = 1e9;

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t sum = 0;
		double t0 = now_ns(), t;

		for (long i = 0; i < n; i++)
			sum += trace_clock_local();
		t = (now_ns() - t0) / n;
		__asm__ __volatile__("" : : "r" (sum));
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	const char *s = getenv("USTRACE_BENCH_SCALE");
	double one, two;
	long n;

	if (s && atol(s) > 0)
		scale = atol(s);
	buffer = ring_buffer_alloc(1 << 20, RB_FL_OVERWRITE);
	if (!buffer) {
		perror("rb_bench: ring_buffer_alloc");
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "--callgrind")) {
		bench_rseq_for_valgrind();
		n = atol(argv[2]);
		loop_events(n);
		loop_empty(n);
		ring_buffer_free(buffer);
		return 0;
	}
	find_cpus();
	n = N_EVENTS * scale / 4;
	printf("# rb_bench: reserve + 3 ints + 16-char string + commit, best of %d\n", REPS);
	printf("clock (trace_clock_local):   %6.2f ns\n", clock_ns(n));
	one = best_rate(1, n);
	printf("1 thread:                    %6.2f ns/event  (%.1f M events/s)\n",
	       1e9 / one, one / 1e6);
	if (nr_cpus_allowed < 2) {
		printf("2 threads:                   skipped (one CPU allowed)\n");
	} else {
		two = best_rate(2, n);
		printf("2 threads (CPUs %d, %d):       %6.2f ns/event each  (%.1f M events/s, "
		       "%.2fx one thread)\n", cpus[0], cpus[1], 2e9 / two, two / 1e6, two / one);
		run_loop = loop_reference;
		one = best_rate(1, n);
		two = best_rate(2, n);
		printf("reference, shares nothing:   %6.2f ns/event, 2 threads %.2fx one thread\n",
		       1e9 / one, two / one);
		run_loop = loop_events;
	}
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++)
		if (ring_buffer_commit_overrun_cpu(buffer, cpu) ||
		    ring_buffer_dropped_events_cpu(buffer, cpu))
			printf("# cpu%d: commit overrun %lu, dropped %lu\n", cpu,
			       ring_buffer_commit_overrun_cpu(buffer, cpu),
			       ring_buffer_dropped_events_cpu(buffer, cpu));
	ring_buffer_free(buffer);
	return 0;
}
