// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * render_bench: how fast the trace and trace_pipe text is produced, and
 * what the buffer costs in memory.
 *
 * Fills the default-sized global buffer on every CPU and reports the
 * memory it holds; then records N events of bench:bench_event (three ints and a string, the
 * event of event_bench) into the global buffer, sized to hold them all,
 * then prints the whole buffer as the trace file (trace_print_file())
 * and consumes it as trace_pipe (trace_print_pipe()), both into
 * /dev/null, best of BENCH_REPS runs, and reports "key value" lines:
 *
 *	render_trace_events_per_s   the trace file's rate
 *	render_pipe_events_per_s    trace_pipe's (one run: it consumes)
 *	render_target_ratio         trace rate / 2,000,000 (the target)
 *	buffer_configured_kib       buffer_size_kb (1408) x CPUs
 *	buffer_memory_kib           what the buffer's memory holds once
 *	                            every page was written (page headers and
 *	                            the per-CPU metadata included)
 *	buffer_overhead_kib         memory - configured
 *
 * USTRACE_BENCH_EVENTS sets N (default 1,000,000).
 */
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#define CREATE_TRACE_POINTS
#include "event_bench_trace.h"

#include "bench_harness.h"

/*
 * KiB of memory the buffer's memfd holds in this process: the resident
 * size of its mappings (/proc/self/smaps), the pages writers touched.
 * (The mapping is a larger address-space reservation, MAP_NORESERVE, that
 * costs nothing until touched; the descriptor itself is not kept open
 * outside system mode.)
 */
static unsigned long buffer_memory_kib(void)
{
	unsigned long total = 0, kb;
	bool ours = false;
	char line[512];
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		/* A mapping's first line: "start-end perms offset dev inode [name]". */
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			ours = strstr(line, "memfd:ustrace-ring-buffer") != NULL;
		else if (ours && sscanf(line, "Rss: %lu kB", &kb) == 1)
			total += kb;
	}
	fclose(f);
	return total;
}

int main(void)
{
	long n = bench_events(1000000);
	struct trace_buffer *buffer;
	double best = 0, t0, t1;
	unsigned long kb, nr_cpus;
	FILE *null;

	if (trace_set_clr_event("bench", "bench_event", 1)) {
		fprintf(stderr, "render_bench: cannot enable bench:bench_event\n");
		return 1;
	}
	buffer = trace_get_global_buffer();
	null = fopen("/dev/null", "w");
	if (!buffer || !null)
		return 1;
	nr_cpus = (unsigned long)ring_buffer_nr_cpus(buffer);

	/*
	 * Memory: the default 1408 KiB per CPU, every page of every CPU
	 * written (a thread pinned to each CPU writes twice the size).
	 */
	for (unsigned long cpu = 0; cpu < nr_cpus; cpu++) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;
		for (long i = 0; i < 2 * 1408 * 1024 / 44; i++)
			trace_bench_event((int)i, 0, 0, bench_comm);
	}
	printf("buffer_configured_kib %lu\n", 1408 * nr_cpus);
	printf("buffer_memory_kib %lu\n", buffer_memory_kib());
	printf("buffer_overhead_kib %ld\n", (long)buffer_memory_kib() - (long)(1408 * nr_cpus));
	ring_buffer_reset(buffer);

	/* ~60 bytes a record: room for all of them on whichever CPU. */
	kb = (unsigned long)n * 64 / 1024 + 1024;
	if (ring_buffer_resize(buffer, kb << 10, RING_BUFFER_ALL_CPUS)) {
		fprintf(stderr, "render_bench: cannot resize to %lu KiB\n", kb);
		return 1;
	}
	for (long i = 0; i < n; i++)
		trace_bench_event((int)i, (int)(i >> 8), 42, bench_comm);
	trace_set_clr_event(NULL, NULL, 0);
	n = (long)ring_buffer_entries(buffer);

	for (int rep = 0; rep < BENCH_REPS; rep++) {
		t0 = bench_now_ns();
		if (trace_print_file(null, buffer) < 0)
			return 1;
		t1 = bench_now_ns();
		if (best == 0 || t1 - t0 < best)
			best = t1 - t0;
	}
	printf("render_trace_events_per_s %.0f\n", n / (best / 1e9));
	printf("render_target_ratio %.2f\n", n / (best / 1e9) / 2e6);
	t0 = bench_now_ns();
	if (trace_print_pipe(null, buffer) < 0)
		return 1;
	t1 = bench_now_ns();
	printf("render_pipe_events_per_s %.0f\n", n / ((t1 - t0) / 1e9));
	printf("entries %ld\n", n);
	fclose(null);
	return 0;
}
