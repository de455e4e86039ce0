// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * event_bench: what one enabled trace event costs the thread that fires it,
 * our side of selftests/bench/lttng_compare.sh.
 *
 * trace_bench_event(a, b, c, comm) is a TRACE_EVENT with three ints and a
 * __string (event_bench_trace.h), enabled with trace_set_clr_event() and
 * so recorded into the global ring buffer (overwrite mode, nobody reading
 * it): tracepoint dispatch, the class's probe, reserve, field assignment,
 * commit.
 *
 * Usage:
 *   event_bench                "key value" lines (bench_harness.h), then
 *                              the buffer's counters summed over the CPUs:
 *                                entries      records in the buffer
 *                                overwritten  records overwritten (overwrite
 *                                             mode, no reader: expected)
 *                                dropped      records refused (a drop)
 *   event_bench --callgrind N  fire N events from loop_events() and call an
 *                              empty function N times from loop_empty(),
 *                              for callgrind.  Valgrind implements no rseq;
 *                              this mode writes CPU 0 into the thread's
 *                              unregistered rseq area, as rb_bench does
 *
 * USTRACE_BENCH_EVENTS sets the events per thread per run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_rseq.h"

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#define CREATE_TRACE_POINTS
#include "event_bench_trace.h"

#include "bench_harness.h"

BENCH_NOINLINE void loop_events(long n);
BENCH_NOINLINE void loop_empty(long n);
BENCH_NOINLINE void bench_empty(long i);

BENCH_NOINLINE void loop_events(long n)
{
	for (long i = 0; i < n; i++)
		trace_bench_event((int)i, (int)(i >> 8), 42, bench_comm);
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

int main(int argc, char **argv)
{
	unsigned long overwritten = 0, dropped = 0;
	struct trace_buffer *buffer;
	int err;

	err = trace_set_clr_event("bench", "bench_event", 1);
	if (err) {
		fprintf(stderr, "event_bench: enabling bench:bench_event: %s\n", strerror(-err));
		return 1;
	}
	buffer = trace_get_global_buffer();
	if (!buffer) {
		fprintf(stderr, "event_bench: no global buffer\n");
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "--callgrind")) {
		long n = atol(argv[2]);

		bench_rseq_for_valgrind();
		loop_events(n);
		loop_empty(n);
		trace_set_clr_event(NULL, NULL, 0);
		printf("entries %lu\n", ring_buffer_entries(buffer));
		return 0;
	}

	run_loop = loop_events;
	bench_report(bench_events(2000000));
	trace_set_clr_event(NULL, NULL, 0);

	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		overwritten += ring_buffer_overrun_cpu(buffer, cpu);
		dropped += ring_buffer_commit_overrun_cpu(buffer, cpu) +
			   ring_buffer_dropped_events_cpu(buffer, cpu);
	}
	printf("entries %lu\n", ring_buffer_entries(buffer));
	printf("overwritten %lu\n", overwritten);
	printf("dropped %lu\n", dropped);
	return 0;
}
