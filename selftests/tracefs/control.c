// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The control files: tracing_on, buffer sizes, trace_clock, tracers,
 * options, tracing_cpumask, the pid lists and the thread tables, with
 * the errnos /sys/kernel/tracing gives for the same writes.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>

#include "tfs_test.h"

static int nr_cpus(void)
{
	return ring_buffer_nr_cpus(trace_get_global_buffer());
}

static void test_tracing_on(void)
{
	EXPECT_STREQ("1\n", tfs_cat("tracing_on"));
	EXPECT_EQ(1, tfs_echo("tracing_on", "0"));
	EXPECT_STREQ("0\n", tfs_cat("tracing_on"));
	/* Any number but 0 is on. */
	EXPECT_EQ(1, tfs_echo("tracing_on", "2"));
	EXPECT_STREQ("1\n", tfs_cat("tracing_on"));
	EXPECT_EQ(0, tfs_refuses("tracing_on", -EINVAL, TFS_WRITES("", "x", "-1", " 1")));
	EXPECT_EQ(2, tfs_echo("tracing_on", "1\n"));
	EXPECT_STREQ("1\n", tfs_cat("tracing_on"));
}

static void test_buffer_size(void)
{
	char want[32];

	EXPECT_STREQ("1408\n", tfs_cat("buffer_size_kb"));
	EXPECT_STREQ("1408\n", tfs_cat("per_cpu/cpu0/buffer_size_kb"));
	snprintf(want, sizeof(want), "%d\n", 1408 * nr_cpus());
	EXPECT_STREQ(want, tfs_cat("buffer_total_size_kb"));
	EXPECT_EQ(0, tfs_refuses("buffer_size_kb", -EINVAL, TFS_WRITES("0", "", "x", "-1", " 4")));
	EXPECT_EQ(-ERANGE, tfs_echo("buffer_size_kb", "99999999999999999999"));
	/* More than a CPU's ring holds (260096 KiB): ENOMEM, as the kernel's. */
	EXPECT_EQ(0, tfs_refuses("buffer_size_kb", -ENOMEM,
				 TFS_WRITES("260097", "1048576", "104857600", "18014398509481984",
					    "18446744073709551615")));
	EXPECT_EQ(0, tfs_refuses("per_cpu/cpu0/buffer_size_kb", -ENOMEM,
				 TFS_WRITES("1048576")));
	EXPECT_STREQ("1408\n", tfs_cat("buffer_size_kb"));
	EXPECT_EQ(-EACCES, tfs_open_err("buffer_total_size_kb", O_WRONLY));
	EXPECT_EQ(4, tfs_echo("buffer_size_kb", "100\n"));
	EXPECT_STREQ("100\n", tfs_cat("buffer_size_kb"));
	EXPECT_STREQ("100\n", tfs_cat("per_cpu/cpu0/buffer_size_kb"));
	EXPECT_EQ(4, tfs_echo("buffer_size_kb", "1408"));
}

/* One CPU's size apart: the top file reads X. */
static void test_buffer_size_per_cpu(void)
{
	char want[32];

	if (nr_cpus() < 2)
		SKIP("one CPU");
	EXPECT_EQ(3, tfs_echo("per_cpu/cpu1/buffer_size_kb", "200"));
	EXPECT_STREQ("200\n", tfs_cat("per_cpu/cpu1/buffer_size_kb"));
	EXPECT_STREQ("1408\n", tfs_cat("per_cpu/cpu0/buffer_size_kb"));
	EXPECT_STREQ("X\n", tfs_cat("buffer_size_kb"));
	snprintf(want, sizeof(want), "%d\n", 1408 * (nr_cpus() - 1) + 200);
	EXPECT_STREQ(want, tfs_cat("buffer_total_size_kb"));
	EXPECT_EQ(-EINVAL, tfs_echo("per_cpu/cpu1/buffer_size_kb", "0"));
	EXPECT_EQ(4, tfs_echo("buffer_size_kb", "1408"));
	EXPECT_STREQ("1408\n", tfs_cat("buffer_size_kb"));
}

static void test_buffer_percent(void)
{
	struct tfs_stat st;
	int64_t dir = tfs_path("instances");

	EXPECT_STREQ("50\n", tfs_cat("buffer_percent"));
	EXPECT_EQ(0, tfs_refuses("buffer_percent", -EINVAL, TFS_WRITES("101", "", "-1")));
	EXPECT_EQ(1, tfs_echo("buffer_percent", "0"));
	EXPECT_STREQ("0\n", tfs_cat("buffer_percent"));
	EXPECT_EQ(3, tfs_echo("buffer_percent", "100"));
	EXPECT_EQ(3, tfs_echo("buffer_percent", "50\n"));
	EXPECT_STREQ("50\n", tfs_cat("buffer_percent"));
	/* The kernel's errnos (checked against /sys/kernel/tracing). */
	EXPECT_EQ(0, tfs_refuses("buffer_percent", -EINVAL,
				 TFS_WRITES("abc", " 7", "0x10", "5 6")));
	EXPECT_EQ(-ERANGE, tfs_echo("buffer_percent", "18446744073709551616"));
	EXPECT_STREQ("50\n", tfs_cat("buffer_percent"));
	/* An instance has its own, 50 to start with. */
	ASSERT_EQ(0, tfs_mkdir((uint64_t)dir, "pct", &st));
	EXPECT_STREQ("50\n", tfs_cat("instances/pct/buffer_percent"));
	EXPECT_EQ(2, tfs_echo("instances/pct/buffer_percent", "10"));
	EXPECT_STREQ("10\n", tfs_cat("instances/pct/buffer_percent"));
	EXPECT_STREQ("50\n", tfs_cat("buffer_percent"));
	EXPECT_EQ(0, tfs_refuses("instances/pct/buffer_percent", -EINVAL, TFS_WRITES("101")));
	EXPECT_EQ(0, tfs_rmdir((uint64_t)dir, "pct"));
}

/* "[local] global ...", with the brackets where the clock is. */
static void test_trace_clock(void)
{
	char want[256] = "", *p = want;
	const struct trace_clock *tc;

	for (unsigned int i = 0; (tc = trace_clock_get(i)); i++)
		p += sprintf(p, i ? (i == 1 ? " [%s]" : " %s") : "%s", tc->name);
	strcat(want, "\n");
	EXPECT_EQ(0, strncmp(tfs_cat("trace_clock"), "[local] global ", 15));
	EXPECT_EQ(7, tfs_echo("trace_clock", "global\n"));
	EXPECT_STREQ(want, tfs_cat("trace_clock"));
	EXPECT_EQ(0, tfs_refuses("trace_clock", -EINVAL, TFS_WRITES("bogus", "", "[local]")));
	EXPECT_STREQ(want, tfs_cat("trace_clock"));
	EXPECT_EQ(7, tfs_echo("trace_clock", " local "));
	EXPECT_EQ(0, strncmp(tfs_cat("trace_clock"), "[local] global ", 15));
}

static void test_tracers(void)
{
	EXPECT_STREQ("nop\n", tfs_cat("current_tracer"));
	EXPECT_STREQ("nop\n", tfs_cat("available_tracers"));
	EXPECT_EQ(3, tfs_echo("current_tracer", "nop"));
	EXPECT_EQ(5, tfs_echo("current_tracer", " nop\n"));
	EXPECT_EQ(0, tfs_refuses("current_tracer", -EINVAL, TFS_WRITES("function", "", "\n")));
	EXPECT_EQ(-EACCES, tfs_open_err("available_tracers", O_WRONLY));
}

static void test_trace_options(void)
{
	const char *opts = tfs_cat("trace_options");

	EXPECT_EQ(1, tfs_count(opts, "\nnoraw\n"));
	EXPECT_EQ(1, tfs_count(opts, "\noverwrite\n"));
	EXPECT_EQ(1, tfs_count(opts, "\nmarkers\n"));
	EXPECT_EQ(0, strncmp(opts, "print-parent\n", 13));
	EXPECT_STREQ("0\n", tfs_cat("options/raw"));
	EXPECT_EQ(3, tfs_echo("trace_options", "raw"));
	EXPECT_STREQ("1\n", tfs_cat("options/raw"));
	EXPECT_EQ(1, tfs_count(tfs_cat("trace_options"), "\nraw\n"));
	EXPECT_EQ(6, tfs_echo("trace_options", "noraw\n"));
	EXPECT_STREQ("0\n", tfs_cat("options/raw"));
	EXPECT_EQ(4, tfs_echo("trace_options", " raw"));
	EXPECT_EQ(5, tfs_echo("trace_options", "noraw"));
	EXPECT_EQ(0, tfs_refuses("trace_options", -EINVAL,
				 TFS_WRITES("bogus", "", "\n", "raw hex", "nonoraw", "RAW")));
	EXPECT_STREQ("0\n", tfs_cat("options/raw"));
}

static void test_option_files(void)
{
	EXPECT_EQ(1, tfs_echo("options/hex", "1"));
	EXPECT_STREQ("1\n", tfs_cat("options/hex"));
	EXPECT_EQ(0, tfs_refuses("options/hex", -EINVAL, TFS_WRITES("2", "", "x")));
	EXPECT_STREQ("1\n", tfs_cat("options/hex"));
	EXPECT_EQ(2, tfs_echo("options/hex", "0\n"));
	EXPECT_STREQ("0\n", tfs_cat("options/hex"));
	EXPECT_EQ(1, tfs_count(tfs_cat("trace_options"), "\nnohex\n"));
	EXPECT_STREQ("1\n", tfs_cat("options/overwrite"));
	EXPECT_STREQ("0\n", tfs_cat("options/event-fork"));
	/*
	 * The nop tracer's test options: it refuses any change of
	 * test_nop_refuse, and through trace_options even none.
	 */
	EXPECT_EQ(1, tfs_echo("options/test_nop_accept", "1"));
	EXPECT_EQ(1, tfs_echo("options/test_nop_accept", "0"));
	EXPECT_EQ(0, tfs_refuses("options/test_nop_refuse", -EINVAL, TFS_WRITES("1", "2")));
	EXPECT_EQ(1, tfs_echo("options/test_nop_refuse", "0"));
	EXPECT_EQ(0, tfs_refuses("trace_options", -EINVAL,
				 TFS_WRITES("test_nop_refuse", "notest_nop_refuse")));
	EXPECT_EQ(15, tfs_echo("trace_options", "test_nop_accept"));
	EXPECT_EQ(17, tfs_echo("trace_options", "notest_nop_accept"));
	EXPECT_STREQ("0\n", tfs_cat("options/test_nop_refuse"));
	EXPECT_EQ(1, tfs_count(tfs_cat("trace_options"), "\nnotest_nop_refuse\n"));
}

/* The mask the kernel prints for every CPU on: "3", "ff", "ff,ffffffff". */
static void all_cpus_mask(char *buf, int cpus)
{
	int chunk = (cpus + 31) / 32 - 1, bits = cpus % 32 ? cpus % 32 : 32;

	buf[0] = '\0';
	for (; chunk >= 0; chunk--, bits = 32)
		sprintf(buf + strlen(buf), "%s%0*x", buf[0] ? "," : "", (bits + 3) / 4,
			bits == 32 ? 0xffffffffu : (1u << bits) - 1);
	strcat(buf, "\n");
}

static void test_tracing_cpumask(void)
{
	char all[64], over[32];
	int cpus = nr_cpus();

	all_cpus_mask(all, cpus);
	EXPECT_STREQ(all, tfs_cat("tracing_cpumask"));
	EXPECT_EQ(1, tfs_echo("tracing_cpumask", "1"));
	EXPECT_EQ(0, strncmp(tfs_cat("tracing_cpumask") + strlen(all) - 2, "1\n", 2));
	EXPECT_EQ(0, tfs_refuses("tracing_cpumask", -EINVAL, TFS_WRITES("", "x", "1g")));
	EXPECT_EQ(-EOVERFLOW, tfs_echo("tracing_cpumask", "1,0,0,0,0,0,0,0,0"));
	if (cpus % 32) {
		snprintf(over, sizeof(over), "%x", 1u << (cpus % 32));
		EXPECT_EQ(-EOVERFLOW, tfs_echo("tracing_cpumask", over));
	}
	EXPECT_EQ(2, tfs_echo("tracing_cpumask", "0\n"));
	EXPECT_EQ(0, strncmp(tfs_cat("tracing_cpumask") + strlen(all) - 2, "0\n", 2));
	EXPECT_EQ((ssize_t)strlen(all), tfs_echo("tracing_cpumask", all));
	EXPECT_STREQ(all, tfs_cat("tracing_cpumask"));
}

/* A CPU out of the mask records nothing. */
static void test_cpumask_stops_cpu(void)
{
	cpu_set_t set, old;
	char all[64];

	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		SKIP("cannot pin to CPU 0");
	tfs_echo("trace", "");
	tfs_echo("events/tfs_test/tfs_one/enable", "1");
	tfs_echo("tracing_cpumask", "0");
	tfs_fire_one(1, 3);
	EXPECT_EQ(0, tfs_count(tfs_cat("per_cpu/cpu0/trace"), "tfs_one:"));
	tfs_echo("tracing_cpumask", "1");
	tfs_fire_one(1, 3);
	EXPECT_EQ(3, tfs_count(tfs_cat("per_cpu/cpu0/trace"), "tfs_one:"));
	tfs_echo("events/tfs_test/tfs_one/enable", "0");
	tfs_echo("trace", "");
	sched_setaffinity(0, sizeof(old), &old);
	all_cpus_mask(all, nr_cpus());
	tfs_echo("tracing_cpumask", all);
}

static void test_set_event_pid(void)
{
	const char *f = "set_event_pid";

	EXPECT_STREQ("", tfs_cat(f));
	EXPECT_EQ(6, tfs_echo(f, "123 45"));
	EXPECT_STREQ("45\n123\n", tfs_cat(f));
	EXPECT_EQ(3, tfs_append(f, "12\n"));
	EXPECT_STREQ("12\n45\n123\n", tfs_cat(f));
	/* Base 0, as kstrtoul(, 0, ): hex and octal. */
	EXPECT_EQ(8, tfs_append(f, "0x10 010"));
	EXPECT_STREQ("8\n12\n16\n45\n123\n", tfs_cat(f));
	/* All or nothing. */
	EXPECT_EQ(-EINVAL, tfs_append(f, "5 x"));
	EXPECT_EQ(-EINVAL, tfs_append(f, "-1"));
	EXPECT_STREQ("8\n12\n16\n45\n123\n", tfs_cat(f));
	EXPECT_EQ(1, tfs_echo(f, "\n"));
	EXPECT_STREQ("", tfs_cat(f));
	EXPECT_EQ(1, tfs_echo("set_event_notrace_pid", "7"));
	EXPECT_STREQ("7\n", tfs_cat("set_event_notrace_pid"));
	EXPECT_EQ(0, tfs_echo("set_event_notrace_pid", ""));
	EXPECT_STREQ("", tfs_cat("set_event_notrace_pid"));
}

/* A write to set_event_pid (O_TRUNC) and what 6.18 gives for it. */
struct pid_case {
	const char	*write;
	size_t		len;
	ssize_t		ret;
	const char	*after;
};
#define PC(write, ret, after)	{ write, sizeof(write) - 1, ret, after }

static const struct pid_case pid_cases[] = {
	/* A NUL ends a word; a NUL alone ends the write, which says so. */
	PC("1\0xyz",		-EINVAL,	""),
	PC("1 \0 2",		3,		"1\n"),
	PC("1 2\0 3",		6,		"1\n2\n3\n"),
	PC("\0 5",		1,		""),
	/* 0xa0 is white space to the kernel's isspace(). */
	PC("1\xa0" "2",		3,		"1\n2\n"),
	PC("1\x1c" "2",		-EINVAL,	""),
	/* The pid lists hold 0 .. 2^30 - 1; the number is cut to a pid_t. */
	PC("1073741823",	10,		"1073741823\n"),
	PC("1073741824",	-EPERM,		""),
	PC("2147483648",	-EPERM,		""),
	PC("4294967296",	10,		"0\n"),
	PC("18446744073709551615", -EPERM,	""),
	PC("18446744073709551616", -EINVAL,	""),
	/* A word is read whole (kstrtoul()), up to 127 bytes. */
	PC("0000000000000000000000000000000000000000000000000000000000000000000000000000001",
	   79, "1\n"),
	PC("0000000000000000000000000000000000000000000000000000000000000000000000000000000"
	   "000000000000000000000000000000000000000000000000001", -EINVAL, ""),
};

static void test_set_event_pid_kernel(void)
{
	const struct pid_case *c;

	for (c = pid_cases; c < pid_cases + ARRAY_LEN(pid_cases); c++) {
		ssize_t ret = tfs_write_path("set_event_pid", c->write, c->len, O_TRUNC);

		if (ret != c->ret)
			ksft_print_msg("set_event_pid \"%s\": %zd, not %zd\n", c->write,
				       ret, c->ret);
		EXPECT_EQ(c->ret, ret);
		EXPECT_STREQ(c->after, tfs_cat("set_event_pid"));
	}
	tfs_echo("set_event_pid", "");
}

/* "123456 " times @n: a write the FUSE client cuts into pieces. */
static char *pid_words(size_t n, const char *tail)
{
	char *s = malloc(n * 7 + strlen(tail) + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		memcpy(s + 7 * i, "123456 ", 7);
	strcpy(s + 7 * n, tail);
	return s;
}

/*
 * A write(2) of more than a piece reads as one: the word a piece ends in
 * goes on in the next; a bad word in a later piece undoes the earlier
 * ones (the write(2) returns the bytes of those, and the rest, written
 * again, fails).
 */
static void test_set_event_pid_pieces(void)
{
	const char *f = "set_event_pid";
	size_t piece = 1 << 20, len = 160000 * 7;
	char *s = pid_words(160000, "");

	ASSERT_TRUE(s != NULL);
	EXPECT_EQ((ssize_t)len, tfs_write_split(f, s, len, piece - 16, O_TRUNC));
	EXPECT_STREQ("123456\n", tfs_cat(f));
	EXPECT_EQ((ssize_t)len, tfs_write_split(f, s, len, 4096, O_TRUNC));
	EXPECT_STREQ("123456\n", tfs_cat(f));
	free(s);

	s = pid_words(160000, "x");
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(2, tfs_echo(f, "77"));
	EXPECT_EQ((ssize_t)piece - 16, tfs_write_split(f, s, len + 1, piece - 16, O_APPEND));
	EXPECT_STREQ("77\n", tfs_cat(f));
	free(s);

	/* White space up to the end of a piece, then the pid. */
	s = calloc(1, piece + 8);
	ASSERT_TRUE(s != NULL);
	memset(s, ' ', piece - 3);
	strcpy(s + piece - 3, "4242\n");
	EXPECT_EQ((ssize_t)piece + 2, tfs_write_split(f, s, piece + 2, piece, O_TRUNC));
	EXPECT_STREQ("4242\n", tfs_cat(f));
	/* A last piece of the full size, in a word: the word is the last pid. */
	strcpy(s + piece - 3, "987");
	EXPECT_EQ((ssize_t)piece, tfs_write_split(f, s, piece, piece, O_TRUNC));
	EXPECT_STREQ("987\n", tfs_cat(f));
	s[piece - 1] = 'x';
	EXPECT_EQ(-EINVAL, tfs_write_split(f, s, piece, piece, O_APPEND));
	EXPECT_STREQ("987\n", tfs_cat(f));
	free(s);
	tfs_echo(f, "");
}

/* Only listed threads record. */
static void test_set_event_pid_filters(void)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%ld", (long)syscall(SYS_gettid));
	tfs_echo("trace", "");
	tfs_echo("events/tfs_test/tfs_one/enable", "1");
	tfs_echo("set_event_pid", "1");
	tfs_fire_one(1, 2);
	EXPECT_EQ(0, tfs_count(tfs_cat("trace"), "tfs_one:"));
	tfs_echo("set_event_pid", pid);
	tfs_fire_one(1, 2);
	EXPECT_EQ(2, tfs_count(tfs_cat("trace"), "tfs_one:"));
	tfs_echo("set_event_notrace_pid", pid);
	tfs_fire_one(1, 2);
	EXPECT_EQ(2, tfs_count(tfs_cat("trace"), "tfs_one:"));
	tfs_echo("set_event_notrace_pid", "");
	tfs_echo("set_event_pid", "");
	tfs_echo("events/tfs_test/tfs_one/enable", "0");
	tfs_echo("trace", "");
}

static void test_saved_cmdlines(void)
{
	char want[64], comm[16] = "";

	tfs_echo("events/tfs_test/tfs_one/enable", "1");
	tfs_fire_one(1, 1);
	tfs_echo("events/tfs_test/tfs_one/enable", "0");
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	snprintf(want, sizeof(want), "%ld %s\n", (long)syscall(SYS_gettid), comm);
	EXPECT_EQ(1, tfs_count(tfs_cat("saved_cmdlines"), want));
	EXPECT_STREQ("1024\n", tfs_cat("saved_cmdlines_size"));
	EXPECT_EQ(-EACCES, tfs_open_err("saved_cmdlines", O_WRONLY));
	/* saved_tgids fills with record-tgid. */
	EXPECT_STREQ("", tfs_cat("saved_tgids"));
	tfs_echo("options/record-tgid", "1");
	snprintf(want, sizeof(want), "%ld %d\n", (long)syscall(SYS_gettid), (int)getpid());
	EXPECT_EQ(1, tfs_count(tfs_cat("saved_tgids"), want));
	tfs_echo("options/record-tgid", "0");
}

static void test_fixed_texts(void)
{
	EXPECT_STREQ("", tfs_cat("printk_formats"));
	EXPECT_EQ(0, strncmp(tfs_cat("README"), "ustrace tracing mini-HOWTO", 26));
	EXPECT_EQ(1, tfs_count(tfs_cat("README"), "\n # echo 1 > events/<system>/enable"));
}

const struct tfs_test tfs_control_tests[] = {
	TFS_TEST(test_tracing_on),
	TFS_TEST(test_buffer_size),
	TFS_TEST(test_buffer_size_per_cpu),
	TFS_TEST(test_buffer_percent),
	TFS_TEST(test_trace_clock),
	TFS_TEST(test_tracers),
	TFS_TEST(test_trace_options),
	TFS_TEST(test_option_files),
	TFS_TEST(test_tracing_cpumask),
	TFS_TEST(test_cpumask_stops_cpu),
	TFS_TEST(test_set_event_pid),
	TFS_TEST(test_set_event_pid_kernel),
	TFS_TEST(test_set_event_pid_pieces),
	TFS_TEST(test_set_event_pid_filters),
	TFS_TEST(test_saved_cmdlines),
	TFS_TEST(test_fixed_texts),
	{ NULL, NULL }
};
