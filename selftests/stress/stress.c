// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stress: probes come and go while threads fire.
 *
 * Firing threads (plain pthreads that never register with anything; the
 * library gives them a reader record on first use) fire three tracepoints
 * in a loop: st_a(v), st_b(v, ~v) and st_c(v) (TP_CONDITION: v odd), and
 * some st_a probes fire st_c from inside the probe, and some st_b probes
 * attach and detach a probe of their own (whose old arrays the library
 * must defer).  Registrar threads
 * attach probes with random priorities, each with a data object of its
 * own, let them live a little, detach them and call
 * tracepoint_synchronize_unregister().  Only then is the object marked dead
 * (poisoned) and, later, freed:
 *
 *	alloc -> ALIVE -> register ... unregister -> synchronize -> DEAD -> free
 *	                   \______ probe may run ______/
 *
 * A probe that runs on a DEAD object, or on a freed one (ASan), means a
 * probe outlived tracepoint_synchronize_unregister().  Dead objects wait in
 * a graveyard before free() so that the poison check works without ASan
 * too.  A synchronizer thread calls tracepoint_synchronize_unregister() in
 * a loop on top.
 *
 * The run lasts USTRACE_STRESS_SECS seconds (default 3; 1 under TSan or
 * valgrind; STRESS_DEFAULT_SECS when stress-long.c sets it) and frees
 * everything it allocated (ASan detect_leaks=1).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/tracepoint.h>
#include "kselftest.h"

DECLARE_TRACE(st_a, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(st_b, TP_PROTO(int v, long w), TP_ARGS(v, w));
DECLARE_TRACE_CONDITION(st_c, TP_PROTO(int v), TP_ARGS(v),
			TP_CONDITION(v & 1));
DEFINE_TRACE(st_a);
DEFINE_TRACE(st_b);
DEFINE_TRACE(st_c);

#if defined(__SANITIZE_THREAD__)
# define UNDER_TSAN 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define UNDER_TSAN 1
# endif
#endif

#define NR_FIRERS	3
#define NR_REGISTRARS	3
#define GRAVEYARD	256
#define LIVE_MAX	4	/* probes a registrar holds at once */

#define ALIVE_MAGIC	0xa11fe0a11fe0a11fUL
#define DEAD_MAGIC	0xdeaddeaddeaddeadUL

enum { TP_A, TP_B, TP_C, NR_TPS };

struct alive {
	unsigned long magic;
	int tp;
	int prio;
	unsigned long hits;		/* atomic */
};

/* Failures seen by probes; atomic. */
static unsigned long dead_calls, wrong_tp, bad_args;
static unsigned long dead_magic_seen;
/* Totals; atomic. */
static unsigned long tp_hits[NR_TPS], nested_fires, nested_regs;
static unsigned long nested_errors, inner_hits;
static int first_nested_error;
static unsigned long reg_calls, reg_errors, unreg_errors, syncs;
static int first_reg_error, first_unreg_error;
static int stop_firing, stop_registering;

static void note_error(unsigned long *count, int *first, int err)
{
	if (!__atomic_fetch_add(count, 1, __ATOMIC_RELAXED))
		__atomic_store_n(first, err, __ATOMIC_RELAXED);
}

static void check_object(struct alive *o, int tp)
{
	unsigned long magic = o->magic;

	if (magic != ALIVE_MAGIC) {
		if (!__atomic_fetch_add(&dead_calls, 1, __ATOMIC_RELAXED))
			__atomic_store_n(&dead_magic_seen, magic,
					 __ATOMIC_RELAXED);
		return;
	}
	if (o->tp != tp)
		__atomic_add_fetch(&wrong_tp, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&o->hits, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tp_hits[tp], 1, __ATOMIC_RELAXED);
}

static void probe_a(void *data, int v)
{
	check_object(data, TP_A);
	if (v % 64 == 0) {
		/* Nesting: a probe fires another tracepoint. */
		trace_st_c_tp(v | 1);
		__atomic_add_fetch(&nested_fires, 1, __ATOMIC_RELAXED);
	}
}

/*
 * Attached and detached from inside probe_b, in the firing thread: the
 * library cannot wait for a grace period there and defers the old arrays.
 * Each firing thread uses its own data object, which lives as long as the
 * program.
 */
static struct alive inner_objs[NR_FIRERS];
static __thread int firer_index = -1;

static void probe_inner(void *data, int v)
{
	struct alive *o = data;

	(void)v;
	if (o->magic != ALIVE_MAGIC || o < inner_objs ||
	    o >= inner_objs + NR_FIRERS)
		__atomic_add_fetch(&wrong_tp, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&inner_hits, 1, __ATOMIC_RELAXED);
}

static void register_from_probe(void)
{
	struct alive *o = &inner_objs[firer_index];
	int ret;

	ret = register_trace_st_a(probe_inner, o);
	if (!ret) {
		trace_st_a_tp(1);
		ret = unregister_trace_st_a(probe_inner, o);
	}
	if (ret)
		note_error(&nested_errors, &first_nested_error, ret);
	__atomic_add_fetch(&nested_regs, 1, __ATOMIC_RELAXED);
}

static void probe_b(void *data, int v, long w)
{
	check_object(data, TP_B);
	if (w != ~(long)v)
		__atomic_add_fetch(&bad_args, 1, __ATOMIC_RELAXED);
	if (v % 4096 == 0 && firer_index >= 0)
		register_from_probe();
}

static void probe_c(void *data, int v)
{
	check_object(data, TP_C);
	if (!(v & 1))
		__atomic_add_fetch(&bad_args, 1, __ATOMIC_RELAXED);
}

static int do_register(struct alive *o)
{
	switch (o->tp) {
	case TP_A:
		return register_trace_prio_st_a(probe_a, o, o->prio);
	case TP_B:
		return register_trace_prio_st_b(probe_b, o, o->prio);
	default:
		return register_trace_prio_st_c(probe_c, o, o->prio);
	}
}

static int do_unregister(struct alive *o)
{
	switch (o->tp) {
	case TP_A:
		return unregister_trace_st_a(probe_a, o);
	case TP_B:
		return unregister_trace_st_b(probe_b, o);
	default:
		return unregister_trace_st_c(probe_c, o);
	}
}

/* ---- firing ------------------------------------------------------------ */

struct firer {
	pthread_t thread;
	unsigned long rounds;
};

static struct firer firers[NR_FIRERS];

static void *firer_fn(void *arg)
{
	struct firer *f = arg;
	int v = 0;

	firer_index = f - firers;

	while (!__atomic_load_n(&stop_firing, __ATOMIC_RELAXED)) {
		trace_st_a_tp(v);
		trace_st_b_tp(v, ~(long)v);
		trace_st_c_tp(v);
		v++;
		f->rounds++;
	}
	return NULL;
}

/* ---- registering --------------------------------------------------------- */

struct registrar {
	pthread_t thread;
	unsigned int seed;
	struct alive *live[LIVE_MAX];
	int nr_live;
	struct alive *grave[GRAVEYARD];
	int grave_next;
	unsigned long objects;
};

static void bury(struct registrar *r, struct alive *o)
{
	/* Only now, after the grace period, may the object die. */
	o->magic = DEAD_MAGIC;
	free(r->grave[r->grave_next]);
	r->grave[r->grave_next] = o;
	r->grave_next = (r->grave_next + 1) % GRAVEYARD;
}

/* Detach @n live probes (the oldest), wait, then kill their objects. */
static void retire(struct registrar *r, int n)
{
	struct alive *gone[LIVE_MAX];
	int i, ret;

	for (i = 0; i < n; i++) {
		gone[i] = r->live[i];
		ret = do_unregister(gone[i]);
		if (ret)
			note_error(&unreg_errors, &first_unreg_error, ret);
	}
	memmove(r->live, r->live + n, (r->nr_live - n) * sizeof(r->live[0]));
	r->nr_live -= n;
	tracepoint_synchronize_unregister();
	for (i = 0; i < n; i++)
		bury(r, gone[i]);
}

static void *registrar_fn(void *arg)
{
	struct registrar *r = arg;

	while (!__atomic_load_n(&stop_registering, __ATOMIC_RELAXED)) {
		struct alive *o;
		int ret;

		if (r->nr_live == LIVE_MAX ||
		    (r->nr_live && rand_r(&r->seed) % 2))
			retire(r, 1 + rand_r(&r->seed) % r->nr_live);
		o = calloc(1, sizeof(*o));
		if (!o)
			continue;
		o->magic = ALIVE_MAGIC;
		o->tp = rand_r(&r->seed) % NR_TPS;
		o->prio = rand_r(&r->seed) % 21;
		ret = do_register(o);
		__atomic_add_fetch(&reg_calls, 1, __ATOMIC_RELAXED);
		if (ret) {
			note_error(&reg_errors, &first_reg_error, ret);
			free(o);
			continue;
		}
		r->live[r->nr_live++] = o;
		r->objects++;
		if (rand_r(&r->seed) % 4 == 0)
			sched_yield();
	}
	if (r->nr_live)
		retire(r, r->nr_live);
	return NULL;
}

static void *synchronizer_fn(void *arg)
{
	struct timespec pause = { 0, 100 * 1000 };

	(void)arg;
	while (!__atomic_load_n(&stop_registering, __ATOMIC_RELAXED)) {
		tracepoint_synchronize_unregister();
		__atomic_add_fetch(&syncs, 1, __ATOMIC_RELAXED);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/* ---- the run ------------------------------------------------------------- */

static struct registrar registrars[NR_REGISTRARS];
static double run_secs;

static __attribute__((__unused__)) bool under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload");
}

static double duration(void)
{
	const char *env = getenv("USTRACE_STRESS_SECS");

	if (env && atof(env) > 0)
		return atof(env);
#if defined(STRESS_DEFAULT_SECS)
	return STRESS_DEFAULT_SECS;
#elif defined(UNDER_TSAN)
	return 1;
#else
	return under_valgrind() ? 1 : 3;
#endif
}

static void run(void)
{
	struct timespec ts;
	pthread_t sync_thread;
	double secs = duration();
	int i, j;

	for (i = 0; i < NR_FIRERS; i++)
		inner_objs[i].magic = ALIVE_MAGIC;
	ksft_print_msg("%d firing threads, %d registrars, 1 synchronizer, "
		       "%.1f s\n", NR_FIRERS, NR_REGISTRARS, secs);
	for (i = 0; i < NR_FIRERS; i++)
		if (pthread_create(&firers[i].thread, NULL, firer_fn, &firers[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	for (i = 0; i < NR_REGISTRARS; i++) {
		registrars[i].seed = 1234 + i;
		if (pthread_create(&registrars[i].thread, NULL, registrar_fn,
				   &registrars[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	}
	if (pthread_create(&sync_thread, NULL, synchronizer_fn, NULL))
		ksft_exit_fail_msg("pthread_create failed\n");

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	run_secs = secs;

	/* Registrars detach everything they hold, then the firing stops. */
	__atomic_store_n(&stop_registering, 1, __ATOMIC_RELAXED);
	for (i = 0; i < NR_REGISTRARS; i++)
		pthread_join(registrars[i].thread, NULL);
	pthread_join(sync_thread, NULL);
	__atomic_store_n(&stop_firing, 1, __ATOMIC_RELAXED);
	for (i = 0; i < NR_FIRERS; i++)
		pthread_join(firers[i].thread, NULL);
	tracepoint_synchronize_unregister();

	for (i = 0; i < NR_REGISTRARS; i++) {
		ksft_print_msg("registrar %d: %lu probe objects\n", i,
			       registrars[i].objects);
		for (j = 0; j < GRAVEYARD; j++)
			free(registrars[i].grave[j]);
	}
	for (i = 0; i < NR_FIRERS; i++)
		ksft_print_msg("firing thread %d: %lu rounds\n", i,
			       firers[i].rounds);
	ksft_print_msg("probe calls: st_a %lu, st_b %lu, st_c %lu (%lu fired "
		       "from a probe); %lu registrations, %lu extra "
		       "synchronizations\n", tp_hits[TP_A], tp_hits[TP_B],
		       tp_hits[TP_C], nested_fires, reg_calls, syncs);
	ksft_print_msg("%lu probes attached and detached from a probe, "
		       "%lu calls of them\n", nested_regs, inner_hits);
}

static void test_no_probe_on_dead_object(void)
{
	run();
	if (dead_calls)
		ksft_print_msg("a probe saw magic %#lx\n", dead_magic_seen);
	EXPECT_EQ(0, dead_calls);
}

static void test_register_unregister_succeed(void)
{
	EXPECT_GT(reg_calls, 0);
	EXPECT_EQ(0, reg_errors);
	EXPECT_EQ(0, first_reg_error);
	EXPECT_EQ(0, unreg_errors);
	EXPECT_EQ(0, first_unreg_error);
}

static void test_probes_get_their_own_data(void)
{
	EXPECT_EQ(0, wrong_tp);
	EXPECT_EQ(0, bad_args);
}

static void test_every_tracepoint_probed(void)
{
	int i;

	for (i = 0; i < NR_TPS; i++)
		EXPECT_GT(tp_hits[i], 0);
	EXPECT_GT(nested_fires, 0);
}

/* register/unregister from inside a probe: old arrays freed later. */
static void test_register_from_probe(void)
{
	EXPECT_GT(nested_regs, 0);
	EXPECT_EQ(0, nested_errors);
	EXPECT_EQ(0, first_nested_error);
	EXPECT_GE(inner_hits, nested_regs);
}

static void test_unregistered_threads_fire(void)
{
	int i;

	for (i = 0; i < NR_FIRERS; i++)
		EXPECT_GT(firers[i].rounds, 0);
}

static void test_all_detached(void)
{
	EXPECT_EQ(0, static_key_count(&__tracepoint_st_a.key));
	EXPECT_EQ(0, static_key_count(&__tracepoint_st_b.key));
	EXPECT_EQ(0, static_key_count(&__tracepoint_st_c.key));
	EXPECT_EQ(NULL, __tracepoint_st_a.funcs);
	EXPECT_EQ(NULL, __tracepoint_st_b.funcs);
	EXPECT_EQ(NULL, __tracepoint_st_c.funcs);
	EXPECT_FALSE(trace_st_a_enabled());
	EXPECT_FALSE(trace_st_b_enabled());
	EXPECT_FALSE(trace_st_c_enabled());
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(7);
	alarm(120);
	KSFT_RUN(test_no_probe_on_dead_object);
	KSFT_RUN(test_register_unregister_succeed);
	KSFT_RUN(test_probes_get_their_own_data);
	KSFT_RUN(test_every_tracepoint_probed);
	KSFT_RUN(test_register_from_probe);
	KSFT_RUN(test_unregistered_threads_fire);
	KSFT_RUN(test_all_detached);
	ksft_finished();
}
