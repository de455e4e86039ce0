// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rb-wake: readers sleep and writers wake them (ring-buffer-design.rst,
 * "Waiting").  A reader thread blocks in ring_buffer_wait() while the main
 * thread, pinned to the CPU it waits for, writes; the test checks that the
 * reader does not wake before its condition (its voluntary context
 * switches, from /proc, stay at the one of its sleep), and that it wakes
 * within 100 ms of the event that meets it:
 *
 *   - any data (full 0): the first event after the reader went to sleep;
 *   - buffer_percent 50 of 8 pages: the switch to the 4th page written
 *     (the kernel's full_hit(): the writer's page counted), not the 3rd;
 *   - buffer_percent 100: the switch to the last page of the ring;
 *   - ring_buffer_wake_waiters(): at once;
 *   - a reset wakes the word, and ring_buffer_wait() sleeps on (nothing
 *     to read), until the first event after it;
 *   - woken by any data, it returns with the event there to read (the
 *     writer wakes before it reserves: the reader looks again until the
 *     event is committed);
 *   - a reader in another process (fork, the memfd mapping shared) on the
 *     same word: the futex is not private.
 *
 * And that an armed bell costs one wake, not one per event.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ring_buffer.h>

#include "kselftest.h"
#include "rb_test.h"

#define NR_PAGES	8
#define EV_LEN		1000		/* 4 events a page; the 5th switches */
#define PROMPT_MS	100
#define IDLE_MS		300

static struct trace_buffer *buffer;
static int cpu;

struct waiter {
	pthread_t thread;
	int full;
	pid_t tid;
	int ret;
	int done;		/* atomic */
	unsigned long entries;	/* the CPU's events when it returned */
	uint64_t woke_ns;
};

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* voluntary_ctxt_switches of a thread of ours, -1 if unknown. */
static long vol_switches(pid_t tid)
{
	char path[64], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;

	__atomic_store_n(&w->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	w->ret = ring_buffer_wait(buffer, cpu, w->full, 5000);
	w->woke_ns = rb_test_mono_ns();
	w->entries = ring_buffer_entries_cpu(buffer, cpu);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Start a waiter and let it fall asleep.  Return: its voluntary context
 * switches once asleep.
 */
static long waiter_start(struct waiter *w, int full)
{
	memset(w, 0, sizeof(*w));
	w->full = full;
	pthread_create(&w->thread, NULL, waiter_fn, w);
	while (!__atomic_load_n(&w->tid, __ATOMIC_ACQUIRE))
		sched_yield();
	sleep_ms(50);
	return vol_switches(w->tid);
}

/* Still asleep after IDLE_MS, and without waking in between? */
static int waiter_slept(struct waiter *w, long base)
{
	long now;

	sleep_ms(IDLE_MS);
	now = vol_switches(w->tid);
	if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
		ksft_print_msg("woke too early (ret %d)\n", w->ret);
		return 0;
	}
	if (base < 0 || now != base) {
		ksft_print_msg("woke %ld times asleep\n", now - base);
		return 0;
	}
	return 1;
}

/* Woken within PROMPT_MS of @t0, with 0? */
static int waiter_woken(struct waiter *w, uint64_t t0)
{
	uint64_t ms;

	pthread_join(w->thread, NULL);
	ms = (w->woke_ns - t0) / 1000000u;
	if (w->ret || ms >= PROMPT_MS) {
		ksft_print_msg("ring_buffer_wait() returned %d after %llu ms\n", w->ret,
			       (unsigned long long)ms);
		return 0;
	}
	return 1;
}

static void write_events(int n)
{
	static char data[EV_LEN];

	for (int i = 0; i < n; i++)
		if (ring_buffer_write(buffer, EV_LEN, data))
			ksft_print_msg("a write failed: %s\n", strerror(errno));
}

static void drain(void)
{
	ring_buffer_reset_cpu(buffer, cpu);
}

static void test_any(void)
{
	struct waiter w;
	long base = waiter_start(&w, 0);
	int slept = waiter_slept(&w, base);
	uint64_t t0 = rb_test_mono_ns();

	write_events(1);
	ksft_test_result(slept && waiter_woken(&w, t0) && w.entries == 1,
			 "any data: asleep until the first event, then woken in < %d ms, the event there (%lu)\n",
			 PROMPT_MS, w.entries);
	drain();
}

/* @full percent of NR_PAGES: asleep through @before events, woken by @at more. */
static void test_percent(int full, int before, int at)
{
	struct waiter w;
	long base = waiter_start(&w, full);
	int slept;
	uint64_t t0;

	write_events(before);
	slept = waiter_slept(&w, base);
	t0 = rb_test_mono_ns();
	write_events(at);
	ksft_test_result(slept && waiter_woken(&w, t0),
			 "buffer_percent %d: asleep with %d pages entered, woken in < %d ms at %d\n",
			 full, (before - 1) / 4 + 1, PROMPT_MS, (before + at - 1) / 4 + 1);
	drain();
}

static void test_wake_waiters(void)
{
	struct waiter w;
	long base = waiter_start(&w, 50);
	int slept = waiter_slept(&w, base);
	uint64_t t0 = rb_test_mono_ns();

	ring_buffer_wake_waiters(buffer, cpu);
	ksft_test_result(slept && waiter_woken(&w, t0),
			 "ring_buffer_wake_waiters() ends a wait in < %d ms\n", PROMPT_MS);
}

static void test_reset(void)
{
	struct waiter w;
	long base = waiter_start(&w, 0);
	int slept = waiter_slept(&w, base);
	uint32_t seq = ring_buffer_wait_seq(buffer);
	int on;
	uint64_t t0;

	ring_buffer_reset_cpu(buffer, cpu);
	sleep_ms(IDLE_MS);
	on = !__atomic_load_n(&w.done, __ATOMIC_ACQUIRE);
	t0 = rb_test_mono_ns();
	write_events(1);
	ksft_test_result(slept && ring_buffer_wait_seq(buffer) != seq && on &&
			 waiter_woken(&w, t0) && w.entries == 1,
			 "a reset wakes the word; the wait sleeps on until the next event (woken in < %d ms)\n",
			 PROMPT_MS);
	drain();
}

/* One wake for a bell, however many events follow. */
static void test_one_wake(void)
{
	uint32_t before = ring_buffer_wait_seq(buffer), after;
	int armed = ring_buffer_wait_arm(buffer, cpu, 0);

	write_events(3);
	after = ring_buffer_wait_seq(buffer);
	ksft_test_result(armed == RING_BUFFER_WAIT_ARMED && after - before == 1,
			 "an armed bell: 3 events wake once (armed %d, wakes %u)\n", armed,
			 after - before);
	drain();
}

/* A reader in another process, on the same (shared) futex word. */
static void test_other_process(void)
{
	uint32_t seq = ring_buffer_wait_seq(buffer);
	int status = -1, armed;
	uint64_t t0;
	pid_t pid;

	armed = ring_buffer_wait_arm(buffer, cpu, 0);
	pid = fork();
	if (pid == 0) {
		uint64_t start = rb_test_mono_ns();
		int ret = ring_buffer_wait_sleep(buffer, seq, 5000);

		_exit(ret == 0 && (rb_test_mono_ns() - start) / 1000000u >= IDLE_MS / 2 ? 0 : 1);
	}
	sleep_ms(IDLE_MS);
	t0 = rb_test_mono_ns();
	write_events(1);
	if (pid > 0)
		waitpid(pid, &status, 0);
	ksft_test_result(armed == RING_BUFFER_WAIT_ARMED && WIFEXITED(status) &&
			 !WEXITSTATUS(status) && (rb_test_mono_ns() - t0) / 1000000u < PROMPT_MS,
			 "a reader in another process sleeps on the shared word and is woken\n");
	drain();
}

int main(void)
{
	int cpus[1];

	ksft_print_header();
	ksft_set_plan(8);
	if (rb_test_cpus(cpus, 1) < 1 || rb_test_pin(cpus[0]))
		ksft_exit_fail_msg("cannot pin to a CPU\n");
	cpu = cpus[0];
	/* Producer/consumer: nothing is overwritten, the ring can fill. */
	buffer = ring_buffer_alloc(NR_PAGES * RB_PAGE_DATA_SIZE, 0);
	if (!buffer || ring_buffer_nr_pages(buffer, cpu) != NR_PAGES)
		ksft_exit_fail_msg("ring_buffer_alloc: %s\n", strerror(errno));

	test_any();
	/* 50 % of 8: 4 pages with the writer's; 9 events enter the 3rd page, 13 the 4th. */
	test_percent(50, 9, 4);
	/* 100 %: the 8th page; 28 events fill 7 pages, the 29th enters the 8th. */
	test_percent(100, 28, 1);
	/* 1 %: a whole page to take (the kernel's "page busy" test): the 5th event. */
	test_percent(1, 4, 1);
	test_wake_waiters();
	test_reset();
	test_one_wake();
	test_other_process();
	ring_buffer_free(buffer);
	ksft_finished();
}
