// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The read side probes run in (kernel/tp_rcu.c), from what a program sees:
 * tracepoint_synchronize_unregister() waits for a probe that is running,
 * whichever way its section was entered, and for nothing else; threads
 * that keep firing, that first fire in a signal handler, that exit inside
 * a probe or that come and go do not hold it off; a child forked while
 * another thread is inside a probe can wait for a grace period.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/tracepoint.h>

#include "tp_test.h"

DECLARE_TRACE(rcu_tp,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE(rcu_inner,
	TP_PROTO(int v),
	TP_ARGS(v));

DEFINE_TRACE(rcu_tp);
DEFINE_TRACE(rcu_inner);

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void wait_flag(const int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		sleep_ms(1);
}

/* A probe that stays until released, and says when it entered and left. */
static int in_probe, release, left, inner_calls;

static void blocking_probe(void *data, int v)
{
	(void)data;
	(void)v;
	__atomic_store_n(&in_probe, 1, __ATOMIC_RELEASE);
	wait_flag(&release);
	__atomic_store_n(&left, 1, __ATOMIC_RELEASE);
}

static void inner_probe(void *data, int v)
{
	(void)data;
	(void)v;
	__atomic_add_fetch(&inner_calls, 1, __ATOMIC_RELAXED);
}

static void reset_flags(void)
{
	in_probe = release = left = 0;
}

static void *fire_once(void *arg)
{
	(void)arg;
	trace_rcu_tp_tp(1);
	return NULL;
}

/* The grace period of another thread: whether the probe had left when it returned. */
static int sync_returned, left_at_return;

static void *synchronizer(void *arg)
{
	(void)arg;
	tracepoint_synchronize_unregister();
	left_at_return = __atomic_load_n(&left, __ATOMIC_ACQUIRE);
	__atomic_store_n(&sync_returned, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * With a thread inside blocking_probe (entered by @firer), a grace period
 * started from another thread must not return until the probe has left.
 */
static void check_waits_for(void *(*firer)(void *))
{
	pthread_t f, s;

	reset_flags();
	sync_returned = left_at_return = 0;
	if (register_trace_rcu_tp(blocking_probe, NULL)) {
		tp_fail("register");
		return;
	}
	pthread_create(&f, NULL, firer, NULL);
	wait_flag(&in_probe);
	unregister_trace_rcu_tp(blocking_probe, NULL);
	pthread_create(&s, NULL, synchronizer, NULL);
	sleep_ms(200);
	if (__atomic_load_n(&sync_returned, __ATOMIC_ACQUIRE))
		tp_fail("the grace period returned while a probe was running");
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	pthread_join(s, NULL);
	pthread_join(f, NULL);
	if (!left_at_return)
		tp_fail("the grace period returned before the probe left");
}

static void test_waits_for_probe(void)
{
	check_waits_for(fire_once);
}

/*
 * The library's out-of-line read side (what objects built before the
 * inline one call) around an inline one: the outer section is waited for.
 */
static void *fire_in_outer_section(void *arg)
{
	(void)arg;
	__ustrace_tp_read_lock();
	trace_rcu_inner_tp(1);
	/* Inside the outer section only: as blocking_probe, without a probe. */
	__atomic_store_n(&in_probe, 1, __ATOMIC_RELEASE);
	wait_flag(&release);
	__atomic_store_n(&left, 1, __ATOMIC_RELEASE);
	__ustrace_tp_read_unlock();
	return NULL;
}

static void test_out_of_line_nests(void)
{
	inner_calls = 0;
	register_trace_rcu_inner(inner_probe, NULL);
	check_waits_for(fire_in_outer_section);
	unregister_trace_rcu_inner(inner_probe, NULL);
	tracepoint_synchronize_unregister();
	if (inner_calls != 1)
		tp_fail("the nested tracepoint's probe ran %d times, not once", inner_calls);
}

/* A probe that fires another tracepoint, whose probe blocks. */
static void outer_probe(void *data, int v)
{
	(void)data;
	trace_rcu_tp_tp(v);
}

static void *fire_inner(void *arg)
{
	(void)arg;
	trace_rcu_inner_tp(2);
	return NULL;
}

static void test_nested_probe(void)
{
	register_trace_rcu_inner(outer_probe, NULL);
	check_waits_for(fire_inner);
	unregister_trace_rcu_inner(outer_probe, NULL);
	tracepoint_synchronize_unregister();
}

static int stop_firing;
static long fired;

static void count_probe(void *data, int v)
{
	(void)data;
	(void)v;
}

static void *keep_firing(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_firing, __ATOMIC_RELAXED)) {
		trace_rcu_tp_tp(3);
		__atomic_add_fetch(&fired, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Threads that fire without pause do not hold grace periods off. */
static void test_busy_readers(void)
{
	pthread_t t[2];
	int i;

	stop_firing = 0;
	fired = 0;
	register_trace_rcu_tp(count_probe, NULL);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, keep_firing, NULL);
	while (__atomic_load_n(&fired, __ATOMIC_RELAXED) < 1000)
		sleep_ms(1);
	for (i = 0; i < 200; i++)
		tracepoint_synchronize_unregister();
	__atomic_store_n(&stop_firing, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	unregister_trace_rcu_tp(count_probe, NULL);
	tracepoint_synchronize_unregister();
	ksft_print_msg("200 grace periods while 2 threads fired %ld times\n", fired);
}

/* A thread whose first firing is in a signal handler. */
static int handler_calls, handled;

static void handler_probe(void *data, int v)
{
	(void)data;
	(void)v;
	__atomic_add_fetch(&handler_calls, 1, __ATOMIC_RELAXED);
}

static void on_usr1(int sig)
{
	(void)sig;
	trace_rcu_tp_tp(4);
	__atomic_store_n(&handled, 1, __ATOMIC_RELEASE);
}

static void *wait_for_signal(void *arg)
{
	(void)arg;
	wait_flag(&handled);
	return NULL;
}

static void test_first_firing_in_handler(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pthread_t t;

	handler_calls = handled = 0;
	sigaction(SIGUSR1, &sa, NULL);
	register_trace_rcu_tp(handler_probe, NULL);
	pthread_create(&t, NULL, wait_for_signal, NULL);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	unregister_trace_rcu_tp(handler_probe, NULL);
	tracepoint_synchronize_unregister();
	signal(SIGUSR1, SIG_DFL);
	if (handler_calls != 1)
		tp_fail("the probe ran %d times from the handler, not once", handler_calls);
}

/* A thread that ends inside a probe. */
static void exiting_probe(void *data, int v)
{
	(void)data;
	(void)v;
	pthread_exit(NULL);
}

static void test_exit_in_probe(void)
{
	pthread_t t;

	register_trace_rcu_tp(exiting_probe, NULL);
	pthread_create(&t, NULL, fire_once, NULL);
	pthread_join(t, NULL);
	unregister_trace_rcu_tp(exiting_probe, NULL);
	/* Returns: the thread's section ended with it (the alarm says otherwise). */
	tracepoint_synchronize_unregister();
}

/* Threads that fire once and exit, while grace periods go on. */
static int churn_stop;

static void *grace_periods(void *arg)
{
	long *n = arg;

	while (!__atomic_load_n(&churn_stop, __ATOMIC_RELAXED)) {
		tracepoint_synchronize_unregister();
		(*n)++;
	}
	return NULL;
}

static void test_thread_churn(void)
{
	pthread_t s, t;
	long periods = 0;
	int i;

	churn_stop = 0;
	register_trace_rcu_tp(count_probe, NULL);
	pthread_create(&s, NULL, grace_periods, &periods);
	for (i = 0; i < 2000; i++) {
		if (pthread_create(&t, NULL, fire_once, NULL)) {
			tp_fail("pthread_create: %d", i);
			break;
		}
		pthread_join(t, NULL);
	}
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELAXED);
	pthread_join(s, NULL);
	unregister_trace_rcu_tp(count_probe, NULL);
	tracepoint_synchronize_unregister();
	ksft_print_msg("2000 threads fired once and exited during %ld grace periods\n", periods);
}

/*
 * fork() while another thread is inside a probe: the child (which has
 * only the forking thread) waits for a grace period, registers, fires,
 * unregisters and waits again, then exit()s as programs do.
 */
static int child_seen;

static void child_probe(void *data, int v)
{
	(void)data;
	child_seen = v;
}

static void test_fork_with_reader_inside(void)
{
	pthread_t f;
	int status, i;
	pid_t pid;

	reset_flags();
	register_trace_rcu_tp(blocking_probe, NULL);
	pthread_create(&f, NULL, fire_once, NULL);
	wait_flag(&in_probe);
	pid = fork();
	if (pid == 0) {
		alarm(10);
		unregister_trace_rcu_tp(blocking_probe, NULL);
		/* Before this thread fires: the first grace period sees the table as forked. */
		tracepoint_synchronize_unregister();
		if (register_trace_rcu_inner(child_probe, NULL))
			exit(2);
		trace_rcu_inner_tp(7);
		unregister_trace_rcu_inner(child_probe, NULL);
		tracepoint_synchronize_unregister();
		exit(child_seen == 7 ? 0 : 3);
	}
	for (i = 0; i < 1000 && waitpid(pid, &status, WNOHANG) == 0; i++)
		sleep_ms(10);
	if (i == 1000) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		tp_fail("the child's grace period did not return in 10 s");
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		tp_fail("the child ended with status %#x", status);
	}
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	pthread_join(f, NULL);
	unregister_trace_rcu_tp(blocking_probe, NULL);
	tracepoint_synchronize_unregister();
}

int main(void)
{
	tp_plan(8, 120);
	tp_run("a grace period waits for a probe that is running", test_waits_for_probe);
	tp_run("the out-of-line read side nests with the inline one", test_out_of_line_nests);
	tp_run("a probe that fires a tracepoint is waited for", test_nested_probe);
	tp_run("threads that keep firing do not hold grace periods off", test_busy_readers);
	tp_run("a thread's first firing in a signal handler", test_first_firing_in_handler);
	tp_run("a thread that exits inside a probe does not hold grace periods off",
	       test_exit_in_probe);
	tp_run("threads come and go during grace periods", test_thread_churn);
	tp_run("fork() while a thread is inside a probe: the child's grace period returns",
	       test_fork_with_reader_inside);
	return tp_exit();
}
