// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program to watch through its own tracefs: it fires the sample events
 * of samples/trace_events/ (system sample_trace) in a loop until it is
 * killed, and serves its tracefs where USTRACE_TRACEFS says:
 *
 *	mkdir /tmp/t
 *	USTRACE_TRACEFS=/tmp/t ./tracefs-sample &
 *	cd /tmp/t
 *	echo 1 > events/sample_trace/enable
 *	cat trace_pipe
 *
 * SIGTERM and SIGINT end it normally (exit status 0).
 *
 * Options:
 *	-p USEC   pause between rounds (default 100000; 0: full speed)
 *	-t N      threads firing (default 1)
 *	-n N      rounds per thread, then exit (default: until a signal)
 *	-m DIR    also mount with ustrace_tracefs_mount(), with
 *	-o OPTS   these options; unmount at the end
 *	-f        after half a second, fork a child that only sleeps (for
 *	          tests: the mount must not outlive the parent)
 *	-x        on SIGUSR1 (30 s at most), exec sleep 60 (for tests: the
 *	          mount must not outlive the exec; the test sends the signal
 *	          once it has seen the mount)
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ustrace/tracefs.h>

#define CREATE_TRACE_POINTS
#include "trace-events-sample.h"

/* The sample header asks for these, for foo_bar_with_fn's register hooks. */
int foo_bar_reg(void)
{
	return 0;
}

void foo_bar_unreg(void)
{
}

static unsigned long pause_us = 100000;
static long rounds = -1;
/* Set by the signal handlers, read by the firing threads and main(). */
static atomic_int stop, go_exec;

static void on_stop(int sig)
{
	(void)sig;
	atomic_store_explicit(&stop, 1, memory_order_relaxed);
}

static void on_usr1(int sig)
{
	(void)sig;
	atomic_store_explicit(&go_exec, 1, memory_order_relaxed);
}

/*
 * One round of make-believe work: a request (foo_bar) with its sizes
 * (foo_array) and payload (foo_hex), then the events of the other kinds;
 * the conditional ones record every 10th and 8th round.  The arguments
 * change with the round, so that lines of the trace differ.
 */
static void work(long round)
{
	static const int sizes[] = { 4, 8, 15, 16, 23, 42 };
	static const unsigned char payload[] = { 0xca, 0xfe, 0xf0, 0x0d };
	unsigned long cpus[64 / (8 * sizeof(long))] = { 1ul << (round % 4) };
	struct sample_pair pair = { (int)round, (int)(round % 7) };
	int n = (int)(round % 1000), len = (int)(round % 6) + 1;

	trace_foo_bar("hello", n, sizes, len, round % 2 ? "odd" : "even", cpus, &pair);
	trace_foo_array(sizes, len);
	trace_foo_hex(payload, len % 4 + 1, round % 3 ? 0x1ull : 0x10000000001ull);
	if (round % 2 == 0) {
		trace_foo_bar_with_cond("cond", n);
		trace_foo_with_template_cond("tcond", n);
	}
	trace_foo_bar_with_fn("fn", n);
	trace_foo_with_template_simple("simple", n);
	trace_foo_with_template_print("print", n);
}

static void *firing(void *arg)
{
	(void)arg;
	for (long i = 0; rounds < 0 || i < rounds; i++) {
		if (atomic_load_explicit(&stop, memory_order_relaxed))
			break;
		work(i);
		if (pause_us)
			usleep(pause_us);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };
	const char *dir = NULL, *opts = NULL;
	pthread_t threads[64];
	int c, nr_threads = 1, err, do_fork = 0, do_exec = 0;

	while ((c = getopt(argc, argv, "p:t:n:m:o:fx")) != -1) {
		switch (c) {
		case 'p':
			pause_us = strtoul(optarg, NULL, 0);
			break;
		case 't':
			nr_threads = atoi(optarg);
			break;
		case 'n':
			rounds = atol(optarg);
			break;
		case 'm':
			dir = optarg;
			break;
		case 'o':
			opts = optarg;
			break;
		case 'f':
			do_fork = 1;
			break;
		case 'x':
			do_exec = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-p usec] [-t threads] [-n rounds] "
				"[-m dir [-o options]] [-f] [-x]\n", argv[0]);
			return 2;
		}
	}
	if (nr_threads < 1 || nr_threads > 64)
		nr_threads = 1;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (do_exec) {
		struct sigaction usr1 = { .sa_handler = on_usr1 };

		sigaction(SIGUSR1, &usr1, NULL);
	}
	if (dir) {
		err = ustrace_tracefs_mount(dir, opts);
		if (err) {
			fprintf(stderr, "ustrace_tracefs_mount(%s): %s\n", dir, strerror(-err));
			return 1;
		}
	}
	if (do_fork)
		usleep(500 * 1000);
	for (int i = 0; do_exec && i < 3000 &&
			!atomic_load_explicit(&go_exec, memory_order_relaxed); i++)
		usleep(10 * 1000);
	if (do_fork && fork() == 0) {
		/* Serves nothing, holds nothing of the parent's mount. */
		for (;;)
			pause();
	}
	if (do_exec) {
		execlp("sleep", "sleep", "60", (char *)NULL);
		perror("exec sleep");
		return 1;
	}
	for (c = 0; c < nr_threads; c++) {
		err = pthread_create(&threads[c], NULL, firing, NULL);
		if (err) {
			fprintf(stderr, "pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (c = 0; c < nr_threads; c++)
		pthread_join(threads[c], NULL);
	if (dir)
		ustrace_tracefs_unmount();
	return 0;
}
