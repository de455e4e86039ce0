// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The registration API of the tracepoint core: what probes see, in which
 * order they run, every error code, the enabled test, regfunc/unregfunc,
 * TP_CONDITION, probes that fire or register from inside a probe, and the
 * registry of definitions.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <linux/tracepoint.h>

#include "tp_test.h"

struct task_struct {
	int id;
};

DECLARE_TRACE(api_args,
	TP_PROTO(int i, long l, const char *s, struct task_struct *t,
		 unsigned long long u),
	TP_ARGS(i, l, s, t, u));

DECLARE_TRACE(api_order,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE(api_fn,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE_CONDITION(api_cond,
	TP_PROTO(int v),
	TP_ARGS(v),
	TP_CONDITION(v > 10));

DECLARE_TRACE(api_outer,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE(api_inner,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE(api_selfreg,
	TP_PROTO(int v),
	TP_ARGS(v));

static int regfunc_calls, unregfunc_calls, regfunc_error;

static int api_regfunc(void)
{
	regfunc_calls++;
	return regfunc_error;
}

static void api_unregfunc(void)
{
	unregfunc_calls++;
}

DEFINE_TRACE(api_args);
DEFINE_TRACE(api_order);
DEFINE_TRACE_FN(api_fn, api_regfunc, api_unregfunc);
DEFINE_TRACE(api_cond);
DEFINE_TRACE(api_outer);
DEFINE_TRACE(api_inner);
DEFINE_TRACE(api_selfreg);

/* ---- a call log: probes append a number ---------------------------- */

#define LOG_MAX 64
static int call_log[LOG_MAX];
static int call_n;

static void log_reset(void)
{
	call_n = 0;
}

static void log_add(int v)
{
	if (call_n < LOG_MAX)
		call_log[call_n++] = v;
}

/* Appends the number its data pointer encodes. */
static void probe_log(void *data, int v)
{
	(void)v;
	log_add((int)(intptr_t)data);
}

/* A second function, to tell two probes with the same data apart. */
static void probe_log_plus100(void *data, int v)
{
	(void)v;
	log_add(100 + (int)(intptr_t)data);
}

/* Appends the value fired. */
static void probe_value(void *data, int v)
{
	(void)data;
	log_add(v);
}

#define D(n)	((void *)(intptr_t)(n))

/* ---- exact arguments ----------------------------------------------- */

struct args_seen {
	int calls;
	void *data;
	int i;
	long l;
	const char *s;
	struct task_struct *t;
	unsigned long long u;
};

static void probe_args(void *data, int i, long l, const char *s,
		       struct task_struct *t, unsigned long long u)
{
	struct args_seen *a = data;

	a->calls++;
	a->data = data;
	a->i = i;
	a->l = l;
	a->s = s;
	a->t = t;
	a->u = u;
}

static void test_exact_args(void)
{
	struct args_seen seen = { 0 };
	struct task_struct task = { 7 };
	static const char str[] = "hello";

	/* Fired with no probe: nothing happens. */
	trace_api_args_tp(1, 2, str, &task, 3);
	EXPECT_EQ(0, seen.calls);

	EXPECT_EQ(0, register_trace_api_args(probe_args, &seen));
	trace_api_args_tp(-5, -1234567890123L, str, &task,
			  0xfedcba9876543210ULL);
	EXPECT_EQ(1, seen.calls);
	EXPECT_EQ(&seen, seen.data);
	EXPECT_EQ(-5, seen.i);
	EXPECT_EQ(-1234567890123L, seen.l);
	EXPECT_EQ(str, seen.s);
	EXPECT_EQ(&task, seen.t);
	EXPECT_EQ(0xfedcba9876543210ULL, seen.u);

	trace_api_args_tp(0, 0, NULL, NULL, 0);
	EXPECT_EQ(2, seen.calls);
	EXPECT_EQ(NULL, seen.s);
	EXPECT_EQ(NULL, seen.t);

	EXPECT_EQ(0, unregister_trace_api_args(probe_args, &seen));
	tracepoint_synchronize_unregister();
	trace_api_args_tp(9, 9, str, &task, 9);
	EXPECT_EQ(2, seen.calls);
}

/* ---- several probes, priorities ------------------------------------ */

static void test_several_probes(void)
{
	static const int want[] = { 1, 101, 2 };

	log_reset();
	EXPECT_EQ(0, register_trace_api_order(probe_log, D(1)));
	EXPECT_EQ(0, register_trace_api_order(probe_log_plus100, D(1)));
	EXPECT_EQ(0, register_trace_api_order(probe_log, D(2)));
	trace_api_order_tp(0);
	EXPECT_SEQ(want, 3, call_log, call_n);

	EXPECT_EQ(0, unregister_trace_api_order(probe_log, D(1)));
	EXPECT_EQ(0, unregister_trace_api_order(probe_log_plus100, D(1)));
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, D(2)));
	log_reset();
	trace_api_order_tp(0);
	EXPECT_EQ(0, call_n);
}

static void test_priority_order(void)
{
	/* (data, prio) in registration order; -1 means register_trace_x(). */
	static const int reg[][2] = {
		{ 1, 10 }, { 2, 20 }, { 3, -1 }, { 4, 5 }, { 5, 20 },
		{ 6, 10 }, { 7, 30 }, { 8, -50 }, { 9, 5 },
	};
	/* Higher first; equal priorities in registration order. */
	static const int want[] = { 7, 2, 5, 1, 3, 6, 4, 9, 8 };
	static const int want_after[] = { 7, 5, 1, 6, 4, 9, 8, 10 };
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(reg) / sizeof(reg[0]); i++) {
		if (reg[i][1] == -1)
			ret = register_trace_api_order(probe_log, D(reg[i][0]));
		else
			ret = register_trace_prio_api_order(probe_log,
							    D(reg[i][0]),
							    reg[i][1]);
		EXPECT_EQ(0, ret);
	}
	log_reset();
	trace_api_order_tp(0);
	EXPECT_SEQ(want, 9, call_log, call_n);

	/*
	 * Removing probes keeps the others in order; a new probe at the
	 * lowest priority lands last.
	 */
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, D(2)));
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, D(3)));
	EXPECT_EQ(0, register_trace_prio_api_order(probe_log, D(10), -50));
	log_reset();
	trace_api_order_tp(0);
	EXPECT_SEQ(want_after, 8, call_log, call_n);

	for (i = 0; i < sizeof(want_after) / sizeof(want_after[0]); i++) {
		void *data = D(want_after[i]);

		EXPECT_EQ(0, unregister_trace_api_order(probe_log, data));
	}
	EXPECT_FALSE(trace_api_order_enabled());
	EXPECT_EQ(NULL, __tracepoint_api_order.funcs);
}

/* ---- error codes ---------------------------------------------------- */

static void test_eexist(void)
{
	int a, b;

	log_reset();
	EXPECT_EQ(0, register_trace_api_order(probe_log, &a));
	EXPECT_EQ(-EEXIST, register_trace_api_order(probe_log, &a));
	/* A different priority does not make it a different probe. */
	EXPECT_EQ(-EEXIST, register_trace_prio_api_order(probe_log, &a, 99));
	EXPECT_EQ(-EEXIST, tracepoint_probe_register(&__tracepoint_api_order,
						     (void *)probe_log, &a));
	/* The same function with another data pointer is another probe. */
	EXPECT_EQ(0, register_trace_api_order(probe_log, &b));
	EXPECT_EQ(0, register_trace_api_order(probe_log, NULL));
	EXPECT_EQ(-EEXIST, register_trace_api_order(probe_log, NULL));

	/* The failed attempts attached nothing: three calls per firing. */
	trace_api_order_tp(0);
	EXPECT_EQ(3, call_n);

	EXPECT_EQ(0, unregister_trace_api_order(probe_log, &a));
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, &b));
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, NULL));
	EXPECT_FALSE(trace_api_order_enabled());
}

static void test_enoent(void)
{
	int a, b;

	/* Nothing attached at all. */
	EXPECT_EQ(-ENOENT, unregister_trace_api_order(probe_log, &a));

	EXPECT_EQ(0, register_trace_api_order(probe_log, &a));
	/* Right function, wrong data; right data, wrong function. */
	EXPECT_EQ(-ENOENT, unregister_trace_api_order(probe_log, &b));
	EXPECT_EQ(-ENOENT, unregister_trace_api_order(probe_log_plus100, &a));
	EXPECT_EQ(-ENOENT, unregister_trace_api_order(probe_log, NULL));
	/* Right pair, wrong tracepoint. */
	EXPECT_EQ(-ENOENT, unregister_trace_api_inner(probe_log, &a));
	EXPECT_TRUE(trace_api_order_enabled());

	EXPECT_EQ(0, unregister_trace_api_order(probe_log, &a));
	/* Twice. */
	EXPECT_EQ(-ENOENT, unregister_trace_api_order(probe_log, &a));
	EXPECT_FALSE(trace_api_order_enabled());
}

static void test_einval(void)
{
	struct tracepoint *tp = &__tracepoint_api_order;
	void *probe = (void *)probe_log;
	int a;

	EXPECT_EQ(-EINVAL, tracepoint_probe_register(tp, NULL, NULL));
	EXPECT_EQ(-EINVAL, tracepoint_probe_register(tp, NULL, &a));
	EXPECT_EQ(-EINVAL, tracepoint_probe_register_prio(tp, NULL, NULL, 10));
	EXPECT_EQ(-EINVAL, tracepoint_probe_unregister(tp, NULL, NULL));
	EXPECT_EQ(-EINVAL, tracepoint_probe_register(NULL, probe, NULL));
	EXPECT_EQ(-EINVAL, tracepoint_probe_register_prio(NULL, probe, NULL,
							  10));
	EXPECT_EQ(-EINVAL, tracepoint_probe_unregister(NULL, probe, NULL));
	EXPECT_FALSE(trace_api_order_enabled());
	EXPECT_EQ(NULL, __tracepoint_api_order.funcs);
}

/* ---- trace_<name>_enabled() ---------------------------------------- */

static void test_enabled(void)
{
	int a, b;

	EXPECT_FALSE(trace_api_order_enabled());
	EXPECT_EQ(0, register_trace_api_order(probe_log, &a));
	EXPECT_TRUE(trace_api_order_enabled());
	/* Another tracepoint is not affected. */
	EXPECT_FALSE(trace_api_inner_enabled());
	EXPECT_EQ(0, register_trace_api_order(probe_log, &b));
	EXPECT_TRUE(trace_api_order_enabled());
	EXPECT_EQ(1, static_key_count(&__tracepoint_api_order.key));
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, &a));
	EXPECT_TRUE(trace_api_order_enabled());
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, &b));
	EXPECT_FALSE(trace_api_order_enabled());
	EXPECT_EQ(0, static_key_count(&__tracepoint_api_order.key));

	/* And again: the key goes back on. */
	EXPECT_EQ(0, register_trace_api_order(probe_log, &a));
	EXPECT_TRUE(trace_api_order_enabled());
	EXPECT_EQ(0, unregister_trace_api_order(probe_log, &a));
	EXPECT_FALSE(trace_api_order_enabled());
}

/* ---- regfunc / unregfunc -------------------------------------------- */

static void test_regfunc(void)
{
	int a, b;

	regfunc_calls = unregfunc_calls = regfunc_error = 0;
	log_reset();

	EXPECT_EQ(0, register_trace_api_fn(probe_value, &a));
	EXPECT_EQ(1, regfunc_calls);
	EXPECT_EQ(0, unregfunc_calls);
	EXPECT_EQ(0, register_trace_api_fn(probe_value, &b));
	EXPECT_EQ(1, regfunc_calls);
	/* A duplicate does not call it either. */
	EXPECT_EQ(-EEXIST, register_trace_api_fn(probe_value, &b));
	EXPECT_EQ(1, regfunc_calls);

	EXPECT_EQ(0, unregister_trace_api_fn(probe_value, &a));
	EXPECT_EQ(0, unregfunc_calls);
	EXPECT_EQ(-ENOENT, unregister_trace_api_fn(probe_value, &a));
	EXPECT_EQ(0, unregfunc_calls);
	EXPECT_EQ(0, unregister_trace_api_fn(probe_value, &b));
	EXPECT_EQ(1, unregfunc_calls);
	EXPECT_EQ(1, regfunc_calls);

	/* A second cycle calls both again. */
	EXPECT_EQ(0, register_trace_api_fn(probe_value, &a));
	EXPECT_EQ(2, regfunc_calls);
	EXPECT_EQ(0, unregister_trace_api_fn(probe_value, &a));
	EXPECT_EQ(2, unregfunc_calls);
}

static void test_regfunc_fails(void)
{
	int a;

	regfunc_calls = unregfunc_calls = 0;
	regfunc_error = -EBUSY;
	log_reset();

	EXPECT_EQ(-EBUSY, register_trace_api_fn(probe_value, &a));
	EXPECT_EQ(1, regfunc_calls);
	EXPECT_FALSE(trace_api_fn_enabled());
	EXPECT_EQ(NULL, __tracepoint_api_fn.funcs);
	trace_api_fn_tp(5);
	EXPECT_EQ(0, call_n);
	/* Nothing was attached, so there is nothing to detach. */
	EXPECT_EQ(-ENOENT, unregister_trace_api_fn(probe_value, &a));
	EXPECT_EQ(0, unregfunc_calls);

	regfunc_error = 0;
	EXPECT_EQ(0, register_trace_api_fn(probe_value, &a));
	EXPECT_EQ(2, regfunc_calls);
	trace_api_fn_tp(6);
	EXPECT_EQ(1, call_n);
	EXPECT_EQ(6, call_log[0]);
	EXPECT_EQ(0, unregister_trace_api_fn(probe_value, &a));
	EXPECT_EQ(1, unregfunc_calls);
}

/* ---- TP_CONDITION --------------------------------------------------- */

static void test_condition(void)
{
	static const int want[] = { 11, 1000 };

	log_reset();
	EXPECT_EQ(0, register_trace_api_cond(probe_value, NULL));
	trace_api_cond_tp(5);
	trace_api_cond_tp(10);
	trace_api_cond_tp(11);
	trace_api_cond_tp(-100);
	trace_api_cond_tp(1000);
	EXPECT_SEQ(want, 2, call_log, call_n);
	/* The condition gates probes, not the enabled state. */
	EXPECT_TRUE(trace_api_cond_enabled());
	EXPECT_EQ(0, unregister_trace_api_cond(probe_value, NULL));
}

/* ---- nesting: a probe that fires another tracepoint ----------------- */

static void probe_outer(void *data, int v)
{
	(void)data;
	log_add(v);
	trace_api_inner_tp(v * 10);
	log_add(-v);
}

static void test_nesting(void)
{
	static const int want[] = { 3, 30, -3, 4, 40, -4 };

	log_reset();
	EXPECT_EQ(0, register_trace_api_outer(probe_outer, NULL));
	EXPECT_EQ(0, register_trace_api_inner(probe_value, NULL));
	trace_api_outer_tp(3);
	trace_api_outer_tp(4);
	EXPECT_SEQ(want, 6, call_log, call_n);
	EXPECT_EQ(0, unregister_trace_api_outer(probe_outer, NULL));
	EXPECT_EQ(0, unregister_trace_api_inner(probe_value, NULL));
}

/* ---- a probe that registers and unregisters probes ------------------ */

static void probe_second(void *data, int v)
{
	(void)data;
	log_add(1000 + v);
}

static int selfreg_ret = 1, selfunreg_ret = 1;

/* On its first call, attaches probe_second; on v == 99, detaches itself. */
static void probe_first(void *data, int v)
{
	int *calls = data;

	log_add(v);
	if ((*calls)++ == 0)
		selfreg_ret = register_trace_api_selfreg(probe_second, NULL);
	if (v == 99)
		selfunreg_ret = unregister_trace_api_selfreg(probe_first,
							     data);
}

static void test_register_from_probe(void)
{
	/* Firing 1 sees the old array; firing 2 sees probe_second. */
	static const int want[] = { 1, 2, 1002, 99, 1099, 1003 };
	int calls = 0;

	log_reset();
	EXPECT_EQ(0, register_trace_api_selfreg(probe_first, &calls));
	trace_api_selfreg_tp(1);
	EXPECT_EQ(0, selfreg_ret);
	trace_api_selfreg_tp(2);
	trace_api_selfreg_tp(99);
	EXPECT_EQ(0, selfunreg_ret);
	trace_api_selfreg_tp(3);
	EXPECT_SEQ(want, 6, call_log, call_n);
	EXPECT_EQ(3, calls);
	EXPECT_EQ(0, unregister_trace_api_selfreg(probe_second, NULL));
	EXPECT_FALSE(trace_api_selfreg_enabled());
	/* Frees what the probe's registrations left to free. */
	tracepoint_synchronize_unregister();
}

static void probe_sync(void *data, int v)
{
	(void)v;
	tracepoint_synchronize_unregister();
	(*(int *)data)++;
}

static void test_synchronize_from_probe(void)
{
	struct tp_stderr_capture cap;
	char *err;
	int calls = 0;

	EXPECT_EQ(0, register_trace_api_selfreg(probe_sync, &calls));
	tp_stderr_begin(&cap);
	trace_api_selfreg_tp(1);	/* would deadlock if it waited */
	trace_api_selfreg_tp(2);
	err = tp_stderr_end(&cap);
	EXPECT_EQ(2, calls);
	EXPECT_STR_CONTAINS(err, "tracepoint_synchronize_unregister() called "
			    "from a probe");
	/* Once only. */
	if (err && strstr(err, "from a probe") &&
	    strstr(strstr(err, "from a probe") + 1, "from a probe"))
		tp_fail("warned more than once:\n%s", err);
	free(err);
	EXPECT_EQ(0, unregister_trace_api_selfreg(probe_sync, &calls));
	tracepoint_synchronize_unregister();
}

/* ---- firing from a thread that never registered with RCU ------------ */

static void *fire_thread(void *arg)
{
	(void)arg;
	trace_api_order_tp(77);
	return NULL;
}

static void test_fire_from_thread(void)
{
	pthread_t th;

	log_reset();
	EXPECT_EQ(0, register_trace_api_order(probe_value, NULL));
	EXPECT_EQ(0, pthread_create(&th, NULL, fire_thread, NULL));
	pthread_join(th, NULL);
	EXPECT_EQ(1, call_n);
	EXPECT_EQ(77, call_log[0]);
	EXPECT_EQ(0, unregister_trace_api_order(probe_value, NULL));
	tracepoint_synchronize_unregister();
}

/* ---- registry: lookup and iteration ---------------------------------- */

static const char *const api_names[] = {
	"api_args", "api_order", "api_fn", "api_cond", "api_outer",
	"api_inner", "api_selfreg",
};
#define NR_API_NAMES ((int)(sizeof(api_names) / sizeof(api_names[0])))

struct iter_state {
	int seen[NR_API_NAMES];
	struct tracepoint *tp[NR_API_NAMES];
	int total;
	int bad_name;
};

static void iter_fn(struct tracepoint *tp, void *priv)
{
	struct iter_state *st = priv;
	int i;

	st->total++;
	if (!tp || !tp->name) {
		st->bad_name++;
		return;
	}
	for (i = 0; i < NR_API_NAMES; i++) {
		if (!strcmp(tp->name, api_names[i])) {
			st->seen[i]++;
			st->tp[i] = tp;
		}
	}
}

static void test_lookup(void)
{
	EXPECT_EQ(&__tracepoint_api_args, tracepoint_lookup("api_args"));
	EXPECT_EQ(&__tracepoint_api_fn, tracepoint_lookup("api_fn"));
	EXPECT_EQ(&__tracepoint_api_selfreg, tracepoint_lookup("api_selfreg"));
	EXPECT_EQ(NULL, tracepoint_lookup("api_nonexistent"));
	EXPECT_EQ(NULL, tracepoint_lookup("api_arg"));
	EXPECT_EQ(NULL, tracepoint_lookup("api_argsx"));
	EXPECT_EQ(NULL, tracepoint_lookup(""));
	EXPECT_EQ(NULL, tracepoint_lookup(NULL));
	EXPECT_TRUE(!strcmp(__tracepoint_api_cond.name, "api_cond"));
}

static void test_for_each(void)
{
	struct iter_state st = { { 0 }, { 0 }, 0, 0 };
	int i;

	for_each_kernel_tracepoint(iter_fn, &st);
	EXPECT_EQ(0, st.bad_name);
	EXPECT_TRUE(st.total >= NR_API_NAMES);
	for (i = 0; i < NR_API_NAMES; i++) {
		if (st.seen[i] != 1)
			tp_fail("%s seen %d times", api_names[i], st.seen[i]);
		EXPECT_EQ(tracepoint_lookup(api_names[i]), st.tp[i]);
	}
}

/* ---- the registration wrappers are typed ---------------------------- */

static void test_callback_type(void)
{
	/*
	 * These only compile when the probe's prototype matches; the wrong
	 * prototype is compile-fail.sh's business.
	 */
	check_trace_callback_type_api_args(probe_args);
	check_trace_callback_type_api_order(probe_log);
	check_trace_callback_type_api_cond(probe_value);
	EXPECT_EQ(10, TRACEPOINT_DEFAULT_PRIO);
}

static void test_all_off(void)
{
	EXPECT_FALSE(trace_api_args_enabled());
	EXPECT_FALSE(trace_api_order_enabled());
	EXPECT_FALSE(trace_api_fn_enabled());
	EXPECT_FALSE(trace_api_cond_enabled());
	EXPECT_FALSE(trace_api_outer_enabled());
	EXPECT_FALSE(trace_api_inner_enabled());
	EXPECT_FALSE(trace_api_selfreg_enabled());
	EXPECT_EQ(NULL, __tracepoint_api_selfreg.funcs);
}

static void test_synchronize(void)
{
	/* Outside a probe it waits for a grace period and returns. */
	tracepoint_synchronize_unregister();
	tracepoint_synchronize_unregister();
}

int main(void)
{
	tp_plan(19, 30);
	tp_run("a probe sees the exact arguments and its data",
	       test_exact_args);
	tp_run("several probes on one tracepoint", test_several_probes);
	tp_run("order: priority, then registration", test_priority_order);
	tp_run("-EEXIST for a duplicate (probe, data)", test_eexist);
	tp_run("-ENOENT for an unknown pair", test_enoent);
	tp_run("-EINVAL for a NULL probe or tracepoint", test_einval);
	tp_run("trace_<name>_enabled()", test_enabled);
	tp_run("regfunc/unregfunc at first attach/last detach", test_regfunc);
	tp_run("a failing regfunc attaches nothing", test_regfunc_fails);
	tp_run("TP_CONDITION gates the probes", test_condition);
	tp_run("a probe fires another tracepoint", test_nesting);
	tp_run("a probe registers and unregisters probes",
	       test_register_from_probe);
	tp_run("tracepoint_synchronize_unregister() from a probe warns once",
	       test_synchronize_from_probe);
	tp_run("a new thread fires without registering", test_fire_from_thread);
	tp_run("tracepoint_lookup()", test_lookup);
	tp_run("for_each_kernel_tracepoint()", test_for_each);
	tp_run("check_trace_callback_type_<name>()", test_callback_type);
	/* Everything above left every tracepoint off. */
	tp_run("all tracepoints off at the end", test_all_off);
	tp_run("tracepoint_synchronize_unregister() returns", test_synchronize);
	return tp_exit();
}
