// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork() while other threads register, unregister and fire: the child
 * must find the library's locks free and RCU usable (the threads that held
 * or read them do not exist in the child).  Each child registers a probe,
 * fires, unregisters and waits for a grace period, under a deadline.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/tracepoint.h>

#include "tp_test.h"

DECLARE_TRACE(fork_tp,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE(fork_other,
	TP_PROTO(int v),
	TP_ARGS(v));

DEFINE_TRACE(fork_tp);
DEFINE_TRACE(fork_other);

#define NR_FORKS	40
#define CHILD_DEADLINE	5	/* seconds */

static bool stop;
static long churned, fired;

static void churn_probe(void *data, int v)
{
	(void)data;
	(void)v;
}

/* Attach and detach probes as fast as possible. */
static void *churner(void *arg)
{
	intptr_t id = (intptr_t)arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		register_trace_fork_tp(churn_probe, (void *)id);
		register_trace_fork_other(churn_probe, (void *)id);
		unregister_trace_fork_tp(churn_probe, (void *)id);
		unregister_trace_fork_other(churn_probe, (void *)id);
		__atomic_add_fetch(&churned, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *firer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		trace_fork_tp_tp(1);
		trace_fork_other_tp(2);
		__atomic_add_fetch(&fired, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static int child_seen;

static void child_probe(void *data, int v)
{
	(void)data;
	child_seen = v;
}

/* Exit codes of the child. */
enum { CHILD_OK, CHILD_REGISTER, CHILD_NOT_CALLED, CHILD_UNREGISTER };

static int child_main(void)
{
	int token, ret;

	alarm(CHILD_DEADLINE);
	ret = register_trace_fork_tp(child_probe, &token);
	if (ret)
		return CHILD_REGISTER;
	trace_fork_tp_tp(42);
	if (child_seen != 42)
		return CHILD_NOT_CALLED;
	if (unregister_trace_fork_tp(child_probe, &token))
		return CHILD_UNREGISTER;
	tracepoint_synchronize_unregister();
	/* And a probe on the tracepoint the parent's threads churn. */
	if (register_trace_fork_other(child_probe, &token))
		return CHILD_REGISTER;
	trace_fork_other_tp(43);
	if (child_seen != 43)
		return CHILD_NOT_CALLED;
	if (unregister_trace_fork_other(child_probe, &token))
		return CHILD_UNREGISTER;
	tracepoint_synchronize_unregister();
	return CHILD_OK;
}

/* Wait for @pid up to the deadline (and a margin); kill it after. */
static int wait_child(pid_t pid, int *status)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	int i;

	for (i = 0; i < (CHILD_DEADLINE + 2) * 200; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0)
			return -errno;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return -ETIMEDOUT;
}

static void test_fork_while_busy(void)
{
	pthread_t th[3];
	int i, t, status, bad = 0;

	stop = false;
	EXPECT_EQ(0, pthread_create(&th[0], NULL, churner, (void *)1));
	EXPECT_EQ(0, pthread_create(&th[1], NULL, churner, (void *)2));
	EXPECT_EQ(0, pthread_create(&th[2], NULL, firer, NULL));

	for (i = 0; i < NR_FORKS && bad < 3; i++) {
		pid_t pid;

		usleep(1000);
		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			tp_fail("fork: %s", strerror(errno));
			break;
		}
		if (pid == 0)
			_exit(child_main());
		if (wait_child(pid, &status) == -ETIMEDOUT) {
			tp_fail("child %d: no answer after %d s (deadlock?)",
				i, CHILD_DEADLINE + 2);
			bad++;
		} else if (WIFSIGNALED(status)) {
			tp_fail("child %d: killed by signal %d%s", i,
				WTERMSIG(status), WTERMSIG(status) == SIGALRM ?
				" (deadline: deadlock?)" : "");
			bad++;
		} else if (WEXITSTATUS(status) != CHILD_OK) {
			tp_fail("child %d: exit %d", i, WEXITSTATUS(status));
			bad++;
		}
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	for (t = 0; t < 3; t++)
		pthread_join(th[t], NULL);
	ksft_print_msg("%d forks; meanwhile %ld register/unregister rounds, "
		       "%ld firings\n", i, churned, fired);
	EXPECT_TRUE(churned > 0);
}

static void test_parent_still_works(void)
{
	int token;

	child_seen = 0;
	EXPECT_EQ(0, register_trace_fork_tp(child_probe, &token));
	trace_fork_tp_tp(7);
	EXPECT_EQ(7, child_seen);
	EXPECT_EQ(0, unregister_trace_fork_tp(child_probe, &token));
	tracepoint_synchronize_unregister();
	EXPECT_FALSE(trace_fork_tp_enabled());
	EXPECT_FALSE(trace_fork_other_enabled());
}

int main(void)
{
	tp_plan(2, 60);
	tp_run("fork while threads register, unregister and fire",
	       test_fork_while_busy);
	tp_run("the parent goes on afterwards", test_parent_still_works);
	return tp_exit();
}
