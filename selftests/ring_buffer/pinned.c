// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rb-pinned: readers that change another CPU's tail (ring-buffer-design.rst,
 * "Who changes the tail").  The writers of a CPU change its open tail with
 * a restartable sequence; a reader that flushes it, rings its bell or
 * freezes it holds it and fences the CPU's sequences first (membarrier),
 * and a fork() locks every tail for cmpxchg16b.  With the reader's thread
 * allowed on CPU A only and writers pinned to CPU B:
 *
 *   - a consuming reader takes events from B's page still being written
 *     (a flush), as they come, while the writer goes on at full speed:
 *     every event in order, once, intact; what the full ring refused
 *     counted; the reader still allowed on A only, and running there;
 *   - a reader waiting for any data on B (the bell) sleeps, is woken by
 *     one event;
 *   - resets of B (a freeze) while B's writer writes: each leaves B
 *     empty of what came before, recording stays on (no corruption seen);
 *   - a process whose seccomp filter refuses membarrier() before it makes
 *     the buffer: the buffer is locked from the start, and a partial page
 *     is read, pages that fill too, a waiter is woken, a reset empties B;
 *   - one whose filter refuses membarrier() and sched_setaffinity() after
 *     it made the buffer: no fence can be had, so the reader does without
 *     (pages as they fill, a waiter that looks every millisecond, a reset
 *     refused that leaves B as it was), and nothing is lost;
 *   - a fork() while B's writer writes: parent and child write B at the
 *     same time, the parent reads; every event of each, once, in order.
 *
 * "rb-pinned --rseq" prints whether glibc registered rseq in this process
 * (selftests/ring_buffer/no-rseq.sh runs the tests without it).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<sys/rseq.h>)
# include <sys/rseq.h>
#endif
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/membarrier.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/ring_buffer.h>

#include "kselftest.h"
#include "rb_test.h"

#define NR_PAGES	16
#define FLUSH_EVENTS	200000

static struct trace_buffer *buffer;
static int cpu_a, cpu_b;
static int stop;		/* atomic */

struct rec {
	uint64_t seq;
	uint64_t check;
};

/* The calling thread may run on CPU @cpu alone, and runs there now. */
static int only_on(int cpu)
{
	cpu_set_t set;

	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set))
		return 0;
	return CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set) && sched_getcpu() == cpu;
}

struct writer {
	pthread_t thread;
	uint64_t n;		/* events to write; 0: until stop */
	uint64_t written;	/* accepted by the buffer */
	uint64_t refused;
};

/* Record @i: written or refused, counted. */
static void write_rec(struct writer *w, uint64_t i)
{
	struct rec r = { .seq = i, .check = i * 0x9e3779b97f4a7c15ull };

	if (ring_buffer_write(buffer, sizeof(r), &r))
		w->refused++;
	else
		w->written++;
}

static void *writer_fn(void *arg)
{
	struct writer *w = arg;

	if (rb_test_pin(cpu_b))
		return NULL;
	for (uint64_t i = 0; w->n ? i < w->n : !__atomic_load_n(&stop, __ATOMIC_RELAXED); i++)
		write_rec(w, i);
	return NULL;
}

static int writer_start(struct writer *w, uint64_t n)
{
	memset(w, 0, sizeof(*w));
	w->n = n;
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	return pthread_create(&w->thread, NULL, writer_fn, w);
}

/* Consume B's events while the writer writes; check each. */
static void test_flush(void)
{
	uint64_t next = 0, got = 0, bad = 0, lost_seen = 0, t_end;
	struct ring_buffer_event *ev;
	unsigned long lost;
	struct writer w;
	int done = 0;

	if (writer_start(&w, FLUSH_EVENTS)) {
		ksft_test_result_fail("flush: no writer thread\n");
		return;
	}
	t_end = rb_test_mono_ns() + 60ull * 1000000000u;
	while (rb_test_mono_ns() < t_end) {
		ev = ring_buffer_consume(buffer, cpu_b, NULL, &lost);
		if (!ev) {
			if (done)
				break;
			done = pthread_tryjoin_np(w.thread, NULL) == 0;
			continue;
		}
		struct rec r;

		/* Payloads are 4-byte aligned. */
		memcpy(&r, ring_buffer_event_data(ev), sizeof(r));
		lost_seen += lost;
		if (ring_buffer_event_length(ev) < sizeof(r) || r.seq < next ||
		    r.check != r.seq * 0x9e3779b97f4a7c15ull)
			bad++;
		else
			next = r.seq + 1;
		got++;
	}
	if (!done)
		pthread_join(w.thread, NULL);
	ksft_print_msg("flush: %llu written, %llu refused (full ring), %llu read, %llu bad\n",
		       (unsigned long long)w.written, (unsigned long long)w.refused,
		       (unsigned long long)got, (unsigned long long)bad);
	ksft_test_result(!bad && got == w.written && w.written + w.refused == FLUSH_EVENTS &&
			 ring_buffer_record_is_on(buffer) && only_on(cpu_a),
			 "a reader on CPU %d takes CPU %d's events as they come, and stays on %d\n",
			 cpu_a, cpu_b, cpu_a);
	(void)lost_seen;
}

struct waiter {
	int ret;
	int on_a;
	int done;		/* atomic */
};

/* Waits for any data on B from where it was started (CPU A). */
static void *seccomp_waiter_fn(void *arg)
{
	struct waiter *wt = arg;

	wt->ret = ring_buffer_wait(buffer, cpu_b, 0, 5000);
	return NULL;
}

static void *waiter_fn(void *arg)
{
	struct waiter *wt = arg;

	if (rb_test_pin(cpu_a)) {
		wt->ret = -1;
	} else {
		wt->ret = ring_buffer_wait(buffer, cpu_b, 0, 5000);
		wt->on_a = only_on(cpu_a);
	}
	__atomic_store_n(&wt->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A reader on A waits for any data on B: the bell, rung from A. */
static void test_bell(void)
{
	struct waiter wt = { 0 };
	struct writer w;
	pthread_t th;
	uint64_t t0;
	int early;

	ring_buffer_reset_cpu(buffer, cpu_b);
	if (pthread_create(&th, NULL, waiter_fn, &wt)) {
		ksft_test_result_fail("bell: no waiter thread\n");
		return;
	}
	usleep(200 * 1000);
	early = __atomic_load_n(&wt.done, __ATOMIC_ACQUIRE);
	t0 = rb_test_mono_ns();
	if (writer_start(&w, 1) == 0)
		pthread_join(w.thread, NULL);
	pthread_join(th, NULL);
	ksft_print_msg("bell: woken %llu us after the event, ret %d\n",
		       (unsigned long long)(rb_test_mono_ns() - t0) / 1000, wt.ret);
	ksft_test_result(!early && wt.ret == 0 && rb_test_mono_ns() - t0 < 2000000000ull && wt.on_a,
			 "a reader on CPU %d waiting for CPU %d sleeps, is woken by one event, "
			 "stays on %d\n", cpu_a, cpu_b, cpu_a);
}

/* Resets of B, from A, while B's writer writes. */
static void test_freeze(void)
{
	int resets = 0, ok = 1;
	struct writer w;

	if (writer_start(&w, 0)) {
		ksft_test_result_fail("freeze: no writer thread\n");
		return;
	}
	usleep(20 * 1000);
	for (; resets < 50; resets++) {
		ring_buffer_reset_cpu(buffer, cpu_b);
		if (!only_on(cpu_a))
			ok = 0;
		usleep(2000);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(w.thread, NULL);
	ring_buffer_reset_cpu(buffer, cpu_b);
	ksft_print_msg("freeze: %d resets while %llu events were written\n", resets,
		       (unsigned long long)w.written);
	ksft_test_result(ok && ring_buffer_entries_cpu(buffer, cpu_b) == 0 &&
			 ring_buffer_record_is_on(buffer) && w.written > 0,
			 "resets of CPU %d from CPU %d while it writes\n", cpu_b, cpu_a);
}

/*
 * Refuse membarrier() and, with @affinity, sched_setaffinity() with EPERM,
 * in every thread of the process.
 */
static int refuse(bool affinity)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_membarrier, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			 affinity ? __NR_sched_setaffinity : 0xffffffffu, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
			    &prog);
}

static int go;		/* atomic: the seccomp writer's turn */

static void *seccomp_writer_fn(void *arg)
{
	struct writer *w = arg;
	int want;

	if (rb_test_pin(cpu_b))
		return NULL;
	__atomic_store_n(&w->refused, 0, __ATOMIC_RELEASE);
	/* Batches of w->n events, each when the main thread says. */
	for (uint64_t i = 0;; ) {
		while (!(want = __atomic_load_n(&go, __ATOMIC_ACQUIRE)))
			usleep(1000);
		if (want < 0)
			return NULL;
		for (int k = 0; k < want; k++, i++)
			write_rec(w, i);
		__atomic_store_n(&go, 0, __ATOMIC_RELEASE);
	}
}

static void seccomp_write(int n)
{
	__atomic_store_n(&go, n, __ATOMIC_RELEASE);
	while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) > 0)
		usleep(1000);
}

/* Consume what B has for a reader; check order; return how many. */
static uint64_t seccomp_drain(uint64_t *next, int *bad)
{
	struct ring_buffer_event *ev;
	uint64_t got = 0;
	struct rec r;

	while ((ev = ring_buffer_consume(buffer, cpu_b, NULL, NULL))) {
		memcpy(&r, ring_buffer_event_data(ev), sizeof(r));
		if (r.seq < *next || r.check != r.seq * 0x9e3779b97f4a7c15ull)
			(*bad)++;
		else
			*next = r.seq + 1;
		got++;
	}
	return got;
}

/*
 * The child of test_seccomp(): 0 when everything held.  @after: the
 * filter (membarrier and sched_setaffinity refused) comes after the
 * buffer; else (membarrier refused) before it.
 */
static int seccomp_child(bool after)
{
	struct waiter wt = { 0 };
	uint64_t next = 0, got, t0, woke_us;
	unsigned long before;
	struct writer w = { 0 };
	pthread_t wth, th;
	int bad = 0, fails = 0;

	if (!after && refuse(false)) {
		printf("# seccomp: %s\n", strerror(errno));
		return 4;
	}
	buffer = ring_buffer_alloc(NR_PAGES * RB_PAGE_DATA_SIZE, 0);
	if (!buffer || pthread_create(&wth, NULL, seccomp_writer_fn, &w))
		return 10;
	usleep(20 * 1000);		/* the writer pinned itself */
	if (after && refuse(true)) {
		printf("# seccomp: %s\n", strerror(errno));
		return 4;
	}
	/* A partial page: flushed, or (no fence) not, and nothing lost. */
	seccomp_write(3);
	got = seccomp_drain(&next, &bad);
	if (got != (after ? 0 : 3) || ring_buffer_entries_cpu(buffer, cpu_b) != 3 - got) {
		printf("# seccomp: %llu read of a partial page, %lu entries left\n",
		       (unsigned long long)got, ring_buffer_entries_cpu(buffer, cpu_b));
		fails++;
	}
	/* Pages that fill are taken, with what came before, in order. */
	seccomp_write(2000);
	got += seccomp_drain(&next, &bad);
	if (bad || got + ring_buffer_entries_cpu(buffer, cpu_b) != w.written ||
	    got < (after ? 2000 - RB_PAGE_DATA_SIZE / 20 : 2003)) {
		printf("# seccomp: %llu read, %d bad, %lu left, %llu written\n",
		       (unsigned long long)got, bad, ring_buffer_entries_cpu(buffer, cpu_b),
		       (unsigned long long)w.written);
		fails++;
	}
	/* A reset: refused without a fence (B keeps what it has), else done. */
	seccomp_write(5);
	before = ring_buffer_entries_cpu(buffer, cpu_b);
	ring_buffer_reset_cpu(buffer, cpu_b);
	if (!before || ring_buffer_entries_cpu(buffer, cpu_b) != (after ? before : 0) ||
	    !ring_buffer_record_is_on(buffer)) {
		printf("# seccomp: a reset left %lu of %lu entries\n",
		       ring_buffer_entries_cpu(buffer, cpu_b), before);
		fails++;
	}
	/* A waiter for any data wakes. */
	seccomp_drain(&next, &bad);
	/* Started from this thread, the waiter may run on CPU A only. */
	wt.ret = -2;
	if (pthread_create(&th, NULL, seccomp_waiter_fn, &wt))
		return 11;
	usleep(200 * 1000);
	t0 = rb_test_mono_ns();
	seccomp_write(1);
	pthread_join(th, NULL);
	woke_us = (rb_test_mono_ns() - t0) / 1000;
	if (wt.ret != 0 || woke_us > 2000000) {
		printf("# seccomp: the waiter returned %d after %llu us\n", wt.ret,
		       (unsigned long long)woke_us);
		fails++;
	}
	printf("# seccomp: waiter woken %llu us after the event\n", (unsigned long long)woke_us);
	__atomic_store_n(&go, -1, __ATOMIC_RELEASE);
	pthread_join(wth, NULL);
	return fails ? 1 : 0;
}

/* Whether glibc registered rseq here: 1, 0, or -1 (cannot tell). */
static int have_rseq(void)
{
#if defined(__GLIBC__) && __has_include(<sys/rseq.h>) && \
	(__GLIBC__ > 2 || __GLIBC_MINOR__ >= 35)
	return __rseq_size != 0;
#else
	return -1;
#endif
}

static void test_seccomp(bool after)
{
	const char *what = after ? "membarrier and sched_setaffinity refused after the buffer "
				   "was made: no fence; pages as they fill, a waiter that "
				   "polls, a reset refused, nothing lost"
				 : "membarrier refused before the buffer was made: locked "
				   "from the start; flush, bell and reset work";
	int status;
	pid_t pid;

#ifndef __x86_64__
	ksft_test_result_skip("%s: restartable sequences are x86-64's only\n", what);
	return;
#endif
	if (have_rseq() != 1) {
		ksft_test_result_skip("%s: no rseq here\n", what);
		return;
	}
	/* Without it every buffer is locked from the start: nothing to refuse. */
	long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (after && (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ))) {
		ksft_test_result_skip("%s: no membarrier for rseq on this kernel\n", what);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int ret = seccomp_child(after);

		fflush(stdout);
		_exit(ret);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		ksft_test_result_fail("%s: no child\n", what);
		return;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4) {
		ksft_test_result_skip("%s: no seccomp filter here\n", what);
		return;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ksft_print_msg("seccomp: the child ended with status 0x%x\n", status);
	ksft_test_result(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s\n", what);
}

#define FORK_EVENTS	100000
#define FORK_PAGES	1024

struct frec {
	uint32_t who;		/* 0 the parent, 1 the child */
	uint32_t pad;
	uint64_t seq;
};

static void *fork_writer_fn(void *arg)
{
	uint32_t who = (uint32_t)(uintptr_t)arg;
	struct frec r = { .who = who };

	if (rb_test_pin(cpu_b))
		return NULL;
	for (uint64_t i = 0; i < FORK_EVENTS; i++) {
		r.seq = i;
		while (ring_buffer_write(buffer, sizeof(r), &r))
			usleep(100);	/* full: the reader catches up */
		/* The child forks in the middle of the parent's writes. */
		if (!who && i == FORK_EVENTS / 4)
			__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* A fork while B's writer writes; parent and child write B, the parent reads. */
static void test_fork(void)
{
	uint64_t next[2] = { 0, 0 }, got[2] = { 0, 0 }, bad = 0, t_end;
	struct ring_buffer_event *ev;
	pthread_t th;
	int status = -1;
	pid_t pid = -1;
	struct frec r;

	buffer = ring_buffer_alloc(FORK_PAGES * RB_PAGE_DATA_SIZE, 0);
	__atomic_store_n(&go, 0, __ATOMIC_RELAXED);
	if (!buffer || pthread_create(&th, NULL, fork_writer_fn, (void *)0)) {
		ksft_test_result_fail("fork: no buffer or writer\n");
		return;
	}
	t_end = rb_test_mono_ns() + 120ull * 1000000000u;
	while (rb_test_mono_ns() < t_end && (got[0] < FORK_EVENTS || got[1] < FORK_EVENTS)) {
		if (pid < 0 && __atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				/* The child writes (from its one thread), and ends as programs do. */
				fork_writer_fn((void *)1);
				exit(0);
			}
			if (pid < 0)
				break;
		}
		ev = ring_buffer_consume(buffer, cpu_b, NULL, NULL);
		if (!ev) {
			ring_buffer_wait(buffer, cpu_b, 0, 10);
			continue;
		}
		memcpy(&r, ring_buffer_event_data(ev), sizeof(r));
		if (r.who > 1 || r.seq != next[r.who]) {
			bad++;
			continue;
		}
		next[r.who]++;
		got[r.who]++;
	}
	pthread_join(th, NULL);
	if (pid > 0)
		waitpid(pid, &status, 0);
	ksft_print_msg("fork: parent's %llu, child's %llu of %d each, %llu out of order\n",
		       (unsigned long long)got[0], (unsigned long long)got[1], FORK_EVENTS,
		       (unsigned long long)bad);
	ksft_test_result(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status) && !bad &&
			 got[0] == FORK_EVENTS && got[1] == FORK_EVENTS &&
			 ring_buffer_record_is_on(buffer),
			 "a fork() while CPU %d's writer writes: parent and child write it, "
			 "every event once, in order\n", cpu_b);
	ring_buffer_free(buffer);
}

int main(int argc, char **argv)
{
	int cpus[2];

	if (argc > 1 && !strcmp(argv[1], "--rseq")) {
		printf("rseq %s\n", have_rseq() < 0 ? "unknown" :
				     have_rseq() ? "registered" : "not registered");
		return 0;
	}
	ksft_print_header();
	if (rb_test_cpus(cpus, 2) < 2)
		ksft_exit_skip("needs two CPUs\n");
	cpu_a = cpus[0];
	cpu_b = cpus[1];
	ksft_set_plan(6);
	if (rb_test_pin(cpu_a))
		ksft_exit_fail_msg("cannot pin to CPU %d\n", cpu_a);
	/* Producer/consumer: what the full ring refuses is counted, not overwritten. */
	buffer = ring_buffer_alloc(NR_PAGES * RB_PAGE_DATA_SIZE, 0);
	if (!buffer)
		ksft_exit_fail_msg("ring_buffer_alloc: %s\n", strerror(errno));
	test_flush();
	test_bell();
	test_freeze();
	ring_buffer_free(buffer);
	test_seccomp(false);
	test_seccomp(true);
	test_fork();
	ksft_finished();
}
