// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ring_buffer_swap() under load: writer threads (not pinned, yielding
 * between reserve and commit so that swaps land inside their events)
 * write into one buffer while a thread trades its pages with a second
 * buffer as fast as it can, trying the mutexes (as a probe does) and
 * blocking on them (as the snapshot file does) in turn.  At the end every
 * event committed is in one buffer or the other, once, intact:
 *
 *	entries(a) + entries(b) == events committed
 *	dropped(a) + dropped(b) == reservations refused
 *
 * and consuming both gives back each (thread, seq) exactly once.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>

#include "kselftest.h"
#include "rb_test.h"

#define WRITERS		4
#ifdef RB_TEST_SANITIZED
# define PER_WRITER	4000
#else
# define PER_WRITER	40000
#endif

struct rec {
	uint32_t thread;
	uint32_t seq;
	uint32_t check;
};

static struct trace_buffer *a, *b;
static int writers_done;
static unsigned long committed[WRITERS], refused[WRITERS];
static unsigned long swaps, busy, cancelled, cond_asked;
static unsigned char seen[WRITERS][PER_WRITER];

static uint32_t check_of(uint32_t thread, uint32_t seq)
{
	return (thread * 2654435761u) ^ seq ^ 0x5a5a5a5au;
}

static void *writer(void *arg)
{
	uint32_t id = (uint32_t)(uintptr_t)arg;

	for (uint32_t seq = 0; seq < PER_WRITER; seq++) {
		struct ring_buffer_event *event = ring_buffer_lock_reserve(a, sizeof(struct rec));
		struct rec *r;

		if (!event) {
			refused[id]++;
			continue;
		}
		r = ring_buffer_event_data(event);
		r->thread = id;
		r->seq = seq;
		if (!(seq & 7))
			sched_yield();
		r->check = check_of(id, seq);
		if (ring_buffer_unlock_commit(a, event) == 0)
			committed[id]++;
	}
	__atomic_add_fetch(&writers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Every other conditional swap is refused by its cond. */
static bool cond_every_other(void *arg)
{
	unsigned long *n = arg;

	return (*n)++ & 1;
}

static void *swapper(void *arg)
{
	(void)arg;
	for (unsigned long i = 0;
	     __atomic_load_n(&writers_done, __ATOMIC_ACQUIRE) < WRITERS; i++) {
		int err = ring_buffer_swap(a, b, i % 3 == 0, i % 5 == 0 ? cond_every_other : NULL,
					   &cond_asked);

		if (!err)
			swaps++;
		else if (err == -EBUSY)
			busy++;
		else if (err == -ECANCELED)
			cancelled++;
		else
			ksft_print_msg("ring_buffer_swap: %d\n", err);
		sched_yield();
	}
	return NULL;
}

static unsigned long sum_cpus(unsigned long (*fn)(struct trace_buffer *, int),
			      struct trace_buffer *buffer)
{
	unsigned long n = 0;

	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++)
		n += fn(buffer, cpu);
	return n;
}

/* Consume @buffer; count the events, and those that are not right. */
static void drain(struct trace_buffer *buffer, unsigned long *events, unsigned long *bad)
{
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *event;

		while ((event = ring_buffer_consume(buffer, cpu, NULL, NULL))) {
			const struct rec *r = ring_buffer_event_data(event);

			(*events)++;
			if (ring_buffer_event_length(event) < sizeof(*r) || r->thread >= WRITERS ||
			    r->seq >= PER_WRITER || r->check != check_of(r->thread, r->seq) ||
			    seen[r->thread][r->seq]++)
				(*bad)++;
		}
	}
}

static void test_swap_under_writers(void)
{
	pthread_t w[WRITERS], s;
	unsigned long total = 0, total_refused = 0, events = 0, bad = 0;

	a = ring_buffer_alloc(256 * RB_PAGE_DATA_SIZE, 0);
	b = ring_buffer_alloc(256 * RB_PAGE_DATA_SIZE, 0);
	ASSERT_TRUE(a && b);
	ASSERT_EQ(0, pthread_create(&s, NULL, swapper, NULL));
	for (int i = 0; i < WRITERS; i++)
		ASSERT_EQ(0, pthread_create(&w[i], NULL, writer, (void *)(uintptr_t)i));
	for (int i = 0; i < WRITERS; i++)
		pthread_join(w[i], NULL);
	pthread_join(s, NULL);
	for (int i = 0; i < WRITERS; i++) {
		total += committed[i];
		total_refused += refused[i];
	}
	ksft_print_msg("%lu swaps, %lu busy, %lu cancelled; %lu committed, %lu refused\n",
		       swaps, busy, cancelled, total, total_refused);
	EXPECT_LT(0, swaps);
	EXPECT_EQ((unsigned long)WRITERS * PER_WRITER, total + total_refused);
	EXPECT_EQ(total, ring_buffer_entries(a) + ring_buffer_entries(b));
	EXPECT_EQ(total_refused, sum_cpus(ring_buffer_dropped_events_cpu, a) +
				 sum_cpus(ring_buffer_dropped_events_cpu, b));
	drain(a, &events, &bad);
	drain(b, &events, &bad);
	EXPECT_EQ(total, events);
	EXPECT_EQ(0, bad);
	ring_buffer_free(b);
	ring_buffer_free(a);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(1);
	KSFT_RUN(test_swap_under_writers);
	ksft_finished();
}
