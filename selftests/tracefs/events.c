// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * events/, set_event, available_events: texts and errnos, checked
 * against what /sys/kernel/tracing gives for the same writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "tfs_test.h"

#define ONE_ENABLE	"events/tfs_test/tfs_one/enable"
#define TWO_ENABLE	"events/tfs_test/tfs_two/enable"
#define SYS_ENABLE	"events/tfs_test/enable"

static void all_off(void)
{
	tfs_echo("events/enable", "0");
}

/* Writes enable refuses, as the kernel's kstrtoul() does. */
#define BAD_ENABLE	TFS_WRITES("2", "", " 1", "1 ", "1\n\n", "\n", "x", "0x1", "-0", "1x")

static void test_event_enable(void)
{
	all_off();
	EXPECT_STREQ("0\n", tfs_cat(ONE_ENABLE));
	EXPECT_EQ(1, tfs_echo(ONE_ENABLE, "1"));
	EXPECT_STREQ("1\n", tfs_cat(ONE_ENABLE));
	EXPECT_EQ(0, tfs_refuses(ONE_ENABLE, -EINVAL, BAD_ENABLE));
	EXPECT_EQ(-ERANGE, tfs_echo(ONE_ENABLE, "99999999999999999999"));
	EXPECT_STREQ("1\n", tfs_cat(ONE_ENABLE));
	EXPECT_EQ(2, tfs_echo(ONE_ENABLE, "0\n"));
	EXPECT_STREQ("0\n", tfs_cat(ONE_ENABLE));
	EXPECT_EQ(2, tfs_echo(ONE_ENABLE, "+1"));
	EXPECT_EQ(2, tfs_echo(ONE_ENABLE, "01"));
	EXPECT_STREQ("1\n", tfs_cat(ONE_ENABLE));
	/* The kernel stops at a NUL. */
	EXPECT_EQ(2, tfs_write_path(ONE_ENABLE, "0\0garbage", 2, O_TRUNC));
	EXPECT_STREQ("0\n", tfs_cat(ONE_ENABLE));
}

/* Held by a trigger (soft mode): "0*" and "1*", and on for the system. */
static void test_soft_mode(void)
{
	struct trace_event_call *call = trace_find_event_call("tfs_test", "tfs_one");
	struct trace_array *tr = trace_array_top();

	all_off();
	ASSERT_TRUE(call && tr);
	ASSERT_EQ(0, trace_array_soft_mode(tr, call, 1));
	EXPECT_STREQ("0*\n", tfs_cat(ONE_ENABLE));
	EXPECT_STREQ("X\n", tfs_cat(SYS_ENABLE));
	EXPECT_EQ(0, trace_array_soft_disable(tr, call, 0));
	EXPECT_STREQ("1*\n", tfs_cat(ONE_ENABLE));
	EXPECT_STREQ("tfs_test:tfs_one\n", tfs_cat("set_event"));
	EXPECT_EQ(0, trace_array_soft_disable(tr, call, 1));
	EXPECT_STREQ("", tfs_cat("set_event"));
	EXPECT_EQ(0, trace_array_soft_mode(tr, call, 0));
	EXPECT_STREQ("0\n", tfs_cat(ONE_ENABLE));
	EXPECT_STREQ("0\n", tfs_cat(SYS_ENABLE));
}

/* "X" when mixed, "1"/"0" when not, at system and top level. */
static void test_system_enable(void)
{
	all_off();
	EXPECT_STREQ("0\n", tfs_cat(SYS_ENABLE));
	EXPECT_STREQ("0\n", tfs_cat("events/enable"));
	tfs_echo(ONE_ENABLE, "1");
	EXPECT_STREQ("X\n", tfs_cat(SYS_ENABLE));
	EXPECT_STREQ("X\n", tfs_cat("events/enable"));
	EXPECT_EQ(2, tfs_echo(SYS_ENABLE, "1\n"));
	EXPECT_STREQ("1\n", tfs_cat(TWO_ENABLE));
	EXPECT_STREQ("1\n", tfs_cat(SYS_ENABLE));
	EXPECT_EQ(0, tfs_refuses(SYS_ENABLE, -EINVAL, BAD_ENABLE));
	EXPECT_EQ(0, tfs_refuses("events/enable", -EINVAL, BAD_ENABLE));
	EXPECT_STREQ("1\n", tfs_cat(SYS_ENABLE));
	EXPECT_EQ(1, tfs_echo("events/enable", "0"));
	EXPECT_STREQ("0\n", tfs_cat(ONE_ENABLE));
	EXPECT_STREQ("0\n", tfs_cat(TWO_ENABLE));
	EXPECT_EQ(1, tfs_echo("events/enable", "1"));
	EXPECT_STREQ("1\n", tfs_cat("events/enable"));
	EXPECT_STREQ("1\n", tfs_cat(TWO_ENABLE));
	all_off();
}

/* Copied from /sys/kernel/tracing/events/ftrace/print/format. */
static const char kernel_print_format[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

/* The internal ftrace system: formats and ids, nothing to enable. */
static void test_ftrace_system(void)
{
	EXPECT_TRUE(tfs_dir_has("events/ftrace", "print"));
	EXPECT_TRUE(tfs_dir_has("events/ftrace", "raw_data"));
	EXPECT_FALSE(tfs_dir_has("events/ftrace", "enable"));
	EXPECT_FALSE(tfs_dir_has("events/ftrace", "filter"));
	EXPECT_FALSE(tfs_dir_has("events/ftrace/print", "enable"));
	EXPECT_FALSE(tfs_dir_has("events/ftrace/print", "filter"));
	EXPECT_STREQ(kernel_print_format, tfs_cat("events/ftrace/print/format"));
	EXPECT_STREQ("5\n", tfs_cat("events/ftrace/print/id"));
	EXPECT_EQ(0, tfs_count(tfs_cat("available_events"), "ftrace:"));
	EXPECT_EQ(-EINVAL, tfs_echo("set_event", "ftrace:print"));
	EXPECT_EQ(-EINVAL, tfs_echo("set_event", "print"));
}

static void test_format_id(void)
{
	struct trace_event_call *call = trace_find_event_call("tfs_test", "tfs_one");
	char want[2048], id[16];

	ASSERT_TRUE(call != NULL);
	ASSERT_GT(trace_event_format(call, want, sizeof(want)), 0);
	EXPECT_STREQ(want, tfs_cat("events/tfs_test/tfs_one/format"));
	/* Read in pieces at increasing offsets: the same text. */
	EXPECT_STREQ(want, tfs_cat_chunked("events/tfs_test/tfs_one/format", 7));
	snprintf(id, sizeof(id), "%d\n", call->id);
	EXPECT_STREQ(id, tfs_cat("events/tfs_test/tfs_one/id"));
	EXPECT_EQ(1, tfs_count(want, "\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n"));
}

static void test_headers(void)
{
	char page[1024], entry[1024];

	ring_buffer_print_page_header(page, sizeof(page));
	ring_buffer_print_entry_header(entry, sizeof(entry));
	EXPECT_STREQ(page, tfs_cat("events/header_page"));
	EXPECT_STREQ(entry, tfs_cat("events/header_event"));
	EXPECT_EQ(1, tfs_count(page, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"));
	EXPECT_EQ(1, tfs_count(entry, "# compressed entry header\n"));
}

static void test_available_events(void)
{
	const char *text = tfs_cat("available_events");

	EXPECT_EQ(1, tfs_count(text, "tfs_test:tfs_one\n"));
	EXPECT_EQ(1, tfs_count(text, "tfs_test:tfs_two\n"));
	EXPECT_EQ(-EACCES, tfs_open_err("available_events", O_WRONLY));
}

#define BOTH	"tfs_test:tfs_one\ntfs_test:tfs_two\n"

/*
 * set_event through pieces of one write(2): white space and a word a
 * piece ends in go on into the next piece; after the word, the write
 * takes nothing more (the return is the kernel's: up to the word's end).
 */
static void test_set_event_pieces(void)
{
	const char *list = "tfs_test:tfs_one tfs_test:tfs_two";
	size_t piece = 1 << 20;
	char *s = malloc(piece + 64);

	all_off();
	ASSERT_TRUE(s != NULL);
	memset(s, ' ', piece - 5);
	strcpy(s + piece - 5, list);
	EXPECT_EQ((ssize_t)piece + 12, tfs_write_split("set_event", s, piece - 5 + strlen(list),
						       piece - 16, O_TRUNC));
	EXPECT_STREQ("tfs_test:tfs_one\n", tfs_cat("set_event"));
	/* The word at the end of the write's last, full-size, piece. */
	memcpy(s + piece - 16, "tfs_test:tfs_two", 16);
	EXPECT_EQ((ssize_t)piece, tfs_write_split("set_event", s, piece, piece, O_TRUNC));
	EXPECT_STREQ("tfs_test:tfs_two\n", tfs_cat("set_event"));
	memcpy(s + piece - 16, "tfs_test:tfs_six", 16);
	EXPECT_EQ(-EINVAL, tfs_write_split("set_event", s, piece, piece, O_APPEND));
	/* A list of a thousand words in one write(2): the first word. */
	for (size_t i = 0; i < 1000; i++)
		memcpy(s + 17 * i, i % 2 ? "tfs_test:tfs_two " : "tfs_test:tfs_one ", 17);
	EXPECT_EQ(17, tfs_write_split("set_event", s, 17000, 4096, O_TRUNC));
	EXPECT_STREQ("tfs_test:tfs_one\n", tfs_cat("set_event"));
	EXPECT_EQ(17000, tfs_write_loop("set_event", s, 17000, O_TRUNC));
	EXPECT_STREQ(BOTH, tfs_cat("set_event"));
	free(s);
	all_off();
}

/* A write to set_event, and what it reads after. */
struct set_event_case {
	const char	*write;
	int		flags;		/* O_TRUNC (>) or O_APPEND (>>) */
	const char	*after;
	size_t		len;		/* of @write, which may hold a NUL */
};
#define SE(write, flags, after)	{ write, flags, after, sizeof(write) - 1 }

static const struct set_event_case set_event_cases[] = {
	SE("tfs_test:tfs_one",	O_TRUNC,	"tfs_test:tfs_one\n"),
	SE("tfs_test:tfs_two\n",	O_APPEND,	BOTH),
	SE("!tfs_test:tfs_one",	O_APPEND,	"tfs_test:tfs_two\n"),
	SE(":tfs_one",		O_TRUNC,	"tfs_test:tfs_one\n"),
	SE("*:tfs_two",		O_TRUNC,	"tfs_test:tfs_two\n"),
	SE("tfs_test:",		O_TRUNC,	BOTH),
	SE("tfs_one",		O_TRUNC,	"tfs_test:tfs_one\n"),
	/* A bare name is a system too. */
	SE("tfs_test",		O_TRUNC,	BOTH),
	SE("!*:*",		O_APPEND,	""),
	SE("tfs_test:*",		O_TRUNC,	BOTH),
	/* One word a write(2); echo writes the rest again. */
	SE("tfs_test:tfs_one tfs_test:tfs_two", O_TRUNC, BOTH),
	SE("tfs_test:tfs_one\0tfs_test:tfs_two", O_TRUNC, BOTH),
	/* An empty write with O_TRUNC: everything off. */
	SE("",			O_TRUNC,	""),
};

static void test_set_event_syntax(void)
{
	const struct set_event_case *c;

	all_off();
	for (c = set_event_cases; c < set_event_cases + ARRAY_LEN(set_event_cases); c++) {
		EXPECT_EQ((ssize_t)c->len, tfs_write_loop("set_event", c->write, c->len,
							   c->flags));
		EXPECT_STREQ(c->after, tfs_cat("set_event"));
	}
	EXPECT_STREQ("0\n", tfs_cat("events/enable"));
}

static void test_set_event_errors(void)
{
	all_off();
	tfs_echo(ONE_ENABLE, "1");
	EXPECT_EQ(-EINVAL, tfs_append("set_event", "bogus:x"));
	EXPECT_EQ(-EINVAL, tfs_append("set_event", "tfs_test:bogus"));
	EXPECT_EQ(-EINVAL, tfs_append("set_event", "*"));
	EXPECT_STREQ("tfs_test:tfs_one\n", tfs_cat("set_event"));
	/*
	 * One word a write(2), as the kernel: the return counts the word and
	 * the byte after it; echo writes the rest again, and the bad word
	 * fails with the ones before it applied.
	 */
	EXPECT_EQ(17, tfs_append("set_event", "tfs_test:tfs_two bogus"));
	EXPECT_STREQ("tfs_test:tfs_one\ntfs_test:tfs_two\n", tfs_cat("set_event"));
	EXPECT_EQ(-EINVAL, tfs_write_loop("set_event", "!tfs_test:tfs_two bogus", 23, O_APPEND));
	EXPECT_STREQ("tfs_test:tfs_one\n", tfs_cat("set_event"));
	EXPECT_EQ(-EINVAL, tfs_append("set_event", "tfs_test:tfs_two_longer_than_it_is"));
	EXPECT_STREQ("tfs_test:tfs_one\n", tfs_cat("set_event"));
	tfs_append("set_event", "tfs_test:tfs_two");
	/* White space only changes nothing. */
	EXPECT_EQ(3, tfs_append("set_event", " \n "));
	EXPECT_STREQ("tfs_test:tfs_one\ntfs_test:tfs_two\n", tfs_cat("set_event"));
	all_off();
}

static const char *last_error(void)
{
	const char *log = tfs_cat("error_log");
	const char *last = log, *p;

	for (p = log; (p = strstr(p, "\n[")); p++)
		last = p + 1;
	return last;
}

/* The last entry of error_log is @loc: @msg for @cmd, the caret at @pos. */
static int last_error_is(const char *loc, const char *msg, const char *cmd, int pos)
{
	const char *entry = last_error();
	unsigned long sec, usec;
	char tail[512];
	int n = 0;

	if (sscanf(entry, "[%5lu.%6lu]%n", &sec, &usec, &n) != 2 || n != 14)
		return 0;
	snprintf(tail, sizeof(tail), " %s: error: %s\n  Command: %s\n%*s\n", loc, msg, cmd,
		 (int)strlen("  Command: ") + pos + 1, "^");
	return !strcmp(entry + n, tail);
}

/* The events of the last test in the trace: "v=1 v=3 ...". */
static const char *traced(const char *event)
{
	static char list[512];
	const char *text = tfs_cat("trace"), *p = text;
	char pat[64];
	size_t len = 0;

	list[0] = '\0';
	snprintf(pat, sizeof(pat), ": %s: v=", event);
	while ((p = strstr(p, pat)) && len < sizeof(list) - 16) {
		p += strlen(pat);
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%sv=%d",
					len ? " " : "", atoi(p));
	}
	return list;
}

/*
 * With the system enabled, tfs_one and tfs_two fire with v = 0 .. @n - 1:
 * does the trace keep @one of the first and @two of the second?
 */
static int kept(int n, const char *one, const char *two)
{
	tfs_echo(SYS_ENABLE, "1");
	tfs_fire_one(0, n);
	tfs_fire_two(0, n);
	if (strcmp(one, traced("tfs_one")) || strcmp(two, traced("tfs_two"))) {
		ksft_print_msg("kept '%s' and '%s'\n", traced("tfs_one"), traced("tfs_two"));
		return 0;
	}
	return 1;
}

#define ONE_FILTER	"events/tfs_test/tfs_one/filter"
#define TWO_FILTER	"events/tfs_test/tfs_two/filter"
#define FILTER_LOC	"event filter parse error"

static void test_event_filter(void)
{
	all_off();
	tfs_echo("trace", "");
	EXPECT_EQ(0, tfs_echo("error_log", ""));
	EXPECT_STREQ("none\n", tfs_cat(ONE_FILTER));
	EXPECT_EQ(5, tfs_echo(ONE_FILTER, "v > 1"));
	EXPECT_STREQ("v > 1\n", tfs_cat(ONE_FILTER));
	EXPECT_STREQ("none\n", tfs_cat(TWO_FILTER));
	EXPECT_TRUE(kept(4, "v=2 v=3", "v=0 v=1 v=2 v=3"));
	/* Discarded events were never written. */
	EXPECT_EQ(1, tfs_count(tfs_cat("trace"), "entries-in-buffer/entries-written: 6/6 "));
	/* The end is trimmed, the start is kept, as the kernel's. */
	EXPECT_EQ(12, tfs_echo(ONE_FILTER, "  v == 3 \n\t "));
	EXPECT_STREQ("  v == 3\n", tfs_cat(ONE_FILTER));
	EXPECT_EQ(4, tfs_echo(ONE_FILTER, " 0 \n"));
	EXPECT_STREQ("none\n", tfs_cat(ONE_FILTER));
	EXPECT_EQ(1, tfs_echo(ONE_FILTER, "0"));
	EXPECT_STREQ("", tfs_cat("error_log"));
	all_off();
	tfs_echo("trace", "");
}

static void test_event_filter_errors(void)
{
	tfs_echo("error_log", "");
	EXPECT_EQ(-EINVAL, tfs_echo(ONE_FILTER, "bogus == 1"));
	EXPECT_STREQ("bogus == 1\n      ^\nparse_error: Field not found\n\n", tfs_cat(ONE_FILTER));
	EXPECT_TRUE(last_error_is(FILTER_LOC, "Field not found", "bogus == 1", 6));
	/* Command: without the white space at the end; the caret follows. */
	EXPECT_EQ(-EINVAL, tfs_echo(ONE_FILTER, "  bogus == 1 \n"));
	EXPECT_STREQ("  bogus == 1\n        ^\nparse_error: Field not found\n\n",
		     tfs_cat(ONE_FILTER));
	EXPECT_TRUE(last_error_is(FILTER_LOC, "Field not found", "  bogus == 1", 8));
	EXPECT_EQ(-EINVAL, tfs_echo(ONE_FILTER, "v == x"));
	EXPECT_TRUE(last_error_is(FILTER_LOC, "Invalid value (did you forget quotes)?",
				  "v == x", 6));
	/* Empty is no filter expression either, as the kernel says. */
	EXPECT_EQ(-EINVAL, tfs_echo(ONE_FILTER, ""));
	EXPECT_STREQ("\nError: (0)\n\n", tfs_cat(ONE_FILTER));
	EXPECT_TRUE(last_error_is(FILTER_LOC, "Error", "", 0));
	EXPECT_EQ(-EINVAL, tfs_echo(ONE_FILTER, "\n"));
	EXPECT_EQ(5, tfs_count(tfs_cat("error_log"), "  Command: "));
	/* A refused filter leaves the event unfiltered. */
	tfs_echo("trace", "");
	tfs_echo(ONE_ENABLE, "1");
	tfs_fire_one(0, 2);
	EXPECT_STREQ("v=0 v=1", traced("tfs_one"));
	/* A page or more: refused, nothing changed, nothing logged. */
	{
		static char big[4096];

		memset(big, ' ', sizeof(big));
		memcpy(big, "v == 1", 6);
		EXPECT_EQ(-EINVAL, tfs_write_path(ONE_FILTER, big, sizeof(big), O_TRUNC));
		EXPECT_EQ(4095, tfs_write_path(ONE_FILTER, big, sizeof(big) - 1, O_TRUNC));
		EXPECT_STREQ("v == 1\n", tfs_cat(ONE_FILTER));
	}
	EXPECT_EQ(5, tfs_count(tfs_cat("error_log"), "  Command: "));
	tfs_echo(ONE_FILTER, "0");
	EXPECT_EQ(0, tfs_echo("error_log", ""));
	EXPECT_STREQ("", tfs_cat("error_log"));
	all_off();
	tfs_echo("trace", "");
}

#define SYS_FILTER	"events/tfs_test/filter"

static const char sys_filter_help[] =
	"### global filter ###\n"
	"# Use this to set filters for multiple events.\n"
	"# Only events with the given fields will be affected.\n"
	"# If no events are modified, an error message will be displayed here\n";

/* Each event that has the fields takes a system's filter. */
static void test_system_filter(void)
{
	all_off();
	tfs_echo("trace", "");
	tfs_echo("error_log", "");
	EXPECT_STREQ(sys_filter_help, tfs_cat(SYS_FILTER));
	EXPECT_EQ(6, tfs_echo(SYS_FILTER, "v != 1"));
	EXPECT_STREQ(sys_filter_help, tfs_cat(SYS_FILTER));
	EXPECT_STREQ("v != 1\n", tfs_cat(ONE_FILTER));
	EXPECT_STREQ("v != 1\n", tfs_cat(TWO_FILTER));
	EXPECT_TRUE(kept(3, "v=0 v=2", "v=0 v=2"));
	EXPECT_EQ(1, tfs_echo(SYS_FILTER, "0"));
	EXPECT_STREQ("none\n", tfs_cat(ONE_FILTER));
	EXPECT_STREQ("none\n", tfs_cat(TWO_FILTER));
	EXPECT_STREQ("", tfs_cat("error_log"));
	all_off();
	tfs_echo("trace", "");
}

/*
 * A filter no event can take: the write succeeds, each event shows why
 * it has none, and error_log has the kernel's entry once per event.
 */
static void test_system_filter_errors(void)
{
	static const char why[] =
		"Couldn't find or set field in one of a subsystem's events";
	char text[256];

	tfs_echo("error_log", "");
	tfs_echo(ONE_FILTER, "v == 7");
	EXPECT_EQ(10, tfs_echo(SYS_FILTER, "bogus == 1"));
	snprintf(text, sizeof(text), "bogus == 1\n^\nparse_error: %s\n\n", why);
	EXPECT_STREQ(text, tfs_cat(ONE_FILTER));
	EXPECT_STREQ(text, tfs_cat(TWO_FILTER));
	EXPECT_EQ(2, tfs_count(tfs_cat("error_log"), "  Command: bogus == 1\n"));
	EXPECT_TRUE(last_error_is(FILTER_LOC, why, "bogus == 1", 0));
	EXPECT_STREQ(sys_filter_help, tfs_cat(SYS_FILTER));
	/* Empty: the same, for every event (the kernel's). */
	tfs_echo("error_log", "");
	EXPECT_EQ(0, tfs_echo(SYS_FILTER, ""));
	EXPECT_EQ(2, tfs_count(tfs_cat("error_log"), "  Command: \n"));
	EXPECT_EQ(1, tfs_echo(SYS_FILTER, "0"));
	EXPECT_STREQ("none\n", tfs_cat(ONE_FILTER));
	tfs_echo("error_log", "");
}

static void test_error_log_max(void)
{
	char cmd[16];

	tfs_echo("error_log", "");
	for (int i = 0; i < 10; i++) {
		snprintf(cmd, sizeof(cmd), "x%d", i);
		tfs_echo("events/tfs_test/tfs_one/filter", cmd);
	}
	/* The kernel keeps the last eight. */
	EXPECT_EQ(8, tfs_count(tfs_cat("error_log"), "  Command: "));
	EXPECT_EQ(0, tfs_count(tfs_cat("error_log"), "Command: x1\n"));
	EXPECT_EQ(1, tfs_count(tfs_cat("error_log"), "Command: x9\n"));
	/* A write without O_TRUNC changes nothing. */
	EXPECT_EQ(1, tfs_append("error_log", "x"));
	EXPECT_EQ(8, tfs_count(tfs_cat("error_log"), "  Command: "));
	tfs_echo("error_log", "");
	tfs_echo("events/tfs_test/tfs_one/filter", "0");
}

#define ONE_TRIGGER	"events/tfs_test/tfs_one/trigger"
#define TRIGGER_HELP	"# Available triggers:\n# traceon traceoff snapshot stacktrace " \
			"enable_event disable_event enable_hist disable_hist hist\n"

/* Commands, counts, conditions, removal, and what the file reads. */
static void test_trigger(void)
{
	all_off();
	tfs_echo("error_log", "");
	EXPECT_STREQ(TRIGGER_HELP, tfs_cat(ONE_TRIGGER));
	EXPECT_EQ(0, tfs_echo(ONE_TRIGGER, ""));
	EXPECT_EQ(19, tfs_echo(ONE_TRIGGER, "traceoff:2 if v > 1"));
	EXPECT_STREQ("traceoff:count=2 if v > 1\n", tfs_cat(ONE_TRIGGER));
	/* One trigger of a family per event, as the kernel's. */
	EXPECT_EQ(-EEXIST, tfs_append(ONE_TRIGGER, "traceoff"));
	EXPECT_EQ(31, tfs_append(ONE_TRIGGER, "enable_event:tfs_test:tfs_two:1"));
	EXPECT_STREQ("0*\n", tfs_cat(TWO_ENABLE));
	/* A trigger fires on an event that is not enabled (soft mode). */
	tfs_fire_one(0, 3);
	EXPECT_STREQ("0\n", tfs_cat("tracing_on"));
	EXPECT_STREQ("1*\n", tfs_cat(TWO_ENABLE));
	EXPECT_STREQ("enable_event:tfs_test:tfs_two:count=0\ntraceoff:count=1 if v > 1\n",
		     tfs_cat(ONE_TRIGGER));
	tfs_echo("tracing_on", "1");
	/* "!" removes, whatever the count says. */
	EXPECT_EQ(17, tfs_append(ONE_TRIGGER, "!traceoff:count=1"));
	EXPECT_EQ(33, tfs_append(ONE_TRIGGER, "  !enable_event:tfs_test:tfs_two\n"));
	EXPECT_STREQ(TRIGGER_HELP, tfs_cat(ONE_TRIGGER));
	/* It fired: the event stays enabled, out of soft mode (the kernel's). */
	EXPECT_STREQ("1\n", tfs_cat(TWO_ENABLE));
	/* Removing what is not there is no error. */
	EXPECT_EQ(8, tfs_append(ONE_TRIGGER, "!traceon"));
	/* Refused: nothing changed, nothing logged (only hist logs). */
	EXPECT_EQ(0, tfs_refuses(ONE_TRIGGER, -EINVAL,
				 TFS_WRITES("\n", "0", "bogus", "traceon:x", "traceon if",
					    "enable_event:tfs_test:nope", "enable_event:tfs_test")));
	EXPECT_STREQ("", tfs_cat("error_log"));
	EXPECT_EQ(-EINVAL, tfs_echo(ONE_TRIGGER, "traceon if bogus == 1"));
	EXPECT_STREQ(TRIGGER_HELP, tfs_cat(ONE_TRIGGER));
	all_off();
}

static void test_hist(void)
{
	const char *h = "events/tfs_test/tfs_one/hist";
	const char *text;

	all_off();
	tfs_echo("error_log", "");
	EXPECT_STREQ("", tfs_cat(h));
	EXPECT_EQ(-EINVAL, tfs_echo(ONE_TRIGGER, "  hist:keys=bogus "));
	EXPECT_TRUE(last_error_is("hist:tfs_test:tfs_one", "Couldn't find field",
				  "hist:keys=bogus", 10));
	EXPECT_EQ(34, tfs_append(ONE_TRIGGER, "hist:keys=v:vals=hitcount if v < 3"));
	EXPECT_EQ(7, tfs_append(ONE_TRIGGER, "traceon"));
	/* The newest first, as the kernel lists them. */
	EXPECT_STREQ("traceon:unlimited\n"
		     "hist:keys=v:vals=hitcount:sort=hitcount:size=2048 if v < 3 [active]\n",
		     tfs_cat(ONE_TRIGGER));
	tfs_fire_one(1, 4);
	tfs_fire_one(2, 1);
	text = tfs_cat(h);
	EXPECT_EQ(1, tfs_count(text, "# event histogram\n#\n# trigger info: hist:keys=v:"
			       "vals=hitcount:sort=hitcount:size=2048 if v < 3 [active]\n#\n\n"));
	EXPECT_EQ(1, tfs_count(text, "{ v:          1 } hitcount:          1\n"));
	EXPECT_EQ(1, tfs_count(text, "{ v:          2 } hitcount:          2\n"));
	EXPECT_EQ(1, tfs_count(text, "\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 0\n"));
	/* O_TRUNC takes the hist triggers away and leaves the others. */
	EXPECT_EQ(0, tfs_echo(ONE_TRIGGER, ""));
	EXPECT_STREQ("traceon:unlimited\n", tfs_cat(ONE_TRIGGER));
	EXPECT_STREQ("", tfs_cat(h));
	tfs_append(ONE_TRIGGER, "!traceon");
	tfs_echo("error_log", "");
}

#define SNAPSHOT_HELP(state)							\
	"# tracer: nop\n#\n#\n# * Snapshot is " state " *\n#\n"			\
	"# Snapshot commands:\n"						\
	"# echo 0 > snapshot : Clears and frees snapshot buffer\n"		\
	"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n" \
	"#                      Takes a snapshot of the main buffer.\n"		\
	"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n" \
	"#                      (Doesn't have to be '2' works with any number that\n" \
	"#                       is not a '0' or '1')\n"

/* 0 frees, 1 takes, other numbers clear; a trigger takes one too. */
static void test_snapshot(void)
{
	all_off();
	tfs_echo("trace", "");
	EXPECT_STREQ(SNAPSHOT_HELP("freed"), tfs_cat("snapshot"));
	tfs_echo(ONE_ENABLE, "1");
	tfs_fire_one(5, 2);
	EXPECT_EQ(1, tfs_echo("snapshot", "1"));
	EXPECT_EQ(1, tfs_count(tfs_cat("snapshot"), "# entries-in-buffer/entries-written: 2/2 "));
	/* The buffers traded places: the main one is the old snapshot's. */
	EXPECT_STREQ("", traced("tfs_one"));
	EXPECT_EQ(1, tfs_count(tfs_cat("snapshot"), ": tfs_one: v=6\n"));
	EXPECT_EQ(2, tfs_echo("snapshot", "2\n"));
	EXPECT_STREQ(SNAPSHOT_HELP("allocated"), tfs_cat("snapshot"));
	EXPECT_EQ(0, tfs_refuses("snapshot", -EINVAL, TFS_WRITES("x", "-1", "1x", "")));
	EXPECT_EQ(-ERANGE, tfs_echo("snapshot", "99999999999999999999"));
	/* The snapshot trigger: the buffer as it was at the event. */
	EXPECT_EQ(18, tfs_echo(ONE_TRIGGER, "snapshot if v == 8"));
	tfs_fire_one(7, 3);
	EXPECT_EQ(1, tfs_count(tfs_cat("snapshot"), ": tfs_one: v=8\n"));
	EXPECT_EQ(0, tfs_count(tfs_cat("snapshot"), ": tfs_one: v=9\n"));
	EXPECT_STREQ("v=9", traced("tfs_one"));
	EXPECT_EQ(9, tfs_append(ONE_TRIGGER, "!snapshot"));
	EXPECT_EQ(1, tfs_echo("snapshot", "0"));
	EXPECT_STREQ(SNAPSHOT_HELP("freed"), tfs_cat("snapshot"));
	all_off();
	tfs_echo("trace", "");
}

/* Each instance's enables are its own. */
static void test_instance_events(void)
{
	struct tfs_stat st;
	int64_t dir = tfs_path("instances");

	all_off();
	ASSERT_EQ(0, tfs_mkdir((uint64_t)dir, "ev", &st));
	EXPECT_EQ(1, tfs_echo("instances/ev/events/tfs_test/tfs_one/enable", "1"));
	EXPECT_STREQ("1\n", tfs_cat("instances/ev/events/tfs_test/tfs_one/enable"));
	EXPECT_STREQ("X\n", tfs_cat("instances/ev/events/enable"));
	EXPECT_STREQ("0\n", tfs_cat(ONE_ENABLE));
	EXPECT_STREQ("tfs_test:tfs_one\n", tfs_cat("instances/ev/set_event"));
	EXPECT_STREQ("", tfs_cat("set_event"));
	EXPECT_EQ(-EINVAL, tfs_echo("instances/ev/events/tfs_test/tfs_one/filter", "bad"));
	EXPECT_EQ(1, tfs_count(tfs_cat("instances/ev/error_log"), "Command: bad\n"));
	EXPECT_EQ(0, tfs_count(tfs_cat("error_log"), "Command: bad\n"));
	/* Its filters are its own. */
	EXPECT_EQ(5, tfs_echo("instances/ev/events/tfs_test/tfs_one/filter", "v > 1"));
	EXPECT_EQ(5, tfs_echo("instances/ev/events/tfs_test/filter", "v < 9"));
	EXPECT_STREQ("v < 9\n", tfs_cat("instances/ev/events/tfs_test/tfs_one/filter"));
	EXPECT_STREQ("v < 9\n", tfs_cat("instances/ev/events/tfs_test/tfs_two/filter"));
	EXPECT_STREQ("none\n", tfs_cat(ONE_FILTER));
	EXPECT_STREQ("none\n", tfs_cat(TWO_FILTER));
	EXPECT_EQ(0, tfs_rmdir((uint64_t)dir, "ev"));
}

const struct tfs_test tfs_events_tests[] = {
	TFS_TEST(test_event_enable),
	TFS_TEST(test_soft_mode),
	TFS_TEST(test_system_enable),
	TFS_TEST(test_ftrace_system),
	TFS_TEST(test_format_id),
	TFS_TEST(test_headers),
	TFS_TEST(test_available_events),
	TFS_TEST(test_set_event_syntax),
	TFS_TEST(test_set_event_errors),
	TFS_TEST(test_set_event_pieces),
	TFS_TEST(test_event_filter),
	TFS_TEST(test_event_filter_errors),
	TFS_TEST(test_system_filter),
	TFS_TEST(test_system_filter_errors),
	TFS_TEST(test_error_log_max),
	TFS_TEST(test_trigger),
	TFS_TEST(test_hist),
	TFS_TEST(test_snapshot),
	TFS_TEST(test_instance_events),
	{ NULL, NULL }
};
