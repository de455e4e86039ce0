// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Torture: more writer threads than CPUs, preempted (sched_yield) and
 * migrated in the middle of their events, nesting, discarding, against a
 * reader that consumes events one by one and by pages, an iterator that
 * walks the CPUs without consuming, and (in some phases) a thread that
 * resizes the buffer under them: to a few pages, and in the growing
 * phases every other time to more pages than the buffer's address space
 * (its view, ring-buffer-design.rst "Address space") holds yet, so that
 * writers reserve on pages added past the end of the view they read.
 *
 * Every event carries its thread, a per-thread sequence number, its length
 * and a checksum.  The reader checks each one, that a thread's events come
 * in order on each CPU, and that time stamps never go backwards on a CPU.
 * At the end, with everything drained:
 *
 *	written = read + overrun + dropped + commit overrun
 *
 * exactly, per CPU when the writers are pinned (so that the test knows
 * which CPU each event went to) and in total always.  "written" counts
 * every reservation attempt that was not discarded, successful or not.
 * The iterator checks every event it sees the same way (order within
 * each walk).  When it finds nothing, the reader sleeps in
 * ring_buffer_wait() (any data, or buffer_percent 50 of a CPU) or yields,
 * so that writers also ring bells and meet watermarks meanwhile.
 *
 * RB_TORTURE_SECONDS (default 0.7, RB_TORTURE_DEFAULT_SECONDS when
 * built by torture-long.c) is the length of each phase.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/ring_buffer.h>

#include "kselftest.h"
#include "rb_test.h"

#define MAX_THREADS	40
#define MAX_CPUS	64
#define MAGIC		0x7274u

/* Event data is 4-byte aligned, as in the kernel's ring buffer. */
struct payload {
	uint16_t magic;
	uint16_t thread;
	uint32_t len;		/* payload bytes, this header included */
	uint64_t seq;
	uint32_t sum;		/* of the bytes after the header */
	uint32_t __pad;
	uint8_t data[];
} __attribute__((__packed__, __aligned__(4)));

struct writer {
	pthread_t tid;
	int id;
	bool pinned;
	int cpu;		/* where it is pinned now */
	uint64_t rng;
	uint64_t seq;
	uint64_t written[MAX_CPUS];	/* attempts not discarded, by CPU */
	uint64_t written_total;
	uint64_t failed;
	uint64_t discarded;
	uint64_t nested;
};

struct phase {
	const char *name;
	bool overwrite;
	bool pinned;
	bool resize;
	bool grow;
};

static struct trace_buffer *buffer;
static struct writer writers[MAX_THREADS];
static int nr_writers, nr_cpus, allowed[MAX_CPUS], nr_allowed;
static volatile int stop_writers, stop_reader, stop_resizer;
#ifndef RB_TORTURE_DEFAULT_SECONDS
# define RB_TORTURE_DEFAULT_SECONDS	0.7
#endif

static double seconds = RB_TORTURE_DEFAULT_SECONDS;

/* The reader's findings. */
static uint64_t read_count[MAX_CPUS];
static uint64_t last_seq[MAX_CPUS][MAX_THREADS];
static bool seen[MAX_CPUS][MAX_THREADS];
static uint64_t last_ts[MAX_CPUS];
static uint64_t lost_reported, lost_unknown_pages, errors;
static uint64_t iter_events, iter_walks, iter_dropped;
static uint64_t resizes, resize_busy;

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint32_t checksum(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static void fill(struct payload *p, struct writer *w, uint32_t len)
{
	uint32_t n = len - sizeof(*p);

	p->magic = MAGIC;
	p->thread = (uint16_t)w->id;
	p->len = len;
	p->seq = w->seq++;
	for (uint32_t i = 0; i < n; i++)
		p->data[i] = (uint8_t)(p->seq * 31 + i * 7 + w->id);
	p->sum = checksum(p->data, n);
}

static uint32_t pick_len(struct writer *w)
{
	uint64_t r = next_rand(&w->rng);

	if (r % 16 == 0)
		return sizeof(struct payload) + (uint32_t)(r >> 8) % 1500;
	return sizeof(struct payload) + (uint32_t)(r >> 8) % 120;
}

static void count(struct writer *w, int cpu)
{
	if (cpu >= 0)
		w->written[cpu]++;
	w->written_total++;
}

static void maybe_move(struct writer *w)
{
	uint64_t r = next_rand(&w->rng);

	if (r % 97)
		return;
	if (w->pinned || r % 2) {
		w->cpu = allowed[(r >> 8) % nr_allowed];
		rb_test_pin(w->cpu);
	} else {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int i = 0; i < nr_allowed; i++)
			CPU_SET(allowed[i], &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
}

/* A small event from "a probe that fires a tracepoint" inside another. */
static void nested_event(struct writer *w, int cpu)
{
	struct ring_buffer_event *event;
	uint32_t len = sizeof(struct payload) + 8;

	w->nested++;
	event = ring_buffer_lock_reserve(buffer, len);
	count(w, cpu);
	if (!event) {
		w->failed++;
		return;
	}
	fill(ring_buffer_event_data(event), w, len);
	if (ring_buffer_unlock_commit(buffer, event))
		errors++;
}

static void *writer_thread(void *arg)
{
	struct writer *w = arg;

	if (w->pinned)
		rb_test_pin(w->cpu);
	while (!__atomic_load_n(&stop_writers, __ATOMIC_RELAXED)) {
		uint32_t len = pick_len(w);
		int cpu = w->pinned ? w->cpu : -1;
		struct ring_buffer_event *event;
		uint64_t r;

		event = ring_buffer_lock_reserve(buffer, len);
		if (!event) {
			count(w, cpu);
			w->failed++;
			maybe_move(w);
			continue;
		}
		fill(ring_buffer_event_data(event), w, len);
		r = next_rand(&w->rng);
		if (r % 61 == 0)
			sched_yield();
		if (r % 37 == 0)
			nested_event(w, cpu);
		maybe_move(w);
		if (r % 53 == 0) {
			ring_buffer_discard_commit(buffer, event);
			w->discarded++;
			continue;
		}
		count(w, cpu);
		if (ring_buffer_unlock_commit(buffer, event))
			__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static bool payload_ok(const struct payload *p, unsigned int len)
{
	return len >= sizeof(*p) && p->magic == MAGIC && p->thread < nr_writers &&
	       p->len <= len && p->len >= sizeof(*p) &&
	       p->sum == checksum(p->data, p->len - sizeof(*p));
}

static void check_event(int cpu, const void *data, unsigned int len, uint64_t ts)
{
	const struct payload *p = data;

	if (!payload_ok(p, len)) {
		if (errors++ < 5)
			ksft_print_msg("cpu %d: corrupt event (len %u, magic %#x, thread %u)\n",
				       cpu, len, p->magic, p->thread);
		return;
	}
	if (seen[cpu][p->thread] && p->seq <= last_seq[cpu][p->thread]) {
		if (errors++ < 5)
			ksft_print_msg("cpu %d: thread %u: seq %llu after %llu\n", cpu,
				       p->thread, (unsigned long long)p->seq,
				       (unsigned long long)last_seq[cpu][p->thread]);
	}
	seen[cpu][p->thread] = true;
	last_seq[cpu][p->thread] = p->seq;
	if (ts < last_ts[cpu]) {
		if (errors++ < 5)
			ksft_print_msg("cpu %d: time %llu after %llu\n", cpu,
				       (unsigned long long)ts, (unsigned long long)last_ts[cpu]);
	}
	last_ts[cpu] = ts;
	read_count[cpu]++;
}

/* One visit to a CPU: returns how many events were read. */
static unsigned int read_cpu(int cpu, uint64_t *rng, void **page, struct rb_test_page *p)
{
	unsigned int n = 0;
	uint64_t r = next_rand(rng);

	if (r % 4 == 0) {
		if (ring_buffer_read_page(buffer, page, RB_PAGE_SIZE, cpu, (r >> 8) % 2))
			return 0;
		rb_test_decode(*page, p);
		if (p->malformed) {
			errors++;
			ksft_print_msg("cpu %d: malformed page\n", cpu);
			return 0;
		}
		if (p->missed < 0)
			lost_unknown_pages++;
		else
			lost_reported += (uint64_t)p->missed;
		for (unsigned int i = 0; i < p->nr; i++)
			check_event(cpu, p->ev[i].data, p->ev[i].len, p->ev[i].ts);
		return p->nr;
	}
	for (; n < 300; n++) {
		struct ring_buffer_event *event;
		unsigned long lost;
		uint64_t ts;

		event = ring_buffer_consume(buffer, cpu, &ts, &lost);
		if (!event)
			break;
		lost_reported += lost;
		check_event(cpu, ring_buffer_event_data(event), ring_buffer_event_length(event),
			    ts);
	}
	return n;
}

static void *reader_thread(void *arg)
{
	struct rb_test_page *p = malloc(sizeof(*p));
	void *page = ring_buffer_alloc_read_page(buffer, 0);
	uint64_t rng = 88172645463325252ull;
	int idle = 0;

	(void)arg;
	if (!p || !page) {
		errors++;
		return NULL;
	}
	for (;;) {
		unsigned int n = 0;

		for (int cpu = 0; cpu < nr_cpus; cpu++)
			n += read_cpu(cpu, &rng, &page, p);
		if (n) {
			idle = 0;
			continue;
		}
		if (__atomic_load_n(&stop_reader, __ATOMIC_ACQUIRE) && ++idle > 3)
			break;
		/*
		 * Sleep as trace_pipe and the recorder do, at most 1 ms: the
		 * bell and the watermarks armed under the writers' feet.
		 */
		switch (next_rand(&rng) % 3) {
		case 0:
			ring_buffer_wait(buffer, RING_BUFFER_ALL_CPUS, 0, 1);
			break;
		case 1:
			ring_buffer_wait(buffer, (int)(next_rand(&rng) % nr_cpus), 50, 1);
			break;
		default:
			sched_yield();
		}
	}
	ring_buffer_free_read_page(buffer, 0, page);
	free(p);
	return NULL;
}

/* Walks of up to 2000 events, CPU after CPU, checked as the reader does. */
static void *iterator_thread(void *arg)
{
	static uint64_t iseq[MAX_THREADS];
	static bool iseen[MAX_THREADS];

	(void)arg;
	while (!__atomic_load_n(&stop_reader, __ATOMIC_ACQUIRE)) {
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			struct ring_buffer_iter *iter = ring_buffer_read_start(buffer, cpu);
			struct ring_buffer_event *event;
			uint64_t ts, last = 0;

			if (!iter) {
				__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
				return NULL;
			}
			memset(iseen, 0, sizeof(iseen));
			for (int i = 0; i < 2000 && (event = ring_buffer_iter_peek(iter, &ts)); i++) {
				const struct payload *p = ring_buffer_event_data(event);

				if (!payload_ok(p, ring_buffer_event_length(event)) ||
				    (iseen[p->thread] && p->seq <= iseq[p->thread]) || ts < last) {
					if (__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED) < 5)
						ksft_print_msg("iterator, cpu %d: bad event: %s, "
							       "thread %u seq %llu after %llu, "
							       "time %llu after %llu\n", cpu,
							       payload_ok(p, ring_buffer_event_length(event)) ?
							       "order" : "corrupt", p->thread,
							       (unsigned long long)p->seq,
							       (unsigned long long)iseq[p->thread % MAX_THREADS],
							       (unsigned long long)ts,
							       (unsigned long long)last);
					break;
				}
				iseen[p->thread] = true;
				iseq[p->thread] = p->seq;
				last = ts;
				iter_events++;
				ring_buffer_iter_advance(iter);
			}
			if (ring_buffer_iter_dropped(iter))
				iter_dropped++;
			iter_walks++;
			ring_buffer_read_finish(iter);
		}
	}
	return NULL;
}

static void *resizer_thread(void *arg)
{
	/* Each past the last view's pages: views of 2, 4, 8 ... 64 MiB per CPU. */
	static const unsigned long grow[] = { 300, 700, 1500, 3100, 6300, 12700 };
	const struct phase *ph = arg;
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	struct timespec pause = { .tv_nsec = 2 * 1000 * 1000 };
	unsigned int n = 0;

	while (!__atomic_load_n(&stop_resizer, __ATOMIC_RELAXED)) {
		unsigned long pages = 2 + next_rand(&rng) % 10;

		if (ph->grow && n++ % 2)
			pages = grow[(n / 2) % (sizeof(grow) / sizeof(grow[0]))];
		int ret = ring_buffer_resize(buffer, pages * RB_PAGE_DATA_SIZE,
					     RING_BUFFER_ALL_CPUS);

		if (ret == -EBUSY)
			resize_busy++;
		else if (ret)
			errors++;
		else
			resizes++;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void run_phase(const struct phase *ph)
{
	pthread_t reader, resizer, iterator;
	uint64_t total_written = 0, total_other = 0, total_overrun = 0, nested = 0;
	uint64_t discarded = 0;
	bool ok = true;

	buffer = ring_buffer_alloc(4 * RB_PAGE_DATA_SIZE, ph->overwrite ? RB_FL_OVERWRITE : 0);
	if (!buffer) {
		ksft_test_result_fail("%s: ring_buffer_alloc: %s\n", ph->name, strerror(errno));
		return;
	}
	memset(read_count, 0, sizeof(read_count));
	memset(seen, 0, sizeof(seen));
	memset(last_ts, 0, sizeof(last_ts));
	lost_reported = lost_unknown_pages = errors = resizes = resize_busy = 0;
	iter_events = iter_walks = iter_dropped = 0;
	stop_writers = stop_reader = stop_resizer = 0;

	for (int i = 0; i < nr_writers; i++) {
		struct writer *w = &writers[i];

		memset(w, 0, sizeof(*w));
		w->id = i;
		w->pinned = ph->pinned;
		w->cpu = allowed[i % nr_allowed];
		w->rng = 0x2545f4914f6cdd1dull * (uint64_t)(i + 1);
		pthread_create(&w->tid, NULL, writer_thread, w);
	}
	pthread_create(&reader, NULL, reader_thread, NULL);
	pthread_create(&iterator, NULL, iterator_thread, NULL);
	if (ph->resize)
		pthread_create(&resizer, NULL, resizer_thread, (void *)ph);
	sleep_seconds(seconds);
	__atomic_store_n(&stop_writers, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < nr_writers; i++)
		pthread_join(writers[i].tid, NULL);
	if (ph->resize) {
		__atomic_store_n(&stop_resizer, 1, __ATOMIC_RELAXED);
		pthread_join(resizer, NULL);
	}
	__atomic_store_n(&stop_reader, 1, __ATOMIC_RELEASE);
	pthread_join(reader, NULL);
	pthread_join(iterator, NULL);

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t written = 0;
		uint64_t rd = ring_buffer_read_events_cpu(buffer, cpu);
		uint64_t ov = ring_buffer_overrun_cpu(buffer, cpu);
		uint64_t dr = ring_buffer_dropped_events_cpu(buffer, cpu);
		uint64_t co = ring_buffer_commit_overrun_cpu(buffer, cpu);
		uint64_t left = ring_buffer_entries_cpu(buffer, cpu);

		for (int i = 0; i < nr_writers; i++)
			written += writers[i].written[cpu];
		if (rd != read_count[cpu] || left) {
			ksft_print_msg("%s: cpu %d: read events %llu, the reader saw %llu, "
				       "%llu left\n", ph->name, cpu, (unsigned long long)rd,
				       (unsigned long long)read_count[cpu],
				       (unsigned long long)left);
			ok = false;
		}
		if (ph->pinned && written != rd + ov + dr + co) {
			ksft_print_msg("%s: cpu %d: written %llu != read %llu + overrun %llu + "
				       "dropped %llu + commit overrun %llu\n", ph->name, cpu,
				       (unsigned long long)written, (unsigned long long)rd,
				       (unsigned long long)ov, (unsigned long long)dr,
				       (unsigned long long)co);
			ok = false;
		}
		total_other += rd + ov + dr + co;
		total_overrun += ov;
		if (rd + ov + dr + co)
			ksft_print_msg("%s: cpu %d: read %llu overrun %llu dropped %llu "
				       "commit overrun %llu\n", ph->name, cpu,
				       (unsigned long long)rd, (unsigned long long)ov,
				       (unsigned long long)dr, (unsigned long long)co);
	}
	for (int i = 0; i < nr_writers; i++) {
		total_written += writers[i].written_total;
		nested += writers[i].nested;
		discarded += writers[i].discarded;
	}
	ksft_print_msg("%s: %d writers on %d CPUs: written %llu (nested %llu, discarded %llu), "
		       "lost reported %llu%s, resizes %llu (busy %llu), iterator: %llu events "
		       "in %llu walks (%llu dropped)\n", ph->name,
		       nr_writers, nr_allowed, (unsigned long long)total_written,
		       (unsigned long long)nested, (unsigned long long)discarded,
		       (unsigned long long)lost_reported,
		       lost_unknown_pages ? " (and pages with a count not stored)" : "",
		       (unsigned long long)resizes, (unsigned long long)resize_busy,
		       (unsigned long long)iter_events, (unsigned long long)iter_walks,
		       (unsigned long long)iter_dropped);
	if (total_written != total_other) {
		ksft_print_msg("%s: written %llu != read + overrun + dropped + commit overrun "
			       "%llu\n", ph->name, (unsigned long long)total_written,
			       (unsigned long long)total_other);
		ok = false;
	}
	if (lost_reported > total_other || (!lost_unknown_pages &&
						  lost_reported < total_overrun)) {
		ksft_print_msg("%s: lost reported %llu, overrun %llu\n", ph->name,
			       (unsigned long long)lost_reported,
			       (unsigned long long)total_overrun);
		ok = false;
	}
	if (errors) {
		ksft_print_msg("%s: %llu errors\n", ph->name, (unsigned long long)errors);
		ok = false;
	}
	if (ph->resize && !resizes)
		ok = false;
	ring_buffer_free(buffer);
	ksft_test_result(ok, "%s\n", ph->name);
}

int main(void)
{
	static const struct phase phases[] = {
		{ "overwrite, pinned writers",			true,  true,  false, false },
		{ "overwrite, migrating writers",		true,  false, false, false },
		{ "producer/consumer, pinned writers",		false, true,  false, false },
		{ "producer/consumer, migrating writers",	false, false, false, false },
		{ "overwrite, pinned writers, resizing",	true,  true,  true, false },
		{ "producer/consumer, pinned writers, resizing", false, true, true, false },
		{ "overwrite, migrating writers, views growing", true, false, true, true },
		{ "producer/consumer, pinned writers, views growing", false, true, true, true },
	};
	const char *s = getenv("RB_TORTURE_SECONDS");
	struct trace_buffer *probe;

	ksft_print_header();
	if (s && atof(s) > 0)
		seconds = atof(s);
	nr_allowed = rb_test_cpus(allowed, MAX_CPUS);
	probe = ring_buffer_alloc(2 * RB_PAGE_DATA_SIZE, 0);
	if (!probe)
		ksft_exit_fail_msg("ring_buffer_alloc: %s\n", strerror(errno));
	nr_cpus = ring_buffer_nr_cpus(probe);
	ring_buffer_free(probe);
	if (nr_cpus > MAX_CPUS || nr_allowed < 1)
		ksft_exit_skip("%d CPUs: more than this test handles\n", nr_cpus);
	nr_writers = 2 * nr_allowed + 2;
	if (nr_writers > MAX_THREADS)
		nr_writers = MAX_THREADS;
	ksft_set_plan(sizeof(phases) / sizeof(phases[0]));
	for (unsigned int i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		run_phase(&phases[i]);
	ksft_finished();
}
