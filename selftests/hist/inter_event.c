// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Inter-event hist triggers and synthetic events (kernel/trace/
 * trace_events_hist*.c, trace_events_synth.c), through the engine's
 * interface: the expression parser (constants folded, errors and their
 * carets, values computed as the kernel computes them), variables matched
 * by key and read once, onmatch(), onmax(), onchange(), snapshot(),
 * synthetic events (definitions, the format text, the trace text, errors,
 * removal), references that keep triggers busy, events that go away, and
 * threads matching pairs at once.  The texts are linux 6.1's.  Each test
 * works in its own instance.  Linked with libustrace.a: the interface is
 * internal.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "hist-events.h"

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/trace.h"
#include "../../kernel/trace/trace_filter.h"
#include "../../kernel/trace/trace_synth.h"
#include "kselftest.h"

static struct trace_event_call *start_ev(void)
{
	return trace_find_event_call("hist_test", "req_start");
}

static struct trace_event_call *end_ev(void)
{
	return trace_find_event_call("hist_test", "req_end");
}

static struct trace_event_call *types_ev(void)
{
	return trace_find_event_call("hist_test", "req_types");
}

static struct trace_event_call *synth(const char *name)
{
	return trace_find_event_call("synthetic", name);
}

static struct trace_err last_err;

static int set(struct trace_array *tr, struct trace_event_call *call, const char *cmd)
{
	return trace_array_set_trigger(tr, call, cmd, &last_err);
}

static int synth_cmd(const char *cmd)
{
	return trace_synth_command(cmd, false, &last_err);
}

/* The trigger file's text (static: the last one read). */
static const char *triggers(struct trace_array *tr, struct trace_event_call *call)
{
	static struct trace_seq s;

	trace_seq_init(&s);
	trace_array_print_triggers(tr, call, &s);
	return s.buffer;
}

static char *hist(struct trace_array *tr, struct trace_event_call *call)
{
	return trace_array_hist_text(tr, call, NULL);
}

/* The trace of @tr, each line from the event's name on ("name: text"). */
static char *trace_events(struct trace_array *tr)
{
	struct trace_iterator *iter = trace_array_iterator_open(tr, 0, RING_BUFFER_ALL_CPUS);
	size_t size = 1 << 16, len = 0;
	char *out = calloc(1, size);
	struct trace_seq *s = malloc(sizeof(*s));

	while (iter && out && s) {
		const char *ev;

		trace_seq_init(s);
		if (trace_iterator_print_line(iter, s) != 1)
			break;
		/* "comm-pid [cpu] flags time: name: text" */
		ev = strchr(s->buffer, ']');
		ev = ev ? strstr(ev, ": ") : NULL;
		if (!ev)
			continue;
		ev += 2;
		if (len + strlen(ev) + 1 > size) {
			size = 2 * (len + strlen(ev) + 1);
			out = realloc(out, size);
		}
		memcpy(out + len, ev, strlen(ev) + 1);
		len += strlen(ev);
	}
	trace_iterator_close(iter);
	free(s);
	return out;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; p && (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* "Hits: N" of a hist text (the first histogram). */
static unsigned long hits_of(const char *text)
{
	const char *p = text ? strstr(text, "Hits: ") : NULL;

	return p ? strtoul(p + 6, NULL, 10) : 0;
}

static struct trace_array *instance(const char *name)
{
	struct trace_array *tr = trace_array_create(name);

	return tr;
}

/* ------------------------------------------------------------------
 * The expression parser
 */

struct expr_case {
	const char	*expr;		/* after "hist:keys=id:x=" */
	const char	*shows;		/* the variable as the trigger file shows it */
	int		ret;
	const char	*msg;		/* the error, or NULL */
	const char	*at;		/* where the caret is, in "hist:keys=id:x=EXPR" */
};

/* Constants fold as the kernel folds them: the root operator is the last of the lowest. */
static void expressions(void)
{
	static const struct expr_case cases[] = {
		{ "123", "x=123", 0, NULL, NULL },
		{ "0x10", "x=16", 0, NULL, NULL },
		{ "16-8-4-2", "x=2", 0, NULL, NULL },
		{ "64/8/4/2", "x=1", 0, NULL, NULL },
		{ "16-8+4+2", "x=14", 0, NULL, NULL },
		{ "4*3/2*2", "x=12", 0, NULL, NULL },
		{ "4+3*2-2", "x=8", 0, NULL, NULL },
		{ "4+6/2-2", "x=5", 0, NULL, NULL },
		/* Division by a constant: a multiply and shift, rounding up. */
		{ "7/3", "x=3", 0, NULL, NULL },
		{ "6/3", "x=2", 0, NULL, NULL },
		{ "3000000/3", "x=1000000", 0, NULL, NULL },
		{ "bytes*2+1", "x=bytes*2+1", 0, NULL, NULL },
		{ "bytes-status", "x=bytes-status", 0, NULL, NULL },
		{ "-(bytes)", "x=-(bytes)", 0, NULL, NULL },
		{ "common_timestamp.usecs-common_timestamp.usecs",
		  "x=common_timestamp.usecs-common_timestamp.usecs", 0, NULL, NULL },
		{ "32+10*3/20-4", NULL, -EINVAL, "Too many subexpressions (3 max)", "10" },
		{ "1+2+3+4+5", NULL, -EINVAL, "Too many subexpressions (3 max)", "1+" },
		{ "-(1)+2", NULL, -EINVAL, "Unary minus not supported in sub-expressions", "1)" },
		{ "3/0", NULL, -EDOM, "Division by zero", "0" },
		{ "1x", NULL, -EINVAL, "Expecting numeric literal", "1x" },
		{ "bytes+nosuch", NULL, -EINVAL, "Couldn't find field", "nosuch" },
		{ "common_timestamp-common_timestamp.usecs", NULL, -EINVAL,
		  "Timestamp units in expression don't match", "hist" },
		{ "bytes.log2", NULL, -EINVAL, "Invalid field modifier", "bytes.log2" },
	};
	struct trace_array *tr = instance("t-expr");
	char cmd[256];

	ASSERT_TRUE(tr != NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct expr_case *c = &cases[i];
		int ret;

		snprintf(cmd, sizeof(cmd), "hist:keys=id:x=%s", c->expr);
		ret = set(tr, end_ev(), cmd);
		if (ret != c->ret)
			ksft_print_msg("%s: %d, not %d\n", cmd, ret, c->ret);
		EXPECT_EQ(c->ret, ret);
		if (!c->ret) {
			char want[256];

			snprintf(want, sizeof(want), ":%s:", c->shows);
			if (!strstr(triggers(tr, end_ev()), want))
				ksft_print_msg("%s: %s", cmd, triggers(tr, end_ev()));
			EXPECT_TRUE(strstr(triggers(tr, end_ev()), want) != NULL);
			trace_array_trigger_truncate(tr, end_ev());
			continue;
		}
		EXPECT_STREQ("hist:hist_test:req_end", last_err.loc);
		EXPECT_STREQ(c->msg, last_err.msg);
		EXPECT_EQ(strstr(cmd, c->at) - cmd, last_err.pos);
	}
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/*
 * Values computed in the probe: a synthetic event generated by the
 * event itself (onmatch() of its own event) shows them.
 */
static void expression_values(void)
{
	struct trace_array *tr = instance("t-exprval");
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, synth_cmd("vals u64 x; u64 y; u64 z; u64 w; u64 q"));
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "synthetic", "vals", 1));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:x=bytes*3+1,y=bytes/3,z=bytes/status,"
				       "w=-(bytes),q=bytes/4:"
				       "onmatch(hist_test.req_end).vals($x,$y,$z,$w,$q)"));
	trace_req_end(1, 2, 7);
	trace_req_end(2, 0, 7);
	trace_req_end(3, 5, 6);
	text = trace_events(tr);
	/* 7/3 is 3 (the kernel's multiply and shift), x/0 is -1, -(x) wraps. */
	EXPECT_TRUE(strstr(text, "vals: x=22 y=3 z=3 w=18446744073709551609 q=1\n") != NULL);
	EXPECT_TRUE(strstr(text, "vals: x=22 y=3 z=18446744073709551615 w=18446744073709551609 "
				 "q=1\n") != NULL);
	EXPECT_TRUE(strstr(text, "vals: x=19 y=2 z=1 w=18446744073709551610 q=1\n") != NULL);
	EXPECT_EQ(3, count(text, "vals: "));
	if (count(text, "vals: ") != 3)
		ksft_print_msg("%s", text);
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
	EXPECT_EQ(0, synth_cmd("!vals"));
}

/* ------------------------------------------------------------------
 * Variables and matching
 */

/* A variable set by the start is read once by the end with the same key. */
static void latency_match(void)
{
	struct trace_array *tr = instance("t-match");
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, synth_cmd("lat_event u64 lat; int id"));
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "synthetic", "lat_event", 1));
	ASSERT_EQ(0, set(tr, start_ev(), "hist:keys=id:ts0=common_timestamp"));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:lat=common_timestamp-$ts0:"
				       "onmatch(hist_test.req_start).lat_event($lat,id)"));
	EXPECT_STREQ("hist:keys=id:vals=hitcount:lat=common_timestamp-$ts0:sort=hitcount:"
		     "size=2048:clock=global:onmatch(hist_test.req_start).lat_event($lat,id)"
		     " [active]\n", triggers(tr, end_ev()));
	trace_req_end(7, 0, 0);		/* no start: no match */
	trace_req_start(1, "one", "/a");
	trace_req_end(1, 0, 0);
	trace_req_end(1, 0, 0);		/* read once: no second match */
	trace_req_start(2, "two", "/b");
	trace_req_start(3, "three", "/c");
	trace_req_end(3, 0, 0);
	trace_req_end(2, 0, 0);
	text = trace_events(tr);
	EXPECT_EQ(3, count(text, "lat_event: lat="));
	EXPECT_EQ(1, count(text, " id=1\n"));
	EXPECT_EQ(1, count(text, " id=2\n"));
	EXPECT_EQ(1, count(text, " id=3\n"));
	EXPECT_EQ(0, count(text, " id=7\n"));
	free(text);
	/* The end's histogram counts the matched hits only. */
	text = hist(tr, end_ev());
	EXPECT_EQ(3, hits_of(text));
	EXPECT_TRUE(strstr(text, "{ id:          1 } hitcount:          1\n") != NULL);
	free(text);
	text = hist(tr, start_ev());
	EXPECT_EQ(3, hits_of(text));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
	EXPECT_EQ(0, synth_cmd("!lat_event"));
}

/* Variables are per instance; unqualified names must be unique; qualified ones choose. */
static void variable_scope(void)
{
	struct trace_array *a = instance("t-scope-a"), *b = instance("t-scope-b");

	ASSERT_TRUE(a && b);
	ASSERT_EQ(0, set(a, start_ev(), "hist:keys=id:ts0=common_timestamp"));
	/* Another instance does not see it. */
	EXPECT_EQ(-EINVAL, set(b, end_ev(), "hist:keys=id:lat=common_timestamp-$ts0"));
	EXPECT_STREQ("Couldn't find field", last_err.msg);
	/* The same name on two events: only the qualified one resolves. */
	ASSERT_EQ(0, set(a, types_ev(), "hist:keys=id:ts0=common_timestamp"));
	EXPECT_EQ(-EINVAL, set(a, end_ev(), "hist:keys=id:lat=common_timestamp-$ts0"));
	EXPECT_EQ(0, set(a, end_ev(),
			 "hist:keys=id:lat=common_timestamp-hist_test.req_start.$ts0"));
	EXPECT_TRUE(strstr(triggers(a, end_ev()),
			   ":lat=common_timestamp-$hist_test.req_start.ts0:") != NULL);
	/* A variable is defined once per event. */
	EXPECT_EQ(-EINVAL, set(a, start_ev(), "hist:keys=comm:ts0=common_timestamp"));
	EXPECT_STREQ("Variable already defined", last_err.msg);
	EXPECT_EQ(0, trace_array_destroy(a));
	EXPECT_EQ(0, trace_array_destroy(b));
}

/* The start's trigger is busy while the end's refers to its variables. */
static void references_busy(void)
{
	struct trace_array *tr = instance("t-busy");

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, set(tr, start_ev(), "hist:keys=id:ts0=common_timestamp"));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:lat=common_timestamp-$ts0"));
	EXPECT_EQ(-EBUSY, set(tr, start_ev(), "!hist:keys=id:ts0=common_timestamp"));
	/* O_TRUNC leaves them all, as the kernel's hist_unreg_all(). */
	trace_array_trigger_truncate(tr, start_ev());
	EXPECT_EQ(1, count(triggers(tr, start_ev()), "ts0=common_timestamp"));
	/* Removing what is not there is no error. */
	EXPECT_EQ(0, set(tr, start_ev(), "!hist:keys=id:ts1=common_timestamp"));
	EXPECT_EQ(0, set(tr, end_ev(), "!hist:keys=id:lat=common_timestamp-$ts0"));
	EXPECT_EQ(0, set(tr, start_ev(), "!hist:keys=id:ts0=common_timestamp"));
	EXPECT_EQ(0, count(triggers(tr, start_ev()), "hist:"));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/*
 * The start's event goes away (its object unloaded): its trigger goes,
 * the end's stays, matches nothing any more, and frees the start's table
 * when it goes.
 */
static void event_removed(void)
{
	struct trace_array *tr = instance("t-removed");
	struct trace_event_call *s = start_ev();
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, set(tr, s, "hist:keys=id:ts0=common_timestamp"));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:lat=common_timestamp-$ts0"));
	trace_req_start(1, "x", "/x");
	EXPECT_EQ(0, trace_remove_event_call(s));
	trace_req_end(1, 0, 0);
	text = hist(tr, end_ev());
	EXPECT_EQ(0, hits_of(text));
	free(text);
	/* "!hist" cannot name $ts0 any more: O_TRUNC takes it. */
	EXPECT_EQ(-EINVAL, set(tr, end_ev(), "!hist:keys=id:lat=common_timestamp-$ts0"));
	trace_array_trigger_truncate(tr, end_ev());
	EXPECT_EQ(0, count(triggers(tr, end_ev()), "hist:"));
	EXPECT_EQ(0, trace_add_event_call(s));
	EXPECT_EQ(0, count(triggers(tr, s), "hist:"));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* ------------------------------------------------------------------
 * Synthetic events
 */

static const char types_format[] =
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:s8 a;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:u16 b;\toffset:16;\tsize:2;\tsigned:0;\n"
	"\tfield:int c;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 d;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:char e[16];\toffset:40;\tsize:16;\tsigned:1;\n"
	"\tfield:__data_loc char[] f;\toffset:296;\tsize:8;\tsigned:1;\n"
	"\tfield:long g;\toffset:304;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long h;\toffset:312;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"a=%d, b=%u, c=%d, d=%llu, e=%s, f=%s, g=%ld, h=%lu\", REC->a, REC->b, "
	"REC->c, REC->d, REC->e, __get_str(f), REC->g, REC->h\n";

/* The kernel's layout: a slot of 8 bytes each, 256 for a static string. */
static void synth_format(void)
{
	char buf[4096], *text;
	int len;

	ASSERT_EQ(0, synth_cmd("types s8 a; u16 b; int c; u64 d; char e[16]; char f[]; "
			       "long g; unsigned long h"));
	ASSERT_TRUE(synth("types") != NULL);
	len = trace_event_format(synth("types"), buf, sizeof(buf));
	ASSERT_TRUE(len > 0 && strstr(buf, "format:\n"));
	EXPECT_STREQ(types_format, strstr(buf, "format:\n"));
	EXPECT_TRUE(!strncmp(buf, "name: types\nID: ", 16));
	text = trace_synth_text(false, NULL);
	EXPECT_STREQ("types\ts8 a; u16 b; int c; u64 d; char[16] e; char[] f; long g; "
		     "unsigned long h\n", text);
	free(text);
	text = trace_synth_text(true, NULL);
	EXPECT_STREQ("s:synthetic/types\ts8 a; u16 b; int c; u64 d; char[16] e; char[] f; "
		     "long g; unsigned long h\n", text);
	free(text);
	/* The old form, without semicolons, and "unsigned". */
	ASSERT_EQ(0, synth_cmd("old u64 lat pid_t pid unsigned int flags char comm[16]"));
	text = trace_synth_text(false, NULL);
	EXPECT_TRUE(strstr(text, "old\tu64 lat; pid_t pid; unsigned int flags; char[16] comm\n"));
	free(text);
	EXPECT_EQ(0, synth_cmd("!old"));
	EXPECT_EQ(0, synth_cmd("!types"));
	EXPECT_TRUE(synth("types") == NULL);
}

/* Each type printed as the kernel's print_synth_event() prints it. */
static void synth_print(void)
{
	struct trace_array *tr = instance("t-sprint");
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, synth_cmd("types s8 a; u16 b; long c; char comm[16]; char path[]"));
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "synthetic", "types", 1));
	ASSERT_EQ(0, set(tr, start_ev(), "hist:keys=id:c0=comm,p0=path"));
	ASSERT_EQ(0, set(tr, types_ev(), "hist:keys=id:a0=s8v,b0=u16v,l0=lv:"
					 "onmatch(hist_test.req_start).types($a0,$b0,$l0,$c0,$p0)"));
	trace_req_start(1, "worker", "/tmp/file");
	trace_req_types(1, -2, 65535, -3);
	trace_req_start(2, "a-very-long-comm-name", "");
	trace_req_types(2, 5, 0, 1L << 40);
	text = trace_events(tr);
	/* A negative s8 prints as its byte, as the kernel's. */
	EXPECT_TRUE(strstr(text, "types: a=254 b=65535 c=-3 comm=worker path=/tmp/file\n") != NULL);
	EXPECT_TRUE(strstr(text, "types: a=5 b=0 c=1099511627776 comm=a-very-long-com path=\n")
		    != NULL);
	if (count(text, "types: ") != 2)
		ksft_print_msg("%s", text);
	free(text);
	/* A synthetic event is an event: filters and hist triggers take its fields. */
	ASSERT_EQ(0, trace_array_set_filter(tr, synth("types"), "a == 5", &last_err));
	ASSERT_EQ(0, set(tr, synth("types"), "hist:keys=comm,path:vals=c"));
	trace_req_start(3, "w3", "/p3");
	trace_req_types(3, 5, 1, 10);
	trace_req_start(4, "w4", "/p4");
	trace_req_types(4, 6, 1, 10);
	text = hist(tr, synth("types"));
	EXPECT_TRUE(strstr(text, "{ comm: w3") && strstr(text, "path: /p3"));
	EXPECT_TRUE(strstr(text, "w4") != NULL);	/* triggers run before the filter */
	free(text);
	text = trace_events(tr);
	EXPECT_EQ(1, count(text, "comm=w3"));
	EXPECT_EQ(0, count(text, "comm=w4"));
	free(text);
	/* In use: -EBUSY, nothing removed. */
	EXPECT_EQ(-EBUSY, synth_cmd("!types"));
	EXPECT_EQ(-EBUSY, trace_synth_release_all());
	EXPECT_TRUE(synth("types") != NULL);
	EXPECT_EQ(0, trace_array_destroy(tr));
	EXPECT_EQ(0, synth_cmd("!types"));
}

struct synth_err_case {
	const char	*cmd;
	bool		dyn;
	int		ret;
	const char	*msg;
	const char	*at;	/* the caret's text; NULL: at 0 */
};

/* The kernel's errors (trigger-synthetic_event_syntax_errors.tc and more). */
static void synth_errors(void)
{
	static const struct synth_err_case cases[] = {
		{ "myevent chr arg", false, -EINVAL, "Invalid type", "chr" },
		{ "myevent unsigned arg", false, -EINVAL, "Incomplete type", "unsigned" },
		{ "myevent char str]; int v", false, -EINVAL, "Illegal name", "str]" },
		{ "mye-vent char str[]", false, -EINVAL, "Illegal name", NULL },
		{ "myevent char st-r[]", false, -EINVAL, "Illegal name", "st-r" },
		{ "myevent char str;[]", false, -EINVAL, "Invalid field", "[]" },
		{ "myevent char str; int", false, -EINVAL, "Invalid field", "int" },
		{ "myevent char str[; int v", false, -EINVAL, "Invalid array specification",
		  "str[" },
		{ "myevent char str[kdjdk]", false, -EINVAL, "Invalid array specification",
		  "str[k" },
		{ "myevent char str[257]", false, -EINVAL, "Invalid array specification",
		  "str[2" },
		{ "mye;vent char str[]", false, -EINVAL,
		  "Command must be of the form: <name> field[;field] ...", NULL },
		{ "myevent ; char str[]", false, -EINVAL,
		  "Command must be of the form: <name> field[;field] ...", NULL },
		{ "myevent", false, -EINVAL,
		  "Command must be of the form: <name> field[;field] ...", NULL },
		{ "myevent u64", false, -EINVAL,
		  "Command must be of the form: <name> field[;field] ...", NULL },
		{ "myevent u64 a b", false, -EINVAL, "Invalid field", "b" },
		{ "s:junk/myevent char str[", true, -EINVAL,
		  "Command must be of the form: s or -:[synthetic/]<name> field[;field] ...",
		  NULL },
		{ "s:myevent", true, -EINVAL,
		  "Command must be of the form: <name> field[;field] ...", NULL },
		{ "p:kprobe do_fork", true, -EINVAL, NULL, NULL },
		{ "!nosuch", false, -ENOENT, NULL, NULL },
		{ "-:nosuch", true, -ENOENT, NULL, NULL },
		{ "-nosuch", true, -EINVAL, NULL, NULL },
	};
	char *text;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct synth_err_case *c = &cases[i];
		int ret = trace_synth_command(c->cmd, c->dyn, &last_err);

		if (ret != c->ret)
			ksft_print_msg("%s: %d, not %d\n", c->cmd, ret, c->ret);
		EXPECT_EQ(c->ret, ret);
		if (!c->msg) {
			EXPECT_TRUE(last_err.loc == NULL);
			continue;
		}
		EXPECT_STREQ("synthetic_events", last_err.loc);
		EXPECT_STREQ(c->msg, last_err.msg);
		EXPECT_EQ(c->at ? strstr(c->cmd, c->at) - c->cmd : 0, last_err.pos);
	}
	ASSERT_EQ(0, synth_cmd("dup u64 a"));
	EXPECT_EQ(-EEXIST, synth_cmd("dup u64 b"));
	EXPECT_STREQ("Event already exists", last_err.msg);
	/* Too many fields: 64 at most. */
	{
		char cmd[2048] = "many";

		for (int i = 0; i < 65; i++)
			snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " u8 f%d;", i);
		EXPECT_EQ(-EINVAL, synth_cmd(cmd));
		EXPECT_STREQ("Too many fields", last_err.msg);
	}
	/* dynamic_events: "s:", "-:", "!s:" and the system's name. */
	EXPECT_EQ(0, trace_synth_command("s:synthetic/dyn1 u64 a", true, &last_err));
	EXPECT_EQ(0, trace_synth_command("s:dyn2 char s[]; int i;", true, &last_err));
	text = trace_synth_text(true, NULL);
	EXPECT_STREQ("s:synthetic/dup\tu64 a\ns:synthetic/dyn1\tu64 a\n"
		     "s:synthetic/dyn2\tchar[] s; int i\n", text);
	free(text);
	EXPECT_EQ(0, trace_synth_command("-:synthetic/dyn1", true, &last_err));
	EXPECT_EQ(-ENOENT, trace_synth_command("-:other/dyn2", true, &last_err));
	EXPECT_EQ(0, trace_synth_command("!s:dyn2", true, &last_err));
	/* A blank line is no command. */
	EXPECT_EQ(0, trace_synth_command("   \t", false, &last_err));
	EXPECT_EQ(0, trace_synth_release_all());
	EXPECT_TRUE(synth("dup") == NULL);
}

/* ------------------------------------------------------------------
 * Actions
 */

/* onmax().save(): the maximum of each key and the fields of its hit. */
static void onmax_save(void)
{
	struct trace_array *tr = instance("t-onmax");
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, set(tr, start_ev(), "hist:keys=id:b0=common_timestamp"));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=status:v=bytes:onmax($v).save(id,bytes)"));
	EXPECT_STREQ("hist:keys=status:vals=hitcount:v=bytes:sort=hitcount:size=2048:"
		     "onmax($v).save(id,bytes) [active]\n", triggers(tr, end_ev()));
	trace_req_end(1, 200, 10);
	trace_req_end(2, 200, 30);
	trace_req_end(3, 200, 20);
	trace_req_end(4, 404, 5);
	text = hist(tr, end_ev());
	EXPECT_TRUE(strstr(text, "{ status:        200 } hitcount:          3\n"
				 "\tmax:         30  id:          2  bytes:         30\n") != NULL);
	EXPECT_TRUE(strstr(text, "{ status:        404 } hitcount:          1\n"
				 "\tmax:          5  id:          4  bytes:          5\n") != NULL);
	free(text);
	/* One save() per trigger; onmax() of a non-variable. */
	EXPECT_EQ(-EEXIST, set(tr, types_ev(), "hist:keys=id:v=lv:onmax($v).save(id):"
					       "onmax($v).save(lv)"));
	EXPECT_STREQ("Can't have more than one save() action per hist", last_err.msg);
	EXPECT_EQ(-EINVAL, set(tr, types_ev(), "hist:keys=id:onmax(lv).save(id)"));
	EXPECT_STREQ("For onmax(x) or onchange(x), x must be a variable", last_err.msg);
	EXPECT_EQ(-EINVAL, set(tr, types_ev(), "hist:keys=id:onmax($v).save(id)"));
	EXPECT_STREQ("Couldn't find onmax or onchange variable", last_err.msg);
	EXPECT_EQ(-EINVAL, set(tr, types_ev(), "hist:keys=id:v=lv:onmax($v).save(nosuch)"));
	EXPECT_STREQ("Couldn't create field variable", last_err.msg);
	EXPECT_EQ(-EINVAL, set(tr, types_ev(), "hist:keys=id:v=lv:onmax($v).bogus"));
	EXPECT_STREQ("No action found", last_err.msg);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* onchange().save() and .snapshot(): the snapshot holds the event that changed it. */
static void onchange_snapshot(void)
{
	struct trace_array *tr = instance("t-onchange");
	struct trace_iterator *iter;
	char *text, *snap;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "hist_test", "req_end", 1));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:st=status:onchange($st).save(bytes):"
				       "onchange($st).snapshot()"));
	/* The conditional snapshot owns the snapshot buffer. */
	EXPECT_EQ(-EBUSY, trace_array_snapshot_write(tr, 1));
	trace_req_end(1, 5, 100);
	trace_req_end(1, 5, 101);	/* no change: no snapshot */
	trace_req_end(2, 7, 200);
	text = hist(tr, end_ev());
	EXPECT_TRUE(strstr(text, "{ id:          1 } hitcount:          2\n"
				 "\tchanged:          5  bytes:        100\n") != NULL);
	EXPECT_TRUE(strstr(text, "\nSnapshot taken (see tracing/snapshot).  Details:\n"
				 "\ttriggering value { onchange($st) }:          7"
				 "\ttriggered by event with key: { id:          2 }\n") != NULL);
	if (!strstr(text, "Snapshot taken"))
		ksft_print_msg("%s", text);
	free(text);
	/*
	 * Two snapshots were taken: the second swapped back, and the event
	 * that took it is in the snapshot, as in the kernel.
	 */
	iter = trace_array_snapshot_iterator_open(tr);
	ASSERT_TRUE(iter != NULL);
	{
		struct trace_seq *s = malloc(sizeof(*s));
		int n = 0;

		while (s && (trace_seq_init(s), trace_iterator_print_line(iter, s)) == 1)
			n += strstr(s->buffer, "req_end: id=2 status=7") != NULL;
		EXPECT_EQ(1, n);
		free(s);
	}
	trace_iterator_close(iter);
	snap = trace_events(tr);
	free(snap);
	EXPECT_EQ(0, set(tr, end_ev(), "!hist:keys=id:st=status:onchange($st).save(bytes):"
				       "onchange($st).snapshot()"));
	EXPECT_EQ(0, trace_array_snapshot_write(tr, 0));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* A field of the matching event: a hist trigger of its own on that event. */
static void field_var_hist(void)
{
	struct trace_array *tr = instance("t-fieldvar");
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, synth_cmd("lat_who u64 lat; char who[16]"));
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "synthetic", "lat_who", 1));
	ASSERT_EQ(0, set(tr, start_ev(), "hist:keys=id:ts0=common_timestamp if id < 100"));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:lat=common_timestamp-$ts0:"
				       "onmatch(hist_test.req_start).lat_who($lat,"
				       "hist_test.req_start.comm)"));
	/* The keys and the filter of the trigger already there. */
	EXPECT_TRUE(strstr(triggers(tr, start_ev()),
			   "hist:keys=id:vals=hitcount:synthetic_comm=comm:sort=hitcount:"
			   "size=2048 if id < 100 [active]\n") != NULL);
	trace_req_start(5, "fieldvar", "/");
	trace_req_end(5, 0, 0);
	text = trace_events(tr);
	EXPECT_EQ(1, count(text, " who=fieldvar\n"));
	free(text);
	/* The synthetic event is busy while the action refers to it. */
	EXPECT_EQ(-EBUSY, synth_cmd("!lat_who"));
	EXPECT_EQ(0, set(tr, end_ev(), "!hist:keys=id:lat=common_timestamp-$ts0:"
				       "onmatch(hist_test.req_start).lat_who($lat,"
				       "hist_test.req_start.comm)"));
	EXPECT_EQ(0, count(triggers(tr, start_ev()), "synthetic_comm"));
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "synthetic", "lat_who", 0));
	EXPECT_EQ(0, synth_cmd("!lat_who"));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* The errors of actions, with the kernel's texts and carets. */
static void action_errors(void)
{
	static const struct { const char *cmd; const char *msg; const char *at; } cases[] = {
		{ "hist:keys=id:onmatch(hist_test.req_start", "No closing paren found",
		  "hist_test.req_start" },
		{ "hist:keys=id:onmatch(hist_test.req_start.lat_e($x)",
		  "Invalid subsystem or event name", "req_start.lat_e" },
		{ "hist:keys=id:onmatch(hist_test).lat_e($x)", "Missing subsystem", "hist_test)" },
		{ "hist:keys=id:onmatch(hist_test.nosuch).lat_e($x)",
		  "Invalid subsystem or event name", "nosuch" },
		{ "hist:keys=id:onmatch(hist_test.req_start).nosuch($x)",
		  "Couldn't find synthetic event", "nosuch" },
		{ "hist:keys=id:onmatch(hist_test.req_start).lat_e($nosuch,id)",
		  "Couldn't find param", "nosuch" },
		{ "hist:keys=id:l=bytes:onmatch(hist_test.req_start).lat_e($l)",
		  "Param count doesn't match synthetic event field count", "lat_e" },
		{ "hist:keys=id:l=id:onmatch(hist_test.req_start).lat_e($l,id)",
		  "Param type doesn't match synthetic event field type", "$l," },
		{ "hist:keys=id:onmatch(hist_test.req_start).lat_e(x,id)", "Invalid action param",
		  "x" },
		{ "hist:keys=id:onmatch(hist_test.req_start).snapshot()",
		  "Handler doesn't support action", "snapshot" },
		{ "hist:keys=id:onmatch(hist_test.req_start)", "No action found", NULL },
		{ "hist:keys=id:v=status:onmax($v).snapshot(", "No closing paren found", "" },
		{ "hist:keys=$id", "Couldn't find field", "$id" },
		{ "hist:keys=id:y=status,z", "Malformed assignment", "z" },
		{ "hist:keys=id:vals=$nosuch", "Couldn't find field", "$nosuch" },
	};
	struct trace_array *tr = instance("t-acterr");

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, synth_cmd("lat_e u64 lat; int id"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = set(tr, end_ev(), cases[i].cmd);

		if (ret != -EINVAL || strcmp(cases[i].msg, last_err.msg))
			ksft_print_msg("%s: %d %s\n", cases[i].cmd, ret, last_err.msg);
		EXPECT_EQ(-EINVAL, ret);
		EXPECT_STREQ(cases[i].msg, last_err.msg);
		EXPECT_EQ(cases[i].at ? strstr(cases[i].cmd, cases[i].at) - cases[i].cmd : 0,
			  last_err.pos);
	}
	EXPECT_EQ(0, count(triggers(tr, end_ev()), "hist:"));
	EXPECT_EQ(0, count(triggers(tr, start_ev()), "hist:"));
	EXPECT_EQ(0, synth_cmd("!lat_e"));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* A synthetic event whose trigger generates it again stops a few levels deep. */
static void synth_recursion(void)
{
	struct trace_array *tr = instance("t-recurse");
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, synth_cmd("lat_loop u64 v"));
	ASSERT_EQ(0, trace_array_set_clr_event(tr, "synthetic", "lat_loop", 1));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:b=bytes:onmatch(hist_test.req_end)."
				       "lat_loop($b)"));
	ASSERT_EQ(0, set(tr, synth("lat_loop"), "hist:keys=v:w=v+1:onmatch(synthetic.lat_loop)."
						"lat_loop($w)"));
	trace_req_end(1, 0, 10);
	text = trace_events(tr);
	EXPECT_EQ(4, count(text, "lat_loop: v="));
	EXPECT_EQ(1, count(text, "lat_loop: v=13\n"));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
	EXPECT_EQ(0, synth_cmd("!lat_loop"));
}

/* ------------------------------------------------------------------
 * Threads
 */

#define PAIR_THREADS	4
#define PAIRS		4000

/* Each thread's own requests, then requests every thread uses. */
static void *pair_thread(void *p)
{
	long t = (long)p;

	for (int i = 0; i < PAIRS; i++) {
		int id = (int)(t * PAIRS + i);

		trace_req_start(id, "pair", "/");
		trace_req_end(id, 0, (unsigned long long)i);
	}
	for (int i = 0; i < PAIRS; i++) {
		trace_req_start(1000000 + i % 16, "shared", "/");
		trace_req_end(1000000 + i % 16, 1, 0);
	}
	return NULL;
}

static unsigned long pairs_seen(struct trace_array *tr, int status)
{
	char *text = hist(tr, synth("pairs"));
	char needle[64];
	unsigned long n = 0;

	snprintf(needle, sizeof(needle), "{ status: %10d } hitcount: ", status);
	for (const char *p = text; p && (p = strstr(p, needle)); p++)
		n += strtoul(p + strlen(needle), NULL, 10);
	free(text);
	return n;
}

/* Every pair matched exactly once; a start is never read twice. */
static void threads(void)
{
	struct trace_array *tr = instance("t-threads");
	pthread_t th[PAIR_THREADS];
	unsigned long shared;
	char *text;

	ASSERT_TRUE(tr != NULL);
	ASSERT_EQ(0, synth_cmd("pairs u64 lat; int status"));
	ASSERT_EQ(0, set(tr, start_ev(), "hist:keys=id:ts0=common_timestamp:size=32768"));
	ASSERT_EQ(0, set(tr, end_ev(), "hist:keys=id:lat=common_timestamp-$ts0:size=32768:"
				       "onmatch(hist_test.req_start).pairs($lat,status)"));
	ASSERT_EQ(0, set(tr, synth("pairs"), "hist:keys=status"));
	for (long i = 0; i < PAIR_THREADS; i++)
		pthread_create(&th[i], NULL, pair_thread, (void *)i);
	for (int i = 0; i < PAIR_THREADS; i++)
		pthread_join(th[i], NULL);
	EXPECT_EQ(PAIR_THREADS * PAIRS, pairs_seen(tr, 0));
	/* Shared ids race: at most one match per start. */
	shared = pairs_seen(tr, 1);
	EXPECT_TRUE(shared > 0 && shared <= PAIR_THREADS * PAIRS);
	text = hist(tr, end_ev());
	EXPECT_EQ(PAIR_THREADS * PAIRS + shared, hits_of(text));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
	EXPECT_EQ(0, synth_cmd("!pairs"));
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(15);
	KSFT_RUN(expressions);
	KSFT_RUN(expression_values);
	KSFT_RUN(latency_match);
	KSFT_RUN(variable_scope);
	KSFT_RUN(references_busy);
	KSFT_RUN(event_removed);
	KSFT_RUN(synth_format);
	KSFT_RUN(synth_print);
	KSFT_RUN(synth_errors);
	KSFT_RUN(onmax_save);
	KSFT_RUN(onchange_snapshot);
	KSFT_RUN(field_var_hist);
	KSFT_RUN(action_errors);
	KSFT_RUN(synth_recursion);
	KSFT_RUN(threads);
	ksft_finished();
}
