// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork-probe.c - fork() from a probe is not supported (fork.rst): a probe
 * that forks while another thread waits in a grace period for that very
 * probe never returns from fork(), since the prepare handler waits for
 * the grace period that waits for the probe.
 *
 * The scenario runs in a child: a probe that, once the other thread is in
 * tracepoint_synchronize_unregister(), calls fork().  The test passes when
 * that fork() has not returned a second later (the child is then killed),
 * and fails when it returns: then fork() from a probe works, and fork.rst
 * must say so.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <linux/tracepoint.h>

#include "kselftest.h"

DECLARE_TRACE(fork_probe_tp, TP_PROTO(int x), TP_ARGS(x));
DEFINE_TRACE(fork_probe_tp);

static int report_fd;
static int in_probe;

static void say(char c)
{
	if (write(report_fd, &c, 1) != 1)
		_exit(3);
}

static void probe(void *data, int x)
{
	pid_t p;

	(void)data;
	(void)x;
	__atomic_store_n(&in_probe, 1, __ATOMIC_RELEASE);
	/* Long enough for the other thread to be waiting for this probe. */
	usleep(500000);
	say('f');		/* about to fork */
	p = fork();
	if (p == 0)
		_exit(0);
	if (p > 0)
		waitpid(p, NULL, 0);
	say('F');		/* fork() returned */
}

static void *grace_period(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&in_probe, __ATOMIC_ACQUIRE))
		usleep(1000);
	tracepoint_synchronize_unregister();
	return NULL;
}

static int child(void)
{
	pthread_t t;

	if (register_trace_fork_probe_tp(probe, NULL) ||
	    pthread_create(&t, NULL, grace_period, NULL))
		return 2;
	trace_fork_probe_tp_tp(1);
	pthread_join(t, NULL);
	return 0;
}

/* The next byte the child reports within @ms, or 0. */
static char next_report(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&pfd, 1, ms) != 1 || read(fd, &c, 1) != 1)
		return 0;
	return c;
}

int main(void)
{
	int fds[2], status;
	char c;
	pid_t pid;

	ksft_print_header();
	ksft_set_plan(1);
	if (pipe(fds))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		report_fd = fds[1];
		_exit(child());
	}
	close(fds[1]);
	c = next_report(fds[0], 60000);
	if (c != 'f') {
		ksft_print_msg("the probe did not get to fork() (%s)\n",
			       c ? "it reported something else" :
			       "no word: it ended, or 60 s passed");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		ksft_test_result_fail("fork() from a probe, a grace period waiting for it\n");
		ksft_finished();
	}
	c = next_report(fds[0], 1000);
	if (c == 'F')
		ksft_print_msg("fork() returned: fork() from a probe works; correct "
			       "Documentation/trace/fork.rst\n");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ksft_test_result(c != 'F', "fork() from a probe, a grace period waiting for it: "
			 "fork() does not return (not supported)\n");
	ksft_finished();
}
