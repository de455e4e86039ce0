// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event filters (kernel/trace/trace_events_filter.c): the parser against
 * the texts of a live kernel, the examples of Documentation/trace/
 * events.rst, every operator on every kind of field of records the
 * probes wrote, strings of every length, CPU and COMM, system filters,
 * what a rejected event costs the buffer, and filters replaced while
 * events fire.  Linked with libustrace.a: the filter calls are internal
 * to the library.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define CREATE_TRACE_POINTS
#include "flt-kinds.h"
#include "flt-nest.h"
#include "flt-sched.h"
#include "flt-signal.h"

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/trace.h"
#include "../../kernel/trace/trace_filter.h"
#include "kselftest.h"
#include "kernel-texts.h"

static struct trace_event_call *call_of(const char *system, const char *name)
{
	struct trace_event_call *call = trace_find_event_call(system, name);

	if (!call)
		ksft_exit_fail_msg("no event %s:%s\n", system, name);
	return call;
}

/* What the filter file of @call in @tr reads. */
static const char *filter_text(struct trace_array *tr, struct trace_event_call *call)
{
	static struct trace_seq s;

	trace_seq_init(&s);
	trace_array_print_filter(tr, call, &s);
	return s.buffer;
}

static unsigned long entries(struct trace_array *tr)
{
	return ring_buffer_entries(trace_array_buffer(tr));
}

/* Every row of kernel-texts.h, written to our copy of sched_switch. */
static void kernel_texts_match(void)
{
	struct trace_array *tr = trace_array_create("texts");
	struct trace_event_call *call = call_of("sched", "sched_switch");
	unsigned int i, bad = 0;

	ASSERT_TRUE(tr != NULL);
	for (i = 0; i < sizeof(kernel_texts) / sizeof(kernel_texts[0]); i++) {
		const struct kernel_text *k = &kernel_texts[i];
		struct trace_err err;
		const char *text;
		int ret;

		trace_array_set_filter(tr, call, "0", NULL);
		ret = trace_array_set_filter(tr, call, k->expr, &err);
		text = filter_text(tr, call);
		if (ret != -k->errnum || strcmp(text, k->text) ||
		    !k->log_msg != !err.loc ||
		    (k->log_msg && (strcmp(k->log_msg, err.msg) || k->log_pos != err.pos ||
				    strcmp(err.loc, "event filter parse error")))) {
			ksft_print_msg("[%s]: ret %d (want %d), text [%s] (want [%s]), log %s@%u (want %s@%u)\n",
				       k->expr, ret, -k->errnum, text, k->text,
				       err.loc ? err.msg : "-", err.loc ? err.pos : 0,
				       k->log_msg ? k->log_msg : "-", k->log_pos);
			bad++;
		}
	}
	EXPECT_EQ(0u, bad);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* Documentation/trace/events.rst, section 5. */
static void documented_examples(void)
{
	struct trace_event_call *wakeup = call_of("sched", "sched_wakeup");
	struct trace_event_call *sw = call_of("sched", "sched_switch");
	struct trace_event_call *sig = call_of("signal", "signal_generate");
	static const char *const globs[] = {
		"prev_comm ~ \"*sh\"", "prev_comm ~ \"sh*\"", "prev_comm ~ \"*sh*\"",
		"prev_comm ~ \"ba*sh\"",
	};
	struct trace_err err;
	unsigned int i, failed = 99;

	EXPECT_EQ(0, trace_array_set_filter(NULL, wakeup, "common_preempt_count > 4", &err));
	EXPECT_STREQ("common_preempt_count > 4\n", filter_text(NULL, wakeup));
	/* Now "comm != bash" needs quotes: the kernel says so. */
	EXPECT_EQ(-EINVAL, trace_array_set_filter(NULL, sig,
		"((sig >= 10 && sig < 15) || sig == 17) && comm != bash", &err));
	EXPECT_STREQ("((sig >= 10 && sig < 15) || sig == 17) && comm != bash\n"
		     "                                                   ^\n"
		     "parse_error: Invalid value (did you forget quotes)?\n\n",
		     filter_text(NULL, sig));
	EXPECT_EQ(0, trace_array_set_filter(NULL, sig,
		"((sig >= 10 && sig < 15) || sig == 17) && comm != \"bash\"", &err));
	EXPECT_EQ(-EINVAL, trace_array_set_filter(NULL, sig,
		"((sig >= 10 && sig < 15) || dsig == 17) && comm != bash", &err));
	EXPECT_STREQ("((sig >= 10 && sig < 15) || dsig == 17) && comm != bash\n"
		     "                                 ^\n"
		     "parse_error: Field not found\n\n", filter_text(NULL, sig));
	EXPECT_STREQ("Field not found", err.msg);
	EXPECT_EQ(33u, err.pos);
	for (i = 0; i < sizeof(globs) / sizeof(globs[0]); i++)
		EXPECT_EQ(0, trace_array_set_filter(NULL, sw, globs[i], &err));

	/* 5.3: subsystem filters (as the kernel does them, see events.rst). */
	EXPECT_EQ(0, trace_array_set_system_filter(NULL, "sched", "0", &err));
	EXPECT_STREQ("none\n", filter_text(NULL, sw));
	EXPECT_STREQ("none\n", filter_text(NULL, wakeup));
	EXPECT_EQ(0, trace_array_set_system_filter_count(NULL, "sched", "common_pid == 0",
							 &err, &failed));
	EXPECT_EQ(0u, failed);
	EXPECT_TRUE(err.loc == NULL);
	EXPECT_STREQ("common_pid == 0\n", filter_text(NULL, sw));
	EXPECT_STREQ("common_pid == 0\n", filter_text(NULL, wakeup));
	EXPECT_EQ(0, trace_array_set_system_filter_count(NULL, "sched", "prev_pid == 0",
							 &err, &failed));
	EXPECT_EQ(1u, failed);
	EXPECT_STREQ("event filter parse error", err.loc);
	EXPECT_STREQ("Couldn't find or set field in one of a subsystem's events", err.msg);
	EXPECT_EQ(0u, err.pos);
	EXPECT_STREQ("prev_pid == 0\n", filter_text(NULL, sw));
	EXPECT_STREQ("prev_pid == 0\n^\n"
		     "parse_error: Couldn't find or set field in one of a subsystem's events\n\n",
		     filter_text(NULL, wakeup));
	EXPECT_EQ(0, trace_array_set_system_filter(NULL, "sched", "0", &err));
	EXPECT_EQ(0, trace_array_set_filter(NULL, sig, "0", &err));
}

static struct flt_vals base_vals(void)
{
	return (struct flt_vals){
		.s8v = -5, .u8v = 200, .s16v = -300, .u16v = 60000,
		.s32v = -70000, .u32v = 3000000000u,
		.s64v = -5000000000ll, .u64v = 0x8000000000000001ull,
		.name = "bash", .str = "hello world", .ptr = "pointed",
	};
}

struct eval_case {
	const char	*expr;
	int		pass;
};

/* Each operator on each kind of field, against base_vals(). */
static const struct eval_case eval_cases[] = {
	{ "s8v == -5", 1 }, { "s8v != -5", 0 }, { "s8v < 0", 1 }, { "s8v <= -5", 1 },
	{ "s8v > -6", 1 }, { "s8v >= -4", 0 }, { "s8v & 1", 1 }, { "s8v & 4", 0 },
	{ "s8v == 251", 1 },	/* cut to 8 bits, as the kernel's (s8) cast */
	{ "u8v == 200", 1 }, { "u8v != 200", 0 }, { "u8v < 201", 1 }, { "u8v <= 199", 0 },
	{ "u8v > 127", 1 }, { "u8v >= 200", 1 }, { "u8v & 0x8", 1 }, { "u8v & 0x1", 0 },
	{ "u8v == 456", 1 },
	{ "s16v == -300", 1 }, { "s16v != -300", 0 }, { "s16v < -299", 1 }, { "s16v <= -301", 0 },
	{ "s16v > -301", 1 }, { "s16v >= 0", 0 }, { "s16v & 0x4", 1 },
	{ "u16v == 60000", 1 }, { "u16v != 0xea60", 0 }, { "u16v < 32768", 0 },
	{ "u16v <= 60000", 1 }, { "u16v > 59999", 1 }, { "u16v >= 60001", 0 },
	{ "u16v & 0x8000", 1 },
	{ "s32v == -70000", 1 }, { "s32v != -70000", 0 }, { "s32v < -69999", 1 },
	{ "s32v <= -70001", 0 }, { "s32v > -70001", 1 }, { "s32v >= 0", 0 },
	{ "s32v & 0x10", 1 }, { "s32v == 4294897296", 1 },
	{ "u32v == 3000000000", 1 }, { "u32v != 3000000000", 0 }, { "u32v > 2147483647", 1 },
	{ "u32v >= 3000000001", 0 }, { "u32v < 3000000001", 1 }, { "u32v <= 017", 0 },
	{ "u32v & 0x80000000", 1 },
	{ "s64v == -5000000000", 1 }, { "s64v != -5000000000", 0 }, { "s64v < -4999999999", 1 },
	{ "s64v <= -5000000001", 0 }, { "s64v > -0x12a05f201", 1 }, { "s64v >= 0", 0 },
	{ "s64v & -0x8000000000000000", 1 },
	{ "u64v == 9223372036854775809", 1 }, { "u64v != 0x8000000000000001", 0 },
	{ "u64v > 0", 1 }, { "u64v >= 0x8000000000000002", 0 }, { "u64v < 1", 0 },
	{ "u64v <= 0xffffffffffffffff", 1 }, { "u64v & 0x8000000000000000", 1 },
	/* char[8] */
	{ "name == \"bash\"", 1 }, { "name != \"bash\"", 0 }, { "name == \"bas\"", 0 },
	{ "name == 'bash'", 1 }, { "name ~ \"ba*\"", 1 }, { "name ~ \"*as*\"", 1 },
	{ "name ~ \"*sh\"", 0 },	/* the kernel's suffix match sees the whole array */
	{ "name ~ \"b?sh\"", 1 }, { "name ~ \"[a-c]ash\"", 1 }, { "name ~ \"[!b]ash\"", 0 },
	{ "name ~ \"!bash\"", 0 }, { "name ~ \"!zsh\"", 1 }, { "name ~ \"*\"", 1 },
	{ "name ~ \"b*h\"", 1 }, { "name ~ \"b\\ash\"", 1 }, { "name ~ \"bash*\"", 1 },
	/* __data_loc char[] */
	{ "str == \"hello world\"", 1 }, { "str != \"hello world\"", 0 },
	{ "str == \"hello\"", 0 }, { "str ~ \"hello*\"", 1 }, { "str ~ \"*world\"", 1 },
	{ "str ~ \"*lo w*\"", 1 }, { "str ~ \"h?llo*\"", 1 }, { "str ~ \"[!a]ello world\"", 1 },
	{ "str ~ \"*o*o*\"", 1 }, { "str ~ \"*x*\"", 0 }, { "str ~ \"!*world\"", 0 },
	/* char * */
	{ "ptr == \"pointed\"", 1 }, { "ptr != \"pointed\"", 0 }, { "ptr ~ \"*ted\"", 1 },
	{ "ptr.ustring ~ \"poi*\"", 1 }, { "ptr ~ \"p[n-p]inted\"", 1 },
	/* unsigned short[3]: no comparison in the kernel, even != */
	{ "odd == 1", 0 }, { "odd != 1", 0 },
	/* __data_loc int[]: the location word itself */
	{ "list != 0", 1 }, { "list == 0", 0 },
	/* common fields */
	{ "common_flags == 0", 1 }, { "common_preempt_count == 0", 1 },
	{ "common_preempt_count > 4", 0 }, { "common_pid > 0", 1 }, { "common_pid < 0", 0 },
	/* logic */
	{ "s8v == -5 && u8v == 200", 1 }, { "s8v == -5 && u8v == 1", 0 },
	{ "s8v == 1 || u8v == 200", 1 }, { "!(s8v == -5)", 0 }, { "!s8v == -5", 0 },
	{ "!(s8v == 1 || u8v == 1)", 1 }, { "!!(s8v == -5)", 1 },
	{ "s8v == 1 || u8v == 1 && s16v == -300", 0 },
	{ "(s8v == 1 || u8v == 200) && s16v == -300", 1 },
	{ "s8v == -5 || u8v == 1 && s16v == 0", 1 },
	{ "!(s8v == -5 && !(u8v == 1 || s16v == -300))", 1 },
	{ "s8v == 1 || s8v == 2 || s8v == 3 || s8v == -5", 1 },
	{ "s8v == -5 && u8v == 200 && s16v == -300 && u16v == 1", 0 },
	{ "(s8v == -5 || u8v == 0) && (s16v == 0 || u16v == 60000)", 1 },
	{ "!((s8v == -5 || u8v == 0) && (s16v == 0 || u16v == 60000))", 0 },
	/* What trace-cmd record -f writes around a filter for its pids (no set_event_pid) */
	{ "(s8v == -5)&&((common_pid>=1&&common_pid<=2147483647)||(common_pid==0))", 1 },
	{ "(s8v == -5)&&((common_pid<1||common_pid>2147483647)&&(common_pid!=0))", 0 },
	{ "(common_pid==0)||(common_pid==1)||(common_pid>=2&&common_pid<=2147483647)", 1 },
};

static void fire_vals(const struct flt_vals *v)
{
	trace_flt_all(v);
}

static void operators_and_fields(void)
{
	struct trace_array *tr = trace_array_create("ops");
	struct trace_event_call *call = call_of("flt_test", "flt_all");
	struct flt_vals v = base_vals();
	char expr[64];
	unsigned int i, bad = 0;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", "flt_all", 1));
	for (i = 0; i < sizeof(eval_cases) / sizeof(eval_cases[0]); i++) {
		const struct eval_case *c = &eval_cases[i];
		struct trace_err err;
		int ret;

		trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
		ret = trace_array_set_filter(tr, call, c->expr, &err);
		fire_vals(&v);
		if (ret || entries(tr) != (unsigned long)c->pass) {
			ksft_print_msg("[%s]: ret %d, recorded %lu, want %d\n", c->expr, ret,
				       entries(tr), c->pass);
			bad++;
		}
	}
	EXPECT_EQ(0u, bad);

	/* common_type and common_pid are this event's and this thread's. */
	snprintf(expr, sizeof(expr), "common_type == %d && common_pid == %ld", call->id,
		 (long)syscall(SYS_gettid));
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	EXPECT_EQ(0, trace_array_set_filter(tr, call, expr, NULL));
	fire_vals(&v);
	EXPECT_EQ(1ul, entries(tr));

	/* A char * that cannot be read fails its predicate, "!=" as well. */
	v.ptr = NULL;
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	EXPECT_EQ(0, trace_array_set_filter(tr, call, "ptr != \"x\" || ptr == \"x\"", NULL));
	fire_vals(&v);
	EXPECT_EQ(0ul, entries(tr));
	EXPECT_EQ(0, trace_array_set_filter(tr, call, "!(ptr != \"x\")", NULL));
	fire_vals(&v);
	EXPECT_EQ(1ul, entries(tr));

	/* A suffix match on a char array: the string must end at its last byte but one. */
	v = base_vals();
	v.name = "cccbash";
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	EXPECT_EQ(0, trace_array_set_filter(tr, call, "name ~ \"*sh\"", NULL));
	fire_vals(&v);
	EXPECT_EQ(1ul, entries(tr));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* The one record of @tr as its TP_printk() shows it, into @out ("" if none). */
static void only_record(struct trace_array *tr, char *out, size_t size)
{
	struct trace_buffer *buffer = trace_array_buffer(tr);
	struct trace_seq *s = malloc(sizeof(*s));

	out[0] = '\0';
	if (!s)
		return;
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *ev = ring_buffer_consume(buffer, cpu, NULL, NULL);

		if (!ev)
			continue;
		trace_seq_init(s);
		trace_print_event(s, ring_buffer_event_data(ev), ring_buffer_event_length(ev));
		snprintf(out, size, "%.*s", (int)s->len, s->buffer);
		break;
	}
	free(s);
}

/*
 * "==" and "!=" of strings compare the bytes in place, in words: every
 * length of string against every length of pattern, on the __data_loc
 * string and on the char[8] (full, with no NUL, from 8 characters on),
 * and the record that passes is shown whole.
 */
static void string_lengths(void)
{
	static const char text[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	struct trace_array *tr = trace_array_create("strlen");
	struct trace_event_call *call = call_of("flt_test", "flt_all");
	struct flt_vals v = base_vals();
	char str[40], pat[40], expr[128], want[128], got[128];
	unsigned int bad = 0;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", "flt_all", 1));
	for (int l = 0; l <= 33; l++) {
		snprintf(str, sizeof(str), "%.*s", l, text);
		v.str = str;
		v.name = str;
		for (int p = 0; p <= 33; p++) {
			for (int variant = 0; variant < 4; variant++) {
				bool on_name = variant & 2, ne = variant & 1;
				int len = on_name && l > 8 ? 8 : l;
				bool pass = (p == len) != ne;

				snprintf(pat, sizeof(pat), "%.*s", p, text);
				snprintf(expr, sizeof(expr), "%s %s \"%s\"", on_name ? "name" : "str",
					 ne ? "!=" : "==", pat);
				trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
				if (trace_array_set_filter(tr, call, expr, NULL)) {
					bad++;
					continue;
				}
				fire_vals(&v);
				only_record(tr, got, sizeof(got));
				snprintf(want, sizeof(want), "s32v=%d str=%s", v.s32v, str);
				if (strcmp(got, pass ? want : "")) {
					ksft_print_msg("[%s] on \"%s\": got [%s]\n", expr, str, got);
					bad++;
				}
			}
		}
		/* A pattern that differs in its last byte only. */
		if (l) {
			snprintf(pat, sizeof(pat), "%.*s%c", l - 1, text, text[l - 1] ^ 0x20);
			snprintf(expr, sizeof(expr), "str == \"%s\"", pat);
			trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
			EXPECT_EQ(0, trace_array_set_filter(tr, call, expr, NULL));
			fire_vals(&v);
			if (entries(tr)) {
				ksft_print_msg("[%s] passed \"%s\"\n", expr, str);
				bad++;
			}
		}
	}
	EXPECT_EQ(0u, bad);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void *pinned_fire(void *arg)
{
	struct flt_vals v = base_vals();
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(*(int *)arg, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return (void *)1;
	fire_vals(&v);
	return NULL;
}

/* CPU (and cpu, common_cpu) is the CPU the probe runs on. */
static void cpu_field(void)
{
	struct trace_array *tr = trace_array_create("cpu");
	struct trace_event_call *call = call_of("flt_test", "flt_all");
	static const struct eval_case cases[] = {
		{ "CPU == 0", 1 }, { "cpu != 0", 0 }, { "common_cpu < 1", 1 }, { "CPU <= 0", 1 },
		{ "CPU > 0", 0 }, { "CPU >= 0", 1 }, { "CPU == -1", 0 },
		{ "CPU & 0", 0 }, { "CPU & 1", 0 },	/* no & for CPU in the kernel */
		{ "CPU == 4294967296", 1 },		/* compared as an int */
	};
	unsigned int i;
	pthread_t t;
	void *res;
	int cpu = 0;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", "flt_all", 1));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
		EXPECT_EQ(0, trace_array_set_filter(tr, call, cases[i].expr, NULL));
		ASSERT_EQ(0, pthread_create(&t, NULL, pinned_fire, &cpu));
		pthread_join(t, &res);
		if (res) {
			ksft_print_msg("cannot run on CPU 0\n");
			break;
		}
		if (entries(tr) != (unsigned long)cases[i].pass)
			ksft_print_msg("[%s]: recorded %lu\n", cases[i].expr, entries(tr));
		EXPECT_EQ((unsigned long)cases[i].pass, entries(tr));
	}
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* COMM (and comm) is the name of the thread that fires the event. */
static void comm_field(void)
{
	struct trace_array *tr = trace_array_create("comm");
	struct trace_event_call *call = call_of("flt_test", "flt_all");
	static const struct eval_case cases[] = {
		{ "COMM == \"flt-comm-test\"", 1 }, { "comm != \"flt-comm-test\"", 0 },
		{ "COMM ~ \"flt-*\"", 1 }, { "comm ~ \"*comm*\"", 1 }, { "COMM ~ \"f?t-c*\"", 1 },
		{ "COMM ~ \"*test\"", 0 },	/* the kernel's suffix match: all 16 bytes */
		{ "COMM == \"flt\"", 0 }, { "COMM ~ \"!flt-*\"", 0 },
	};
	struct flt_vals v = base_vals();
	char old[16] = "";
	unsigned int i;

	ASSERT_TRUE(tr != NULL);
	prctl(PR_GET_NAME, old, 0, 0, 0);
	prctl(PR_SET_NAME, "flt-comm-test", 0, 0, 0);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", "flt_all", 1));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
		EXPECT_EQ(0, trace_array_set_filter(tr, call, cases[i].expr, NULL));
		fire_vals(&v);
		if (entries(tr) != (unsigned long)cases[i].pass)
			ksft_print_msg("[%s]: recorded %lu\n", cases[i].expr, entries(tr));
		EXPECT_EQ((unsigned long)cases[i].pass, entries(tr));
	}
	/* A 15-character name fills COMM: the suffix match sees it. */
	prctl(PR_SET_NAME, "abcdefghijklmno", 0, 0, 0);
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	EXPECT_EQ(0, trace_array_set_filter(tr, call, "COMM ~ \"*mno\"", NULL));
	fire_vals(&v);
	EXPECT_EQ(1ul, entries(tr));
	prctl(PR_SET_NAME, old, 0, 0, 0);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* CPUS{} on a numeric field and on CPU; .function on a pointer-sized field. */
static void cpus_and_function(void)
{
	struct trace_array *tr = trace_array_create("cpus");
	struct trace_event_call *small = call_of("flt_test", "flt_small");
	struct trace_event_call *all = call_of("flt_test", "flt_all");
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	struct flt_vals v = base_vals();
	char expr[64];
	pthread_t t;
	int cpu = 0;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", NULL, 1));
	/* One CPU: a plain (unsigned) comparison, & as ==. */
	EXPECT_EQ(0, trace_array_set_filter(tr, small, "s32v & CPUS{0}", NULL));
	trace_flt_small(0);
	trace_flt_small(1);
	EXPECT_EQ(1ul, entries(tr));
	/* Several: in the set (&), any CPU in range (!=), never one (==). */
	if (nr > 1) {
		snprintf(expr, sizeof(expr), "s32v & CPUS{0,N}");
		trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
		EXPECT_EQ(0, trace_array_set_filter(tr, small, expr, NULL));
		trace_flt_small(0);
		trace_flt_small((int)nr - 1);
		trace_flt_small(nr > 2 ? 1 : -1);	/* not in the set */
		trace_flt_small((int)nr);		/* no such CPU */
		EXPECT_EQ(2ul, entries(tr));
		trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
		EXPECT_EQ(0, trace_array_set_filter(tr, small, "s32v != CPUS{0,N}", NULL));
		trace_flt_small(0);
		trace_flt_small((int)nr - 1);
		trace_flt_small((int)nr);
		trace_flt_small(-1);
		EXPECT_EQ(2ul, entries(tr));
		trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
		EXPECT_EQ(0, trace_array_set_filter(tr, small, "s32v == CPUS{0,N}", NULL));
		trace_flt_small(0);
		EXPECT_EQ(0ul, entries(tr));
	}
	/* CPU: pinned to CPU 0. */
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	EXPECT_EQ(0, trace_array_set_filter(tr, all, "CPU & CPUS{0,N} && CPU == CPUS{0}", NULL));
	ASSERT_EQ(0, pthread_create(&t, NULL, pinned_fire, &cpu));
	pthread_join(t, NULL);
	EXPECT_EQ(1ul, entries(tr));

	/* The address in s64v is inside getpid(), or not. */
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	EXPECT_EQ(0, trace_array_set_filter(tr, all, "s64v.function == getpid", NULL));
	v.s64v = (long long)(unsigned long)&getpid + 1;
	fire_vals(&v);
	v.s64v = 1;
	fire_vals(&v);
	EXPECT_EQ(1ul, entries(tr));
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	snprintf(expr, sizeof(expr), "s64v.function != %#lx", (unsigned long)&getpid);
	EXPECT_EQ(0, trace_array_set_filter(tr, all, expr, NULL));
	fire_vals(&v);
	v.s64v = (long long)(unsigned long)&getpid;
	fire_vals(&v);
	EXPECT_EQ(1ul, entries(tr));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/*
 * CPU ids with holes: with "0-1,4-5" possible (four CPUs, ids up to 5),
 * CPUS{} names the ids up to 5, as the kernel's nr_cpu_ids and the ring
 * buffer's rings do, not the four CPUs sysconf() counts; 6 is out of
 * range (EINVAL).  In a child with a mount namespace of its own, where
 * /sys/devices/system/cpu/possible says so (root only).  Exit status:
 * 0, KSFT_SKIP (no namespace or mount here), else what failed.
 */
static int holes_child(struct trace_array *tr, struct trace_event_call *all)
{
	static const char possible[] = "/sys/devices/system/cpu/possible";
	char fake[] = "/tmp/flt-possible.XXXXXX";
	int fd, bad = 0;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return KSFT_SKIP;
	fd = mkstemp(fake);
	if (fd < 0 || write(fd, "0-1,4-5\n", 8) != 8 || close(fd) ||
	    mount(fake, possible, NULL, MS_BIND, NULL)) {
		if (fd >= 0)
			unlink(fake);
		return KSFT_SKIP;
	}
	unlink(fake);
	if (sysconf(_SC_NPROCESSORS_CONF) != 4)
		ksft_print_msg("sysconf(_SC_NPROCESSORS_CONF) is %ld here, not 4\n",
			       sysconf(_SC_NPROCESSORS_CONF));
	if (trace_array_set_filter(tr, all, "CPU & CPUS{4,5}", NULL))
		bad |= 1;
	if (trace_array_set_filter(tr, all, "CPU == CPUS{5}", NULL))
		bad |= 2;
	if (trace_array_set_filter(tr, all, "s32v & CPUS{0-5}", NULL))
		bad |= 4;
	if (trace_array_set_filter(tr, all, "CPU & CPUS{6}", NULL) != -EINVAL)
		bad |= 8;
	return bad ? 16 + bad : 0;
}

static void cpus_with_holes(void)
{
	struct trace_array *tr = trace_array_create("holes");
	struct trace_event_call *all = call_of("flt_test", "flt_all");
	int status = -1;
	pid_t pid;

	ASSERT_TRUE(tr != NULL);
	if (geteuid()) {
		EXPECT_EQ(0, trace_array_destroy(tr));
		SKIP("CPU ids with holes: needs root (a mount namespace)");
	}
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (!pid)
		exit(holes_child(tr, all));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, trace_array_destroy(tr));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == KSFT_SKIP)
		SKIP("CPU ids with holes: no mount namespace here");
	/* 17: CPUS{4,5}, 18: CPUS{5}, 20: CPUS{0-5} refused; 24: CPUS{6} taken. */
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * A rejected event is discarded before it is committed: it takes no
 * room (a small buffer does not wrap), and it is neither an entry nor
 * written.
 */
static void rejected_costs_nothing(void)
{
	struct trace_array *tr = trace_array_create("cost");
	struct trace_event_call *call = call_of("flt_test", "flt_small");
	struct trace_buffer *buffer;
	struct trace_seq *s = malloc(sizeof(*s));
	unsigned long overrun = 0;
	int i, cpu;

	ASSERT_TRUE(tr && s);
	buffer = trace_array_buffer(tr);
	EXPECT_EQ(0, trace_array_resize_kb(tr, 4, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", "flt_small", 1));
	EXPECT_EQ(0, trace_array_set_filter(tr, call, "s32v == 7", NULL));
	trace_flt_small(7);
	for (i = 0; i < 100000; i++)
		trace_flt_small(i % 5);
	trace_flt_small(7);
	for (cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++)
		overrun += ring_buffer_overrun_cpu(buffer, cpu);
	EXPECT_EQ(2ul, ring_buffer_entries(buffer));
	EXPECT_EQ(0ul, overrun);
	trace_seq_init(s);
	trace_array_print_header(tr, s);
	if (!strstr(s->buffer, "entries-in-buffer/entries-written: 2/2"))
		ksft_print_msg("%s", s->buffer);
	EXPECT_TRUE(strstr(s->buffer, "entries-in-buffer/entries-written: 2/2") != NULL);
	free(s);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void nest_fire(int v)
{
	trace_flt_small(7);
	trace_flt_small(v);
}

/* The records of @tr in time order, as "event v after" lines, into @out. */
static void nest_records(struct trace_array *tr, char *out, size_t size)
{
	struct trace_buffer *buffer = trace_array_buffer(tr);
	struct trace_event_call *small = call_of("flt_test", "flt_small");
	size_t len = 0;

	out[0] = '\0';
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *ev;
		uint64_t ts;

		while ((ev = ring_buffer_consume(buffer, cpu, &ts, NULL))) {
			const struct trace_entry *ent = ring_buffer_event_data(ev);
			const int *f = (const int *)(ent + 1);

			if (ent->type == small->id)
				len += snprintf(out + len, size - len, "small %d;", f[0]);
			else
				len += snprintf(out + len, size - len, "nest %d %d %u;", f[0], f[2],
						(unsigned int)f[1] >> 16);
			if (len >= size)
				return;
		}
	}
}

/*
 * Keep the calling thread on the CPU it is on (its records then come back
 * in order, from that CPU's ring), the affinity it had saved in @old.
 * Return: the CPU, or -1.
 */
static int pin_here(cpu_set_t *old)
{
	int cpu = sched_getcpu();
	cpu_set_t one;

	if (cpu < 0 || sched_getaffinity(0, sizeof(*old), old))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) ? -1 : cpu;
}

/*
 * A filtered event is written into its thread's scratch record and
 * filtered there: events fired while it is being written (here from its
 * own assignment, as from a signal handler) must not overwrite it, and a
 * record too large for the scratch is filtered in the ring buffer; what
 * passes is recorded whole, what is rejected leaves nothing.
 */
static void nested_and_large(void)
{
	struct trace_array *tr = trace_array_create("nest");
	struct trace_event_call *nest = call_of("flt_nest", "flt_nest");
	struct trace_event_call *small = call_of("flt_test", "flt_small");
	char big[600], got[512];
	cpu_set_t old;

	ASSERT_TRUE(tr != NULL);
	/* One CPU: the records come back in order, CPU by CPU. */
	ASSERT_TRUE(pin_here(&old) >= 0);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_nest", "flt_nest", 1));
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", "flt_small", 1));
	EXPECT_EQ(0, trace_array_set_filter(tr, nest, "v == 1 || v == 3", NULL));
	EXPECT_EQ(0, trace_array_set_filter(tr, small, "s32v == 7 || s32v == 1", NULL));

	flt_nest_hook = nest_fire;
	trace_flt_nest(1, "one");	/* small 7, small 1, nest 1: all pass */
	trace_flt_nest(2, "two");	/* small 7 passes, small 2 and nest 2 do not */
	flt_nest_hook = NULL;
	trace_flt_nest(3, big);		/* passes, 600-byte string: no scratch */
	trace_flt_nest(4, big);		/* rejected in the ring buffer */
	nest_records(tr, got, sizeof(got));
	if (strcmp(got, "small 7;small 1;nest 1 1001 4;small 7;nest 3 1003 600;"))
		ksft_print_msg("records: %s\n", got);
	EXPECT_EQ(0, strcmp(got, "small 7;small 1;nest 1 1001 4;small 7;nest 3 1003 600;"));
	EXPECT_EQ(0, trace_array_destroy(tr));
	sched_setaffinity(0, sizeof(old), &old);
}

/* The next record of @tr on @cpu, copied to @rec: its length, or 0. */
static unsigned int next_record(struct trace_array *tr, int cpu, void *rec, unsigned int size)
{
	struct ring_buffer_event *ev = ring_buffer_consume(trace_array_buffer(tr), cpu, NULL, NULL);
	unsigned int len;

	if (!ev)
		return 0;
	len = ring_buffer_event_length(ev);
	memcpy(rec, ring_buffer_event_data(ev), len < size ? len : size);
	return len;
}

/* Whether @tr's file of @call filters in place now (trace_events.c). */
static bool in_place(struct trace_array *tr, struct trace_event_call *call)
{
	struct trace_event_file *file = trace_array_file_locked(tr, call, false);

	return file && (__atomic_load_n(&file->flags, __ATOMIC_RELAXED) &
			EVENT_FILE_FL_FILTER_INPLACE);
}

/*
 * A record that passes a filter is copied from the scratch record into
 * the ring buffer: at every length the scratch takes (strings of 0 to
 * 110 characters make records of 21 to 131 bytes, the copy's every case),
 * it is the same bytes as the record of an unfiltered instance (but for
 * the up to 3 bytes that round its length up to 4, written by no one).  All
 * fired before any is read: a read flushes the page, and the next event
 * would start a page by the slow path, which does not copy.  Then the
 * same once the event filters in place (after records that pass), where
 * the filter sees the record's length rounded up to 4 bytes.
 */
static void passed_records_whole(void)
{
	struct trace_array *f = trace_array_create("whole-f"), *u = trace_array_create("whole-u");
	struct trace_event_call *nest = call_of("flt_nest", "flt_nest");
	unsigned char want[256], got[256];
	unsigned int bad = 0, wl, gl;
	cpu_set_t old;
	char str[112];
	int cpu, l;

	ASSERT_TRUE(f && u);
	cpu = pin_here(&old);
	ASSERT_TRUE(cpu >= 0);
	EXPECT_EQ(0, trace_array_set_clr_event(f, "flt_nest", "flt_nest", 1));
	EXPECT_EQ(0, trace_array_set_clr_event(u, "flt_nest", "flt_nest", 1));
	for (int mode = 0; mode < 2; mode++) {
		EXPECT_EQ(0, trace_array_set_filter(f, nest, "v == 5", NULL));
		if (mode) {
			/* Records that pass: the probes vote for in place. */
			for (int i = 0; i < 5000; i++)
				trace_flt_nest(5, "warm");
			trace_array_clear(f, RING_BUFFER_ALL_CPUS);
			trace_array_clear(u, RING_BUFFER_ALL_CPUS);
		}
		EXPECT_EQ(mode == 1, in_place(f, nest));
		for (l = 0; l <= 110; l++) {
			for (int i = 0; i < l; i++)
				str[i] = (char)('a' + (i * 7 + l) % 26);
			str[l] = '\0';
			trace_flt_nest(5, str);
			trace_flt_nest(6, str);		/* rejected */
		}
		for (l = 0; l <= 111; l++) {
			wl = next_record(u, cpu, want, sizeof(want));
			/* The unfiltered instance has the rejected one too. */
			if (wl && next_record(u, cpu, got, sizeof(got)) != wl)
				bad++;
			gl = next_record(f, cpu, got, sizeof(got));
			if (l == 111) {
				EXPECT_EQ(0u, wl);
				EXPECT_EQ(0u, gl);
			} else if (!wl || wl != gl || memcmp(want, got, 21u + (unsigned int)l)) {
				ksft_print_msg("%s, string of %d: %u bytes unfiltered, %u filtered%s\n",
					       mode ? "in place" : "scratch", l, wl, gl,
					       wl == gl ? ", not the same" : "");
				bad++;
			}
		}
	}
	EXPECT_EQ(0u, bad);
	EXPECT_EQ(0, trace_array_destroy(f));
	EXPECT_EQ(0, trace_array_destroy(u));
	sched_setaffinity(0, sizeof(old), &old);
}

/*
 * The commits run a filter's steps without a call and stop at the first
 * step that needs one (the CPU, a glob: the interpreter's), which the
 * rest of the run takes up from there (trace_filter_run.h).  Such steps
 * first, in the middle and last, both ways (the scratch record, then in
 * place): the buffer holds exactly the records that pass.
 */
static void steps_with_calls(void)
{
	struct trace_array *tr = trace_array_create("steps-calls");
	struct trace_event_call *nest = call_of("flt_nest", "flt_nest");
	static const char *const exprs[] = {
		"str ~ \"k*\" && v == 5", "v == 5 && str ~ \"*eep\"",
		"v == 5 && CPU == %d && str == \"keep\"", "CPU != %d || (v == 5 && str ~ \"k?ep\")",
		"v != 5 || str ~ \"drop\"",
	};
	unsigned long n, bad;
	struct ring_buffer_event *ev;
	char expr[128];
	cpu_set_t old;
	int cpu;

	ASSERT_TRUE(tr != NULL);
	cpu = pin_here(&old);
	ASSERT_TRUE(cpu >= 0);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_nest", "flt_nest", 1));
	for (unsigned int e = 0; e < sizeof(exprs) / sizeof(exprs[0]); e++) {
		/* The last one rejects what the others pass, and passes the rest. */
		bool inverse = e == sizeof(exprs) / sizeof(exprs[0]) - 1;

		snprintf(expr, sizeof(expr), exprs[e], cpu);
		for (int mode = 0; mode < 2; mode++) {
			EXPECT_EQ(0, trace_array_set_filter(tr, nest, "0", NULL));
			EXPECT_EQ(0, trace_array_set_filter(tr, nest, expr, NULL));
			if (mode)	/* records that pass: the probes vote for in place */
				for (int i = 0; i < 5000; i++)
					trace_flt_nest(inverse ? 6 : 5, inverse ? "drop" : "keep");
			trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
			if (in_place(tr, nest) != (mode == 1))
				ksft_print_msg("[%s]: %s\n", expr, mode ? "not in place" : "in place");
			EXPECT_EQ(mode == 1, in_place(tr, nest));
			for (int i = 0; i < 300; i++) {
				trace_flt_nest(5, "keep");
				trace_flt_nest(5, "drop");
				trace_flt_nest(6, "keep");
			}
			n = bad = 0;
			while ((ev = ring_buffer_consume(trace_array_buffer(tr), cpu, NULL, NULL))) {
				const unsigned char *rec = ring_buffer_event_data(ev);
				unsigned int loc, v;
				const char *str;

				memcpy(&v, rec + 8, 4);
				memcpy(&loc, rec + 12, 4);
				str = (const char *)rec + (loc & 0xffff);
				if (inverse ? v == 5 && !strcmp(str, "keep") :
					      v != 5 || strcmp(str, "keep"))
					bad++;
				n++;
			}
			if (n != (inverse ? 600ul : 300ul) || bad)
				ksft_print_msg("[%s], %s: %lu records, %lu wrong\n", expr,
					       mode ? "in place" : "scratch", n, bad);
			EXPECT_EQ(inverse ? 600ul : 300ul, n);
			EXPECT_EQ(0ul, bad);
		}
	}
	EXPECT_EQ(0, trace_array_destroy(tr));
	sched_setaffinity(0, sizeof(old), &old);
}

/*
 * A filter that passes most of what it sees switches its event to
 * filtering in place (records reserved in the ring buffer, the rejected
 * given back), one that rejects most switches it back to the scratch
 * record.  Either way, and while it switches back and forth (one record
 * in five passing; one in two, from two threads at once), the buffer
 * holds every record that passed and nothing else, and counts nothing
 * lost.
 */
static void *fire_half(void *arg)
{
	(void)arg;
	for (int i = 0; i < 200000; i++)
		trace_flt_small(i & 1 ? 3 : 7);
	return NULL;
}

static void filter_in_place(void)
{
	pthread_t tids[2];
	struct trace_array *tr = trace_array_create("inplace");
	struct trace_event_call *call = call_of("flt_test", "flt_small");
	struct trace_buffer *buffer;
	unsigned long overrun = 0, bad = 0, n = 0;
	cpu_set_t old;
	int cpu;

	ASSERT_TRUE(tr != NULL);
	buffer = trace_array_buffer(tr);
	cpu = pin_here(&old);
	ASSERT_TRUE(cpu >= 0);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", "flt_small", 1));
	EXPECT_EQ(0, trace_array_set_filter(tr, call, "s32v == 7", NULL));
	EXPECT_FALSE(in_place(tr, call));
	for (int i = 0; i < 5000; i++)
		trace_flt_small(7);
	EXPECT_TRUE(in_place(tr, call));
	EXPECT_EQ(5000ul, ring_buffer_entries(buffer));
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	for (int i = 0; i < 50000; i++)
		trace_flt_small(i % 5 ? i % 5 : 7);
	for (int i = 0; i < 5000; i++)
		trace_flt_small(3);
	EXPECT_FALSE(in_place(tr, call));
	for (int c = 0; c < ring_buffer_nr_cpus(buffer); c++)
		overrun += ring_buffer_overrun_cpu(buffer, c) +
			   ring_buffer_commit_overrun_cpu(buffer, c) +
			   ring_buffer_dropped_events_cpu(buffer, c);
	EXPECT_EQ(0ul, overrun);
	EXPECT_EQ(10000ul, ring_buffer_entries(buffer));
	for (struct ring_buffer_event *ev;
	     (ev = ring_buffer_consume(buffer, cpu, NULL, NULL)); n++) {
		const struct trace_entry *ent = ring_buffer_event_data(ev);

		if (ent->type != call->id || *(const int *)(ent + 1) != 7)
			bad++;
	}
	EXPECT_EQ(10000ul, n);
	EXPECT_EQ(0ul, bad);
	sched_setaffinity(0, sizeof(old), &old);

	/* Two threads voting at once, one record in two passing. */
	EXPECT_EQ(0, trace_array_resize_kb(tr, 8192, RING_BUFFER_ALL_CPUS));
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	for (int t = 0; t < 2; t++)
		ASSERT_EQ(0, pthread_create(&tids[t], NULL, fire_half, NULL));
	for (int t = 0; t < 2; t++)
		pthread_join(tids[t], NULL);
	overrun = n = bad = 0;
	for (int c = 0; c < ring_buffer_nr_cpus(buffer); c++) {
		struct ring_buffer_event *ev;

		overrun += ring_buffer_overrun_cpu(buffer, c) +
			   ring_buffer_commit_overrun_cpu(buffer, c) +
			   ring_buffer_dropped_events_cpu(buffer, c);
		for (; (ev = ring_buffer_consume(buffer, c, NULL, NULL)); n++)
			if (*(const int *)((const struct trace_entry *)
					   ring_buffer_event_data(ev) + 1) != 7)
				bad++;
	}
	EXPECT_EQ(0ul, overrun);
	EXPECT_EQ(2ul * 100000, n);
	EXPECT_EQ(0ul, bad);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/*
 * The filter lives on the instance's event: it waits for the event to be
 * enabled, stays when it is disabled, does not touch other instances,
 * and an error leaves the event unfiltered.
 */
static void filter_per_instance(void)
{
	struct trace_array *a = trace_array_create("fa"), *b = trace_array_create("fb");
	struct trace_event_call *call = call_of("flt_test", "flt_small");
	struct trace_err err;

	ASSERT_TRUE(a && b);
	EXPECT_STREQ("none\n", filter_text(a, call));
	EXPECT_EQ(0, trace_array_set_filter(a, call, "s32v > 10\n", &err));
	EXPECT_STREQ("s32v > 10\n", filter_text(a, call));
	EXPECT_STREQ("none\n", filter_text(b, call));
	EXPECT_EQ(0, trace_array_set_clr_event(a, "flt_test", NULL, 1));
	EXPECT_EQ(0, trace_array_set_clr_event(b, "flt_test", NULL, 1));
	trace_flt_small(5);
	trace_flt_small(50);
	EXPECT_EQ(1ul, entries(a));
	EXPECT_EQ(2ul, entries(b));
	EXPECT_EQ(0, trace_array_set_clr_event(a, "flt_test", NULL, 0));
	EXPECT_STREQ("s32v > 10\n", filter_text(a, call));
	EXPECT_EQ(0, trace_array_set_clr_event(a, "flt_test", NULL, 1));
	trace_flt_small(6);
	EXPECT_EQ(1ul, entries(a));
	/* An error: unfiltered, the file shows why. */
	EXPECT_EQ(-EINVAL, trace_array_set_filter(a, call, "s32v > x", &err));
	trace_flt_small(6);
	EXPECT_EQ(2ul, entries(a));
	EXPECT_STREQ("s32v > x\n        ^\nparse_error: Invalid value (did you forget quotes)?\n\n",
		     filter_text(a, call));
	/* "0" clears; an empty write is an error, as the kernel's. */
	EXPECT_EQ(0, trace_array_set_filter(a, call, "s32v == 1", &err));
	EXPECT_EQ(0, trace_array_set_filter(a, call, " 0\n", &err));
	EXPECT_STREQ("none\n", filter_text(a, call));
	EXPECT_EQ(-EINVAL, trace_array_set_filter(a, call, "", &err));
	EXPECT_STREQ("\nError: (0)\n\n", filter_text(a, call));
	EXPECT_STREQ("Error", err.msg);
	/* Instances go away with their filters (ASan checks the leak). */
	EXPECT_EQ(0, trace_array_set_filter(b, call, "s32v == 1", &err));
	EXPECT_EQ(0, trace_array_destroy(a));
	EXPECT_EQ(0, trace_array_destroy(b));
}

/* The system file, events without the fields, unknown systems, limits. */
static void system_filters(void)
{
	struct trace_array *tr = trace_array_create("sys");
	struct trace_event_call *all = call_of("flt_test", "flt_all");
	struct trace_event_call *small = call_of("flt_test", "flt_small");
	struct flt_vals v = base_vals();
	unsigned int failed = 0;
	struct trace_err err;
	struct trace_seq s;
	char *big;

	ASSERT_TRUE(tr != NULL);
	trace_seq_init(&s);
	trace_array_print_system_filter(tr, "flt_test", &s);
	EXPECT_STREQ("### global filter ###\n"
		     "# Use this to set filters for multiple events.\n"
		     "# Only events with the given fields will be affected.\n"
		     "# If no events are modified, an error message will be displayed here\n",
		     s.buffer);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", NULL, 1));
	EXPECT_EQ(0, trace_array_set_filter(tr, small, "s32v == 99", &err));
	/* flt_small has no str: it loses its filter, as in the kernel. */
	EXPECT_EQ(0, trace_array_set_system_filter_count(tr, "flt_test", "str ~ \"hello*\"",
							 &err, &failed));
	EXPECT_EQ(1u, failed);
	EXPECT_STREQ("str ~ \"hello*\"\n", filter_text(tr, all));
	EXPECT_STREQ("str ~ \"hello*\"\n^\n"
		     "parse_error: Couldn't find or set field in one of a subsystem's events\n\n",
		     filter_text(tr, small));
	trace_flt_small(1);
	fire_vals(&v);
	v.str = "bye";
	fire_vals(&v);
	EXPECT_EQ(2ul, entries(tr));
	/* Fields every event has: all take it. */
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
	EXPECT_EQ(0, trace_array_set_system_filter_count(tr, "flt_test", "s32v < 0 && CPU >= 0",
							 &err, &failed));
	EXPECT_EQ(0u, failed);
	trace_flt_small(1);
	trace_flt_small(-1);
	fire_vals(&v);
	EXPECT_EQ(2ul, entries(tr));
	/* No event took it: still a success, every event unfiltered. */
	EXPECT_EQ(0, trace_array_set_system_filter_count(tr, "flt_test", "nope == 1", &err,
							 &failed));
	EXPECT_EQ(2u, failed);
	EXPECT_EQ(-ENOENT, trace_array_set_system_filter(tr, "no_such_system", "s32v == 1", &err));
	EXPECT_EQ(0, trace_array_set_system_filter(tr, "flt_test", "0", &err));
	EXPECT_STREQ("none\n", filter_text(tr, small));
	/* 4096 bytes or more: refused, nothing changed. */
	big = malloc(4097);
	ASSERT_TRUE(big != NULL);
	memset(big, ' ', 4096);
	big[4096] = '\0';
	memcpy(big, "s32v == 1", 9);
	EXPECT_EQ(-EINVAL, trace_array_set_filter(tr, small, big, &err));
	EXPECT_EQ(-EINVAL, trace_array_set_system_filter(tr, "flt_test", big, &err));
	EXPECT_STREQ("none\n", filter_text(tr, small));
	big[4095] = '\0';
	EXPECT_EQ(0, trace_array_set_filter(tr, small, big, &err));
	EXPECT_STREQ("s32v == 1\n", filter_text(tr, small));
	free(big);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* The calls the triggers' "if FILTER" uses. */
static void compile_api(void)
{
	struct trace_event_call *call = call_of("sched", "sched_switch");
	struct event_filter *f;
	struct trace_seq s;
	struct trace_err terr;
	int pos = -1;
	struct {
		struct trace_entry	ent;
		char			prev_comm[16];
		int			prev_pid, prev_prio;
		long			prev_state;
		char			next_comm[16];
		int			next_pid, next_prio;
	} rec = { .prev_comm = "bash", .prev_pid = 42, .next_comm = "sh", .next_pid = 7 };

	trace_seq_init(&s);
	f = event_filter_compile(call, "prev_pid == 42 && next_comm ~ \"s*\"", &s, &pos);
	ASSERT_TRUE(f != NULL);
	EXPECT_STREQ("prev_pid == 42 && next_comm ~ \"s*\"", event_filter_string(f));
	EXPECT_TRUE(event_filter_match(f, &rec, sizeof(rec)));
	rec.prev_pid = 43;
	EXPECT_FALSE(event_filter_match(f, &rec, sizeof(rec)));
	/* Too short for the fields it reads: rejected, never read past. */
	rec.prev_pid = 42;
	EXPECT_FALSE(event_filter_match(f, &rec, 20));
	event_filter_free(f);
	EXPECT_TRUE(event_filter_match(NULL, &rec, sizeof(rec)));

	errno = 0;
	EXPECT_TRUE(event_filter_compile(call, "prev_pid == 1)", &s, &pos) == NULL);
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(13, pos);
	EXPECT_STREQ("prev_pid == 1)\n             ^\nparse_error: Too few '('\n", s.buffer);
	trace_seq_init(&s);
	EXPECT_TRUE(event_filter_compile_log(call, "prev_comm == \"x", &s, &terr) == NULL);
	EXPECT_EQ(ESRCH, errno);
	EXPECT_STREQ("Missing matching quote", terr.msg);
	EXPECT_EQ(13u, terr.pos);
}

struct churn {
	int	stop;
	long	fired;
};

static void *churn_fire(void *arg)
{
	struct churn *c = arg;
	struct flt_vals v = base_vals();

	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		v.s32v = (int)(__atomic_fetch_add(&c->fired, 1, __ATOMIC_RELAXED) & 7);
		fire_vals(&v);
		trace_flt_small(v.s32v);
	}
	return NULL;
}

/* Filters replaced, failed and cleared while two threads record. */
static void churn(void)
{
	static const char *const exprs[] = {
		"s32v == 1", "s32v < 4 && str ~ \"hel*\"", "bad == 1", "0",
		"!(s32v & 1) || COMM ~ \"*\"", "s32v >= 0 && CPU >= 0", "(s32v == 3",
	};
	struct trace_array *tr = trace_array_create("churn");
	struct trace_event_call *all = call_of("flt_test", "flt_all");
	struct churn c = { 0 };
	pthread_t t[2];
	unsigned int i;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "flt_test", NULL, 1));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, churn_fire, &c));
	/* Let both threads start recording first. */
	while (__atomic_load_n(&c.fired, __ATOMIC_RELAXED) < 1000)
		sched_yield();
	for (i = 0; i < 300; i++) {
		trace_array_set_filter(tr, all, exprs[i % 7], NULL);
		trace_array_set_system_filter(tr, "flt_test", exprs[(i + 3) % 7], NULL);
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(17);
	KSFT_RUN(kernel_texts_match);
	KSFT_RUN(documented_examples);
	KSFT_RUN(operators_and_fields);
	KSFT_RUN(string_lengths);
	KSFT_RUN(cpu_field);
	KSFT_RUN(comm_field);
	KSFT_RUN(cpus_and_function);
	KSFT_RUN(cpus_with_holes);
	KSFT_RUN(rejected_costs_nothing);
	KSFT_RUN(nested_and_large);
	KSFT_RUN(passed_records_whole);
	KSFT_RUN(steps_with_calls);
	KSFT_RUN(filter_in_place);
	KSFT_RUN(filter_per_instance);
	KSFT_RUN(system_filters);
	KSFT_RUN(compile_api);
	KSFT_RUN(churn);
	ksft_finished();
	return 0;
}
