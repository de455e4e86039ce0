// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hist_bench: what inter-event hist triggers cost the thread that fires
 * the events, side by side in one run: a start/end pair of enabled events
 * (an int each, hist_bench_trace.h) recorded plainly, with a counting
 * hist trigger on each, with the start setting a timestamp variable and
 * the end computing the latency from it, and with the end generating a
 * synthetic event with onmatch().trace() (recorded too).  Requests cycle
 * over 1024 ids, so that every table lookup finds its key.
 *
 * The pair is what the engine promises costs no lock and no allocation
 * once the triggers are set: the start's variable is set in a
 * preallocated element, the end looks it up, reads it once and generates
 * the event into the same buffer.
 *
 * Prints ns per pair, one thread pinned to the first CPU of the affinity
 * mask, best of BENCH_REPS runs; USTRACE_BENCH_EVENTS sets the pairs per
 * run.  Static: the trigger calls are internal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#define CREATE_TRACE_POINTS
#include "hist_bench_trace.h"

#include "../../kernel/trace/trace_filter.h"
#include "../../kernel/trace/trace_synth.h"
#include "bench_harness.h"

BENCH_NOINLINE void loop_pairs(long n);

BENCH_NOINLINE void loop_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		trace_hbench_start((int)(i & 1023));
		trace_hbench_end((int)(i & 1023));
	}
}

#define NR_RUNS	4

static const struct {
	const char	*what;
	const char	*start, *end;	/* their hist triggers, or NULL */
} runs[NR_RUNS] = {
	{ "plain pair (both recorded)", NULL, NULL },
	{ "a counting hist on each", "hist:keys=id", "hist:keys=id" },
	{ "ts0 set, latency computed",
	  "hist:keys=id:ts0=common_timestamp", "hist:keys=id:lat=common_timestamp-$ts0" },
	{ "onmatch().trace(synthetic)", "hist:keys=id:ts0=common_timestamp",
	  "hist:keys=id:lat=common_timestamp-$ts0:onmatch(hbench.hbench_start)."
	  "trace(hbench_lat,$lat,id)" },
};

static int set(struct trace_event_call *call, const char *cmd)
{
	struct trace_err err;
	int ret = trace_array_set_trigger(NULL, call, cmd, &err);

	if (ret)
		fprintf(stderr, "hist_bench: [%s]: %s%s%s\n", cmd, strerror(-ret),
			err.loc ? ": " : "", err.loc ? err.msg : "");
	return ret;
}

/* Records in @buffer since its reset (overwrite mode: entries + overruns). */
static unsigned long committed(struct trace_buffer *buffer)
{
	unsigned long n = 0;

	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++)
		n += ring_buffer_entries_cpu(buffer, cpu) + ring_buffer_overrun_cpu(buffer, cpu);
	return n;
}

/*
 * hist_bench --case I N: case I alone, N pairs once, untimed: for
 * "valgrind --tool=callgrind", whose instructions per pair (those of
 * loop_pairs over N) do not depend on how busy the machine is.
 */
static int one_case(struct trace_event_call *start, struct trace_event_call *end,
		    unsigned int i, long n)
{
	if (i >= NR_RUNS || (runs[i].start && set(start, runs[i].start)) ||
	    (runs[i].end && set(end, runs[i].end)))
		return 1;
	loop_pairs(1000);
	loop_pairs(n);
	return 0;
}

int main(int argc, char **argv)
{
	struct trace_event_call *start = trace_find_event_call("hbench", "hbench_start");
	struct trace_event_call *end = trace_find_event_call("hbench", "hbench_end");
	struct trace_buffer *buffer = trace_get_global_buffer();
	long n = bench_events(1000000);
	double best[NR_RUNS];
	unsigned long recs[NR_RUNS];
	struct trace_err err;

	if (!start || !end || !buffer || trace_set_clr_event("hbench", NULL, 1) ||
	    trace_synth_command("hbench_lat u64 lat; int id", false, &err) ||
	    trace_set_clr_event("synthetic", "hbench_lat", 1)) {
		fprintf(stderr, "hist_bench: cannot set up the events\n");
		return 1;
	}
	if (argc == 4 && !strcmp(argv[1], "--case"))
		return one_case(start, end, (unsigned int)atoi(argv[2]), atol(argv[3]));
	run_loop = loop_pairs;
	bench_find_cpus();
	if (bench_nr_cpus < 1)
		bench_cpus[0] = 0;
	printf("hist_bench: ns per start/end pair, one thread, best of %d rounds of %ld pairs\n",
	       BENCH_REPS, n);
	/* Rounds of every case in turn: a noisy machine slows them alike. */
	for (int rep = 0; rep < BENCH_REPS; rep++) {
		for (unsigned int i = 0; i < NR_RUNS; i++) {
			double ns;

			if ((runs[i].start && set(start, runs[i].start)) ||
			    (runs[i].end && set(end, runs[i].end)))
				return 1;
			ring_buffer_reset(buffer);
			ns = 1e9 / bench_rate(1, n);
			if (!rep || ns < best[i])
				best[i] = ns;
			recs[i] = committed(buffer);
			trace_array_trigger_truncate(NULL, end);
			trace_array_trigger_truncate(NULL, start);
		}
	}
	for (unsigned int i = 0; i < NR_RUNS; i++)
		printf("  %-34s %6.1f   (%.2f records per pair)\n", runs[i].what, best[i],
		       (double)recs[i] / (double)(n + 1000));
	trace_set_clr_event(NULL, NULL, 0);
	return 0;
}
