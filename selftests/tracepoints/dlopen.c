// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Shared objects that come and go.
 *
 * tp-plugin.so attaches probes from its constructor (to dl_host_event,
 * defined here, and to shlib_event, defined in libtpdef.so) and never
 * detaches them: dlclose() must, before the code is unmapped, even while
 * another thread keeps firing.
 *
 * tp-defplugin.so defines dl_plugin_event: the program attaches to it
 * through tracepoint_lookup(); dlclose() removes the definition from the
 * registry and calls its unregfunc.
 *
 * The program exports __tracepoint_dl_host_event to plugins with
 * -Wl,--export-dynamic-symbol (see Build.mk).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include "shared/shlib_tp.h"
#include "shared/libtpdef.h"
#include "shared/plugin_tp.h"

#include "tp_test.h"
#include "self_path.h"

DEFINE_TRACE(dl_host_event);

static char plugin_path[PATH_MAX];
static char defplugin_path[PATH_MAX];

static void find_plugins(void)
{
	if (self_path(plugin_path, sizeof(plugin_path), "tp-plugin.so") ||
	    self_path(defplugin_path, sizeof(defplugin_path), "tp-defplugin.so"))
		ksft_exit_fail_msg("the plugins beside /proc/self/exe: %s\n",
				   strerror(errno));
}

/* dlopen() @path, failing the current test (and returning NULL) if it can't. */
static void *open_or_fail(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		tp_fail("dlopen(%s): %s", path, dlerror());
	return h;
}

static void *sym_or_fail(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p)
		tp_fail("dlsym(%s): %s", name, dlerror());
	return p;
}

#define LOG_MAX 16
static int log_v[LOG_MAX];
static int log_n;

static void host_probe(void *data, int v)
{
	(void)data;
	if (log_n < LOG_MAX)
		log_v[log_n++] = v;
}

/* ---- tp-plugin.so ----------------------------------------------------- */

/*
 * One load/fire/unload cycle, the plugin's probes being the only ones.
 * Returns false once the current test has failed.
 */
static bool plugin_cycle(int round)
{
	struct plugin_state *st;
	int *err;
	void *h;

	h = open_or_fail(plugin_path);
	if (!h)
		return false;
	st = sym_or_fail(h, "plugin_state");
	err = sym_or_fail(h, "plugin_register_error");
	if (st && err) {
		EXPECT_EQ(0, *err);
		EXPECT_TRUE(trace_dl_host_event_enabled());
		EXPECT_TRUE(tpdef_enabled());
		trace_dl_host_event_tp(round);
		tpdef_fire(round + 1000);
		EXPECT_EQ(1, st->host_calls);
		EXPECT_EQ(1, st->shlib_calls);
		EXPECT_EQ(round + 1000, st->last);
	}
	EXPECT_EQ(0, dlclose(h));

	/* The probes were the only ones: everything is off again. */
	EXPECT_FALSE(trace_dl_host_event_enabled());
	EXPECT_FALSE(tpdef_enabled());
	EXPECT_EQ(NULL, __tracepoint_dl_host_event.funcs);
	EXPECT_EQ(NULL, tpdef_tracepoint()->funcs);
	/* Firing calls nothing (the plugin's code is gone). */
	trace_dl_host_event_tp(round);
	tpdef_fire(round);
	if (tp_failed())
		ksft_print_msg("round %d failed\n", round);
	return !tp_failed();
}

static void test_plugin_unload_detaches(void)
{
	plugin_cycle(0);
}

static void test_plugin_loop(void)
{
	int i;

	for (i = 1; i <= 50; i++)
		if (!plugin_cycle(i))
			break;
}

static void test_plugin_leaves_other_probes(void)
{
	struct plugin_state *st;
	void *h;
	int token;

	log_n = 0;
	EXPECT_EQ(0, register_trace_dl_host_event(host_probe, &token));
	h = open_or_fail(plugin_path);
	if (!h)
		return;
	st = sym_or_fail(h, "plugin_state");
	trace_dl_host_event_tp(5);
	if (st) {
		EXPECT_EQ(1, st->host_calls);
		EXPECT_EQ(5, st->last);
	}
	EXPECT_EQ(0, dlclose(h));
	EXPECT_TRUE(trace_dl_host_event_enabled());
	trace_dl_host_event_tp(6);
	EXPECT_EQ(2, log_n);
	EXPECT_EQ(5, log_v[0]);
	EXPECT_EQ(6, log_v[1]);
	/* Still attached: unregistering it works once. */
	EXPECT_EQ(0, unregister_trace_dl_host_event(host_probe, &token));
	EXPECT_EQ(-ENOENT, unregister_trace_dl_host_event(host_probe, &token));
	EXPECT_FALSE(trace_dl_host_event_enabled());
}

static bool fire_stop;
static long fired;

static void *firer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&fire_stop, __ATOMIC_RELAXED)) {
		trace_dl_host_event_tp(1);
		tpdef_fire(1);
		__atomic_add_fetch(&fired, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_plugin_unload_while_firing(void)
{
	pthread_t th[2];
	long probed = 0;
	int i, t;

	fire_stop = false;
	fired = 0;
	for (t = 0; t < 2; t++)
		EXPECT_EQ(0, pthread_create(&th[t], NULL, firer, NULL));
	for (i = 0; i < 50; i++) {
		void *h = open_or_fail(plugin_path);
		struct plugin_state *st;

		if (!h)
			break;
		st = sym_or_fail(h, "plugin_state");
		usleep(200);
		if (st)
			probed += __atomic_load_n(&st->host_calls,
						  __ATOMIC_RELAXED);
		EXPECT_EQ(0, dlclose(h));
	}
	__atomic_store_n(&fire_stop, true, __ATOMIC_RELAXED);
	for (t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	ksft_print_msg("%ld firings during %d load/unload cycles, %ld reached "
		       "the plugin\n", fired, i, probed);
	/* The threads did run the plugin's probe while it was there. */
	EXPECT_TRUE(probed > 0);
	EXPECT_FALSE(trace_dl_host_event_enabled());
	EXPECT_FALSE(tpdef_enabled());
}

/* ---- tp-defplugin.so --------------------------------------------------- */

struct find_state {
	const char *name;
	struct tracepoint *tp;
	int n;
};

static void find_fn(struct tracepoint *tp, void *priv)
{
	struct find_state *f = priv;

	if (!strcmp(tp->name, f->name)) {
		f->tp = tp;
		f->n++;
	}
}

static int count_listed(const char *name, struct tracepoint **tp)
{
	struct find_state f = { name, NULL, 0 };

	for_each_kernel_tracepoint(find_fn, &f);
	if (tp)
		*tp = f.tp;
	return f.n;
}

static void defplugin_cycle(int round)
{
	struct defplugin_counters cnt = { 0, 0 };
	void (*set_counters)(struct defplugin_counters *);
	void (*fire)(int);
	bool (*enabled)(void);
	struct tracepoint *tp, *listed;
	void *h, *sym;
	int token;

	EXPECT_EQ(NULL, tracepoint_lookup("dl_plugin_event"));
	h = open_or_fail(defplugin_path);
	if (!h)
		return;
	sym = sym_or_fail(h, "__tracepoint_dl_plugin_event");
	set_counters = (void (*)(struct defplugin_counters *))
		sym_or_fail(h, "defplugin_set_counters");
	fire = (void (*)(int))sym_or_fail(h, "defplugin_fire");
	enabled = (bool (*)(void))sym_or_fail(h, "defplugin_enabled");
	tp = tracepoint_lookup("dl_plugin_event");
	EXPECT_EQ(sym, tp);
	EXPECT_EQ(1, count_listed("dl_plugin_event", &listed));
	EXPECT_EQ(sym, listed);
	if (!tp || !set_counters || !fire || !enabled) {
		dlclose(h);
		return;
	}
	set_counters(&cnt);

	log_n = 0;
	fire(1);
	EXPECT_EQ(0, log_n);
	/* The probe lives here, the tracepoint in the plugin. */
	EXPECT_EQ(0, tracepoint_probe_register(tp, (void *)host_probe, &token));
	EXPECT_EQ(1, cnt.regfunc);
	EXPECT_TRUE(enabled());
	fire(round);
	EXPECT_EQ(1, log_n);
	EXPECT_EQ(round, log_v[0]);

	/* Unload with the probe attached. */
	EXPECT_EQ(0, dlclose(h));
	EXPECT_EQ(1, cnt.unregfunc);
	EXPECT_EQ(1, cnt.regfunc);
	EXPECT_EQ(NULL, tracepoint_lookup("dl_plugin_event"));
	EXPECT_EQ(0, count_listed("dl_plugin_event", NULL));
	/* The program's own tracepoints are still there. */
	EXPECT_EQ(&__tracepoint_dl_host_event,
		  tracepoint_lookup("dl_host_event"));
	EXPECT_EQ(tpdef_tracepoint(), tracepoint_lookup("shlib_event"));
}

static void test_defplugin(void)
{
	defplugin_cycle(7);
}

static void test_defplugin_loop(void)
{
	int i;

	for (i = 0; i < 20 && !tp_failed(); i++)
		defplugin_cycle(100 + i);
}

int main(void)
{
	find_plugins();
	tp_plan(6, 60);
	tp_run("dlclose detaches a plugin's forgotten probes",
	       test_plugin_unload_detaches);
	tp_run("load, fire, unload 50 times", test_plugin_loop);
	tp_run("dlclose leaves the program's probes attached",
	       test_plugin_leaves_other_probes);
	tp_run("unload 50 times while two threads fire",
	       test_plugin_unload_while_firing);
	tp_run("a tracepoint defined by a plugin, probed from the program",
	       test_defplugin);
	tp_run("define/probe/unload 20 times", test_defplugin_loop);
	return tp_exit();
}
