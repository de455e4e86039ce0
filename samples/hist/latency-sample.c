// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A server with a known latency distribution, to measure it from its own
 * tracefs with inter-event hist triggers (latency.sh shows how; the
 * histogram page of Documentation/trace/ explains it):
 *
 *	USTRACE_TRACEFS=/tmp/t ./latency-sample &
 *	cd /tmp/t
 *	echo 'req_latency u64 lat; int id; char path[]' > synthetic_events
 *	echo 'hist:keys=id:ts0=common_timestamp.usecs:p=path' \
 *		> events/latency_sample/req_start/trigger
 *	echo 'hist:keys=id:lat=common_timestamp.usecs-$ts0:'\
 *	     'onmatch(latency_sample.req_start).req_latency($lat,id,$p)' \
 *		> events/latency_sample/req_end/trigger
 *	echo 'hist:keys=lat.buckets=4000:sort=lat' \
 *		> events/synthetic/req_latency/trigger
 *	kill -USR1 %1
 *	cat events/synthetic/req_latency/hist
 *
 * Each batch serves BATCH requests, one after the other, each taking the
 * time of its place in delays_ms[]: four of 2 ms, three of 6, two of 10 and
 * one of 22 (the slowest, /slow): in the middle of 4 ms buckets.  On a
 * busy machine a thread woken from its sleep may wait for a CPU for
 * milliseconds: run it with a real-time priority (chrt -f 10) for the
 * latencies to be the delays.  A batch is served at start (-b N) and
 * at each SIGUSR1; "batch done" on stdout says it is over.  SIGTERM and
 * SIGINT end the program (exit status 0).
 *
 * Options:
 *	-b N   serve N batches at once, before waiting for signals
 *	-x     exit after the batches of -b
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "latency-sample.h"

#define BATCH	10

static const unsigned int delays_ms[BATCH] = { 2, 2, 2, 2, 6, 6, 6, 10, 10, 22 };
static const char *const paths[BATCH] = {
	"/index.html", "/style.css", "/logo.png", "/favicon.ico",
	"/search?q=a", "/search?q=b", "/search?q=c",
	"/report/daily", "/report/weekly", "/slow",
};

/* Set by the signal handlers, read by main(). */
static volatile sig_atomic_t batches, stop;

static void on_usr1(int sig)
{
	(void)sig;
	batches++;
}

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* The request's work: its delay (signals wait for the batch's end). */
static void work(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void serve_batch(int *next_id)
{
	for (unsigned int i = 0; i < BATCH && !stop; i++) {
		int id = ++*next_id;

		trace_req_start(id, paths[i]);
		work(delays_ms[i]);
		trace_req_end(id, i == BATCH - 1 ? 504 : 200);
	}
	printf("batch done\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct sigaction usr1 = { .sa_handler = on_usr1 }, term = { .sa_handler = on_stop };
	int c, at_start = 0, exit_after = 0, next_id = 0;
	sigset_t block, none;

	while ((c = getopt(argc, argv, "b:x")) != -1) {
		switch (c) {
		case 'b':
			at_start = atoi(optarg);
			break;
		case 'x':
			exit_after = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-b batches] [-x]\n", argv[0]);
			return 2;
		}
	}
	sigaction(SIGUSR1, &usr1, NULL);
	sigaction(SIGTERM, &term, NULL);
	sigaction(SIGINT, &term, NULL);
	/* Delivered in sigsuspend() only: none is missed between test and wait. */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &none);
	for (int i = 0; i < at_start && !stop; i++)
		serve_batch(&next_id);
	while (!exit_after && !stop) {
		if (batches) {
			batches--;
			serve_batch(&next_id);
			continue;
		}
		sigsuspend(&none);
	}
	return 0;
}
