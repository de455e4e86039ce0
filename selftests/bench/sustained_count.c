// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sustained_count: count sustained_bench's events in a trace.dat, fast
 * (selftests/bench/sustained.sh): a 10 s recording at millions of events
 * per second holds hundreds of millions of them, which trace-cmd report
 * prints at about 600000 lines/s here.
 *
 * Usage: sustained_count [-T N] [-B INSTANCE] FILE
 *
 * The file's per-CPU page ranges come from tools/tracing/dat-read.c (the
 * reader of ustrace record's summary; version 6 or 7, uncompressed), or
 * with -B those of the instance INSTANCE, which trace-cmd record -B
 * writes into a version 6 file as a BUFFER option (id 3: an 8-byte offset
 * and the name) pointing at a table of its own ("flyrecord", then an
 * offset and a size per CPU, as the top level's); each
 * page is walked record by record, in the kernel's page format
 * (Documentation/trace/ring-buffer-design.rst).  A record is counted as
 * bench:bench_event when its payload has that event's layout (the common
 * header, three ints, a __data_loc pointing at the 16 bytes
 * "bench-thread-xy"), whatever id the file gave the event.  Prints
 * "key value" lines:
 *   events        records of the event, both threads
 *   other         other data records
 *   thread0, thread1
 *                 the event's records per writer thread (field b)
 *   seq0, seq1    per thread, the highest sequence number (field a) + 1:
 *                 equal to the thread's count when none is missing
 *   first_gap0, first_gap1
 *                 per thread, the first sequence number missing below
 *                 the highest (-1: none)
 *   gaps0, gaps1  per thread, how many runs of missing numbers there are
 *                 below the highest (the events lost at the end are not
 *                 seen as a gap: compare seqN with the events fired)
 *   lost_pages    pages flagged as following a loss
 *   bad           pages that did not parse (0 in a sound file)
 *   missingT BIN COUNT
 *                 with -T N: per thread T, for each run of N sequence
 *                 numbers (BIN 0 the first N) that misses some, how many
 *                 it misses: when in the run events were lost (with N
 *                 the events a thread fires in 0.1 s, BIN is tenths of
 *                 a second)
 * Exit status 1 when the file cannot be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/tracing/ustrace.h"

/* Needed by dat-read.c's users in the tool; unused here. */
void ustrace_err(const char *fmt, ...)
{
	(void)fmt;
}

static const char comm[16] = "bench-thread-xy";

struct counts {
	unsigned long long events, other, thread[2], seq[2], lost_pages, bad;
	/* per thread, a bit per sequence number seen */
	uint64_t *seen[2];
	size_t words[2];
};

static void mark_seen(struct counts *c, int t, uint32_t seq)
{
	size_t w = seq / 64;

	if (w >= c->words[t]) {
		size_t n = c->words[t] ? c->words[t] : 1024;
		uint64_t *p;

		while (n <= w)
			n *= 2;
		p = realloc(c->seen[t], n * sizeof(*p));
		if (!p)
			return;
		memset(p + c->words[t], 0, (n - c->words[t]) * sizeof(*p));
		c->seen[t] = p;
		c->words[t] = n;
	}
	c->seen[t][w] |= 1ULL << (seq % 64);
}

/* Thread @t's sequence numbers below @end that are missing: the first,
 * and how many runs of them (gaps). */
static void gaps(const struct counts *c, int t, unsigned long long end,
		 long long *first, unsigned long long *runs)
{
	bool in_gap = false;

	*first = -1;
	*runs = 0;
	for (unsigned long long i = 0; i < end; i++) {
		bool have = i / 64 < c->words[t] && (c->seen[t][i / 64] >> (i % 64) & 1);

		if (!have && !in_gap) {
			if (*first < 0)
				*first = (long long)i;
			(*runs)++;
		}
		in_gap = !have;
	}
}

/* Thread @t's missing sequence numbers per @bin of them, below its highest. */
static void missing_by(const struct counts *c, int t, unsigned long long bin)
{
	for (unsigned long long b = 0; b * bin < c->seq[t]; b++) {
		unsigned long long miss = 0;

		for (unsigned long long i = b * bin; i < (b + 1) * bin && i < c->seq[t]; i++)
			if (!(i / 64 < c->words[t] && (c->seen[t][i / 64] >> (i % 64) & 1)))
				miss++;
		if (miss)
			printf("missing%d %llu %llu\n", t, b, miss);
	}
}

static int is_bench(const unsigned char *p, uint32_t len)
{
	uint32_t loc, off, slen;

	/* common (8) + a, b, c (12) + __data_loc (4) + the string (16) */
	if (len < 40)
		return 0;
	memcpy(&loc, p + 20, 4);
	off = loc & 0xffff;
	slen = loc >> 16;
	return slen == 16 && off + 16 <= len && !memcmp(p + off, comm, 16);
}

static void count_page(const unsigned char *page, unsigned int page_size, struct counts *c)
{
	uint64_t commit;
	uint32_t off = 0, len;
	const unsigned char *data = page + 16;

	memcpy(&commit, page + 8, 8);
	if (commit & (1ULL << 31))
		c->lost_pages++;
	len = (uint32_t)(commit & 0xfffff);
	if (len > page_size - 16) {
		c->bad++;
		return;
	}
	while (off + 4 <= len) {
		uint32_t hdr, type, size, plen;
		const unsigned char *payload;

		memcpy(&hdr, data + off, 4);
		type = hdr & 0x1f;
		if (type == 29) {		/* padding */
			if (!(hdr >> 5))
				break;		/* the rest of the page */
			if (off + 8 > len)
				break;
			memcpy(&plen, data + off + 4, 4);
			size = plen + 4;
		} else if (type == 30 || type == 31) {	/* time extend, time stamp */
			size = 8;
		} else {
			if (type == 0) {
				if (off + 8 > len) {
					c->bad++;
					return;
				}
				memcpy(&plen, data + off + 4, 4);
				if (plen < 4) {
					c->bad++;
					return;
				}
				plen -= 4;
				payload = data + off + 8;
				size = plen + 8;
			} else {
				plen = type * 4;
				payload = data + off + 4;
				size = plen + 4;
			}
			if (off + size > len) {
				c->bad++;
				return;
			}
			if (is_bench(payload, plen)) {
				int32_t a, b;

				memcpy(&a, payload + 8, 4);
				memcpy(&b, payload + 12, 4);
				c->events++;
				if ((b == 0 || b == 1) && a >= 0) {
					c->thread[b]++;
					mark_seen(c, b, (uint32_t)a);
					if ((unsigned long long)a + 1 > c->seq[b])
						c->seq[b] = (unsigned long long)a + 1;
				}
			} else {
				c->other++;
			}
		}
		if (size < 4) {
			c->bad++;
			return;
		}
		off += size;
	}
}

/*
 * The page ranges of instance @name in a version 6 file: its BUFFER
 * option found by its bytes (id, size, offset, name), the table it points
 * at checked.  Return: 0, or -1 when there is none.
 */
static int instance_ranges(const unsigned char *map, size_t size, const char *name,
			   struct dat_summary *d)
{
	size_t nlen = strlen(name) + 1;
	const unsigned char *p = map;

	while ((p = memmem(p, size - (size_t)(p - map), name, nlen))) {
		uint16_t id;
		uint32_t osize;
		uint64_t off;

		if (p - map >= 14) {
			memcpy(&id, p - 14, 2);
			memcpy(&osize, p - 12, 4);
			memcpy(&off, p - 8, 8);
			if (id == 3 && osize == 8 + nlen && off < size &&
			    size - off >= 10 + (uint64_t)d->nr_cpus * 16 &&
			    !memcmp(map + off, "flyrecord", 10)) {
				for (int cpu = 0; cpu < d->nr_cpus; cpu++) {
					uint64_t o, n;

					memcpy(&o, map + off + 10 + cpu * 16, 8);
					memcpy(&n, map + off + 18 + cpu * 16, 8);
					if (o > size || n > size - o)
						return -1;
					d->cpus[cpu].offset = o;
					d->cpus[cpu].size = n;
				}
				return 0;
			}
		}
		p++;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct dat_summary d;
	struct counts c = { 0 };
	const unsigned char *map;
	const char *instance = NULL;
	unsigned long long timeline = 0;
	struct stat st;
	int fd, err;

	if (argc >= 4 && !strcmp(argv[1], "-T")) {
		timeline = strtoull(argv[2], NULL, 0);
		argv += 2;
		argc -= 2;
	}
	if (argc == 4 && !strcmp(argv[1], "-B")) {
		instance = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: sustained_count [-T N] [-B INSTANCE] FILE\n");
		return 2;
	}
	err = dat_read_summary(argv[1], &d);
	if (err) {
		fprintf(stderr, "sustained_count: %s: %s\n", argv[1],
			err == -ENOEXEC ? "not a trace-cmd data file (or compressed)" : strerror(-err));
		return 1;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	map = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED || !d.page_size) {
		fprintf(stderr, "sustained_count: %s: cannot map it\n", argv[1]);
		return 1;
	}
	if (instance && instance_ranges(map, (size_t)st.st_size, instance, &d)) {
		fprintf(stderr, "sustained_count: %s: no instance %s (a version 6 file)\n",
			argv[1], instance);
		return 1;
	}
	madvise((void *)map, (size_t)st.st_size, MADV_SEQUENTIAL);
	for (int cpu = 0; cpu < d.nr_cpus; cpu++)
		for (uint64_t p = 0; p + d.page_size <= d.cpus[cpu].size; p += d.page_size)
			count_page(map + d.cpus[cpu].offset + p, d.page_size, &c);
	printf("events %llu\nother %llu\n", c.events, c.other);
	printf("thread0 %llu\nthread1 %llu\n", c.thread[0], c.thread[1]);
	printf("seq0 %llu\nseq1 %llu\n", c.seq[0], c.seq[1]);
	printf("lost_pages %llu\nbad %llu\n", c.lost_pages, c.bad);
	for (int t = 0; t < 2; t++) {
		unsigned long long runs;
		long long first;

		gaps(&c, t, c.seq[t], &first, &runs);
		printf("first_gap%d %lld\ngaps%d %llu\n", t, first, t, runs);
	}
	for (int t = 0; timeline && t < 2; t++)
		missing_by(&c, t, timeline);
	munmap((void *)map, (size_t)st.st_size);
	dat_free_summary(&d);
	return 0;
}
