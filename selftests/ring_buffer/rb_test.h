/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the ring buffer tests: a clock the test sets, pinning,
 * and a decoder for pages in the kernel's format that does not use the
 * library (so that it checks the library, not itself).
 */
#ifndef _USTRACE_SELFTESTS_RB_TEST_H
#define _USTRACE_SELFTESTS_RB_TEST_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <linux/ring_buffer.h>

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
# define RB_TEST_SANITIZED 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#  define RB_TEST_SANITIZED 1
# endif
#endif

/* A clock that only moves when the test says so. */
static uint64_t rb_test_now;

static inline uint64_t rb_test_clock(void)
{
	return __atomic_load_n(&rb_test_now, __ATOMIC_RELAXED);
}

static inline void rb_test_set_time(uint64_t t)
{
	__atomic_store_n(&rb_test_now, t, __ATOMIC_RELAXED);
}

static inline void rb_test_advance(uint64_t d)
{
	__atomic_add_fetch(&rb_test_now, d, __ATOMIC_RELAXED);
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t rb_test_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The CPUs this process may run on, in order; returns how many. */
static inline int rb_test_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

/* Run the calling thread on @cpu only; 0 or -errno. */
static inline int rb_test_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* One event decoded from a page. */
struct rb_test_event {
	uint64_t ts;
	const void *data;
	unsigned int len;	/* payload bytes, as stored (multiple of 4) */
};

/*
 * A page in the kernel's format, decoded as libtraceevent's kbuffer does:
 * padding adds its time delta, a time extend adds its delta, a time stamp
 * sets the time (its top 5 bits from the time before).
 */
struct rb_test_page {
	uint64_t ts;
	uint64_t commit;	/* with the flags */
	unsigned int size;	/* commit without the flags */
	long long missed;	/* -1: missed, count unknown; 0: none */
	unsigned int nr;
	struct rb_test_event ev[RB_PAGE_DATA_SIZE / 8];
	bool malformed;
};

static inline void rb_test_decode(const void *page, struct rb_test_page *p)
{
	const unsigned char *data = (const unsigned char *)page + RB_PAGE_HDR_SIZE;
	uint64_t ts;
	unsigned int off = 0;

	memcpy(&p->ts, page, 8);
	memcpy(&p->commit, (const char *)page + 8, 8);
	p->size = p->commit & ((1u << 27) - 1);
	p->nr = 0;
	p->malformed = p->size > RB_PAGE_DATA_SIZE;
	p->missed = 0;
	if (p->commit & RB_MISSED_EVENTS) {
		p->missed = -1;
		if (p->commit & RB_MISSED_STORED && p->size + 8 <= RB_PAGE_DATA_SIZE)
			memcpy(&p->missed, data + p->size, 8);
	}
	ts = p->ts;
	while (!p->malformed && off + 4 <= p->size) {
		uint32_t w0, w1 = 0;
		unsigned int type, delta, len = 0, hdr = 4;

		memcpy(&w0, data + off, 4);
		if (off + 8 <= p->size)
			memcpy(&w1, data + off + 4, 4);
		type = w0 & 31;
		delta = w0 >> 5;
		switch (type) {
		case 29:	/* padding */
			ts += delta;
			len = w1;
			break;
		case 30:	/* time extend */
			ts += ((uint64_t)w1 << 27) + delta;
			hdr = 8;
			break;
		case 31: {	/* absolute time stamp */
			uint64_t abs = ((uint64_t)w1 << 27) + delta;

			ts = abs | (ts & ~((1ull << 59) - 1));
			hdr = 8;
			break;
		}
		case 0:
			ts += delta;
			len = w1 - 4;
			hdr = 8;
			break;
		default:
			ts += delta;
			len = type * 4;
			break;
		}
		if (type != 29 && type != 30 && type != 31) {
			if (off + hdr + len > p->size) {
				p->malformed = true;
				break;
			}
			p->ev[p->nr++] = (struct rb_test_event){ ts, data + off + hdr, len };
		}
		if (type == 29)
			hdr = 4;
		if (len > RB_PAGE_DATA_SIZE) {
			p->malformed = true;
			break;
		}
		off += hdr + len;
	}
}

#endif /* _USTRACE_SELFTESTS_RB_TEST_H */
