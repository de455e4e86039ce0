// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * filter_bench: what an event filter costs the thread that fires the
 * event, side by side in one run: the same enabled event (three ints and
 * a string, event_bench_trace.h) unfiltered, with a filter of three
 * predicates that passes, one that rejects at its last predicate, one
 * that rejects at its first, the passing filter's first one and first
 * two predicates alone; and event_filter_match() alone on a record.
 *
 * A filtered event is written into its thread's scratch record and
 * filtered there, and a rejected event never reaches the ring buffer;
 * once a filter has passed a few hundred records, its event is filtered
 * in the ring buffer instead (Documentation/trace/events.rst): "passes"
 * is that after the first runs, the record written in place, the three
 * predicates and the commit.
 *
 * Prints ns per event, one thread pinned to the first CPU of the
 * affinity mask, best of BENCH_REPS runs; USTRACE_BENCH_EVENTS sets the
 * events per run.  Static: the filter calls are internal.
 *
 * filter_bench --callgrind N fires N events of each case from its own
 * function, for callgrind's instruction counts per case: loop_unfiltered(),
 * loop_pass(), loop_reject3(), loop_reject1(), loop_pass1(), loop_pass2();
 * then N calls of event_filter_match() from loop_match() and N of an empty
 * function from loop_empty().  Valgrind implements no rseq: this mode
 * writes CPU 0 into the thread's unregistered rseq area, as event_bench
 * does.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_rseq.h"

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#define CREATE_TRACE_POINTS
#include "event_bench_trace.h"

#include "../../kernel/trace/trace_filter.h"
#include "bench_harness.h"

BENCH_NOINLINE void loop_match(long n);
BENCH_NOINLINE void loop_empty(long n);
BENCH_NOINLINE void bench_empty(long i);

#define NR_RUNS	6

static struct event_filter *match_filter;
static struct {
	struct trace_entry	ent;
	int			a, b, c;
	unsigned int		comm_loc;
	char			comm[16];
} match_rec;

BENCH_NOINLINE void bench_empty(long i)
{
	__asm__ __volatile__("" : : "r" (i));
}

BENCH_NOINLINE void loop_empty(long n)
{
	for (long i = 0; i < n; i++)
		bench_empty(i);
}

/* The same loop under each case's name, for callgrind's listing. */
#define CASE_LOOP(name)							\
	BENCH_NOINLINE void name(long n);				\
	BENCH_NOINLINE void name(long n)				\
	{								\
		for (long i = 0; i < n; i++)				\
			trace_bench_event((int)i, (int)(i >> 8), 42, bench_comm); \
	}
CASE_LOOP(loop_unfiltered)
CASE_LOOP(loop_pass)
CASE_LOOP(loop_reject3)
CASE_LOOP(loop_reject1)
CASE_LOOP(loop_pass1)
CASE_LOOP(loop_pass2)

BENCH_NOINLINE void loop_match(long n)
{
	long passed = 0;

	for (long i = 0; i < n; i++) {
		match_rec.a = (int)i;
		passed += event_filter_match(match_filter, &match_rec, sizeof(match_rec));
	}
	__asm__ __volatile__("" : : "r" (passed));
}

static const struct {
	const char	*what;
	const char	*filter;
	bool		recorded;
	void		(*loop)(long n);
} runs[NR_RUNS] = {
	{ "unfiltered", "0", true, loop_unfiltered },
	{ "3 predicates, passes",
	  "c == 42 && a >= 0 && comm == \"bench-thread-xy\"", true, loop_pass },
	{ "3 predicates, rejects at the 3rd",
	  "c == 42 && a >= 0 && comm == \"other\"", false, loop_reject3 },
	{ "3 predicates, rejects at the 1st",
	  "c != 42 && a >= 0 && comm == \"bench-thread-xy\"", false, loop_reject1 },
	/* What each predicate of the passing filter adds. */
	{ "1 predicate, passes", "c == 42", true, loop_pass1 },
	{ "2 predicates, passes", "c == 42 && a >= 0", true, loop_pass2 },
};

/* The passing filter, compiled alone, and a record of the event for it. */
static int match_setup(struct trace_event_call *call)
{
	match_filter = event_filter_compile(call, runs[1].filter, NULL, NULL);
	if (!match_filter)
		return -1;
	match_rec.ent.type = (unsigned short)call->id;
	match_rec.c = 42;
	match_rec.comm_loc = (unsigned int)sizeof(bench_comm) << 16 |
			     (unsigned int)offsetof(__typeof__(match_rec), comm);
	memcpy(match_rec.comm, bench_comm, sizeof(bench_comm));
	return 0;
}

static int set_filter(struct trace_event_call *call, unsigned int i)
{
	int err = trace_array_set_filter(NULL, call, runs[i].filter, NULL);

	if (err)
		fprintf(stderr, "filter_bench: [%s]: %s\n", runs[i].filter, strerror(-err));
	return err;
}

/* --callgrind N: each case's N events from its own loop function. */
static int callgrind_runs(struct trace_event_call *call, long n)
{
	bench_rseq_for_valgrind();
	for (unsigned int i = 0; i < NR_RUNS; i++) {
		if (set_filter(call, i))
			return 1;
		runs[i].loop(n);
	}
	trace_set_clr_event(NULL, NULL, 0);
	if (match_setup(call))
		return 1;
	loop_match(n);
	loop_empty(n);
	event_filter_free(match_filter);
	return 0;
}

int main(int argc, char **argv)
{
	struct trace_event_call *call = trace_find_event_call("bench", "bench_event");
	struct trace_buffer *buffer = trace_get_global_buffer();
	long n = bench_events(2000000);
	double best[NR_RUNS];
	unsigned long committed[NR_RUNS];
	unsigned int i;

	if (!call || !buffer || trace_set_clr_event("bench", "bench_event", 1)) {
		fprintf(stderr, "filter_bench: cannot enable bench:bench_event\n");
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "--callgrind"))
		return callgrind_runs(call, atol(argv[2]));
	bench_find_cpus();
	if (bench_nr_cpus < 1)
		bench_cpus[0] = 0;
	printf("filter_bench: ns per event, one thread, best of %d rounds of %ld events\n",
	       BENCH_REPS, n);
	/* Rounds of every case in turn: a noisy machine slows them alike. */
	for (int rep = 0; rep < BENCH_REPS; rep++) {
		for (i = 0; i < NR_RUNS; i++) {
			double ns;

			if (set_filter(call, i))
				return 1;
			run_loop = runs[i].loop;
			ring_buffer_reset(buffer);
			ns = 1e9 / bench_rate(1, n);
			if (!rep || ns < best[i])
				best[i] = ns;
			/* Overwrite mode: entries + overruns is what was committed. */
			committed[i] = 0;
			for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++)
				committed[i] += ring_buffer_entries_cpu(buffer, cpu) +
						ring_buffer_overrun_cpu(buffer, cpu);
		}
	}
	for (i = 0; i < NR_RUNS; i++)
		printf("  %-34s %6.1f%s\n", runs[i].what, best[i],
		       (committed[i] != 0) == runs[i].recorded ? "" :
		       "   (UNEXPECTED: what was committed)");
	bench_table("filter_unfiltered_ns", best[0]);
	bench_table("filter_pass_ns", best[1]);
	bench_table("filter_reject1_ns", best[3]);
	trace_set_clr_event(NULL, NULL, 0);

	/* The filter alone, on a record of the event. */
	if (match_setup(call))
		return 1;
	run_loop = loop_match;
	printf("  %-34s %6.1f\n", "event_filter_match() alone, passes",
	       1e9 / bench_best_rate(1, n));
	event_filter_free(match_filter);
	return 0;
}
