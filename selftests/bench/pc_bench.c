// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pc_bench: producer/consumer mode with a reader that keeps up.
 *
 * A buffer in producer/consumer mode (full: the newest event is dropped
 * and counted) of 1408 KiB per CPU; a writer thread records N events of
 * 3 ints and a 16-byte string as fast as it can, while a reader thread
 * takes whole pages out of every CPU's ring with ring_buffer_read_page(),
 * as trace-cmd reads trace_pipe_raw, sleeping 100 us when nothing is
 * ready (the "pc" run), or sleeping in ring_buffer_wait() until the
 * writer's CPU is buffer_percent (50) full (the "pc_wait" run, as the
 * recorder does), and with no reader at all in overwrite mode (the
 * "pc_alone" run: the writer's cost the other two are compared with).
 * A writer at full speed (40 to 50 M events/s here) can outrun the
 * reader: what the full buffer refuses is counted, and the accounting
 * must add up; selftests/bench/sustained.sh finds the rates a recorder
 * keeps with nothing lost.
 *
 * Prints "key value" lines for each run: _written, _read (events in the
 * pages the reader took), _dropped (refused by the full buffer),
 * _ns_per_event (the writer's), _lost_ratio and _reader_wakeups_per_s
 * (the reader's voluntary context switches).  Exit status 1 when the
 * accounting does not add up (read + dropped != written).
 *
 * USTRACE_BENCH_EVENTS sets N (default 5,000,000).
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/ring_buffer.h>

#include "bench_harness.h"

struct bench_payload {
	int a, b, c;
	char s[16];
};

static struct trace_buffer *buffer;
static volatile int writer_done;

static void pin(int idx)
{
	cpu_set_t set;

	if (idx >= bench_nr_cpus)
		return;
	CPU_ZERO(&set);
	CPU_SET(bench_cpus[idx], &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Events on a page taken by ring_buffer_read_page(). */
static unsigned long count_page(void *page)
{
	uint64_t commit;
	unsigned long n = 0;
	uint32_t off = 0, len;
	const unsigned char *data = (const unsigned char *)page + RB_PAGE_HDR_SIZE;

	memcpy(&commit, (char *)page + 8, sizeof(commit));
	len = (uint32_t)(commit & 0xfffff);
	while (off + 4 <= len) {
		uint32_t hdr, type, size;

		memcpy(&hdr, data + off, 4);
		type = hdr & 0x1f;
		if (type == RINGBUF_TYPE_PADDING) {
			uint32_t plen;

			if (!(hdr >> 5) && off + 4 >= len)
				break;
			memcpy(&plen, data + off + 4, 4);
			/* array[0]: the length after the header word (rb_make_padding()). */
			size = (hdr >> 5) ? 4 + plen : len - off;
		} else if (type == RINGBUF_TYPE_TIME_EXTEND || type == RINGBUF_TYPE_TIME_STAMP) {
			size = 8;
		} else if (type == 0) {
			memcpy(&size, data + off + 4, 4);
			size += 4;	/* as the kernel's rb_event_length() */
			n++;
		} else {
			size = 4 + type * 4;
			n++;
		}
		off += size;
	}
	return n;
}

/* voluntary_ctxt_switches of the calling thread. */
static long self_switches(void)
{
	char line[128];
	long n = -1;
	FILE *f = fopen("/proc/thread-self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

struct run {
	bool wait;		/* sleep in ring_buffer_wait(), not usleep() */
	bool alone;		/* no reader at all, overwrite mode */
	unsigned long read;
	long switches;		/* the reader's, while the writer wrote */
};

static void *reader(void *arg)
{
	struct run *run = arg;
	int nr = ring_buffer_nr_cpus(buffer);
	void **pages = calloc((size_t)nr, sizeof(*pages));
	long sw0 = self_switches();

	pin(1);
	for (int cpu = 0; cpu < nr; cpu++)
		pages[cpu] = ring_buffer_alloc_read_page(buffer, cpu);
	for (;;) {
		int got = 0, done = writer_done;

		for (int cpu = 0; cpu < nr; cpu++) {
			/* Whole pages while writing; the rest once done. */
			while (!ring_buffer_read_page(buffer, &pages[cpu], RB_PAGE_SIZE,
						      cpu, !done)) {
				run->read += count_page(pages[cpu]);
				got = 1;
			}
		}
		if (done && !got)
			break;
		if (got)
			continue;
		if (!run->wait)
			usleep(100);
		else if (!done)
			/* The writer's CPU, at the kernel's default buffer_percent. */
			ring_buffer_wait(buffer, bench_cpus[0], 50, 1000);
	}
	run->switches = self_switches() - sw0;
	for (int cpu = 0; cpu < nr; cpu++)
		ring_buffer_free_read_page(buffer, cpu, pages[cpu]);
	free(pages);
	return NULL;
}

/*
 * One run; prints PREFIX_* lines.  Return: whether the accounting adds up.
 * @alone: no reader, overwrite mode: the writer's cost with nobody
 * reading, for the ratio.
 */
static bool run_one(const char *prefix, bool wait, bool alone, long n, double *ns)
{
	struct bench_payload p = { 1, 2, 3, "bench-thread-xy" };
	struct run run = { .wait = wait, .alone = alone };
	unsigned long dropped = 0;
	double t0, t1;
	pthread_t th;

	writer_done = 0;
	buffer = ring_buffer_alloc(1408 << 10, alone ? RB_FL_OVERWRITE : 0);
	if (!buffer || (!alone && pthread_create(&th, NULL, reader, &run)))
		return false;
	pin(0);
	t0 = bench_now_ns();
	for (long i = 0; i < n; i++) {
		p.a = (int)i;
		ring_buffer_write(buffer, sizeof(p), &p);
	}
	t1 = bench_now_ns();
	writer_done = 1;
	*ns = (t1 - t0) / (double)n;
	if (alone) {
		printf("%s_ns_per_event %.2f\n", prefix, *ns);
		ring_buffer_free(buffer);
		return true;
	}
	ring_buffer_wake_waiters(buffer, RING_BUFFER_ALL_CPUS);
	pthread_join(th, NULL);
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++)
		dropped += ring_buffer_dropped_events_cpu(buffer, cpu) +
			   ring_buffer_commit_overrun_cpu(buffer, cpu) +
			   ring_buffer_overrun_cpu(buffer, cpu);
	printf("%s_written %ld\n", prefix, n);
	printf("%s_read %lu\n", prefix, run.read);
	printf("%s_dropped %lu\n", prefix, dropped);
	printf("%s_ns_per_event %.2f\n", prefix, (t1 - t0) / (double)n);
	printf("%s_lost_ratio %.6f\n", prefix, (double)dropped / (double)n);
	printf("%s_reader_wakeups_per_s %.0f\n", prefix,
	       (double)run.switches * 1e9 / (t1 - t0));
	ring_buffer_free(buffer);
	return run.read + dropped == (unsigned long)n;
}

int main(void)
{
	long n = bench_events(5000000);
	double alone = 0, poll = 0, wait = 0, a;
	bool ok = true;

	bench_find_cpus();
	/*
	 * pc_alone: nobody reads (overwrite mode); pc: the reader polls
	 * (100 us naps); pc_wait: it sleeps until 50 % is written.  Rounds
	 * of the three in turn, best of three: a noisy machine slows them
	 * alike.
	 */
	for (int rep = 0; rep < 3; rep++) {
		ok &= run_one("pc_alone", false, true, n, &a);
		alone = rep && alone < a ? alone : a;
		ok &= run_one("pc", false, false, n, &a);
		poll = rep && poll < a ? poll : a;
		ok &= run_one("pc_wait", true, false, n, &a);
		wait = rep && wait < a ? wait : a;
	}
	printf("pc_best_ns alone %.2f, polling reader %.2f (%.2fx), sleeping reader %.2f (%.2fx)\n",
	       alone, poll, poll / alone, wait, wait / alone);
	bench_table("pc_alone_ns", alone);
	bench_table("pc_poll_ns", poll);
	bench_table("pc_wait_ns", wait);
	return ok ? 0 : 1;
}
