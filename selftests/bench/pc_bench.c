// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pc_bench: producer/consumer mode with a reader that keeps up.
 *
 * A buffer in producer/consumer mode (full: the newest event is dropped
 * and counted) of 1408 KiB per CPU; a writer thread records N events of
 * 3 ints and a 16-byte string as fast as it can, while a reader thread
 * takes whole pages out of every CPU's ring with ring_buffer_read_page(),
 * as trace-cmd reads trace_pipe_raw, sleeping 100 us when nothing is
 * ready.  With the two threads on different CPUs the reader keeps up,
 * and nothing may be lost.
 *
 * Prints "key value" lines: pc_written, pc_read (events in the pages the
 * reader took), pc_dropped (refused by the full buffer), pc_ns_per_event
 * (the writer's), and pc_lost_ratio.  Exit status 1 when the accounting
 * does not add up (read + dropped != written).
 *
 * USTRACE_BENCH_EVENTS sets N (default 5,000,000).
 */
#include <pthread.h>
#include <sched.h>
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
			size = (hdr >> 5) ? 8 + plen : len - off;
		} else if (type == RINGBUF_TYPE_TIME_EXTEND || type == RINGBUF_TYPE_TIME_STAMP) {
			size = 8;
		} else if (type == 0) {
			memcpy(&size, data + off + 4, 4);
			size += 8;
			n++;
		} else {
			size = 4 + type * 4;
			n++;
		}
		off += size;
	}
	return n;
}

static void *reader(void *arg)
{
	unsigned long *read = arg;
	int nr = ring_buffer_nr_cpus(buffer);
	void **pages = calloc((size_t)nr, sizeof(*pages));

	pin(1);
	for (int cpu = 0; cpu < nr; cpu++)
		pages[cpu] = ring_buffer_alloc_read_page(buffer, cpu);
	for (;;) {
		int got = 0, done = writer_done;

		for (int cpu = 0; cpu < nr; cpu++) {
			/* Whole pages while writing; the rest once done. */
			while (!ring_buffer_read_page(buffer, &pages[cpu], RB_PAGE_SIZE,
						      cpu, !done)) {
				*read += count_page(pages[cpu]);
				got = 1;
			}
		}
		if (done && !got)
			break;
		if (!got)
			usleep(100);
	}
	for (int cpu = 0; cpu < nr; cpu++)
		ring_buffer_free_read_page(buffer, cpu, pages[cpu]);
	free(pages);
	return NULL;
}

int main(void)
{
	long n = bench_events(5000000);
	struct bench_payload p = { 1, 2, 3, "bench-thread-xy" };
	unsigned long read = 0, dropped = 0;
	double t0, t1;
	pthread_t th;

	bench_find_cpus();
	buffer = ring_buffer_alloc(1408 << 10, 0);
	if (!buffer)
		return 1;
	if (pthread_create(&th, NULL, reader, &read))
		return 1;
	pin(0);
	t0 = bench_now_ns();
	for (long i = 0; i < n; i++) {
		p.a = (int)i;
		ring_buffer_write(buffer, sizeof(p), &p);
	}
	t1 = bench_now_ns();
	writer_done = 1;
	pthread_join(th, NULL);
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++)
		dropped += ring_buffer_dropped_events_cpu(buffer, cpu) +
			   ring_buffer_commit_overrun_cpu(buffer, cpu) +
			   ring_buffer_overrun_cpu(buffer, cpu);
	printf("pc_written %ld\n", n);
	printf("pc_read %lu\n", read);
	printf("pc_dropped %lu\n", dropped);
	printf("pc_ns_per_event %.2f\n", (t1 - t0) / (double)n);
	printf("pc_lost_ratio %.6f\n", (double)dropped / (double)n);
	ring_buffer_free(buffer);
	return read + dropped == (unsigned long)n ? 0 : 1;
}
