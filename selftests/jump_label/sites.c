// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sites: what a tracepoint site looks like in memory, key off and key on.
 *
 * The test walks its own __ustrace_jump_table and checks, for every site of
 * a tracepoint it defines, the five live bytes and the entry's state byte
 * as probes come and go:
 *
 *   patched (jump_label_text_patching())   NOP 0f 1f 44 00 00 while no probe
 *                                           is attached, "e9 rel32" to the
 *                                           entry's target while one is
 *   fallback (USTRACE_JUMP_LABEL=0, ...)   the compiled "jmp stub", never
 *                                           rewritten; the stub tests the
 *                                           entry's state byte
 *
 * and that in every mode a probe runs exactly when it is attached.  The
 * compiled form is read back from the executable file to check the stub
 * (cmpb $0, state(%rip); jne target; jmp site+5) even where the live site
 * was rewritten.  Without jump label sites (CONFIG_JUMP_LABEL=n, another
 * architecture) the byte checks skip and the behaviour checks still run.
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/tracepoint.h>
#include "kselftest.h"
#include "jl_sites.h"

DECLARE_TRACE(jl_sites, TP_PROTO(int v), TP_ARGS(v));
DEFINE_TRACE(jl_sites);

/*
 * A static key of our own, at a non-zero offset in its object, to check
 * that the entry names the key (symbol + offset) and not the object.
 */
struct jl_holder {
	long pad;
	struct static_key key;
};
__attribute__((__visibility__("hidden")))
struct jl_holder jl_holder_obj = { 0, STATIC_KEY_INIT_FALSE };

static int probe_calls;
static int probe_last_v;
static void *probe_last_data;
static int cookie, cookie2;

static void probe(void *data, int v)
{
	probe_calls++;
	probe_last_v = v;
	probe_last_data = data;
}

static __attribute__((__noinline__)) void fire(int v)
{
	trace_jl_sites_tp(v);
}

static __attribute__((__noinline__)) bool holder_branch(void)
{
	return __ustrace_static_branch_unlikely(jl_holder_obj, key);
}

static bool patching;
static struct jump_entry *entries[JL_MAX_SITES];
static int nr_entries;

static bool env_refuses_patching(void)
{
	const char *env = getenv("USTRACE_JUMP_LABEL");

	return env && !strcmp(env, "0");
}

static bool membarrier_sync_core(void)
{
	long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	return cmds >= 0 &&
	       (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE);
}

static void show_site(const char *when, const struct jump_entry *e)
{
	unsigned char b[JL_SITE_SIZE];
	char line[96];

	jl_read_live(e, b);
	ksft_print_msg("%s: site %#lx: %s (state %u)\n", when, e->code,
		       jl_decode(e->code, b, line, sizeof(line)), jl_state(e));
}

/*
 * Check every site of @es: the live bytes as the mode and @on say, and the
 * state byte equal to @on.  Prints each site.
 */
static void check_sites(struct jump_entry **es, int n, bool on,
			const char *when)
{
	int i;

	for (i = 0; i < n; i++) {
		struct jump_entry *e = es[i];
		unsigned char live[JL_SITE_SIZE], file[JL_SITE_SIZE];

		show_site(when, e);
		EXPECT_EQ(on ? 1 : 0, jl_state(e));
		jl_read_live(e, live);
		if (!patching) {
			/* The compiled jmp-to-stub, untouched. */
			ASSERT_EQ(0, jl_read_file(e->code, file, sizeof(file)));
			EXPECT_EQ(0, memcmp(live, file, JL_SITE_SIZE));
			EXPECT_EQ(0xe9, live[0]);
			EXPECT_NE(e->target, jl_jmp_dest(e->code, live));
		} else if (on) {
			EXPECT_EQ(0xe9, live[0]);
			EXPECT_EQ(e->target, jl_jmp_dest(e->code, live));
		} else {
			EXPECT_EQ(0, memcmp(live, jl_nop5, JL_SITE_SIZE));
		}
	}
}

static void test_mode(void)
{
	bool expect;

	patching = jump_label_text_patching();
	ksft_print_msg("jump label sites compiled in: %s; text patching: %s; "
		       "USTRACE_JUMP_LABEL=%s; membarrier SYNC_CORE: %s\n",
		       jl_have_sites() ? "yes" : "no", patching ? "on" : "off",
		       getenv("USTRACE_JUMP_LABEL") ?: "(unset)",
		       membarrier_sync_core() ? "yes" : "no");
	/*
	 * The documented contract: patching is on exactly when the build
	 * has jump labels, the environment allows it and the kernel offers
	 * membarrier(SYNC_CORE).
	 */
	expect = IS_ENABLED(CONFIG_JUMP_LABEL) && jl_have_sites() &&
		 !env_refuses_patching() && membarrier_sync_core();
	EXPECT_EQ(expect, patching);
	/* The answer does not change. */
	EXPECT_EQ(patching, jump_label_text_patching());
}

static void test_jump_table(void)
{
	int i;

	if (!jl_have_sites())
		SKIP("no jump label sites in this build");
	nr_entries = jl_entries_of(&__tracepoint_jl_sites.key, entries,
				   JL_MAX_SITES);
	ksft_print_msg("%d jump entries for jl_sites\n", nr_entries);
	ASSERT_GE(nr_entries, 1);
	for (i = 0; i < nr_entries; i++) {
		struct jump_entry *e = entries[i];

		EXPECT_EQ((unsigned long)&__tracepoint_jl_sites.key, e->key);
		EXPECT_NE(0, e->code);
		EXPECT_NE(0, e->target);
		EXPECT_NE(e->code, e->target);
		/* Only byte 0 of state is ever written. */
		EXPECT_EQ(0, e->state >> 8);
	}
}

/* The file holds "jmp stub"; the stub tests this entry's state byte. */
static void test_compiled_form(void)
{
	int i;

	if (!nr_entries)
		SKIP("no jump label sites in this build");
	for (i = 0; i < nr_entries; i++) {
		struct jump_entry *e = entries[i];
		unsigned char file[JL_SITE_SIZE];
		char line[96];
		struct jl_stub stub;
		unsigned long dest;

		ASSERT_EQ(0, jl_read_file(e->code, file, sizeof(file)));
		ksft_print_msg("compiled: site %#lx: %s\n", e->code,
			       jl_decode(e->code, file, line, sizeof(line)));
		ASSERT_EQ(0xe9, file[0]);
		dest = jl_jmp_dest(e->code, file);
		EXPECT_NE(e->target, dest);
		ASSERT_EQ(0, jl_decode_stub(dest, &stub));
		EXPECT_EQ((unsigned long)&e->state, stub.state);
		EXPECT_EQ(e->target, stub.yes);
		EXPECT_EQ(e->code + JL_SITE_SIZE, stub.no);
	}
}

static void test_disabled(void)
{
	probe_calls = 0;
	EXPECT_EQ(0, static_key_count(&__tracepoint_jl_sites.key));
	EXPECT_FALSE(trace_jl_sites_enabled());
	check_sites(entries, nr_entries, false, "no probe");
	fire(1);
	EXPECT_EQ(0, probe_calls);
}

static void test_enabled(void)
{
	ASSERT_EQ(0, register_trace_jl_sites(probe, &cookie));
	probe_calls = 0;
	EXPECT_EQ(1, static_key_count(&__tracepoint_jl_sites.key));
	EXPECT_TRUE(trace_jl_sites_enabled());
	check_sites(entries, nr_entries, true, "probe attached");
	fire(42);
	EXPECT_EQ(1, probe_calls);
	EXPECT_EQ(42, probe_last_v);
	EXPECT_EQ(&cookie, probe_last_data);
}

/* Only the first probe and the last one flip the key. */
static void test_second_probe(void)
{
	ASSERT_EQ(0, register_trace_jl_sites(probe, &cookie2));
	EXPECT_EQ(1, static_key_count(&__tracepoint_jl_sites.key));
	check_sites(entries, nr_entries, true, "two probes");
	probe_calls = 0;
	fire(7);
	EXPECT_EQ(2, probe_calls);
	ASSERT_EQ(0, unregister_trace_jl_sites(probe, &cookie));
	tracepoint_synchronize_unregister();
	check_sites(entries, nr_entries, true, "one probe left");
	probe_calls = 0;
	fire(8);
	EXPECT_EQ(1, probe_calls);
	EXPECT_EQ(&cookie2, probe_last_data);
}

static void test_disabled_again(void)
{
	ASSERT_EQ(0, unregister_trace_jl_sites(probe, &cookie2));
	tracepoint_synchronize_unregister();
	EXPECT_EQ(0, static_key_count(&__tracepoint_jl_sites.key));
	EXPECT_FALSE(trace_jl_sites_enabled());
	check_sites(entries, nr_entries, false, "probe removed");
	probe_calls = 0;
	fire(3);
	EXPECT_EQ(0, probe_calls);
}

/* Many toggles: every one leaves the bytes, the state and calls right. */
static void test_toggles(void)
{
	int i, j, bad = 0;

	for (i = 0; i < 200 && !bad; i++) {
		for (j = 0; j < 2; j++) {
			bool on = j == 0;
			int k;

			if (on)
				ASSERT_EQ(0, register_trace_jl_sites(probe, &cookie));
			else
				ASSERT_EQ(0, unregister_trace_jl_sites(probe, &cookie));
			probe_calls = 0;
			fire(i);
			if (probe_calls != (on ? 1 : 0))
				bad++;
			for (k = 0; k < nr_entries; k++) {
				unsigned char b[JL_SITE_SIZE];

				jl_read_live(entries[k], b);
				if (jl_state(entries[k]) != on)
					bad++;
				if (patching && on &&
				    (b[0] != 0xe9 ||
				     jl_jmp_dest(entries[k]->code, b) !=
				     entries[k]->target))
					bad++;
				if (patching && !on &&
				    memcmp(b, jl_nop5, JL_SITE_SIZE))
					bad++;
			}
			if (bad) {
				ksft_print_msg("toggle %d (%s): wrong\n", i,
					       on ? "on" : "off");
				check_sites(entries, nr_entries, on, "toggle");
				EXPECT_EQ(on ? 1 : 0, probe_calls);
			}
		}
	}
	tracepoint_synchronize_unregister();
	EXPECT_EQ(0, bad);
}

/* static_key_slow_inc/dec directly, on a key inside another object. */
static void test_static_key(void)
{
	struct jump_entry *es[JL_MAX_SITES];
	int n = jl_entries_of(&jl_holder_obj.key, es, JL_MAX_SITES);

	if (jl_have_sites())
		ASSERT_GE(n, 1);
	EXPECT_FALSE(holder_branch());
	check_sites(es, n, false, "static key 0");
	static_key_slow_inc(&jl_holder_obj.key);
	static_key_slow_inc(&jl_holder_obj.key);
	EXPECT_EQ(2, static_key_count(&jl_holder_obj.key));
	EXPECT_TRUE(holder_branch());
	check_sites(es, n, true, "static key 2");
	static_key_slow_dec(&jl_holder_obj.key);
	EXPECT_EQ(1, static_key_count(&jl_holder_obj.key));
	EXPECT_TRUE(holder_branch());
	check_sites(es, n, true, "static key 1");
	static_key_slow_dec(&jl_holder_obj.key);
	EXPECT_EQ(0, static_key_count(&jl_holder_obj.key));
	EXPECT_FALSE(holder_branch());
	check_sites(es, n, false, "static key 0 again");
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(9);
	alarm(60);
	KSFT_RUN(test_mode);
	KSFT_RUN(test_jump_table);
	KSFT_RUN(test_compiled_form);
	KSFT_RUN(test_disabled);
	KSFT_RUN(test_enabled);
	KSFT_RUN(test_second_probe);
	KSFT_RUN(test_disabled_again);
	KSFT_RUN(test_toggles);
	KSFT_RUN(test_static_key);
	ksft_finished();
}
