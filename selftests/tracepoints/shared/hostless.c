// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tp-hostless.so: a plugin that defines a tracepoint and fires it from
 * threads of its own, for a program that does not link libustrace and
 * loads the plugin with dlopen() (selftests/tracepoints/hostless.c).
 */
#include <pthread.h>
#include <linux/tracepoint.h>

DECLARE_TRACE(hostless_event,
	TP_PROTO(long v),
	TP_ARGS(v));

DEFINE_TRACE(hostless_event);

static long hostless_sum;

static void hostless_probe(void *data, long v)
{
	(void)data;
	__atomic_add_fetch(&hostless_sum, v, __ATOMIC_RELAXED);
}

static void *hostless_fire(void *arg)
{
	long n = *(long *)arg;

	for (long i = 0; i < n; i++)
		trace_hostless_event_tp(1);
	return NULL;
}

/*
 * Attach a probe, fire @per_thread times from each of @nr_threads new
 * threads (at most 8), detach and wait for a grace period.
 *
 * Return: what the probe counted, or -errno.
 */
__attribute__((__visibility__("default")))
long hostless_run(int nr_threads, long per_thread)
{
	pthread_t t[8];
	int i, err;

	if (nr_threads > 8)
		nr_threads = 8;
	hostless_sum = 0;
	err = register_trace_hostless_event(hostless_probe, NULL);
	if (err)
		return err;
	for (i = 0; i < nr_threads; i++)
		pthread_create(&t[i], NULL, hostless_fire, &per_thread);
	for (i = 0; i < nr_threads; i++)
		pthread_join(t[i], NULL);
	unregister_trace_hostless_event(hostless_probe, NULL);
	tracepoint_synchronize_unregister();
	return __atomic_load_n(&hostless_sum, __ATOMIC_RELAXED);
}

/* The same on the calling thread (which keeps its reader record). */
__attribute__((__visibility__("default")))
long hostless_run_here(long n)
{
	int err;

	hostless_sum = 0;
	err = register_trace_hostless_event(hostless_probe, NULL);
	if (err)
		return err;
	hostless_fire(&n);
	unregister_trace_hostless_event(hostless_probe, NULL);
	tracepoint_synchronize_unregister();
	return __atomic_load_n(&hostless_sum, __ATOMIC_RELAXED);
}
