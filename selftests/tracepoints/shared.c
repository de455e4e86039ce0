// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A tracepoint defined in a library built with -fvisibility=hidden
 * (shared/libtpdef.c), fired from the library and from this program, and
 * probed from this program and from another shared object
 * (shared/libtpprobe.c).
 *
 * Built twice: "shared-so" links libtpdef.so, "shared-static" links
 * libtpdef.a into the program.  Both link libtpprobe.so.
 */
#include <dlfcn.h>
#include <errno.h>
#include "shared/shlib_tp.h"
#include "shared/libtpdef.h"

#include "tp_test.h"

struct exe_seen {
	int calls;
	int where[8];
	long value[8];
	int order;
};

static int order_counter;

static void exe_probe(void *data, int where, long value)
{
	struct exe_seen *s = data;

	if (s->calls < 8) {
		s->where[s->calls] = where;
		s->value[s->calls] = value;
	}
	s->calls++;
	s->order = order_counter++;
}

static void test_one_struct(void)
{
	void *sym = dlsym(RTLD_DEFAULT, "__tracepoint_shlib_event");

	/* The program, the library and the registry agree on one struct. */
	EXPECT_EQ(&__tracepoint_shlib_event, tpdef_tracepoint());
	EXPECT_EQ(&__tracepoint_shlib_event, tracepoint_lookup("shlib_event"));
	/* Exported despite -fvisibility=hidden... */
	EXPECT_EQ(&__tracepoint_shlib_event, sym);
	/* ...which was in effect for the rest of the library. */
	EXPECT_EQ(NULL, dlsym(RTLD_DEFAULT, "tpdef_hidden"));
	EXPECT_TRUE(!strcmp(__tracepoint_shlib_event.name, "shlib_event"));
}

static void count_shlib(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "shlib_event"))
		(*(int *)priv)++;
}

static void test_listed_once(void)
{
	int n = 0;

	for_each_kernel_tracepoint(count_shlib, &n);
	EXPECT_EQ(1, n);
}

static void test_exe_probe(void)
{
	struct exe_seen s = { 0 };

	EXPECT_FALSE(trace_shlib_event_enabled());
	EXPECT_FALSE(tpdef_enabled());
	trace_shlib_event_tp(WHERE_PROGRAM, 1);
	tpdef_fire(2);
	EXPECT_EQ(0, s.calls);

	EXPECT_EQ(0, register_trace_shlib_event(exe_probe, &s));
	/* Sites in both objects see the key. */
	EXPECT_TRUE(trace_shlib_event_enabled());
	EXPECT_TRUE(tpdef_enabled());
	trace_shlib_event_tp(WHERE_PROGRAM, 10);
	tpdef_fire(-20);
	EXPECT_EQ(2, s.calls);
	EXPECT_EQ(WHERE_PROGRAM, s.where[0]);
	EXPECT_EQ(10, s.value[0]);
	EXPECT_EQ(WHERE_LIBRARY, s.where[1]);
	EXPECT_EQ(-20, s.value[1]);

	EXPECT_EQ(0, unregister_trace_shlib_event(exe_probe, &s));
	tracepoint_synchronize_unregister();
	EXPECT_FALSE(trace_shlib_event_enabled());
	EXPECT_FALSE(tpdef_enabled());
	trace_shlib_event_tp(WHERE_PROGRAM, 1);
	tpdef_fire(2);
	EXPECT_EQ(2, s.calls);
}

static void test_probe_in_other_object(void)
{
	struct tpprobe_seen *ps = tpprobe_seen();
	struct exe_seen s = { 0 };

	memset(ps, 0, sizeof(*ps));
	order_counter = 0;
	/* libtpprobe's probe at a higher priority: it runs first. */
	EXPECT_EQ(0, register_trace_shlib_event(exe_probe, &s));
	EXPECT_EQ(0, tpprobe_attach(50, &order_counter));
	EXPECT_EQ(-EEXIST, tpprobe_attach(50, &order_counter));

	trace_shlib_event_tp(WHERE_PROGRAM, 100);
	EXPECT_EQ(1, ps->calls);
	EXPECT_EQ(WHERE_PROGRAM, ps->where);
	EXPECT_EQ(100, ps->value);
	EXPECT_EQ(0, ps->order);
	EXPECT_EQ(1, s.order);

	tpdef_fire(200);
	EXPECT_EQ(2, ps->calls);
	EXPECT_EQ(WHERE_LIBRARY, ps->where);
	EXPECT_EQ(200, ps->value);
	EXPECT_EQ(2, ps->order);
	EXPECT_EQ(2, s.calls);
	EXPECT_EQ(3, s.order);

	EXPECT_EQ(0, tpprobe_detach());
	tpdef_fire(300);
	EXPECT_EQ(2, ps->calls);
	EXPECT_EQ(3, s.calls);
	EXPECT_TRUE(tpdef_enabled());
	EXPECT_EQ(0, unregister_trace_shlib_event(exe_probe, &s));
	EXPECT_FALSE(tpdef_enabled());
	EXPECT_EQ(-ENOENT, tpprobe_detach());
	tracepoint_synchronize_unregister();
}

int main(void)
{
	tp_plan(4, 20);
	tp_run("one struct for the program, the library and the registry",
	       test_one_struct);
	tp_run("listed once by for_each_kernel_tracepoint()", test_listed_once);
	tp_run("a probe in the program sees both firing sites",
	       test_exe_probe);
	tp_run("a probe in another shared object, with priorities",
	       test_probe_in_other_object);
	return tp_exit();
}
