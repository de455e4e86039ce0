// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The instance engine (kernel/trace/trace_array.h): per-instance event
 * enables, soft mode, tracing_on, pid filters, markers, options, clocks,
 * resize, and instances created and removed while events fire.  Linked
 * with libustrace.a: the engine's control calls are internal to the
 * library.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define CREATE_TRACE_POINTS
#include "to-events.h"

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/trace.h"
#include "kselftest.h"

static struct trace_event_call *to_call(void)
{
	return trace_find_event_call("to_test", "to_value");
}

/* Event lines of @tr's trace file (header skipped), consumed or not. */
static char *lines(struct trace_array *tr, int consume)
{
	struct trace_iterator *iter = trace_array_iterator_open(tr, consume,
								RING_BUFFER_ALL_CPUS);
	struct trace_seq *s = malloc(sizeof(*s));
	char *out;

	if (!iter || !s)
		return NULL;
	trace_seq_init(s);
	while (trace_iterator_print_line(iter, s) == 1)
		;
	trace_iterator_close(iter);
	out = strdup(s->buffer);
	free(s);
	return out;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void per_instance_enable(void)
{
	struct trace_array *a = trace_array_create("a"), *b = trace_array_create("b");
	char *ta, *tb, *top;

	ASSERT_TRUE(a && b);
	EXPECT_TRUE(trace_array_create("a") == NULL && errno == EEXIST);
	EXPECT_TRUE(trace_array_create("x/y") == NULL && errno == EINVAL);
	EXPECT_TRUE(trace_array_create("..") == NULL && errno == EINVAL);
	EXPECT_EQ(0, trace_array_set_clr_event(a, "to_test", "to_value", 1));
	EXPECT_EQ(0, trace_array_set_clr_event(b, "to_test", NULL, 1));
	EXPECT_EQ(-EINVAL, trace_array_set_clr_event(b, "nosuch", NULL, 1));
	EXPECT_EQ(TRACE_EVENT_ENABLED, trace_array_event_state(a, to_call()));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(NULL, to_call()));
	trace_to_value(1, "both");
	EXPECT_EQ(0, trace_array_set_clr_event(b, NULL, NULL, 0));
	trace_to_value(2, "a-only");
	ta = lines(a, 0);
	tb = lines(b, 0);
	top = lines(NULL, 0);
	ASSERT_TRUE(ta && tb && top);
	EXPECT_EQ(1, count(ta, "to_value: v=1 who=both"));
	EXPECT_EQ(1, count(ta, "to_value: v=2 who=a-only"));
	EXPECT_EQ(1, count(tb, "to_value: v=1 who=both"));
	EXPECT_EQ(0, count(tb, "v=2"));
	EXPECT_EQ(0, count(top, "to_value"));
	free(ta), free(tb), free(top);
	/* An open file holds a reference: rmdir is EBUSY. */
	trace_array_get(a);
	EXPECT_EQ(-EBUSY, trace_array_destroy(a));
	trace_array_put(a);
	EXPECT_EQ(0, trace_array_destroy(a));
	EXPECT_EQ(0, trace_array_destroy(b));
	EXPECT_EQ(-EINVAL, trace_array_destroy(trace_array_top()));
	trace_to_value(3, "gone");		/* no instance left to write into */
	EXPECT_TRUE(trace_array_get_by_name("a") == NULL);
}

static void set_event_text(void)
{
	struct trace_array *tr = trace_array_create("se");
	struct trace_seq s;

	ASSERT_TRUE(tr != NULL);
	trace_seq_init(&s);
	trace_array_print_set_event(tr, &s);
	EXPECT_STREQ("", s.buffer);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "to_test", "to_value", 1));
	trace_array_print_set_event(tr, &s);
	EXPECT_STREQ("to_test:to_value\n", s.buffer);
	/* The library's ftrace events cannot be enabled. */
	EXPECT_EQ(-EINVAL, trace_array_set_clr_event(tr, "ftrace", "print", 1));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void soft_mode(void)
{
	struct trace_array *tr = trace_array_create("soft");
	struct trace_event_call *call = to_call();
	char *t;

	ASSERT_TRUE(tr != NULL);
	/* Entering soft mode attaches the probe, soft disabled: "0*". */
	EXPECT_EQ(0, trace_array_soft_mode(tr, call, 1));
	EXPECT_EQ(TRACE_EVENT_SOFT_DISABLED, trace_array_event_state(tr, call));
	trace_to_value(10, "soft-off");
	EXPECT_EQ(0, trace_array_soft_disable(tr, call, 0));
	EXPECT_EQ(TRACE_EVENT_SOFT_ENABLED, trace_array_event_state(tr, call));
	trace_to_value(11, "soft-on");
	EXPECT_EQ(0, trace_array_soft_disable(tr, call, 1));
	trace_to_value(12, "soft-off-again");
	/* echo 1 > enable in soft mode clears the soft-disabled bit. */
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "to_test", "to_value", 1));
	EXPECT_EQ(TRACE_EVENT_SOFT_ENABLED, trace_array_event_state(tr, call));
	trace_to_value(13, "enabled");
	/* echo 0 > enable in soft mode keeps it attached, soft disabled. */
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "to_test", "to_value", 0));
	EXPECT_EQ(TRACE_EVENT_SOFT_DISABLED, trace_array_event_state(tr, call));
	trace_to_value(14, "off");
	EXPECT_EQ(0, trace_array_soft_mode(tr, call, 0));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, call));
	EXPECT_EQ(-EINVAL, trace_array_soft_disable(tr, call, 0));
	t = lines(tr, 0);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(0, count(t, "v=10 "));
	EXPECT_EQ(1, count(t, "v=11 "));
	EXPECT_EQ(0, count(t, "v=12 "));
	EXPECT_EQ(1, count(t, "v=13 "));
	EXPECT_EQ(0, count(t, "v=14 "));
	free(t);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void *other_thread(void *arg)
{
	*(int *)arg = (int)syscall(SYS_gettid);
	trace_to_value(21, "other");
	return NULL;
}

/* Lists itself alone (a thread id that is no process's) and fires. */
static void *listed_thread(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (trace_array_set_event_pids(arg, 0, &tid, 1, 0))
		return arg;
	trace_to_value(23, "listed");
	return NULL;
}

/*
 * set_event_pid: a thread id lists that thread; a process id (the main
 * thread's id) every thread of the process (tracefs.rst).
 */
static void pid_filter(void)
{
	struct trace_array *tr = trace_array_create("pids");
	pid_t me = (pid_t)syscall(SYS_gettid), bad = -1, some[] = { 9, 3, 9 };
	struct trace_seq s;
	pthread_t th;
	int other = 0;
	char *t;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "to_test", NULL, 1));
	EXPECT_EQ(-EINVAL, trace_array_set_event_pids(tr, 0, &bad, 1, 0));
	EXPECT_EQ(0, trace_array_set_event_pids(tr, 0, some, 3, 0));
	EXPECT_EQ(0, trace_array_set_event_pids(tr, 0, &me, 1, 1));
	trace_seq_init(&s);
	trace_array_print_event_pids(tr, 0, &s);
	{
		char want[64];

		snprintf(want, sizeof(want), me < 9 ? "3\n%d\n9\n" : "3\n9\n%d\n", me);
		if (me < 3)
			snprintf(want, sizeof(want), "%d\n3\n9\n", me);
		EXPECT_STREQ(want, s.buffer);
	}
	trace_to_value(20, "me");
	/* me is the process's id: the other thread is listed too. */
	ASSERT_EQ(0, pthread_create(&th, NULL, other_thread, &other));
	pthread_join(th, NULL);
	/* A thread's own id lists that thread alone: not this one. */
	{
		void *ret = tr;

		ASSERT_EQ(0, pthread_create(&th, NULL, listed_thread, tr));
		pthread_join(th, &ret);
		EXPECT_TRUE(ret == NULL);
	}
	trace_to_value(24, "not listed");
	/* notrace wins over the list. */
	EXPECT_EQ(0, trace_array_set_event_pids(tr, 0, &me, 1, 0));
	EXPECT_EQ(0, trace_array_set_event_pids(tr, 1, &me, 1, 0));
	trace_to_value(22, "notrace");
	ASSERT_EQ(0, pthread_create(&th, NULL, other_thread, &other));
	pthread_join(th, NULL);
	EXPECT_EQ(0, trace_array_set_event_pids(tr, 1, NULL, 0, 0));
	EXPECT_EQ(0, trace_array_set_event_pids(tr, 0, NULL, 0, 0));
	trace_seq_init(&s);
	trace_array_print_event_pids(tr, 0, &s);
	EXPECT_STREQ("", s.buffer);
	ASSERT_EQ(0, pthread_create(&th, NULL, other_thread, &other));
	pthread_join(th, NULL);
	t = lines(tr, 0);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(1, count(t, "v=20 "));
	/* listed by the process's id, and unfiltered; not under notrace */
	EXPECT_EQ(2, count(t, "v=21 "));
	EXPECT_EQ(0, count(t, "v=22 "));
	EXPECT_EQ(1, count(t, "v=23 "));
	EXPECT_EQ(0, count(t, "v=24 "));
	free(t);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void markers(void)
{
	struct trace_array *tr = trace_array_create("mark");
	char *t;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(6, trace_array_marker_write(tr, "hello\n", 6));
	EXPECT_EQ(5, trace_array_marker_write(tr, "world", 5));
	EXPECT_EQ(0, trace_array_marker_write(tr, "", 0));
	EXPECT_EQ(8, trace_array_marker_write_raw(tr, "abcdefgh", 8));
	EXPECT_EQ(-EINVAL, trace_array_marker_write_raw(tr, "ab", 2));
	trace_array_set_tracing_on(tr, 0);
	EXPECT_EQ(0, trace_array_tracing_on(tr));
	EXPECT_EQ(-EBADF, trace_array_marker_write(tr, "off", 3));
	trace_array_set_tracing_on(tr, 1);
	EXPECT_EQ(0, trace_array_set_option(tr, "markers", 0));
	EXPECT_EQ(0, trace_array_get_option(tr, "markers"));
	EXPECT_EQ(-EINVAL, trace_array_marker_write(tr, "nomark", 6));
	EXPECT_EQ(0, trace_array_set_option(tr, "markers", 1));
	EXPECT_EQ(-EINVAL, trace_array_set_option(tr, "nosuch", 1));
	t = lines(tr, 1);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(1, count(t, ": tracing_mark_write: hello\n"));
	EXPECT_EQ(1, count(t, ": tracing_mark_write: world\n"));
	/* The id is host order: "abcd" is 0x64636261 on x86. */
	EXPECT_EQ(1, count(t, ": # 64636261 buf: 65 66 67 68\n"));
	EXPECT_EQ(3, count(t, "\n"));
	free(t);
	t = lines(tr, 1);
	EXPECT_STREQ("", t);		/* consumed */
	free(t);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void options_clock_size(void)
{
	struct trace_array *tr = trace_array_create("opts");
	const struct trace_clock *tc;

	ASSERT_TRUE(tr != NULL);
	for (int i = 0; trace_option_names[i]; i++) {
		static const char *const on[] = { "print-parent", "trace_printk",
			"annotate", "context-info", "record-cmd", "overwrite",
			"irq-info", "markers", "hash-ptr", "function-trace", NULL };
		int want = 0;

		for (int j = 0; on[j]; j++)
			want |= !strcmp(on[j], trace_option_names[i]);
		EXPECT_EQ(want, trace_array_get_option(tr, trace_option_names[i]));
	}
	EXPECT_EQ(1408, trace_array_buffer_size_kb(tr, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(-EINVAL, trace_array_resize_kb(tr, 0, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(0, trace_array_resize_kb(tr, 64, 0));
	EXPECT_EQ(64, trace_array_buffer_size_kb(tr, 0));
	if (ring_buffer_nr_cpus(trace_array_buffer(tr)) > 1)
		EXPECT_EQ(-1, trace_array_buffer_size_kb(tr, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(0, trace_array_resize_kb(tr, 100, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(100, trace_array_buffer_size_kb(tr, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(-EINVAL, trace_array_resize_kb(tr, 100, 4096));
	tc = trace_clock_get(trace_array_clock(tr));
	ASSERT_TRUE(tc != NULL);
	EXPECT_STREQ("local", tc->name);
	EXPECT_EQ(-EINVAL, trace_array_set_clock(tr, "nosuch"));
	EXPECT_EQ(0, trace_array_set_clock(tr, "mono"));
	EXPECT_STREQ("mono", trace_clock_get(trace_array_clock(tr))->name);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

struct firer {
	int stop;
	long fired;
};

static void *fire(void *arg)
{
	struct firer *f = arg;

	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		trace_to_value((int)__atomic_load_n(&f->fired, __ATOMIC_RELAXED), "churn");
		__atomic_add_fetch(&f->fired, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Instances come and go while a thread records into them. */
static void churn(void)
{
	struct firer f = { 0 };
	pthread_t th;
	char name[32];

	ASSERT_EQ(0, pthread_create(&th, NULL, fire, &f));
	/* Under the sanitizers the thread may take a while to start. */
	while (!__atomic_load_n(&f.fired, __ATOMIC_RELAXED))
		usleep(1000);
	for (int i = 0; i < 50; i++) {
		struct trace_array *tr;

		snprintf(name, sizeof(name), "churn%d", i % 3);
		tr = trace_array_create(name);
		if (!tr)
			break;
		trace_array_set_clr_event(tr, "to_test", NULL, 1);
		usleep(200);
		if (trace_array_destroy(tr))
			break;
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	EXPECT_GT(f.fired, 0);
	EXPECT_TRUE(trace_array_get_by_name("churn0") == NULL);
}

/* The whole trace file of @tr: header and lines. */
static char *trace_text(struct trace_array *tr)
{
	struct trace_seq *s = malloc(sizeof(*s));
	char *lines_part, *out = NULL;

	if (!s)
		return NULL;
	trace_seq_init(s);
	trace_array_print_header(tr, s);
	lines_part = lines(tr, 0);
	if (lines_part && asprintf(&out, "%s%s", s->buffer, lines_part) < 0)
		out = NULL;
	free(lines_part);
	free(s);
	return out;
}

/* The kernel's legends, copied from a live 6.18 kernel's trace file. */
static const char legend_irq[] =
"#                                _-----=> irqs-off/BH-disabled\n"
"#                               / _----=> need-resched\n"
"#                              | / _---=> hardirq/softirq\n"
"#                              || / _--=> preempt-depth\n"
"#                              ||| / _-=> migrate-disable\n"
"#                              |||| /     delay\n"
"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
"#              | |         |   |||||     |         |\n";
static const char legend_irq_tgid[] =
"#                                          _-----=> irqs-off/BH-disabled\n"
"#                                         / _----=> need-resched\n"
"#                                        | / _---=> hardirq/softirq\n"
"#                                        || / _--=> preempt-depth\n"
"#                                        ||| / _-=> migrate-disable\n"
"#                                        |||| /     delay\n"
"#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"
"#              | |           |       |   |||||     |         |\n";
static const char legend_plain[] =
"#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
"#              | |         |         |         |\n";
static const char legend_plain_tgid[] =
"#           TASK-PID       TGID    CPU#     TIMESTAMP  FUNCTION\n"
"#              | |           |       |         |         |\n";

/* The output options reshape the header and the lines as the kernel's. */
static void output_options(void)
{
	struct trace_array *tr = trace_array_create("outopts");
	char *t, want[256], comm[16] = "";
	int me = (int)syscall(SYS_gettid), cpu;
	unsigned int t1;

	ASSERT_TRUE(tr != NULL);
	prctl(PR_GET_NAME, comm);
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "to_test", NULL, 1));
	trace_to_value(7, "opt");
	trace_array_set_clr_event(tr, "to_test", NULL, 0);
	EXPECT_EQ(3, trace_array_marker_write(tr, "hi\n", 3));

	t = trace_text(tr);
	ASSERT_TRUE(t != NULL);
	EXPECT_TRUE(strstr(t, legend_irq) != NULL);
	snprintf(want, sizeof(want), "%16s-%-7d [", comm, me);
	EXPECT_TRUE(strstr(t, want) != NULL);
	EXPECT_TRUE(strstr(t, "] ..... ") != NULL);
	free(t);

	trace_array_set_option(tr, "record-tgid", 1);
	t = trace_text(tr);
	EXPECT_TRUE(strstr(t, legend_irq_tgid) != NULL);
	snprintf(want, sizeof(want), "%16s-%-7d (%7d) [", comm, me, (int)getpid());
	EXPECT_TRUE(strstr(t, want) != NULL);
	free(t);
	trace_array_set_option(tr, "irq-info", 0);
	t = trace_text(tr);
	EXPECT_TRUE(strstr(t, legend_plain_tgid) != NULL);
	free(t);
	trace_array_set_option(tr, "record-tgid", 0);
	t = trace_text(tr);
	EXPECT_TRUE(strstr(t, legend_plain) != NULL);
	/* "[000]   SECS.USECS:" without the flags column */
	EXPECT_TRUE(strstr(t, "]  ") != NULL && strstr(t, "] .....") == NULL);
	free(t);
	trace_array_set_option(tr, "irq-info", 1);

	trace_array_set_option(tr, "raw", 1);
	t = lines(tr, 0);
	ASSERT_TRUE(t != NULL);
	/* "PID CPU TS type: ID" for events, "# IP TEXT" for markers */
	EXPECT_EQ(2, sscanf(t, "%d %d", &me, &cpu));
	snprintf(want, sizeof(want), " type: %d\n", to_call()->id);
	EXPECT_TRUE(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), " # %lx hi\n", TRACE_MARKER_IP);
	EXPECT_TRUE(strstr(t, want) != NULL);
	free(t);
	trace_array_set_option(tr, "raw", 0);

	trace_array_set_option(tr, "hex", 1);
	t = lines(tr, 0);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(1, sscanf(t, "%8x ", &t1));
	EXPECT_EQ((unsigned int)syscall(SYS_gettid), t1);
	snprintf(want, sizeof(want), " type: %d\n\n", to_call()->id);
	EXPECT_TRUE(strstr(t, want) != NULL);
	EXPECT_EQ(' ', t[8]);
	EXPECT_EQ(' ', t[17]);
	EXPECT_EQ(' ', t[34]);
	free(t);
	trace_array_set_option(tr, "hex", 0);

	trace_array_set_option(tr, "context-info", 0);
	t = trace_text(tr);
	EXPECT_STREQ("# tracer: nop\n#\nto_value: v=7 who=opt\ntracing_mark_write: hi\n", t);
	free(t);
	trace_array_set_option(tr, "context-info", 1);

	trace_array_set_option(tr, "printk-msg-only", 1);
	t = lines(tr, 0);
	EXPECT_TRUE(strstr(t, "\nhi\n") != NULL);
	free(t);
	trace_array_set_option(tr, "printk-msg-only", 0);

	trace_array_set_option(tr, "latency-format", 1);
	t = trace_text(tr);
	ASSERT_TRUE(t != NULL);
	EXPECT_TRUE(strstr(t, "# nop latency trace v1.1.5 on ") != NULL);
	EXPECT_TRUE(strstr(t, "#  cmd     pid     |||||| time  |   caller     \n") != NULL);
	snprintf(want, sizeof(want), "%8.8s-%-7d ", comm, (int)syscall(SYS_gettid));
	EXPECT_TRUE(strstr(t, want) != NULL);
	EXPECT_TRUE(strstr(t, "us") != NULL && strstr(t, ": to_value: v=7 who=opt\n") != NULL);
	free(t);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/*
 * fork(): the child keeps recording into the same buffers (a shared
 * mapping), under its own pid; the parent reads its events.  The child
 * uses the engine (its event mutex) and ends as programs do, with exit():
 * the library's destructors run in it.
 */
static void fork_child_records(void)
{
	struct trace_array *tr = trace_array_create("forked");
	char want[64], *t;
	pid_t child;
	int status;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "to_test", NULL, 1));
	trace_to_value(30, "parent");
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		/* A hang in exit() is SIGALRM: a failure, not a stuck test. */
		alarm(10);
		trace_to_value(31, "child");
		exit(trace_array_buffer_size_kb(tr, RING_BUFFER_ALL_CPUS) > 0 ? 0 : 1);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	t = lines(tr, 0);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(1, count(t, "v=30 who=parent"));
	EXPECT_EQ(1, count(t, "v=31 who=child"));
	snprintf(want, sizeof(want), "-%-7d [", (int)child);
	EXPECT_TRUE(strstr(t, want) != NULL);
	free(t);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static int notified_added, notified_removed;

static void notifier(struct trace_event_call *call, int added)
{
	if (!strcmp(call->name, "to_value"))
		*(added ? &notified_added : &notified_removed) += 1;
}

/* Notifiers see the events already there; saved_cmdlines lists us. */
static void notifier_and_cmdlines(void)
{
	struct trace_seq *s = malloc(sizeof(*s));
	char want[64], comm[16] = "";
	pid_t me = (pid_t)syscall(SYS_gettid);

	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(0, trace_event_notifier_register(notifier));
	EXPECT_EQ(1, notified_added);
	EXPECT_EQ(0, notified_removed);
	trace_seq_init(s);
	trace_print_saved_cmdlines(s);
	prctl(PR_GET_NAME, comm);
	snprintf(want, sizeof(want), "%d %s\n", me, comm);
	EXPECT_TRUE(strstr(s->buffer, want) != NULL);
	trace_seq_init(s);
	trace_print_saved_tgids(s);
	snprintf(want, sizeof(want), "%d %d\n", me, (int)getpid());
	EXPECT_TRUE(strstr(s->buffer, want) != NULL);
	free(s);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(10);
	KSFT_RUN(per_instance_enable);
	KSFT_RUN(set_event_text);
	KSFT_RUN(soft_mode);
	KSFT_RUN(pid_filter);
	KSFT_RUN(markers);
	KSFT_RUN(options_clock_size);
	KSFT_RUN(churn);
	KSFT_RUN(notifier_and_cmdlines);
	KSFT_RUN(output_options);
	KSFT_RUN(fork_child_records);
	ksft_finished();
	return 0;
}
