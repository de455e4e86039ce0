// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sustained_bench: our side of selftests/bench/sustained.sh, the highest
 * event rate a recorder keeps with nothing lost.
 *
 * Fires bench:bench_event (event_bench_trace.h: three ints and a
 * 16-character string, the event of lttng_compare.sh) at a fixed rate,
 * paced by sustained_pace.h (which documents the options and the "key
 * value" report): a = the thread's sequence number, b = the thread
 * (0 or 1), c = 42.  The event is not enabled here: the recorder enables
 * it (ustrace record through USTRACE_EVENTS, trace-cmd through the
 * program's tracefs mount, USTRACE_TRACEFS, or through the collector's).
 *
 * After the pacing report it adds the counters of the global (top-level)
 * ring buffer, summed over the CPUs, which trace-cmd records from:
 *   entries       records in the buffer now (not yet read)
 *   overwritten   records overwritten (overwrite mode: the reader fell
 *                 behind)
 *   dropped       records the buffer refused (producer/consumer mode: it
 *                 was full), dropped events and commit overruns
 * Under ustrace record the events go to the recorder's instance instead,
 * whose counters the recorder's summary gives.
 */
#include <stdio.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#define CREATE_TRACE_POINTS
#include "event_bench_trace.h"

#include "sustained_pace.h"

static void fire(long seq, int thread)
{
	trace_bench_event((int)seq, thread, 42, pace_comm);
}

static void report_buffer(void)
{
	struct trace_buffer *buffer = trace_get_global_buffer();
	unsigned long overwritten = 0, dropped = 0;

	if (!buffer)
		return;
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		overwritten += ring_buffer_overrun_cpu(buffer, cpu);
		dropped += ring_buffer_commit_overrun_cpu(buffer, cpu) +
			   ring_buffer_dropped_events_cpu(buffer, cpu);
	}
	printf("entries %lu\n", ring_buffer_entries(buffer));
	printf("overwritten %lu\n", overwritten);
	printf("dropped %lu\n", dropped);
}

int main(int argc, char **argv)
{
	if (pace_parse(argc, argv, "sustained_bench"))
		return 2;
	pace_fire = fire;
	pace_report_extra = report_buffer;
	return pace_run("sustained_bench");
}
