// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lttng_bench: what one enabled LTTng-UST event costs the thread that fires
 * it, LTTng's side of selftests/bench/lttng_compare.sh (which runs the
 * session daemon and the session; without them the event is disabled and
 * this measures a disabled site).
 *
 * tracepoint(ustrace_bench, bench_event, a, b, c, comm): the same three
 * ints and 16-character string as our bench:bench_event, with the probe
 * provider compiled into this program.
 *
 * Usage:
 *   lttng_bench                "key value" lines (bench_harness.h) and
 *                              "enabled 0|1", whether the session had
 *                              enabled the event when the program started
 *   lttng_bench --callgrind N  fire N events from loop_events() and call an
 *                              empty function N times from loop_empty(),
 *                              for callgrind
 *
 * USTRACE_BENCH_EVENTS sets the events per thread per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "lttng_bench_tp.h"

#include "bench_harness.h"

BENCH_NOINLINE void loop_events(long n);
BENCH_NOINLINE void loop_empty(long n);
BENCH_NOINLINE void bench_empty(long i);

BENCH_NOINLINE void loop_events(long n)
{
	for (long i = 0; i < n; i++)
		tracepoint(ustrace_bench, bench_event, (int)i, (int)(i >> 8), 42, bench_comm);
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
	int enabled = !!tracepoint_enabled(ustrace_bench, bench_event);

	if (argc == 3 && !strcmp(argv[1], "--callgrind")) {
		long n = atol(argv[2]);

		loop_events(n);
		loop_empty(n);
		printf("enabled %d\n", enabled);
		return 0;
	}
	printf("enabled %d\n", enabled);
	run_loop = loop_events;
	bench_report(bench_events(2000000));
	return 0;
}
