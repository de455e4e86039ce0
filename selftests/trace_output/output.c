// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace and trace_pipe text: trace_print_header(), trace_print_file(),
 * trace_print_pipe().  Expected text is built here with printf from what
 * the test knows (thread names, ids, the CPU it pinned, the time stamps
 * its own clock handed out); the header legend is the text a 6.x kernel's
 * /sys/kernel/tracing/trace shows for the default options.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#define CREATE_TRACE_POINTS
#include "to-events.h"

#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "kselftest.h"

/* Copied from a live kernel's trace file (nop tracer, default options). */
static const char kernel_legend[] =
"#                                _-----=> irqs-off/BH-disabled\n"
"#                               / _----=> need-resched\n"
"#                              | / _---=> hardirq/softirq\n"
"#                              || / _--=> preempt-depth\n"
"#                              ||| / _-=> migrate-disable\n"
"#                              |||| /     delay\n"
"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
"#              | |         |   |||||     |         |\n";

/* A clock that hands out 1000.000000 s, then steps of 1.25 ms. */
#define CLOCK_BASE	1000000000000ull
#define CLOCK_STEP	1250000ull
static uint64_t clock_now;

static uint64_t test_clock(void)
{
	return __atomic_fetch_add(&clock_now, CLOCK_STEP, __ATOMIC_RELAXED);
}

/* The whole output of @fn(fp, buffer) as a string; free() it. */
static char *capture(ssize_t (*fn)(FILE *, struct trace_buffer *), ssize_t *ret)
{
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	if (!fp)
		return NULL;
	*ret = fn(fp, NULL);
	fclose(fp);
	return text;
}

static struct trace_buffer *reset_global(void)
{
	struct trace_buffer *buffer = trace_get_global_buffer();

	/* Reset after the switch: time stamps of a ring never go back. */
	__atomic_store_n(&clock_now, 0, __ATOMIC_RELAXED);
	ring_buffer_set_clock(buffer, test_clock);
	ring_buffer_reset(buffer);
	/* The reset read the clock too: the events' times start here. */
	__atomic_store_n(&clock_now, CLOCK_BASE, __ATOMIC_RELAXED);
	return buffer;
}

static int pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void test_header_empty(void)
{
	struct trace_buffer *buffer = ring_buffer_alloc(1 << 16, RB_FL_OVERWRITE);
	struct trace_seq *s = malloc(sizeof(*s));
	char expect[2048];

	ASSERT_TRUE(buffer != NULL && s != NULL);
	trace_seq_init(s);
	ASSERT_EQ(0, trace_print_header(s, buffer));
	snprintf(expect, sizeof(expect),
		 "# tracer: nop\n#\n"
		 "# entries-in-buffer/entries-written: 0/0   #P:%d\n#\n%s",
		 ring_buffer_nr_cpus(buffer), kernel_legend);
	EXPECT_STREQ(expect, s->buffer);
	ring_buffer_free(buffer);
	free(s);
}

/* One line of the trace file for an event of this test, built here. */
static int expect_line(char *buf, size_t size, const char *comm, int pid, int cpu,
		       uint64_t ts, int v, const char *who)
{
	uint64_t us = (ts + 500) / 1000;

	return snprintf(buf, size, "%16s-%-7d [%03d] ..... %5llu.%06llu: to_value: v=%d who=%s\n",
			comm, pid, cpu, (unsigned long long)(us / 1000000),
			(unsigned long long)(us % 1000000), v, who);
}

/* One thread pinned to CPU 0: the whole trace file, byte for byte. */
static void test_trace_one_thread(void)
{
	char *expect, *text, *pipe;
	size_t off = 0, cap = 1 << 16;
	int pid = (int)syscall(SYS_gettid), i;
	ssize_t ret;

	if (pin_cpu0())
		SKIP("sched_setaffinity: %s", strerror(errno));
	reset_global();
	ASSERT_EQ(0, trace_set_clr_event("to_test", "to_value", 1));
	for (i = 0; i < 5; i++)
		trace_to_value(i * 7, "main");
	expect = malloc(cap);
	ASSERT_TRUE(expect != NULL);
	off += (size_t)snprintf(expect, cap, "# tracer: nop\n#\n"
				"# entries-in-buffer/entries-written: 5/5   #P:%d\n#\n%s",
				ring_buffer_nr_cpus(trace_get_global_buffer()),
				kernel_legend);
	for (i = 0; i < 5; i++)
		off += (size_t)expect_line(expect + off, cap - off, "to-output", pid, 0,
					   CLOCK_BASE + (uint64_t)i * CLOCK_STEP, i * 7, "main");
	text = capture(trace_print_file, &ret);
	ASSERT_TRUE(text != NULL);
	EXPECT_EQ((ssize_t)strlen(text), ret);
	EXPECT_STREQ(expect, text);
	/* Again: trace does not consume. */
	free(text);
	text = capture(trace_print_file, &ret);
	EXPECT_STREQ(expect, text);

	/* trace_pipe: the same lines without the header, then nothing. */
	pipe = capture(trace_print_pipe, &ret);
	EXPECT_STREQ(strstr(expect, kernel_legend) + strlen(kernel_legend), pipe);
	EXPECT_EQ(0, ring_buffer_entries(trace_get_global_buffer()));
	EXPECT_TRUE(ring_buffer_empty(trace_get_global_buffer()));
	free(pipe);
	pipe = capture(trace_print_pipe, &ret);
	EXPECT_STREQ("", pipe);
	EXPECT_EQ(0, ret);
	free(pipe);
	free(text);
	free(expect);
	trace_set_clr_event("to_test", "to_value", 0);
}

#define NR_THREADS	4
#define PER_THREAD	200

struct worker {
	pthread_t thread;
	int index;
	int pid;
	char name[16];
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	int i;

	w->pid = (int)syscall(SYS_gettid);
	snprintf(w->name, sizeof(w->name), "to-worker-%d", w->index);
	pthread_setname_np(pthread_self(), w->name);
	for (i = 0; i < PER_THREAD; i++)
		trace_to_value(w->index * 1000 + i, w->name);
	return NULL;
}

/*
 * Several threads on any CPU: every line parses, matches the line built
 * from its own fields and its thread, time stamps only grow, each thread's
 * events appear once and in order.
 */
static void test_trace_threads(void)
{
	struct worker w[NR_THREADS];
	int next[NR_THREADS] = { 0 }, i, lines = 0;
	unsigned long long last_us = 0;
	char *text, *line, *save = NULL, head[256];
	ssize_t ret;

	reset_global();
	ASSERT_EQ(0, trace_set_clr_event("to_test", "to_value", 1));
	for (i = 0; i < NR_THREADS; i++) {
		w[i].index = i;
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, worker_fn, &w[i]));
	}
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(w[i].thread, NULL);
	trace_set_clr_event("to_test", "to_value", 0);

	text = capture(trace_print_file, &ret);
	ASSERT_TRUE(text != NULL);
	snprintf(head, sizeof(head), "# tracer: nop\n#\n"
		 "# entries-in-buffer/entries-written: %d/%d   #P:%d\n#\n",
		 NR_THREADS * PER_THREAD, NR_THREADS * PER_THREAD,
		 ring_buffer_nr_cpus(trace_get_global_buffer()));
	ASSERT_EQ(0, strncmp(head, text, strlen(head)));
	ASSERT_EQ(0, strncmp(kernel_legend, text + strlen(head), strlen(kernel_legend)));
	for (line = strtok_r(text + strlen(head) + strlen(kernel_legend), "\n", &save);
	     line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long secs, usecs;
		int pid, cpu, v, t;
		char comm[32], who[32], built[256];

		if (sscanf(line, "%31s [%d] ..... %llu.%llu: to_value: v=%d who=%31s",
			   comm, &cpu, &secs, &usecs, &v, who) != 6) {
			ksft_print_msg("unparsed line: '%s'\n", line);
			ksft_state.current = KSFT_FAIL;
			break;
		}
		t = v / 1000;
		ASSERT_TRUE(t >= 0 && t < NR_THREADS);
		ASSERT_EQ(next[t], v % 1000);
		next[t]++;
		pid = w[t].pid;
		expect_line(built, sizeof(built), w[t].name, pid, cpu,
			    (secs * 1000000 + usecs) * 1000, v, w[t].name);
		built[strlen(built) - 1] = '\0';
		EXPECT_STREQ(built, line);
		EXPECT_LT(last_us, secs * 1000000 + usecs);
		last_us = secs * 1000000 + usecs;
		ASSERT_TRUE(cpu >= 0 && cpu < ring_buffer_nr_cpus(trace_get_global_buffer()));
		lines++;
	}
	EXPECT_EQ(NR_THREADS * PER_THREAD, lines);
	free(text);
}

/*
 * Overwrite mode with a small buffer: entries-in-buffer/entries-written
 * from the counters, and trace_pipe reports the overwritten events on the
 * first line of the CPU.
 */
static void test_lost_events(void)
{
	struct trace_buffer *buffer;
	unsigned long overrun, entries;
	int i, n = 3000;
	char *text, *pipe, *first, head[128], lost[64];
	ssize_t ret;

	if (pin_cpu0())
		SKIP("sched_setaffinity: %s", strerror(errno));
	buffer = reset_global();
	ASSERT_EQ(0, ring_buffer_resize(buffer, 4 * RB_PAGE_SIZE, RING_BUFFER_ALL_CPUS));
	ASSERT_EQ(0, trace_set_clr_event("to_test", "to_value", 1));
	for (i = 0; i < n; i++)
		trace_to_value(i, "lost");
	trace_set_clr_event("to_test", "to_value", 0);
	overrun = ring_buffer_overrun_cpu(buffer, 0);
	entries = ring_buffer_entries_cpu(buffer, 0);
	ASSERT_GT(overrun, 0ul);
	EXPECT_EQ((unsigned long)n, overrun + entries);

	text = capture(trace_print_file, &ret);
	snprintf(head, sizeof(head), "# entries-in-buffer/entries-written: %lu/%d   #P:",
		 entries, n);
	EXPECT_TRUE(strstr(text, head) != NULL);
	if (!strstr(text, head))
		ksft_print_msg("want '%s' in:\n%.200s\n", head, text);
	EXPECT_TRUE(strstr(text, "LOST") == NULL);
	if (strstr(text, "LOST"))
		ksft_print_msg("%.300s\n", strstr(text, "LOST") - 6);

	pipe = capture(trace_print_pipe, &ret);
	snprintf(lost, sizeof(lost), "CPU:0 [LOST %lu EVENTS]\n", overrun);
	first = strstr(pipe, "CPU:");
	EXPECT_TRUE(first == pipe);
	if (first != pipe)
		ksft_print_msg("want '%s' first, got: %.120s\n", lost, pipe);
	else
		EXPECT_EQ(0, strncmp(lost, pipe, strlen(lost)));
	/* The oldest remaining event follows it. */
	snprintf(lost, sizeof(lost), "v=%lu who=lost\n", overrun);
	EXPECT_TRUE(strstr(pipe, lost) != NULL);
	EXPECT_TRUE(ring_buffer_empty(buffer));
	free(text);
	free(pipe);
	ring_buffer_resize(buffer, 1408 << 10, RING_BUFFER_ALL_CPUS);
}

/* Names: "<idle>" for 0, "<...>" for a pid that never recorded. */
static void test_cmdline(void)
{
	char comm[TRACE_COMM_LEN];

	trace_find_cmdline(0, comm);
	EXPECT_STREQ("<idle>", comm);
	/* Above any pid_max: never a thread of ours. */
	trace_find_cmdline(0x7ffffff0, comm);
	EXPECT_STREQ("<...>", comm);
	/* Saved when the thread records its first event. */
	ASSERT_EQ(0, trace_set_clr_event("to_test", "to_value", 1));
	trace_to_value(0, "cmdline");
	trace_set_clr_event("to_test", "to_value", 0);
	trace_find_cmdline((int)syscall(SYS_gettid), comm);
	EXPECT_STREQ("to-output", comm);
}

/*
 * A line that does not fit leaves the trace_seq as it was and is printed
 * by the next call; the iterator does not move past it.
 */
static void test_seq_full(void)
{
	struct trace_seq *s = malloc(sizeof(*s));
	struct trace_iterator *iter;
	char line[256];
	int pid = (int)syscall(SYS_gettid);

	ASSERT_TRUE(s != NULL);
	if (pin_cpu0())
		SKIP("sched_setaffinity: %s", strerror(errno));
	reset_global();
	ASSERT_EQ(0, trace_set_clr_event("to_test", "to_value", 1));
	trace_to_value(1, "full");
	trace_set_clr_event("to_test", "to_value", 0);
	iter = trace_iterator_open(NULL, 1);
	ASSERT_TRUE(iter != NULL);
	trace_seq_init(s);
	memset(s->buffer, 'x', TRACE_SEQ_BUFFER_SIZE - 40);
	s->len = TRACE_SEQ_BUFFER_SIZE - 40;
	s->buffer[s->len] = '\0';
	EXPECT_EQ(-ENOSPC, trace_iterator_print_line(iter, s));
	EXPECT_EQ((unsigned int)TRACE_SEQ_BUFFER_SIZE - 40, s->len);
	EXPECT_EQ(0, trace_seq_has_overflowed(s));
	EXPECT_EQ('\0', s->buffer[s->len]);
	trace_seq_init(s);
	EXPECT_EQ(1, trace_iterator_print_line(iter, s));
	expect_line(line, sizeof(line), "to-output", pid, 0, CLOCK_BASE, 1, "full");
	EXPECT_STREQ(line, s->buffer);
	trace_seq_init(s);
	EXPECT_EQ(0, trace_iterator_print_line(iter, s));
	EXPECT_STREQ("", s->buffer);
	trace_iterator_close(iter);
	free(s);
}

/*
 * <linux/seq_buf.h> on a caller's buffer: writes keep the text
 * NUL-terminated, a write that does not fit copies what fits and marks
 * the overflow (len > size), and the writes after it do nothing; the
 * time printer is "%5llu.%06llu" rounded to the microsecond.  And a
 * trace_seq zeroed as a whole, as programs did before it had a seq_buf,
 * still writes into its own buffer.
 */
static void test_seq_buf(void)
{
	struct trace_seq *z = calloc(1, sizeof(*z));
	struct seq_buf s;
	char buf[16];

	ASSERT_TRUE(z != NULL);
	seq_buf_init(&s, buf, sizeof(buf));
	EXPECT_STREQ("", seq_buf_str(&s));
	EXPECT_EQ(0, seq_buf_printf(&s, "%d-", 42));
	EXPECT_EQ(0, seq_buf_put_decimal(&s, 7, 3, '0'));
	EXPECT_EQ(0, seq_buf_putc(&s, ' '));
	EXPECT_STREQ("42-007 ", seq_buf_str(&s));
	EXPECT_EQ(7u, (unsigned int)seq_buf_used(&s));
	EXPECT_EQ(8u, (unsigned int)seq_buf_buffer_left(&s));
	EXPECT_EQ(0, seq_buf_has_overflowed(&s));
	EXPECT_EQ(-1, seq_buf_puts(&s, "abcdefghij"));
	EXPECT_EQ(1, seq_buf_has_overflowed(&s));
	EXPECT_STREQ("42-007 abcdefgh", seq_buf_str(&s));
	EXPECT_EQ(15u, (unsigned int)seq_buf_used(&s));
	EXPECT_EQ(-1, seq_buf_putc(&s, 'x'));
	EXPECT_STREQ("42-007 abcdefgh", seq_buf_str(&s));

	seq_buf_init(&s, buf, sizeof(buf));
	EXPECT_EQ(0, seq_buf_put_usecs(&s, 1234567499ull));
	EXPECT_STREQ("    1.234567", seq_buf_str(&s));
	seq_buf_clear(&s);
	EXPECT_EQ(0, seq_buf_put_usecs(&s, 123456789999500ull));
	EXPECT_STREQ("123456.790000", seq_buf_str(&s));

	trace_seq_puts(z, "zeroed");
	EXPECT_STREQ("zeroed", z->buffer);
	EXPECT_EQ(6u, (unsigned int)z->len);
	EXPECT_EQ(6u, (unsigned int)z->seq.len);
	EXPECT_EQ(0, trace_seq_has_overflowed(z));
	free(z);
}

/* Not asserted: how fast the trace file renders. */
static void test_render_rate(void)
{
	struct timespec a, b;
	unsigned long entries;
	FILE *null = fopen("/dev/null", "w");
	double secs;
	int i;

	ASSERT_TRUE(null != NULL);
	if (pin_cpu0())
		SKIP("sched_setaffinity: %s", strerror(errno));
	reset_global();
	ASSERT_EQ(0, trace_set_clr_event("to_test", "to_value", 1));
	for (i = 0; i < 30000; i++)
		trace_to_value(i, "render-rate-str");
	trace_set_clr_event("to_test", "to_value", 0);
	entries = ring_buffer_entries(trace_get_global_buffer());
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < 5; i++)
		ASSERT_GT(trace_print_file(null, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	ksft_print_msg("trace rendering: %lu events x 5 in %.3f s: %.2f M events/s\n",
		       entries, secs, (double)entries * 5 / secs / 1e6);
	fclose(null);
}

/*
 * TP_printk()'s C conversions (trace_event_printf()) print what printf
 * prints: the plain ones it formats itself (%d %i %u %x %X of int, long,
 * long long; %s, %c) at their limits, and those it hands to vsnprintf()
 * (flags, widths, precisions, h and hh) around them.
 */
#define EXPECT_PRINTF(fmt, ...) do {					\
	char __want[256];						\
	struct trace_seq *__s = malloc(sizeof(*__s));			\
									\
	ASSERT_TRUE(__s != NULL);					\
	trace_seq_init(__s);						\
	snprintf(__want, sizeof(__want), fmt, __VA_ARGS__);		\
	trace_event_printf(__s, fmt, __VA_ARGS__);			\
	EXPECT_STREQ(__want, __s->buffer);				\
	free(__s);							\
} while (0)

static void test_printf_conversions(void)
{
	const char *volatile null = NULL;

	EXPECT_PRINTF("a=%d b=%d c=%d comm=%s", 1, -2, 42, "bench-thread-xy");
	EXPECT_PRINTF("%d %d %d", INT_MIN, INT_MAX, 0);
	EXPECT_PRINTF("%i %u %x %X", -1, 4294967295u, 0xdeadbeefu, 0xabcdefu);
	EXPECT_PRINTF("%ld %lu %lx", LONG_MIN, ULONG_MAX, (unsigned long)-1);
	EXPECT_PRINTF("%lld %llu %llX %Lu", LLONG_MIN, ULLONG_MAX, 0x1234567890abcdefull,
		      (unsigned long long)7);
	EXPECT_PRINTF("%zd %zu %td %jd %qd", (ssize_t)-5, (size_t)-1, (ptrdiff_t)-7,
		      (intmax_t)INT64_MIN, (long long)-9);
	EXPECT_PRINTF("[%s] [%c] [%s]", "", 'x', null);
	EXPECT_PRINTF("%hd %hu %hhd %hhx", 70000, 70000, 300, 0x1ff);
	EXPECT_PRINTF("%5d|%-5d|%05d|%+d|% d|%#x|%.3d", 42, 42, 42, 42, 42, 42, 7);
	EXPECT_PRINTF("%*d|%-*d|%.*s|%10s|%-3c|", 6, -3, 4, 5, 2, "abcdef", "r", 'q');
	EXPECT_PRINTF("100%% %d%s", 3, "%");
}

/*
 * A __string() field of every length from 0 to 40 bytes, through the
 * probe's copy (short strings are copied inline, by overlapping moves):
 * the trace_pipe text shows each string whole, and nothing of its
 * neighbours in memory.
 */
static void test_string_lengths(void)
{
	char src[64 + 41], want[128], *pipe, *p;
	int i, n;
	ssize_t ret;

	if (pin_cpu0())
		SKIP("sched_setaffinity: %s", strerror(errno));
	reset_global();
	ASSERT_EQ(0, trace_set_clr_event("to_test", "to_value", 1));
	/* Each string sits between bytes that must not be copied. */
	memset(src, '#', sizeof(src));
	for (n = 0; n <= 40; n++) {
		char *s = src + 32;

		for (i = 0; i < n; i++)
			s[i] = (char)('a' + (i + n) % 26);
		s[n] = '\0';
		trace_to_value(n, s);
		s[n] = '#';
	}
	pipe = capture(trace_print_pipe, &ret);
	ASSERT_TRUE(pipe != NULL);
	p = pipe;
	for (n = 0; n <= 40; n++) {
		char *line = strstr(p, "to_value: "), *end;

		ASSERT_TRUE(line != NULL);
		end = strchr(line, '\n');
		ASSERT_TRUE(end != NULL);
		i = snprintf(want, sizeof(want), "to_value: v=%d who=", n);
		for (int k = 0; k < n; k++)
			want[i + k] = (char)('a' + (k + n) % 26);
		want[i + n] = '\0';
		*end = '\0';
		EXPECT_STREQ(want, line);
		p = end + 1;
	}
	free(pipe);
	trace_set_clr_event("to_test", "to_value", 0);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(10);
	KSFT_RUN(test_header_empty);
	KSFT_RUN(test_trace_one_thread);
	KSFT_RUN(test_cmdline);
	KSFT_RUN(test_seq_full);
	KSFT_RUN(test_seq_buf);
	KSFT_RUN(test_trace_threads);
	KSFT_RUN(test_lost_events);
	KSFT_RUN(test_render_rate);
	KSFT_RUN(test_printf_conversions);
	KSFT_RUN(test_string_lengths);
	ksft_finished();
}
