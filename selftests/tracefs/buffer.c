// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The files that read and write the buffer: trace, trace_pipe,
 * trace_pipe_raw, stats, trace_marker, trace_marker_raw, and an
 * instance's buffer apart from the top level's.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>
#include <ustrace/tracefs.h>

#include "tfs_test.h"

#define ONE_ENABLE	"events/tfs_test/tfs_one/enable"

static cpu_set_t saved_cpus;

/* Pin to CPU 0, so that the events are in per_cpu/cpu0. */
static int pin(void)
{
	cpu_set_t set;

	sched_getaffinity(0, sizeof(saved_cpus), &saved_cpus);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void unpin(void)
{
	sched_setaffinity(0, sizeof(saved_cpus), &saved_cpus);
}

static void start(void)
{
	tfs_echo("trace", "");
	tfs_echo(ONE_ENABLE, "1");
}

static void stop(void)
{
	tfs_echo(ONE_ENABLE, "0");
	tfs_echo("trace", "");
}

static void test_trace_text(void)
{
	char head[128];
	const char *text;

	start();
	tfs_fire_one(1, 3);
	text = tfs_cat("trace");
	snprintf(head, sizeof(head),
		 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 3/3   #P:%d\n#\n",
		 ring_buffer_nr_cpus(trace_get_global_buffer()));
	EXPECT_EQ(0, strncmp(text, head, strlen(head)));
	EXPECT_EQ(1, tfs_count(text, ": tfs_one: v=1\n"));
	EXPECT_EQ(1, tfs_count(text, ": tfs_one: v=3\n"));
	EXPECT_EQ(1, tfs_count(text, "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"));
	/* The events stay; read in pieces, the same text. */
	EXPECT_STREQ(text, tfs_cat("trace"));
	EXPECT_STREQ(text, tfs_cat_chunked("trace", 13));
	stop();
}

/* A read before what was read (a seek back) starts over. */
static void test_trace_seek_back(void)
{
	struct tfs_file *file;
	char a[64], b[64];
	int64_t ino = tfs_path("trace");

	start();
	tfs_fire_one(1, 2);
	ASSERT_EQ(0, tfs_open((uint64_t)ino, O_RDONLY, &file));
	EXPECT_EQ(64, tfs_read(file, a, sizeof(a), 0));
	EXPECT_EQ(64, tfs_read(file, b, sizeof(b), 64));
	EXPECT_EQ(64, tfs_read(file, b, sizeof(b), 0));
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	tfs_release(file);
	stop();
}

static void test_trace_clear(void)
{
	start();
	tfs_fire_one(1, 2);
	/* Not opened for writing: no clearing. */
	EXPECT_EQ(0, tfs_open_err("trace", O_RDONLY | O_TRUNC));
	EXPECT_EQ(2, tfs_count(tfs_cat("trace"), "tfs_one:"));
	/* A write without O_TRUNC is accepted and does nothing. */
	EXPECT_EQ(1, tfs_append("trace", "0"));
	EXPECT_EQ(2, tfs_count(tfs_cat("trace"), "tfs_one:"));
	EXPECT_EQ(1, tfs_echo("trace", "0"));
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "tfs_one:"));
	EXPECT_EQ(1, tfs_count(tfs_cat("trace"), "entries-in-buffer/entries-written: 0/0 "));
	tfs_fire_one(1, 2);
	EXPECT_EQ(0, tfs_truncate((uint64_t)tfs_path("trace")));
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "tfs_one:"));
	stop();
}

static void test_per_cpu_trace(void)
{
	if (pin())
		SKIP("cannot pin to CPU 0");
	start();
	tfs_fire_one(1, 2);
	EXPECT_EQ(2, tfs_count(tfs_cat("per_cpu/cpu0/trace"), "tfs_one:"));
	EXPECT_EQ(2, tfs_count(tfs_cat("per_cpu/cpu0/trace"), "[000]"));
	if (tfs_path("per_cpu/cpu1") > 0) {
		EXPECT_EQ(0, tfs_count(tfs_cat("per_cpu/cpu1/trace"), "tfs_one:"));
		/* Clearing another CPU leaves these. */
		EXPECT_EQ(0, tfs_echo("per_cpu/cpu1/trace", ""));
		EXPECT_EQ(2, tfs_count(tfs_cat("trace"), "tfs_one:"));
	}
	EXPECT_EQ(0, tfs_echo("per_cpu/cpu0/trace", ""));
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "tfs_one:"));
	stop();
	unpin();
}

static void test_trace_pipe(void)
{
	struct tfs_file *file;
	char buf[4096];
	ssize_t n;

	start();
	ASSERT_EQ(0, tfs_open((uint64_t)tfs_path("trace_pipe"), O_RDONLY, &file));
	EXPECT_EQ(0, tfs_readable(file));
	EXPECT_EQ(-EAGAIN, tfs_read(file, buf, sizeof(buf), 0));
	tfs_fire_one(1, 2);
	EXPECT_EQ(1, tfs_readable(file));
	/* A short read leaves the rest of the line for the next one. */
	EXPECT_EQ(10, tfs_read(file, buf, 10, 0));
	EXPECT_EQ(1, tfs_readable(file));
	n = tfs_read(file, buf + 10, sizeof(buf) - 11, 10);
	ASSERT_GT(n, 0);
	buf[10 + n] = '\0';
	EXPECT_EQ(1, tfs_count(buf, ": tfs_one: v=1\n"));
	EXPECT_EQ(1, tfs_count(buf, ": tfs_one: v=2\n"));
	EXPECT_EQ(-EAGAIN, tfs_read(file, buf, sizeof(buf), 0));
	/* Consumed: gone from trace too. */
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "tfs_one:"));
	/* Tracing off after something was read: the end of the file. */
	tfs_echo("tracing_on", "0");
	EXPECT_EQ(1, tfs_readable(file));
	EXPECT_EQ(0, tfs_read(file, buf, sizeof(buf), 0));
	tfs_echo("tracing_on", "1");
	EXPECT_EQ(0, tfs_readable(file));
	tfs_release(file);
	stop();
}

/* Nothing read yet: tracing off still waits, as the kernel's. */
static void test_trace_pipe_off_waits(void)
{
	struct tfs_file *file;
	char buf[64];

	ASSERT_EQ(0, tfs_open((uint64_t)tfs_path("trace_pipe"), O_RDONLY, &file));
	tfs_echo("tracing_on", "0");
	EXPECT_EQ(0, tfs_readable(file));
	EXPECT_EQ(-EAGAIN, tfs_read(file, buf, sizeof(buf), 0));
	tfs_echo("tracing_on", "1");
	tfs_release(file);
}

static uint64_t page_commit(const unsigned char *page)
{
	uint64_t commit;

	memcpy(&commit, page + 8, sizeof(commit));
	return commit & ~(RB_MISSED_EVENTS | RB_MISSED_STORED);
}

static void test_trace_pipe_raw(void)
{
	struct tfs_file *file;
	unsigned char page[RB_PAGE_SIZE];

	if (pin())
		SKIP("cannot pin to CPU 0");
	start();
	ASSERT_EQ(0, tfs_open((uint64_t)tfs_path("per_cpu/cpu0/trace_pipe_raw"), O_RDONLY,
			      &file));
	EXPECT_EQ(0, tfs_readable(file));
	EXPECT_EQ(-EAGAIN, tfs_read(file, (char *)page, sizeof(page), 0));
	tfs_fire_one(1, 3);
	EXPECT_EQ(1, tfs_readable(file));
	ASSERT_EQ(RB_PAGE_SIZE, tfs_read(file, (char *)page, sizeof(page), 0));
	/*
	 * Three records of 8 + 4 bytes, each behind a 4-byte header, and a
	 * time extend (8 bytes) should a delta not fit in 27 bits.
	 */
	EXPECT_GE(page_commit(page), 3 * 16);
	EXPECT_LE(page_commit(page), 3 * 16 + 2 * 8);
	EXPECT_EQ(-EAGAIN, tfs_read(file, (char *)page, sizeof(page), 0));
	/* A short read takes what fits and hands out the rest of the page. */
	tfs_fire_one(4, 1);
	EXPECT_EQ(100, tfs_read(file, (char *)page, 100, 0));
	EXPECT_EQ(16, page_commit(page));
	EXPECT_EQ(1, tfs_readable(file));
	EXPECT_EQ(RB_PAGE_SIZE - 100, tfs_read(file, (char *)page, sizeof(page), 0));
	EXPECT_EQ(-EAGAIN, tfs_read(file, (char *)page, sizeof(page), 0));
	tfs_release(file);
	stop();
	unpin();
}

/*
 * USTRACE_TRACEFS_IOC_RAW_PAGES: a read of many pages takes every whole
 * page there is after the first; without it a read is one page, as the
 * kernel's.  Other files and commands: ENOTTY.
 */
static void test_trace_pipe_raw_pages(void)
{
	static char buf[16 * RB_PAGE_SIZE];
	struct tfs_file *file, *text;
	ssize_t n;

	if (pin())
		SKIP("cannot pin to CPU 0");
	start();
	ASSERT_EQ(0, tfs_open((uint64_t)tfs_path("per_cpu/cpu0/trace_pipe_raw"), O_RDONLY,
			      &file));
	ASSERT_EQ(0, tfs_open((uint64_t)tfs_path("per_cpu/cpu0/trace_pipe"), O_RDONLY, &text));
	/* 16-byte records, 255 to a page: three whole pages and a part of one. */
	tfs_fire_one(1, 1000);
	EXPECT_EQ(RB_PAGE_SIZE, tfs_read(file, buf, sizeof(buf), 0));
	EXPECT_EQ(-ENOTTY, tfs_ioctl(file, USTRACE_TRACEFS_IOC_RAW_PAGES + 1));
	EXPECT_EQ(-ENOTTY, tfs_ioctl(text, USTRACE_TRACEFS_IOC_RAW_PAGES));
	EXPECT_EQ(0, tfs_ioctl(file, USTRACE_TRACEFS_IOC_RAW_PAGES));
	/* The whole pages left, not the one the writer is on. */
	n = tfs_read(file, buf, sizeof(buf), 0);
	EXPECT_EQ(0, n % RB_PAGE_SIZE);
	EXPECT_GE(n, 2 * RB_PAGE_SIZE);
	EXPECT_LE(n, 3 * RB_PAGE_SIZE);
	/* Full: no room left for a record and a time extend. */
	EXPECT_GT(page_commit((unsigned char *)buf + n - RB_PAGE_SIZE), RB_PAGE_DATA_SIZE - 24);
	/* Then, the first page of a read being any, the writer's in part. */
	EXPECT_EQ(RB_PAGE_SIZE, tfs_read(file, buf, sizeof(buf), 0));
	EXPECT_LT(page_commit((unsigned char *)buf), RB_PAGE_DATA_SIZE - 24);
	EXPECT_GT(page_commit((unsigned char *)buf), 0);
	EXPECT_EQ(-EAGAIN, tfs_read(file, buf, sizeof(buf), 0));
	tfs_release(text);
	tfs_release(file);
	stop();
	unpin();
}

static void test_stats(void)
{
	unsigned long long sec, usec;
	const char *s;

	if (pin())
		SKIP("cannot pin to CPU 0");
	start();
	tfs_fire_one(1, 3);
	s = tfs_cat("per_cpu/cpu0/stats");
	EXPECT_EQ(0, strncmp(s, "entries: 3\noverrun: 0\ncommit overrun: 0\nbytes: ", 47));
	s = strstr(s, "oldest event ts: ");
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(2, sscanf(s, "oldest event ts: %5llu.%6llu\n", &sec, &usec));
	s = strstr(s, "now ts: ");
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(2, sscanf(s, "now ts: %5llu.%6llu\n", &sec, &usec));
	EXPECT_TRUE(strstr(s, "\ndropped events: 0\nread events: 0\n") != NULL);
	stop();
	unpin();
}

static void test_trace_marker(void)
{
	start();
	EXPECT_EQ(5, tfs_echo("trace_marker", "hello"));
	EXPECT_EQ(1, tfs_count(tfs_cat("trace"), ": tracing_mark_write: hello\n"));
	EXPECT_EQ(1, tfs_echo("options/markers", "0"));
	EXPECT_EQ(-EINVAL, tfs_echo("trace_marker", "off"));
	EXPECT_EQ(1, tfs_echo("options/markers", "1"));
	EXPECT_EQ(1, tfs_echo("tracing_on", "0"));
	EXPECT_EQ(-EBADF, tfs_echo("trace_marker", "off"));
	EXPECT_EQ(1, tfs_echo("tracing_on", "1"));
	EXPECT_EQ(-EINVAL, tfs_echo("trace_marker_raw", "abc"));
	EXPECT_EQ(6, tfs_write_path("trace_marker_raw", "\x01\x00\x00\x00xy", 6, O_TRUNC));
	/* The record's padding is printed too, as the kernel prints it. */
	EXPECT_EQ(1, tfs_count(tfs_cat("trace"), ": # 1 buf: 78 79 00 00\n"));
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "tracing_mark_write: off"));
	stop();
}

/*
 * A record holds 4054 bytes of text: a longer write is cut there and
 * says so, as the kernel's; each record prints whole, on its own line.
 */
static void test_trace_marker_long(void)
{
	static const size_t sizes[] = { 4029, 4030, 4054, 4055, 8192, 1 << 20 };
	size_t i, max = 1 << 20;
	char *text = malloc(max + 1), *want = malloc(4100);
	const char *t;

	ASSERT_TRUE(text && want);
	start();
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		memset(text, 'a' + (int)i, sizes[i]);
		EXPECT_EQ((ssize_t)(sizes[i] < 4054 ? sizes[i] : 4054),
			  tfs_write_path("trace_marker", text, sizes[i], O_TRUNC));
	}
	EXPECT_EQ(5, tfs_echo("trace_marker", "after"));
	t = tfs_cat("trace");
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		size_t n = sizes[i] < 4054 ? sizes[i] : 4054;

		want[0] = ' ';
		memset(want + 1, 'a' + (int)i, n);
		strcpy(want + 1 + n, "\n");
		EXPECT_EQ(1, tfs_count(t, want));
	}
	EXPECT_EQ(1, tfs_count(t, ": tracing_mark_write: after\n"));
	EXPECT_EQ(7, tfs_count(t, ": tracing_mark_write: "));
	free(text);
	free(want);
	stop();
}

/* An instance records into its own buffer only. */
static void test_instance_buffer(void)
{
	struct tfs_stat st;
	int64_t dir = tfs_path("instances");

	stop();
	ASSERT_EQ(0, tfs_mkdir((uint64_t)dir, "buf", &st));
	EXPECT_EQ(1, tfs_echo("instances/buf/events/tfs_test/tfs_two/enable", "1"));
	tfs_fire_two(7, 2);
	tfs_fire_one(1, 2);
	EXPECT_EQ(2, tfs_count(tfs_cat("instances/buf/trace"), "tfs_two: v="));
	EXPECT_EQ(0, tfs_count(tfs_cat("instances/buf/trace"), "tfs_one:"));
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "tfs_two:"));
	EXPECT_EQ(4, tfs_echo("instances/buf/trace_marker", "mine"));
	EXPECT_EQ(1, tfs_count(tfs_cat("instances/buf/trace"), "tracing_mark_write: mine"));
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "mine"));
	EXPECT_EQ(6, tfs_echo("instances/buf/trace_clock", "global"));
	EXPECT_EQ(0, strncmp(tfs_cat("trace_clock"), "[local]", 7));
	EXPECT_EQ(0, tfs_rmdir((uint64_t)dir, "buf"));
}

const struct tfs_test tfs_trace_tests[] = {
	TFS_TEST(test_trace_text),
	TFS_TEST(test_trace_seek_back),
	TFS_TEST(test_trace_clear),
	TFS_TEST(test_per_cpu_trace),
	TFS_TEST(test_trace_pipe),
	TFS_TEST(test_trace_pipe_off_waits),
	TFS_TEST(test_trace_pipe_raw),
	TFS_TEST(test_trace_pipe_raw_pages),
	TFS_TEST(test_stats),
	TFS_TEST(test_trace_marker),
	TFS_TEST(test_trace_marker_long),
	TFS_TEST(test_instance_buffer),
	{ NULL, NULL }
};
