// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The seed document's examples, compiled as written and run:
 *   seed/include/trace/events/subsys.h, seed/subsys/file.c  the Usage
 *                              example, verbatim but for file.c's two "..."
 *                              lines: the first now gives arg and task a
 *                              value, the second tells this file the call
 *                              happened
 *   seed/foo.c                 the trace_foo_bar_enabled() guard, with
 *                              foo_bar defined the kernel's way
 *   seed/foo_bar.h, seed/wrapper-user.c  DECLARE_TRACEPOINT() +
 *                              tracepoint_enabled() + non-inline wrapper
 *   seed/create.c              CREATE_TRACE_POINTS before two trace headers,
 *                              one found through TRACE_INCLUDE_PATH
 *
 * compile-fail.sh builds this program again with CONFIG_TRACEPOINTS unset
 * and without libustrace: then every register call must return -ENOSYS
 * and no probe may run.
 */
#include <errno.h>
#include <trace/events/subsys.h>
#include <trace/events/foo.h>
#include <trace/events/seedcreate.h>
#include "tpath/path_events.h"

#include "tp_test.h"

/* The program's own idea of a thread, as the seed lets it have one. */
struct task_struct {
	const char *comm;
};

static struct task_struct seed_thread = { "seed" };
struct task_struct *seed_task = &seed_thread;
int seed_last_arg;

void somefct(void);
void seed_count_nuggets(int count);
void seed_call_inline(int args);
void seed_fire_created(int a, const char *s, unsigned long x);
extern int seed_nuggets_calculated;
extern int seed_inline_calls;

#ifdef CONFIG_TRACEPOINTS
# define WANT_REG	0
# define ON(n)		(n)
#else
# define WANT_REG	(-ENOSYS)
# define ON(n)		0
#endif

#define LOG_MAX 16
static int log_v[LOG_MAX];
static void *log_p[LOG_MAX];
static int log_n;

static void log_add(int v, void *p)
{
	if (log_n < LOG_MAX) {
		log_v[log_n] = v;
		log_p[log_n] = p;
		log_n++;
	}
}

static void probe_eventname(void *data, int firstarg, struct task_struct *p)
{
	log_add(firstarg, p);
	log_add(0, data);
}

static void probe_foo_bar(void *data, int tot)
{
	log_add(tot, data);
}

static void probe_plain(void *data, int a, const char *s)
{
	log_add(a, (void *)s);
	(void)data;
}

static void probe_cond(void *data, int a)
{
	log_add(a, data);
}

static void probe_path(void *data, unsigned long x)
{
	log_add((int)x, data);
}

static void test_usage_example(void)
{
	int token;

	log_n = 0;
	EXPECT_FALSE(trace_subsys_eventname_enabled());
	somefct();
	EXPECT_EQ(0, log_n);
	EXPECT_EQ(1001, seed_last_arg);

	EXPECT_EQ(WANT_REG,
		  register_trace_subsys_eventname(probe_eventname, &token));
	EXPECT_EQ(ON(1), trace_subsys_eventname_enabled());
	somefct();
	EXPECT_EQ(1002, seed_last_arg);
	EXPECT_EQ(ON(2), log_n);
	if (log_n == 2) {
		EXPECT_EQ(1002, log_v[0]);
		EXPECT_EQ(&seed_thread, log_p[0]);
		EXPECT_EQ(&token, log_p[1]);
		EXPECT_TRUE(!strcmp(((struct task_struct *)log_p[0])->comm,
				    "seed"));
	}
	EXPECT_EQ(WANT_REG,
		  unregister_trace_subsys_eventname(probe_eventname, &token));
	tracepoint_synchronize_unregister();
	EXPECT_FALSE(trace_subsys_eventname_enabled());
	log_n = 0;
	somefct();
	EXPECT_EQ(0, log_n);
	EXPECT_EQ(1003, seed_last_arg);
}

static void test_enabled_guard(void)
{
	int token;

	/* Off: the guarded work is not done at all. */
	log_n = 0;
	seed_nuggets_calculated = 0;
	seed_count_nuggets(4);
	EXPECT_EQ(0, seed_nuggets_calculated);
	EXPECT_EQ(0, log_n);

	EXPECT_EQ(WANT_REG, register_trace_foo_bar(probe_foo_bar, &token));
	seed_count_nuggets(4);	/* 1 + 2 + 3 + 4 */
	EXPECT_EQ(ON(4), seed_nuggets_calculated);
	EXPECT_EQ(ON(1), log_n);
	if (log_n == 1) {
		EXPECT_EQ(10, log_v[0]);
		EXPECT_EQ(&token, log_p[0]);
	}
	EXPECT_EQ(WANT_REG, unregister_trace_foo_bar(probe_foo_bar, &token));
	log_n = 0;
	seed_nuggets_calculated = 0;
	seed_count_nuggets(4);
	EXPECT_EQ(0, seed_nuggets_calculated);
	EXPECT_EQ(0, log_n);
}

static void test_wrapper(void)
{
	int token;

	log_n = 0;
	seed_inline_calls = 0;
	seed_call_inline(5);
	EXPECT_EQ(2, seed_inline_calls);
	EXPECT_EQ(0, log_n);

	EXPECT_EQ(WANT_REG, register_trace_foo_bar(probe_foo_bar, &token));
	seed_call_inline(6);
	EXPECT_EQ(4, seed_inline_calls);
	EXPECT_EQ(ON(1), log_n);
	if (log_n == 1)
		EXPECT_EQ(6, log_v[0]);
	EXPECT_EQ(WANT_REG, unregister_trace_foo_bar(probe_foo_bar, &token));
	seed_call_inline(7);
	EXPECT_EQ(ON(1), log_n);
}

static void test_create_trace_points(void)
{
	static const char s[] = "str";
	int token;

	log_n = 0;
	EXPECT_EQ(WANT_REG, register_trace_seedcreate_plain(probe_plain, NULL));
	EXPECT_EQ(WANT_REG, register_trace_seedcreate_cond(probe_cond, &token));
	EXPECT_EQ(WANT_REG, register_trace_seedpath_event(probe_path, &token));
	seed_fire_created(2, s, 77);	/* the condition (a & 1) is false */
	seed_fire_created(3, s, 78);
	EXPECT_EQ(ON(5), log_n);
	if (log_n == 5) {
		EXPECT_EQ(2, log_v[0]);
		EXPECT_EQ(s, log_p[0]);
		EXPECT_EQ(77, log_v[1]);
		EXPECT_EQ(3, log_v[2]);
		EXPECT_EQ(3, log_v[3]);
		EXPECT_EQ(&token, log_p[3]);
		EXPECT_EQ(78, log_v[4]);
	}
	EXPECT_EQ(WANT_REG,
		  unregister_trace_seedcreate_plain(probe_plain, NULL));
	EXPECT_EQ(WANT_REG,
		  unregister_trace_seedcreate_cond(probe_cond, &token));
	EXPECT_EQ(WANT_REG,
		  unregister_trace_seedpath_event(probe_path, &token));
}

#ifdef CONFIG_TRACEPOINTS
/* Each definition made it into the registry, under its own name. */
static void test_registry(void)
{
	EXPECT_EQ(&__tracepoint_subsys_eventname,
		  tracepoint_lookup("subsys_eventname"));
	EXPECT_EQ(&__tracepoint_foo_bar, tracepoint_lookup("foo_bar"));
	EXPECT_EQ(&__tracepoint_seedcreate_plain,
		  tracepoint_lookup("seedcreate_plain"));
	EXPECT_EQ(&__tracepoint_seedcreate_cond,
		  tracepoint_lookup("seedcreate_cond"));
	EXPECT_EQ(&__tracepoint_seedpath_event,
		  tracepoint_lookup("seedpath_event"));
	EXPECT_EQ(NULL, tracepoint_lookup("seedpath"));
}
#else
static void test_registry(void)
{
	SKIP("CONFIG_TRACEPOINTS is not set");
}
#endif

int main(void)
{
	tp_plan(5, 20);
#ifndef CONFIG_TRACEPOINTS
	ksft_print_msg("built with CONFIG_TRACEPOINTS unset: expecting "
		       "-ENOSYS\n");
#endif
	tp_run("the Usage example: subsys_eventname", test_usage_example);
	tp_run("the trace_foo_bar_enabled() guard", test_enabled_guard);
	tp_run("DECLARE_TRACEPOINT + tracepoint_enabled + wrapper",
	       test_wrapper);
	tp_run("CREATE_TRACE_POINTS before the include, TRACE_INCLUDE_PATH",
	       test_create_trace_points);
	tp_run("the definitions are in the registry", test_registry);
	return tp_exit();
}
