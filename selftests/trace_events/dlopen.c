// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events in a dlopen()ed object: registered by dlopen(), recorded while
 * enabled, gone after dlclose() (also when closed while enabled), and
 * back with the same id when the object is opened again.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/trace_events.h>

#include "kselftest.h"
#include "self_path.h"

static char plugin_path[PATH_MAX];

static void find_plugin(void)
{
	if (self_path(plugin_path, sizeof(plugin_path), "te-plugin.so"))
		ksft_exit_fail_msg("te-plugin.so beside /proc/self/exe: %s\n",
				   strerror(errno));
}

/* Consume everything; keep the rendering of the last record. */
static int drain(char *last, size_t size, int *last_err)
{
	struct trace_buffer *buffer = trace_get_global_buffer();
	int cpu, n = 0;

	for (cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *event;

		while ((event = ring_buffer_consume(buffer, cpu, NULL, NULL))) {
			struct trace_seq s;

			trace_seq_init(&s);
			*last_err = trace_print_event(&s, ring_buffer_event_data(event),
						      ring_buffer_event_length(event));
			snprintf(last, size, "%s", s.buffer);
			n++;
		}
	}
	return n;
}

static int first_id;

static void load_record_unload(void)
{
	struct trace_event_call *call;
	void (*fire)(int);
	char line[256] = "";
	int err = 0;
	void *h;

	ASSERT_TRUE(trace_find_event_call("te_plugin", "plugin_value") == NULL);
	h = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_TRUE(h != NULL);
	fire = (void (*)(int))dlsym(h, "te_plugin_fire");
	ASSERT_TRUE(fire != NULL);
	call = trace_find_event_call("te_plugin", "plugin_value");
	ASSERT_TRUE(call != NULL);
	EXPECT_GE(call->id, TRACE_EVENT_FIRST_ID);
	first_id = call->id;

	fire(1);
	ASSERT_EQ(0, trace_set_clr_event("te_plugin", NULL, 1));
	fire(7);
	EXPECT_EQ(1, drain(line, sizeof(line), &err));
	EXPECT_EQ(0, err);
	EXPECT_STREQ("v=7 who=plugin", line);

	/* Closed while enabled: the event goes away with its code. */
	fire(8);
	ASSERT_EQ(0, dlclose(h));
	EXPECT_TRUE(trace_find_event_call("te_plugin", "plugin_value") == NULL);
	EXPECT_EQ(-EINVAL, trace_set_clr_event("te_plugin", NULL, 1));
	/* Its record is still there, but nothing renders it now. */
	EXPECT_EQ(1, drain(line, sizeof(line), &err));
	EXPECT_EQ(-ENOENT, err);
}

static void reload_same_id(void)
{
	struct trace_event_call *call;
	void (*fire)(int);
	char line[256] = "";
	int err = 0;
	void *h;

	h = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_TRUE(h != NULL);
	fire = (void (*)(int))dlsym(h, "te_plugin_fire");
	call = trace_find_event_call("te_plugin", "plugin_value");
	ASSERT_TRUE(call != NULL && fire != NULL);
	EXPECT_EQ(first_id, call->id);
	/* A new registration starts disabled. */
	EXPECT_EQ(0, trace_event_is_enabled(call));
	fire(9);
	EXPECT_EQ(0, drain(line, sizeof(line), &err));
	ASSERT_EQ(0, trace_set_clr_event("te_plugin", "plugin_value", 1));
	fire(10);
	EXPECT_EQ(1, drain(line, sizeof(line), &err));
	EXPECT_STREQ("v=10 who=plugin", line);
	ASSERT_EQ(0, trace_set_clr_event("te_plugin", "plugin_value", 0));
	ASSERT_EQ(0, dlclose(h));
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(2);
	find_plugin();
	KSFT_RUN(load_record_unload);
	KSFT_RUN(reload_same_id);
	ksft_finished();
}
