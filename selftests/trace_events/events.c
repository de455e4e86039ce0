// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * TRACE_EVENT(): format texts (against the kernel's, embedded), records
 * written by the sample events, their rendering against libtraceevent's,
 * and enabling per event, per system and all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "kselftest.h"
#include "tep-glue.h"

#define CREATE_TRACE_POINTS
#include "kernel-events.h"
#include "trace-events-sample.h"

static int fn_registered, fn_reg_calls;

int foo_bar_reg(void)
{
	fn_registered = 1;
	fn_reg_calls++;
	return 0;
}

void foo_bar_unreg(void)
{
	fn_registered = 0;
}

static char fmt_buf[8192];

static const char *format_of(const char *system, const char *name)
{
	struct trace_event_call *call = trace_find_event_call(system, name);
	int len;

	if (!call)
		return "(not registered)";
	len = trace_event_format(call, fmt_buf, sizeof(fmt_buf));
	if (len < 0 || len >= (int)sizeof(fmt_buf))
		return "(no format)";
	return fmt_buf;
}

/* From /sys/kernel/tracing/events/irq/irq_handler_entry/format (6.18). */
static const char irq_handler_entry_format[] =
	"name: irq_handler_entry\n"
	"ID: %d\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"irq=%%d name=%%s\", REC->irq, __get_str(name)\n";

/* From events/sched/sched_process_exec/format. */
static const char sched_process_exec_format[] =
	"name: sched_process_exec\n"
	"ID: %d\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"filename=%%s pid=%%d old_pid=%%d\", __get_str(filename), "
	"REC->pid, REC->old_pid\n";

/* The fields of events/sched/sched_switch/format. */
static const char sched_switch_fields[] =
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: ";

static void expect_golden(const char *system, const char *name,
			  const char *golden)
{
	struct trace_event_call *call = trace_find_event_call(system, name);
	char want[2048];

	ASSERT_TRUE(call != NULL);
	snprintf(want, sizeof(want), golden, call->id);
	EXPECT_STREQ(want, format_of(system, name));
}

static void format_irq_handler_entry(void)
{
	expect_golden("ktest", "irq_handler_entry", irq_handler_entry_format);
}

static void format_sched_process_exec(void)
{
	expect_golden("ktest", "sched_process_exec", sched_process_exec_format);
}

static void format_sched_switch_fields(void)
{
	const char *fmt = format_of("ktest", "sched_switch_fields");
	const char *start = strstr(fmt, "\n\n");

	ASSERT_TRUE(start != NULL);
	EXPECT_EQ(0, strncmp(start + 2, sched_switch_fields,
			     strlen(sched_switch_fields)));
	if (strncmp(start + 2, sched_switch_fields, strlen(sched_switch_fields)))
		ksft_print_msg("got:\n%s", fmt);
}

/* The offsets the library prints are where the compiler put the fields. */
static void format_offsets(void)
{
	static const struct { const char *name; unsigned int offset; } fields[] = {
#define F(x) { #x, offsetof(struct trace_event_raw_foo_bar, x) }
		F(foo), F(bar), F(__data_loc_list), F(__data_loc_str),
		F(__data_loc_lstr), F(__data_loc_cpus), F(pair),
#undef F
	};
	const char *fmt = format_of("sample_trace", "foo_bar");
	unsigned int i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const char *name = fields[i].name;
		char needle[64];
		const char *at;

		if (!strncmp(name, "__data_loc_", 11))
			name += 11;
		snprintf(needle, sizeof(needle), " %s;\toffset:", name);
		at = strstr(fmt, needle);
		if (!at && !strcmp(name, "foo"))
			at = strstr(fmt, " foo[10];\toffset:") - 0;
		ASSERT_TRUE(at != NULL);
		at = strstr(at, "offset:") + 7;
		EXPECT_EQ(fields[i].offset, (unsigned int)strtoul(at, NULL, 10));
	}
}

struct id_check {
	int min, count, dup, ftrace;
	unsigned char seen[TRACE_EVENT_TYPE_MAX + 1];
};

static void check_id(struct trace_event_call *call, void *priv)
{
	struct id_check *c = priv;

	/* The library's own ftrace:print (5) and ftrace:raw_data (19). */
	if (call->flags & TRACE_EVENT_FL_FTRACE) {
		c->ftrace += call->id == 5 || call->id == 19;
		return;
	}
	if (call->id < c->min)
		c->min = call->id;
	if (c->seen[call->id]++)
		c->dup++;
	c->count++;
}

static void ids(void)
{
	struct id_check *c = calloc(1, sizeof(*c));
	struct trace_event_call *call;

	ASSERT_TRUE(c != NULL);
	c->min = TRACE_EVENT_TYPE_MAX;
	trace_for_each_event_call(check_id, c);
	EXPECT_EQ(11, c->count);
	EXPECT_EQ(TRACE_EVENT_FIRST_ID, c->min);
	EXPECT_EQ(0, c->dup);
	EXPECT_EQ(2, c->ftrace);
	free(c);
	call = trace_find_event_call("sample_trace", "foo_bar");
	ASSERT_TRUE(call != NULL);
	EXPECT_EQ(-EEXIST, trace_add_event_call(call));
}

static void parse_one(struct trace_event_call *call, void *priv)
{
	int *failures = priv;
	char *buf = malloc(8192);
	int err;

	if (!buf || trace_event_format(call, buf, 8192) >= 8192) {
		(*failures)++;
		free(buf);
		return;
	}
	printf("# parsing %s:%s\n", call->event_class->system, call->name);
	fflush(stdout);
	err = tep_glue_parse(buf, call->event_class->system);
	if (err) {
		printf("# tep_parse_format(%s) = %d\n%s", call->name, err, buf);
		(*failures)++;
	}
	free(buf);
}

static void libtraceevent_parses_all(void)
{
	int failures = 0;

	trace_for_each_event_call(parse_one, &failures);
	EXPECT_EQ(0, failures);
	EXPECT_EQ(0, tep_glue_warnings());
}

static void fire_all(int i)
{
	static const int list[] = { 1, 2, 3, 0x10 };
	static const unsigned char bytes[] = { 0xde, 0xad, 0xbe, 0xef };
	unsigned long mask[64 / (8 * sizeof(long))] = { 0x5 };
	struct sample_pair pair = { i, -i };

	trace_foo_bar("hello", i, list, i % 4 + 1, "a string", mask, &pair);
	trace_foo_array(list, i % 4 + 1);
	trace_foo_bar_with_cond("cond", i);
	trace_foo_bar_with_fn("fn", i);
	trace_foo_with_template_simple("simple", i);
	trace_foo_with_template_cond("tcond", i);
	trace_foo_with_template_print("print", i);
	trace_foo_hex(bytes, i % 4 + 1, i % 2 ? 0x10000000001ull : 0x1ull);
	trace_irq_handler_entry(i, "eth0");
	trace_sched_process_exec("/bin/true", i, i + 1);
	trace_sched_switch_fields("prev", i, 120, 1, "next", i + 1, 100);
}

/*
 * libtraceevent 1.7 prints __print_array() as "1 2 16" where the kernel
 * (and we) print "{0x1,0x2,0x10}": accept exactly that difference.
 */
static int array_agrees(const char *ours, const char *theirs)
{
	char want[512] = "(";
	const char *p = ours + 2;

	while (*p && *p != '}') {
		unsigned long v = strtoul(p, (char **)&p, 16);

		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "%s%lu", want[1] ? " " : "", v);
		if (*p == ',')
			p++;
	}
	strcat(want, ")");
	return !strcmp(want, theirs);
}

/* Consume everything; render each record both ways into @lines. */
static int drain(char (*lines)[256], int max, int *mismatches)
{
	struct trace_buffer *buffer = trace_get_global_buffer();
	int cpu, n = 0;

	*mismatches = 0;
	for (cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *event;
		uint64_t ts;

		while ((event = ring_buffer_consume(buffer, cpu, &ts, NULL))) {
			struct trace_entry *entry = ring_buffer_event_data(event);
			unsigned int len = ring_buffer_event_length(event);
			char theirs[512];
			struct trace_seq s;
			int err;

			trace_seq_init(&s);
			err = trace_print_event(&s, entry, len);
			tep_glue_render(entry, len, theirs, sizeof(theirs));
			if (!err && !strcmp(s.buffer, theirs))
				;
			else if (!err && !strncmp(s.buffer, "({", 2) &&
				 array_agrees(s.buffer, theirs))
				;
			else {
				printf("# ours (%d): %s\n# libtraceevent: %s\n",
				       err, s.buffer, theirs);
				(*mismatches)++;
			}
			if (entry->pid != (int)syscall(SYS_gettid) ||
			    entry->flags || entry->preempt_count) {
				printf("# bad common fields: pid %d flags %d pc %d\n",
				       entry->pid, entry->flags,
				       entry->preempt_count);
				(*mismatches)++;
			}
			if (n < max)
				snprintf(lines[n], 256, "%s", s.buffer);
			n++;
		}
	}
	return n;
}

static char lines[256][256];

static int has_line(int n, const char *want)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(lines[i], want))
			return 1;
	return 0;
}

static void record_and_render(void)
{
	int n, mismatches;

	drain(lines, 0, &mismatches);
	ASSERT_EQ(0, trace_set_clr_event(NULL, NULL, 1));
	EXPECT_EQ(1, fn_registered);
	for (int i = 0; i < 11; i++)
		fire_all(i);
	ASSERT_EQ(0, trace_set_clr_event(NULL, NULL, 0));
	EXPECT_EQ(0, fn_registered);
	n = drain(lines, 256, &mismatches);
	/* 8 unconditional events, 2 of cond (0, 10), 2 of tcond (0, 8) */
	EXPECT_EQ(11 * 9 + 2 + 2, n);
	EXPECT_EQ(0, mismatches);
	EXPECT_TRUE(has_line(n, "foo hello 3 BIT1|BIT2 three a string a s "
			     "00000000,00000005"));
	EXPECT_TRUE(has_line(n, "foo hello 10 BIT2|BIT4 0xa a string a s "
			     "00000000,00000005"));
	EXPECT_TRUE(has_line(n, "({0x1,0x2,0x3,0x10})"));
	EXPECT_TRUE(has_line(n, "hex=[de ad] str=dead flags=HIGH|LOW sym=BOTH "
			     "small=02 00 ef be"));
	EXPECT_TRUE(has_line(n, "foo cond 10"));
	EXPECT_FALSE(has_line(n, "foo cond 5"));
	EXPECT_TRUE(has_line(n, "foo tcond 8"));
	EXPECT_TRUE(has_line(n, "bar print 7"));
	EXPECT_TRUE(has_line(n, "irq=4 name=eth0"));
	EXPECT_TRUE(has_line(n, "filename=/bin/true pid=2 old_pid=3"));
}

static void enable_disable(void)
{
	struct trace_event_call *simple, *hex;
	int n, mismatches;

	simple = trace_find_event_call("sample_trace", "foo_with_template_simple");
	hex = trace_find_event_call("sample_trace", "foo_hex");
	ASSERT_TRUE(simple && hex);
	drain(lines, 0, &mismatches);

	/* All off: nothing recorded, the static keys are off. */
	fire_all(1);
	EXPECT_EQ(0, drain(lines, 256, &mismatches));
	EXPECT_FALSE(trace_foo_bar_enabled());

	/* One event. */
	EXPECT_EQ(0, trace_set_clr_event("sample_trace", "foo_with_template_simple", 1));
	EXPECT_EQ(1, trace_event_is_enabled(simple));
	EXPECT_EQ(0, trace_event_is_enabled(hex));
	fire_all(1);
	n = drain(lines, 256, &mismatches);
	EXPECT_EQ(1, n);
	EXPECT_STREQ("foo simple 1", lines[0]);

	/* Enabling twice is no error. */
	EXPECT_EQ(0, trace_set_clr_event("sample_trace", "foo_with_template_simple", 1));

	/* A system. */
	EXPECT_EQ(0, trace_set_clr_event("ktest", NULL, 1));
	fire_all(1);
	EXPECT_EQ(4, drain(lines, 256, &mismatches));
	EXPECT_EQ(0, trace_set_clr_event("ktest", NULL, 0));
	EXPECT_EQ(0, trace_set_clr_event("sample_trace", "foo_with_template_simple", 0));
	fire_all(1);
	EXPECT_EQ(0, drain(lines, 256, &mismatches));

	/* Unknown names match nothing. */
	EXPECT_EQ(-EINVAL, trace_set_clr_event("nosuch", NULL, 1));
	EXPECT_EQ(-EINVAL, trace_set_clr_event("sample_trace", "nosuch", 1));
	EXPECT_EQ(1, fn_reg_calls);
}

static void print_bad_records(void)
{
	struct trace_event_call *call = trace_find_event_call("ktest", "irq_handler_entry");
	struct {
		struct trace_entry ent;
		int irq;
		unsigned int loc;
		char data[8];
	} rec = { { 0, 0, 0, 1 }, 5, (4u << 16) | 16, "abc" };
	struct trace_seq s;

	ASSERT_TRUE(call != NULL);
	rec.ent.type = call->id;
	trace_seq_init(&s);
	EXPECT_EQ(0, trace_print_event(&s, &rec, sizeof(rec)));
	EXPECT_STREQ("irq=5 name=abc", s.buffer);
	/* The string's NUL outside the record, data outside, too short. */
	rec.loc = (4u << 16) | 22;
	EXPECT_EQ(-EINVAL, trace_print_event(&s, &rec, sizeof(rec)));
	rec.loc = (40u << 16) | 16;
	EXPECT_EQ(-EINVAL, trace_print_event(&s, &rec, sizeof(rec)));
	rec.loc = (4u << 16) | 16;
	EXPECT_EQ(-EINVAL, trace_print_event(&s, &rec, 12));
	rec.data[3] = 'd';
	EXPECT_EQ(-EINVAL, trace_print_event(&s, &rec, sizeof(rec)));
	rec.ent.type = 20;
	EXPECT_EQ(-ENOENT, trace_print_event(&s, &rec, sizeof(rec)));
	EXPECT_STREQ("irq=5 name=abc", s.buffer);
}

#define NR_THREADS	4
#define PER_THREAD	1000

static int thread_tids[NR_THREADS];

static void *fire_thread(void *arg)
{
	int t = (int)(long)arg;

	thread_tids[t] = (int)syscall(SYS_gettid);
	for (int i = 0; i < PER_THREAD; i++)
		trace_foo_with_template_simple("thread", t * PER_THREAD + i);
	return NULL;
}

/* Many threads record; every record comes back once, with its writer's tid. */
static void threads(void)
{
	struct trace_buffer *buffer = trace_get_global_buffer();
	static unsigned char seen[NR_THREADS * PER_THREAD];
	pthread_t th[NR_THREADS];
	int cpu, n = 0, bad = 0, mismatches;

	drain(lines, 0, &mismatches);
	ASSERT_EQ(0, trace_set_clr_event("sample_trace", "foo_with_template_simple", 1));
	for (long t = 0; t < NR_THREADS; t++)
		ASSERT_EQ(0, pthread_create(&th[t], NULL, fire_thread, (void *)t));
	for (int t = 0; t < NR_THREADS; t++)
		pthread_join(th[t], NULL);
	ASSERT_EQ(0, trace_set_clr_event("sample_trace", "foo_with_template_simple", 0));

	for (cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *event;

		while ((event = ring_buffer_consume(buffer, cpu, NULL, NULL))) {
			struct trace_entry *entry = ring_buffer_event_data(event);
			unsigned int len = ring_buffer_event_length(event);
			char theirs[256];
			struct trace_seq s;
			int v = -1, t;

			trace_seq_init(&s);
			tep_glue_render(entry, len, theirs, sizeof(theirs));
			if (trace_print_event(&s, entry, len) ||
			    strcmp(s.buffer, theirs) ||
			    sscanf(s.buffer, "foo thread %d", &v) != 1 ||
			    v < 0 || v >= NR_THREADS * PER_THREAD || seen[v]++) {
				bad++;
				continue;
			}
			t = v / PER_THREAD;
			if (entry->pid != thread_tids[t])
				bad++;
			n++;
		}
	}
	EXPECT_EQ(NR_THREADS * PER_THREAD, n);
	EXPECT_EQ(0, bad);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(10);
	if (tep_glue_init())
		ksft_exit_fail_msg("tep_alloc failed\n");
	KSFT_RUN(format_irq_handler_entry);
	KSFT_RUN(format_sched_process_exec);
	KSFT_RUN(format_sched_switch_fields);
	KSFT_RUN(format_offsets);
	KSFT_RUN(ids);
	KSFT_RUN(libtraceevent_parses_all);
	KSFT_RUN(record_and_render);
	KSFT_RUN(enable_disable);
	KSFT_RUN(print_bad_records);
	KSFT_RUN(threads);
	ksft_finished();
}
