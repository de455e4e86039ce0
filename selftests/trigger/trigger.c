// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trigger files (kernel/trace/trace_filter.h, "Triggers"): each
 * command with counts and removal, the texts the kernel gives (the live
 * kernel's for traceon, traceoff, stacktrace, enable_event and
 * disable_event; linux 6.1's source for snapshot and hist), its errnos,
 * stack traces, snapshots, histograms.  Each test works in its own
 * instance.  Linked with libustrace.a: the interface is internal.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define CREATE_TRACE_POINTS
#include "trg-events.h"

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/trace.h"
#include "../../kernel/trace/trace_filter.h"
#include "kselftest.h"

static struct trace_event_call *ev(void)
{
	return trace_find_event_call("trg_test", "trg_ev");
}

static struct trace_event_call *other(void)
{
	return trace_find_event_call("trg_test", "trg_other");
}

static struct trace_err last_err;

static int set(struct trace_array *tr, struct trace_event_call *call, const char *cmd)
{
	return trace_array_set_trigger(tr, call, cmd, &last_err);
}

/* The trigger file's text (static: the last one read). */
static const char *triggers(struct trace_array *tr, struct trace_event_call *call)
{
	static struct trace_seq s;

	trace_seq_init(&s);
	trace_array_print_triggers(tr, call, &s);
	return s.buffer;
}

/* Event lines of @iter, all of them. */
static char *iter_lines(struct trace_iterator *iter)
{
	size_t size = 1 << 16, len = 0;
	char *out = calloc(1, size);
	struct trace_seq *s = malloc(sizeof(*s));
	int ret;

	if (!iter || !out || !s) {
		free(s);
		trace_iterator_close(iter);
		return out;
	}
	for (;;) {
		trace_seq_init(s);
		ret = trace_iterator_print_line(iter, s);
		if (ret != 1)
			break;
		if (len + s->len + 1 > size) {
			size = 2 * (len + s->len + 1);
			out = realloc(out, size);
		}
		memcpy(out + len, s->buffer, s->len + 1);
		len += s->len;
	}
	trace_iterator_close(iter);
	free(s);
	return out;
}

static char *trace_text(struct trace_array *tr)
{
	return iter_lines(trace_array_iterator_open(tr, 0, RING_BUFFER_ALL_CPUS));
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; p && (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static char *hist(struct trace_array *tr, struct trace_event_call *call)
{
	return trace_array_hist_text(tr, call, NULL);
}

static void fire(int v)
{
	trace_trg_ev(v, (unsigned long long)v * 10, "name", "who");
}

/* A new instance, with the events of trg_test enabled (@event, or all: "*"). */
static struct trace_array *instance(const char *name, const char *event)
{
	struct trace_array *tr = trace_array_create(name);

	if (tr && event && trace_array_set_clr_event(tr, "trg_test",
						     strcmp(event, "*") ? event : NULL, 1))
		ksft_print_msg("%s: cannot enable %s\n", name, event);
	return tr;
}

static const char help[] =
	"# Available triggers:\n"
	"# traceon traceoff snapshot stacktrace enable_event disable_event"
	" enable_hist disable_hist hist\n";

/* ------------------------------------------------------------------ */

static void help_and_errors(void)
{
	struct trace_array *tr = trace_array_create("t-errors");

	ASSERT_TRUE(tr != NULL);
	EXPECT_STREQ(help, triggers(tr, ev()));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "bogus"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), " "));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "!bogus"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceon:foo"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceon:-1"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceon:1x"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceon:1if"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceon:1 if"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceon if"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceon junk"));
	EXPECT_EQ(-ERANGE, set(tr, ev(), "traceon:99999999999999999999"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "traceoff\ttraceon"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "enable_event"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "enable_event:trg_test"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "enable_event:trg_test:"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "enable_event:trg_test:nosuch"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "!enable_event:trg_test:nosuch"));
	EXPECT_EQ(-EINVAL, set(tr, ev(), "enable_event:ftrace:print"));
	/* Nothing was left behind, and no error_log entry for these. */
	EXPECT_STREQ(help, triggers(tr, ev()));
	EXPECT_TRUE(last_err.loc == NULL);
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, ev()));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, other()));
	/* Removing what is not there is no error, as in the kernel. */
	EXPECT_EQ(0, set(tr, ev(), "!traceon"));
	EXPECT_EQ(0, set(tr, ev(), "!traceon:junk junk"));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void counts_and_families(void)
{
	struct trace_array *tr = trace_array_create("t-counts");

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, set(tr, ev(), "traceon"));
	EXPECT_STREQ("traceon:unlimited\n", triggers(tr, ev()));
	/* traceon and traceoff are one family: one at a time. */
	EXPECT_EQ(-EEXIST, set(tr, ev(), "traceoff"));
	EXPECT_EQ(-EEXIST, set(tr, ev(), "traceon:3"));
	EXPECT_EQ(0, set(tr, ev(), "!traceoff"));
	EXPECT_STREQ(help, triggers(tr, ev()));
	EXPECT_EQ(0, set(tr, ev(), "  traceon:010  \n"));
	EXPECT_STREQ("traceon:count=8\n", triggers(tr, ev()));
	EXPECT_EQ(0, set(tr, ev(), "!traceon"));
	EXPECT_EQ(0, set(tr, ev(), "traceon:0x10"));
	EXPECT_STREQ("traceon:count=16\n", triggers(tr, ev()));
	EXPECT_EQ(0, set(tr, ev(), "!traceon"));
	EXPECT_EQ(0, set(tr, ev(), "traceon:"));
	EXPECT_STREQ("traceon:unlimited\n", triggers(tr, ev()));
	EXPECT_EQ(0, set(tr, ev(), "stacktrace:2"));
	EXPECT_EQ(0, set(tr, ev(), "enable_event:trg_test:trg_other:3"));
	/* Newest first, as the kernel's list. */
	EXPECT_STREQ("enable_event:trg_test:trg_other:count=3\n"
		     "stacktrace:count=2\n"
		     "traceon:unlimited\n", triggers(tr, ev()));
	/* enable_event and disable_event of one target are one family. */
	EXPECT_EQ(-EEXIST, set(tr, ev(), "disable_event:trg_test:trg_other"));
	EXPECT_EQ(0, set(tr, ev(), "disable_event:trg_test:trg_ev"));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void traceoff_traceon(void)
{
	struct trace_array *tr = instance("t-onoff", "*");
	char *text;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, set(tr, ev(), "traceoff:1"));
	EXPECT_STREQ("traceoff:count=1\n", triggers(tr, ev()));
	trace_trg_other(1);
	fire(2);	/* recorded, then tracing stops (a post trigger) */
	trace_trg_other(3);
	EXPECT_EQ(0, trace_array_tracing_on(tr));
	EXPECT_STREQ("traceoff:count=0\n", triggers(tr, ev()));
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "trg_other: v=1"));
	EXPECT_EQ(1, count(text, "trg_ev: v=2"));
	EXPECT_EQ(0, count(text, "v=3"));
	free(text);
	/* The count only goes down when the state changes. */
	trace_array_set_tracing_on(tr, 1);
	fire(4);
	EXPECT_EQ(1, trace_array_tracing_on(tr));
	EXPECT_EQ(0, set(tr, ev(), "!traceoff"));

	/* traceon on an event of a stopped instance starts it again. */
	EXPECT_EQ(0, set(tr, other(), "traceon:2"));
	trace_array_set_tracing_on(tr, 0);
	trace_trg_other(5);	/* recorded: traceon runs before the reserve */
	EXPECT_EQ(1, trace_array_tracing_on(tr));
	EXPECT_STREQ("traceon:count=1\n", triggers(tr, other()));
	trace_trg_other(6);
	EXPECT_STREQ("traceon:count=1\n", triggers(tr, other()));
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "v=5"));
	EXPECT_EQ(1, count(text, "v=6"));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/*
 * tracing_on is the buffer's recording bit: what turned recording off
 * (a trigger, the ring buffer itself) shows in the file, and writing 1
 * starts recording again.  Then the file and the triggers race from two
 * threads (a data race to ThreadSanitizer while the file kept a word of
 * its own), and after that the two still agree.
 */
#define TO_ROUNDS	20000

static void *tracing_on_writer(void *p)
{
	struct trace_array *tr = p;

	for (int i = 0; i < TO_ROUNDS; i++)
		trace_array_set_tracing_on(tr, i & 1);
	return NULL;
}

static void *tracing_on_firer(void *p)
{
	(void)p;
	for (int i = 0; i < TO_ROUNDS; i++) {
		fire(i);		/* traceoff */
		trace_trg_other(i);	/* traceon */
	}
	return NULL;
}

static void tracing_on_bit(void)
{
	struct trace_array *tr = instance("t-onbit", "*");
	struct trace_buffer *buffer;
	pthread_t th[2];
	char *text;

	ASSERT_TRUE(tr != NULL);
	buffer = trace_array_buffer(tr);
	ring_buffer_record_off(buffer);
	EXPECT_EQ(0, trace_array_tracing_on(tr));
	trace_array_set_tracing_on(tr, 1);
	EXPECT_EQ(1, trace_array_tracing_on(tr));
	EXPECT_TRUE(ring_buffer_record_is_set_on(buffer));
	trace_trg_other(1);
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "trg_other: v=1\n"));
	free(text);

	EXPECT_EQ(0, set(tr, ev(), "traceoff"));
	EXPECT_EQ(0, set(tr, other(), "traceon"));
	pthread_create(&th[0], NULL, tracing_on_writer, tr);
	pthread_create(&th[1], NULL, tracing_on_firer, NULL);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	EXPECT_EQ(ring_buffer_record_is_set_on(buffer), trace_array_tracing_on(tr));
	EXPECT_EQ(0, set(tr, ev(), "!traceoff"));
	EXPECT_EQ(0, set(tr, other(), "!traceon"));
	trace_array_set_tracing_on(tr, 0);
	EXPECT_FALSE(ring_buffer_record_is_set_on(buffer));
	trace_array_set_tracing_on(tr, 1);
	EXPECT_TRUE(ring_buffer_record_is_set_on(buffer));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void soft_mode(void)
{
	struct trace_array *tr = trace_array_create("t-soft");
	char *text;

	ASSERT_TRUE(tr != NULL);
	/* A trigger runs on an event that is not enabled: not recorded. */
	EXPECT_EQ(0, set(tr, ev(), "enable_event:trg_test:trg_other:1"));
	EXPECT_EQ(TRACE_EVENT_SOFT_DISABLED, trace_array_event_state(tr, ev()));
	EXPECT_EQ(TRACE_EVENT_SOFT_DISABLED, trace_array_event_state(tr, other()));
	trace_trg_other(1);
	fire(2);
	EXPECT_EQ(TRACE_EVENT_SOFT_ENABLED, trace_array_event_state(tr, other()));
	EXPECT_STREQ("enable_event:trg_test:trg_other:count=0\n", triggers(tr, ev()));
	trace_trg_other(3);
	text = trace_text(tr);
	EXPECT_EQ(0, count(text, "v=1"));
	EXPECT_EQ(0, count(text, "v=2"));
	EXPECT_EQ(1, count(text, "trg_other: v=3"));
	free(text);
	/* The kernel leaves an event its trigger enabled enabled. */
	EXPECT_EQ(0, set(tr, ev(), "!enable_event:trg_test:trg_other"));
	EXPECT_EQ(TRACE_EVENT_ENABLED, trace_array_event_state(tr, other()));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, ev()));

	/* disable_event on an enabled target, unlimited. */
	EXPECT_EQ(0, set(tr, ev(), "disable_event:trg_test:trg_other"));
	EXPECT_STREQ("disable_event:trg_test:trg_other:unlimited\n", triggers(tr, ev()));
	EXPECT_EQ(TRACE_EVENT_SOFT_ENABLED, trace_array_event_state(tr, other()));
	trace_trg_other(4);
	fire(5);
	trace_trg_other(6);
	EXPECT_EQ(TRACE_EVENT_SOFT_DISABLED, trace_array_event_state(tr, other()));
	/* ... and disables for good one its trigger disabled. */
	EXPECT_EQ(0, set(tr, ev(), "!disable_event:trg_test:trg_other"));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, other()));
	trace_trg_other(7);
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "v=4"));
	EXPECT_EQ(0, count(text, "v=6"));
	EXPECT_EQ(0, count(text, "v=7"));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

__attribute__((__noinline__)) void trg_stack_caller(void);
__attribute__((__noinline__)) void trg_stack_caller(void)
{
	fire(42);
	__asm__ __volatile__("" ::: "memory");
}

static void stacktrace(void)
{
	struct trace_array *tr = instance("t-stack", "trg_ev");
	char *text, *st;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, set(tr, ev(), "stacktrace:1"));
	trg_stack_caller();
	fire(43);
	EXPECT_STREQ("stacktrace:count=0\n", triggers(tr, ev()));
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "<stack trace>\n"));
	/* After the event, as the kernel's post trigger. */
	st = strstr(text, "trg_ev: v=42");
	EXPECT_TRUE(st && strstr(st, "<stack trace>"));
	st = st ? strstr(st, "<stack trace>\n") : NULL;
	/* The probe first, then the program's frames (names from .symtab). */
	EXPECT_TRUE(st && !strncmp(strchr(st, '\n'), "\n => ", 5));
	EXPECT_TRUE(st && strstr(st, " => trg_stack_caller\n"));
	EXPECT_TRUE(st && strstr(st, " => main\n"));
	EXPECT_TRUE(st && !strstr(st, "trace_triggers_post_commit"));
	EXPECT_TRUE(st && !strstr(st, "__ustrace_event_buffer_commit"));
	/* Show it: "<stack trace>" and its " => " lines. */
	for (char *line = st, *nl; line && (nl = strchr(line, '\n')); line = nl + 1) {
		if (line != st && strncmp(line, " => ", 4))
			break;
		ksft_print_msg("%.*s\n", (int)(nl - line), line);
	}
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void snapshot(void)
{
	struct trace_array *tr = trace_array_create("t-snap");
	struct trace_seq *s = malloc(sizeof(*s));
	char *text;

	ASSERT_TRUE(tr != NULL && s != NULL);
	trace_seq_init(s);
	EXPECT_EQ(0, trace_array_snapshot_print_header(tr, s));
	EXPECT_STREQ("# tracer: nop\n#\n#\n# * Snapshot is freed *\n#\n"
		     "# Snapshot commands:\n"
		     "# echo 0 > snapshot : Clears and frees snapshot buffer\n"
		     "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
		     "#                      Takes a snapshot of the main buffer.\n"
		     "# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n"
		     "#                      (Doesn't have to be '2' works with any number that\n"
		     "#                       is not a '0' or '1')\n", s->buffer);
	EXPECT_FALSE(trace_array_snapshot_allocated(tr));

	EXPECT_EQ(0, trace_array_set_clr_event(tr, "trg_test", NULL, 1));
	EXPECT_EQ(0, set(tr, ev(), "snapshot:1"));
	EXPECT_TRUE(trace_array_snapshot_allocated(tr));
	trace_trg_other(1);
	trace_trg_other(2);
	fire(3);	/* unconditional: the swap comes before its record */
	trace_trg_other(4);
	fire(5);	/* count used up: no swap */
	EXPECT_STREQ("snapshot:count=0\n", triggers(tr, ev()));
	text = iter_lines(trace_array_snapshot_iterator_open(tr));
	EXPECT_EQ(1, count(text, "v=1"));
	EXPECT_EQ(1, count(text, "v=2"));
	EXPECT_EQ(0, count(text, "v=3"));
	free(text);
	text = trace_text(tr);
	EXPECT_EQ(0, count(text, "v=1"));
	EXPECT_EQ(1, count(text, "v=3"));
	EXPECT_EQ(1, count(text, "v=4"));
	EXPECT_EQ(1, count(text, "v=5"));
	free(text);
	trace_seq_init(s);
	EXPECT_EQ(0, trace_array_snapshot_print_header(tr, s));
	EXPECT_TRUE(!strncmp(s->buffer, "# tracer: nop\n#\n# entries-in-buffer/entries-written: 2/2",
			     strlen("# tracer: nop\n#\n# entries-in-buffer/entries-written: 2/2")));

	/* echo 1 > snapshot: swaps back. */
	EXPECT_EQ(0, trace_array_snapshot_write(tr, 1));
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "v=1"));
	EXPECT_EQ(0, count(text, "v=3"));
	free(text);
	/* echo 2: clears the snapshot; echo 0: frees it. */
	EXPECT_EQ(0, trace_array_snapshot_write(tr, 2));
	text = iter_lines(trace_array_snapshot_iterator_open(tr));
	EXPECT_STREQ("", text);
	free(text);
	trace_seq_init(s);
	trace_array_snapshot_print_header(tr, s);
	EXPECT_TRUE(strstr(s->buffer, "# * Snapshot is allocated *") != NULL);
	EXPECT_EQ(0, trace_array_snapshot_write(tr, 0));
	EXPECT_FALSE(trace_array_snapshot_allocated(tr));

	/* A snapshot trigger without a snapshot buffer stops the trace. */
	EXPECT_EQ(0, set(tr, ev(), "!snapshot"));
	EXPECT_EQ(0, set(tr, ev(), "snapshot"));
	EXPECT_EQ(0, trace_array_snapshot_write(tr, 0));
	fire(6);
	EXPECT_EQ(0, trace_array_tracing_on(tr));
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "*** SNAPSHOT NOT ALLOCATED ***"));
	EXPECT_EQ(1, count(text, "*** stopping trace here!   ***"));
	free(text);
	free(s);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* Threads record while snapshots swap the buffer under them. */
struct snap_arg {
	int		id;
	int		*stop;
	int		written;
};

static void *snap_writer(void *p)
{
	struct snap_arg *a = p;

	for (int i = 0; !__atomic_load_n(a->stop, __ATOMIC_RELAXED); i++) {
		trace_trg_other(a->id * 1000000 + i % 1000000);
		__atomic_store_n(&a->written, i + 1, __ATOMIC_RELAXED);
		/*
		 * Three writers on two CPUs: let the thread taking snapshots
		 * run (under the sanitizers it was starved for half a minute).
		 */
		if (i % 64 == 63)
			sched_yield();
	}
	return NULL;
}

static void snapshot_under_load(void)
{
	struct trace_array *tr = instance("t-snapload", "*");
	struct snap_arg args[3];
	pthread_t th[3];
	int stop = 0;
	unsigned long n;
	char *text;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, set(tr, ev(), "snapshot"));
	for (int i = 0; i < 3; i++) {
		args[i] = (struct snap_arg){ i + 1, &stop, 0 };
		pthread_create(&th[i], NULL, snap_writer, &args[i]);
	}
	for (int i = 0; i < 3; i++)
		while (__atomic_load_n(&args[i].written, __ATOMIC_RELAXED) < 1000)
			usleep(100);
	for (int i = 0; i < 200; i++) {
		fire(i);
		if (i % 50 == 0)
			EXPECT_EQ(0, trace_array_snapshot_write(tr, 1));
		if (i % 8 == 0)
			usleep(200);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	n = trace_array_snapshot_refused(tr);
	/* Nothing was lost in the swaps: both buffers read whole. */
	text = trace_text(tr);
	EXPECT_EQ(0, count(text, "BAD RECORD"));
	EXPECT_EQ(0, count(text, "bad record"));
	free(text);
	text = iter_lines(trace_array_snapshot_iterator_open(tr));
	EXPECT_TRUE(count(text, "trg_other") > 0);
	EXPECT_EQ(0, count(text, "bad record"));
	free(text);
	ksft_print_msg("snapshots refused under load: %lu of 200\n", n);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void conditions(void)
{
	struct trace_array *tr = instance("t-cond", "trg_ev");
	struct trace_err ferr;
	char *text;

	ASSERT_TRUE(tr != NULL);
	/* The filter text is kept as written after "if" and one blank. */
	EXPECT_EQ(0, set(tr, ev(), "traceoff if   v == 5"));
	EXPECT_STREQ("traceoff:unlimited if   v == 5\n", triggers(tr, ev()));
	EXPECT_EQ(0, set(tr, ev(), "!traceoff"));
	EXPECT_EQ(0, set(tr, ev(), "traceoff:1 if v == 5"));
	EXPECT_EQ(0, set(tr, ev(), "enable_event:trg_test:trg_other:1 if name == \"name\" && v > 2"));
	EXPECT_EQ(0, set(tr, ev(), "stacktrace if v >= 4"));
	EXPECT_STREQ("stacktrace:unlimited if v >= 4\n"
		     "enable_event:trg_test:trg_other:count=1 if name == \"name\" && v > 2\n"
		     "traceoff:count=1 if v == 5\n", triggers(tr, ev()));
	/*
	 * Tracing off: a condition still sees the records (the kernel's
	 * temp_buffer), which are not kept.
	 */
	EXPECT_EQ(0, set(tr, other(), "traceon if v == 3"));
	EXPECT_EQ(0, set(tr, other(), "hist:keys=v"));
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "trg_test", "trg_other", 1));
	trace_array_set_tracing_on(tr, 0);
	trace_trg_other(2);
	EXPECT_EQ(0, trace_array_tracing_on(tr));
	trace_trg_other(3);
	EXPECT_EQ(1, trace_array_tracing_on(tr));
	trace_trg_other(4);
	text = trace_text(tr);
	EXPECT_STREQ("trg_other: v=4\n", strstr(text, "trg_other: "));
	free(text);
	text = hist(tr, other());
	EXPECT_TRUE(strstr(text, "    Hits: 3\n    Entries: 3\n") != NULL);
	free(text);
	trace_array_trigger_truncate(tr, other());
	EXPECT_EQ(0, set(tr, other(), "!traceon"));
	EXPECT_EQ(0, trace_array_set_clr_event(tr, "trg_test", "trg_other", 0));
	trace_array_clear(tr, RING_BUFFER_ALL_CPUS);

	/* A condition that does not compile: its errno, nothing logged. */
	EXPECT_EQ(-EINVAL, set(tr, other(), "traceon if nosuch == 1"));
	EXPECT_EQ(-EINVAL, set(tr, other(), "traceon if v =="));
	EXPECT_TRUE(last_err.loc == NULL);
	EXPECT_STREQ(help, triggers(tr, other()));

	/* The event's own filter rejects v == 5, its triggers still see it. */
	EXPECT_EQ(0, trace_array_set_filter(tr, ev(), "v != 5", &ferr));
	for (int v = 1; v <= 6; v++)
		fire(v);
	EXPECT_EQ(0, trace_array_tracing_on(tr));
	EXPECT_STREQ("stacktrace:unlimited if v >= 4\n"
		     "enable_event:trg_test:trg_other:count=0 if name == \"name\" && v > 2\n"
		     "traceoff:count=0 if v == 5\n", triggers(tr, ev()));
	text = trace_text(tr);
	EXPECT_EQ(1, count(text, "trg_ev: v=4"));
	EXPECT_EQ(0, count(text, "trg_ev: v=5"));
	EXPECT_EQ(0, count(text, "v=6"));
	/* v=4 and v=5: the stack follows the record, kept or not. */
	EXPECT_EQ(2, count(text, "<stack trace>"));
	/* trg_other was enabled by v=3, once. */
	EXPECT_EQ(TRACE_EVENT_SOFT_ENABLED, trace_array_event_state(tr, other()));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void snapshot_conditional(void)
{
	struct trace_array *tr = instance("t-snapcond", "*");
	char *text;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(0, set(tr, ev(), "snapshot if v == 2"));
	EXPECT_STREQ("snapshot:unlimited if v == 2\n", triggers(tr, ev()));
	fire(1);
	fire(2);	/* the record was reserved before the swap: in the snapshot */
	fire(3);
	text = iter_lines(trace_array_snapshot_iterator_open(tr));
	EXPECT_EQ(1, count(text, "v=1"));
	EXPECT_EQ(1, count(text, "v=2"));
	EXPECT_EQ(0, count(text, "v=3"));
	free(text);
	text = trace_text(tr);
	EXPECT_EQ(0, count(text, "v=1"));
	EXPECT_EQ(0, count(text, "v=2"));
	EXPECT_EQ(1, count(text, "v=3"));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* ------------------------------------------------------------------ */

static void hist_basic(void)
{
	struct trace_array *tr = trace_array_create("t-hist");
	char *text;

	ASSERT_TRUE(tr != NULL);
	text = hist(tr, ev());
	EXPECT_STREQ("", text);
	free(text);
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v"));
	EXPECT_STREQ("hist:keys=v:vals=hitcount:sort=hitcount:size=2048 [active]\n",
		     triggers(tr, ev()));
	/* Not enabled: the event is not recorded, the histogram counts it. */
	EXPECT_EQ(TRACE_EVENT_SOFT_DISABLED, trace_array_event_state(tr, ev()));
	fire(3);
	fire(1);
	fire(3);
	text = hist(tr, ev());
	EXPECT_STREQ("# event histogram\n"
		     "#\n"
		     "# trigger info: hist:keys=v:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		     "#\n"
		     "\n"
		     "{ v:          1 } hitcount:          1\n"
		     "{ v:          3 } hitcount:          2\n"
		     "\n"
		     "Totals:\n"
		     "    Hits: 3\n"
		     "    Entries: 2\n"
		     "    Dropped: 0\n", text);
	free(text);
	text = trace_text(tr);
	EXPECT_STREQ("", text);
	free(text);
	/* The same keys again: the kernel's error, logged. */
	EXPECT_EQ(-EEXIST, set(tr, ev(), "hist:keys=v"));
	EXPECT_STREQ("hist:trg_test:trg_ev", last_err.loc);
	EXPECT_STREQ("Hist trigger already exists", last_err.msg);
	EXPECT_EQ(0, last_err.pos);
	/* A second histogram, sums and sort; it comes after the first. */
	EXPECT_EQ(0, set(tr, ev(), "hist:key=v:values=big:sort=big.descending,v:size=100"));
	EXPECT_STREQ("hist:keys=v:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		     "hist:keys=v:vals=hitcount,big:sort=big.descending,v:size=128 [active]\n",
		     triggers(tr, ev()));
	fire(2);
	fire(5);
	text = hist(tr, ev());
	EXPECT_TRUE(strstr(text, "\n\n# event histogram\n#\n# trigger info: "
			   "hist:keys=v:vals=hitcount,big:sort=big.descending,v:size=128 [active]\n"
			   "#\n\n"
			   "{ v:          5 } hitcount:          1  big:         50\n"
			   "{ v:          2 } hitcount:          1  big:         20\n"
			   "\nTotals:\n    Hits: 2\n    Entries: 2\n    Dropped: 0\n") != NULL);
	free(text);
	/* Removing names the keys, not the histogram's other settings. */
	EXPECT_EQ(0, set(tr, ev(), "!hist:keys=v"));
	EXPECT_EQ(1, count(triggers(tr, ev()), "hist:"));
	EXPECT_EQ(0, set(tr, ev(), "!hist:keys=v:vals=big:sort=big.descending,v"));
	EXPECT_STREQ(help, triggers(tr, ev()));
	/* With a condition: part of what names the histogram. */
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v if v < 3"));
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v if v >= 3"));
	EXPECT_EQ(-EEXIST, set(tr, ev(), "hist:keys=v if v < 3"));
	fire(1);
	fire(4);
	fire(4);
	text = hist(tr, ev());
	EXPECT_TRUE(strstr(text, "hist:keys=v:vals=hitcount:sort=hitcount:size=2048 if v < 3 [active]\n"
			   "#\n\n{ v:          1 } hitcount:          1\n") != NULL);
	EXPECT_TRUE(strstr(text, "hist:keys=v:vals=hitcount:sort=hitcount:size=2048 if v >= 3 [active]\n"
			   "#\n\n{ v:          4 } hitcount:          2\n") != NULL);
	free(text);
	EXPECT_EQ(0, set(tr, ev(), "!hist:keys=v if v < 3"));
	EXPECT_EQ(0, set(tr, ev(), "!hist:keys=v if v >= 3"));
	EXPECT_STREQ(help, triggers(tr, ev()));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, ev()));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void hist_modifiers(void)
{
	struct trace_array *tr = trace_array_create("t-histmod");
	char *text, comm[16] = "";
	char line[256];

	ASSERT_TRUE(tr != NULL);
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=common_pid.execname,name:vals=big.hex"));
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=big.log2"));
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v.buckets=10:sort=v"));
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=who,v.hex:vals=v.percent,big.graph"));
	for (int i = 1; i <= 25; i++)
		fire(i);
	text = hist(tr, ev());
	snprintf(line, sizeof(line), "{ common_pid: %-16s[%10ld], name: %-50s } hitcount:"
		 "         25  big:        cb2\n", comm, (long)syscall(SYS_gettid), "name");
	EXPECT_TRUE(strstr(text, line) != NULL);
	EXPECT_TRUE(strstr(text, "hist:keys=common_pid.execname,name:vals=hitcount,big.hex:"
			   "sort=hitcount:size=2048 [active]\n") != NULL);
	/* big = 10 * v: 10..250; log2 rounds up. */
	EXPECT_TRUE(strstr(text, "{ big: ~ 2^4  } hitcount:          1\n") != NULL);
	EXPECT_TRUE(strstr(text, "{ big: ~ 2^8  } hitcount:         13\n") != NULL);
	EXPECT_TRUE(strstr(text, "hist:keys=v.buckets=10:vals=hitcount:sort=v.buckets=10:size=2048") != NULL);
	EXPECT_TRUE(strstr(text, "{ v: ~ 0-9 } hitcount:          9\n"
			   "{ v: ~ 10-19 } hitcount:         10\n"
			   "{ v: ~ 20-29 } hitcount:          6\n") != NULL);
	/* v=25: 0x19, 25 of the 325 v summed, the largest big. */
	snprintf(line, sizeof(line), "{ who: %-50s, v: 19 } hitcount:          1  v (%%):   7.69"
		 "  big: %20s\n", "who", "####################");
	EXPECT_TRUE(strstr(text, line) != NULL);
	if (!strstr(text, line))
		ksft_print_msg("%s", text);
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void hist_control(void)
{
	struct trace_array *tr = trace_array_create("t-histctl");
	char *text;

	ASSERT_TRUE(tr != NULL);
	EXPECT_EQ(-ENOENT, set(tr, ev(), "hist:keys=v:clear"));
	EXPECT_STREQ("Can't clear or continue a nonexistent hist trigger", last_err.msg);
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v:pause"));
	EXPECT_STREQ("hist:keys=v:vals=hitcount:sort=hitcount:size=2048 [paused]\n",
		     triggers(tr, ev()));
	fire(1);
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v:cont"));
	EXPECT_STREQ("hist:keys=v:vals=hitcount:sort=hitcount:size=2048 [active]\n",
		     triggers(tr, ev()));
	fire(2);
	text = hist(tr, ev());
	EXPECT_EQ(0, count(text, "{ v:          1 }"));
	EXPECT_EQ(1, count(text, "{ v:          2 }"));
	free(text);
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v:clear"));
	text = hist(tr, ev());
	EXPECT_TRUE(strstr(text, "\n\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n") != NULL);
	free(text);
	/* disable_hist / enable_hist on another event pause and go on. */
	EXPECT_EQ(0, set(tr, other(), "disable_hist:trg_test:trg_ev:1"));
	EXPECT_EQ(-EEXIST, set(tr, other(), "enable_hist:trg_test:trg_ev"));
	EXPECT_STREQ("disable_hist:trg_test:trg_ev:count=1\n", triggers(tr, other()));
	trace_trg_other(0);
	EXPECT_EQ(1, count(triggers(tr, ev()), "[paused]"));
	/* "!enable_hist" removes the family's trigger: disable_hist. */
	EXPECT_EQ(0, set(tr, other(), "!enable_hist:trg_test:trg_ev"));
	EXPECT_EQ(0, set(tr, other(), "enable_hist:trg_test:trg_ev:1"));
	EXPECT_EQ(-EEXIST, set(tr, other(), "disable_hist:trg_test:trg_ev"));
	trace_trg_other(0);
	EXPECT_EQ(1, count(triggers(tr, ev()), "[active]"));
	/* O_TRUNC takes the histograms and enable_hist, not the others. */
	EXPECT_EQ(0, set(tr, ev(), "traceon"));
	trace_array_trigger_truncate(tr, ev());
	trace_array_trigger_truncate(tr, other());
	EXPECT_STREQ("traceon:unlimited\n", triggers(tr, ev()));
	EXPECT_STREQ(help, triggers(tr, other()));

	/* common_timestamp switches the instance to the histogram's clock. */
	EXPECT_EQ(0, trace_array_set_clock(tr, "mono"));
	EXPECT_EQ(0, set(tr, other(), "hist:keys=cpu:vals=common_timestamp.usecs"));
	EXPECT_STREQ("hist:keys=common_cpu:vals=hitcount,common_timestamp.usecs:sort=hitcount:"
		     "size=2048:clock=global [active]\n", triggers(tr, other()));
	EXPECT_EQ(1, trace_array_clock(tr));	/* "global" */
	trace_trg_other(0);
	text = hist(tr, other());
	/* The kernel's generic field "cpu" keeps its name in the key. */
	EXPECT_TRUE(strstr(text, "{ cpu: ") && strstr(text, "  common_timestamp: "));
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

static void hist_named(void)
{
	struct trace_array *a = trace_array_create("t-named-a");
	struct trace_array *b = trace_array_create("t-named-b");
	char *ta, *tb;

	ASSERT_TRUE(a && b);
	EXPECT_EQ(0, set(a, ev(), "hist:name=shared:keys=v"));
	EXPECT_EQ(0, set(b, ev(), "hist:name=shared:keys=v"));
	EXPECT_EQ(-EINVAL, set(b, other(), "hist:name=shared:keys=common_pid"));
	EXPECT_STREQ("Named hist trigger doesn't match existing named trigger (includes variables)",
		     last_err.msg);
	EXPECT_EQ(strlen("hist:"), last_err.pos);
	fire(7);
	ta = hist(a, ev());
	tb = hist(b, ev());
	/* One table, fed by both instances. */
	EXPECT_TRUE(strstr(ta, "{ v:          7 } hitcount:          2\n") != NULL);
	EXPECT_STREQ(ta, tb);
	EXPECT_TRUE(strstr(ta, "trigger info: hist:name=shared:keys=v:vals=hitcount:"
			   "sort=hitcount:size=2048 [active]\n") != NULL);
	free(ta);
	free(tb);
	EXPECT_EQ(0, trace_array_destroy(a));
	fire(7);
	tb = hist(b, ev());
	EXPECT_TRUE(strstr(tb, "{ v:          7 } hitcount:          3\n") != NULL);
	free(tb);
	EXPECT_EQ(0, trace_array_destroy(b));
}

struct hist_err_case {
	const char	*cmd;
	int		ret;
	const char	*msg;		/* NULL: nothing logged */
	const char	*at;		/* where the caret points */
};

static void hist_errors(void)
{
	static const struct hist_err_case cases[] = {
		{ "hist", -EINVAL, NULL, NULL },
		{ "hist:vals=v", -EINVAL, NULL, NULL },
		{ "hist:keys=", -EINVAL, "Empty assignment", "keys=" },
		{ "hist:keys=nosuch", -EINVAL, "Couldn't find field", "nosuch" },
		{ "hist:keys=v:vals=nosuch", -EINVAL, "Couldn't find field", "nosuch" },
		{ "hist:keys=v.foo", -EINVAL, "Invalid field modifier", "foo" },
		{ "hist:keys=v.percent", -EINVAL, "Invalid field modifier", "percent" },
		{ "hist:keys=v:vals=big.log2", -EINVAL, "Invalid field modifier", "big.log2" },
		{ "hist:keys=v.execname", -EINVAL, "Invalid field modifier", "execname" },
		{ "hist:keys=v.buckets=0", -EINVAL, "Invalid field modifier", "0" },
		{ "hist:keys=v:sort=nosuch", -EINVAL, "Sort field must be a key or a val", "nosuch" },
		{ "hist:keys=v:sort=v.up", -EINVAL, "Invalid sort modifier", "up" },
		{ "hist:keys=v:sort=,v", -EINVAL, "Empty sort field", "sort=" },
		{ "hist:keys=v:sort=v,hitcount,big", -EINVAL, "Too many sort fields (Max = 2)",
		  "sort=" },
		{ "hist:keys=v:size=100000000", -EINVAL, NULL, NULL },
		{ "hist:keys=v:size=0", -EINVAL, NULL, NULL },
		{ "hist:keys=v,big,name,who", -EINVAL, NULL, NULL },
		{ "hist:keys=who,who", -EINVAL, NULL, NULL },
		{ "hist:keys=v:vals=big,big,big", -EINVAL, NULL, NULL },
		{ "hist:keys=v:bogus", -EINVAL, NULL, NULL },
		/* The kernel's caret: the first "x" of the command, in "onmax". */
		{ "hist:keys=v:onmax($x).save(big)", -EINVAL,
		  "Couldn't find onmax or onchange variable", "x($x" },
		/* The kernel logs "Couldn't find variable", then this: the last is kept. */
		{ "hist:keys=$x", -EINVAL, "Couldn't find field", "$x" },
		{ "hist:keys=v:x=big:x=v", -EINVAL, "Variable already defined", "x=big" },
		{ "hist:keys=v:lat=$nosuch", -EINVAL, "Couldn't find field", "$nosuch" },
		{ "hist:keys=v if", -EINVAL, NULL, NULL },
		{ "hist:keys=v:clock=nosuch:vals=common_timestamp", -EINVAL,
		  "Couldn't set trace_clock", "nosuch" },
	};
	struct trace_array *tr = trace_array_create("t-histerr");

	ASSERT_TRUE(tr != NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hist_err_case *c = &cases[i];
		int ret = set(tr, ev(), c->cmd);

		if (ret != c->ret)
			ksft_print_msg("%s: %d, not %d\n", c->cmd, ret, c->ret);
		EXPECT_EQ(c->ret, ret);
		if (!c->msg) {
			EXPECT_TRUE(last_err.loc == NULL);
			continue;
		}
		EXPECT_STREQ("hist:trg_test:trg_ev", last_err.loc);
		if (strcmp(c->msg, last_err.msg) || strstr(c->cmd, c->at) - c->cmd != last_err.pos)
			ksft_print_msg("%s: %s at %u\n", c->cmd, last_err.msg, last_err.pos);
		EXPECT_STREQ(c->msg, last_err.msg);
		EXPECT_EQ(strstr(c->cmd, c->at) - c->cmd, last_err.pos);
	}
	EXPECT_STREQ(help, triggers(tr, ev()));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, ev()));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* Threads insert the same keys and new ones at once. */
#define HT_THREADS	4
#define HT_EVENTS	20000

static void *hist_thread(void *p)
{
	long id = (long)p;

	for (int i = 0; i < HT_EVENTS; i++)
		fire((int)(id * 64 + i % 64));
	return NULL;
}

static void hist_threads(void)
{
	struct trace_array *tr = trace_array_create("t-histthr");
	pthread_t th[HT_THREADS];
	unsigned long hits = 0, entries = 0, dropped = 0, sum = 0, n;
	char *text, *p;

	ASSERT_TRUE(tr != NULL);
	/* A table of 128 entries for 256 keys: the rest are dropped. */
	EXPECT_EQ(0, set(tr, ev(), "hist:keys=v:vals=big:size=128"));
	for (long i = 0; i < HT_THREADS; i++)
		pthread_create(&th[i], NULL, hist_thread, (void *)i);
	for (int i = 0; i < HT_THREADS; i++)
		pthread_join(th[i], NULL);
	text = hist(tr, ev());
	ASSERT_TRUE(text != NULL);
	for (p = text; (p = strstr(p, "hitcount: ")); p++) {
		n = strtoul(p + 10, NULL, 10);
		sum += n;
		/* A key is in the table from its first hit on. */
		EXPECT_TRUE(n >= 1 && n <= HT_EVENTS / 64 + 1);
	}
	p = strstr(text, "Totals:");
	ASSERT_TRUE(p && sscanf(p, "Totals:\n    Hits: %lu\n    Entries: %lu\n    Dropped: %lu",
				&hits, &entries, &dropped) == 3);
	/* As the kernel's tracing_map: a dropped hit is not a hit. */
	EXPECT_EQ(HT_THREADS * HT_EVENTS, hits + dropped);
	EXPECT_EQ(128, entries);
	EXPECT_EQ(hits, sum);
	free(text);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* Triggers come and go while threads fire the events. */
static void *churn_thread(void *p)
{
	int *stop = p;

	for (int i = 0; !__atomic_load_n(stop, __ATOMIC_RELAXED); i++) {
		fire(i % 7);
		trace_trg_other(i % 5);
	}
	return NULL;
}

static void churn(void)
{
	static const char *const cmds[] = {
		"traceon", "traceoff:3 if v > 2", "stacktrace:2", "snapshot if v == 1",
		"enable_event:trg_test:trg_other:1", "disable_event:trg_test:trg_other",
		"hist:keys=v:vals=big", "hist:keys=who,common_pid.execname if v < 4",
		"hist:keys=stacktrace:size=128", "hist:name=churn:keys=v",
		"enable_hist:trg_test:trg_other", "hist:keys=v:vals=big:clear",
	};
	struct trace_array *tr = instance("t-churn", "*");
	pthread_t th[3];
	int stop = 0;
	char cmd[128];
	char *text;

	ASSERT_TRUE(tr != NULL);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, churn_thread, &stop);
	for (int round = 0; round < 10; round++) {
		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			set(tr, (i + round) & 1 ? other() : ev(), cmds[i]);
		trace_array_set_tracing_on(tr, 1);
		text = hist(tr, ev());
		free(text);
		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
			snprintf(cmd, sizeof(cmd), "!%s", cmds[i]);
			set(tr, (i + round) & 1 ? other() : ev(), cmd);
		}
		trace_array_trigger_truncate(tr, ev());
		trace_array_trigger_truncate(tr, other());
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	EXPECT_STREQ(help, triggers(tr, ev()));
	EXPECT_STREQ(help, triggers(tr, other()));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/*
 * Commands made of the language's pieces, put together at random: none
 * may crash, leak or leave a trigger file it cannot print.
 */
static void random_commands(void)
{
	static const char *const pieces[] = {
		"hist", "!hist", "traceon", "traceoff", "snapshot", "stacktrace",
		"enable_event", "disable_event", "enable_hist", "!traceon", ":", ":",
		":", "keys=", "vals=", "values=", "sort=", "size=", "name=n", "clock=",
		"v", "big", "name", "who", "common_pid", "cpu", "stacktrace",
		"common_timestamp", ".hex", ".sym", ".sym-offset", ".execname",
		".log2", ".buckets=", ".percent", ".graph", ".usecs", ".descending",
		",", ",", "=", " if ", "if", " ", "\t", "0", "1", "7", "0x10",
		"99999999999999999999", "-1", "trg_test", "trg_other", "trg_ev",
		"v == 1", "&&", "||", "(", ")", "\"", "pause", "cont", "clear",
		"onmax(", "$x", "a+b", "%", "\n", "hitcount",
	};
	struct trace_array *tr = trace_array_create("t-random");
	unsigned int seed = 12345;
	char cmd[256];

	ASSERT_TRUE(tr != NULL);
	for (int n = 0; n < 5000; n++) {
		size_t len = 0;
		int k = 1 + (int)(rand_r(&seed) % 8);

		cmd[0] = '\0';
		for (int i = 0; i < k; i++) {
			const char *p = pieces[rand_r(&seed) % (sizeof(pieces) / sizeof(pieces[0]))];

			if (len + strlen(p) + 1 >= sizeof(cmd))
				break;
			strcpy(cmd + len, p);
			len += strlen(p);
		}
		set(tr, n & 1 ? ev() : other(), cmd);
		if (n % 64 == 0) {
			fire(n);
			trace_trg_other(n);
			triggers(tr, ev());
			free(hist(tr, ev()));
		}
	}
	trace_array_set_tracing_on(tr, 1);
	EXPECT_EQ(0, trace_array_destroy(tr));
}

/* An event goes (its object is unloaded): its triggers, and those on it. */
static void event_removed(void)
{
	struct trace_array *tr = trace_array_create("t-removed");
	struct trace_event_call *o = other();
	char *text;

	ASSERT_TRUE(tr != NULL && o != NULL);
	EXPECT_EQ(0, set(tr, ev(), "enable_event:trg_test:trg_other"));
	EXPECT_EQ(0, set(tr, o, "traceon"));
	EXPECT_EQ(0, set(tr, o, "hist:name=kept:keys=v"));
	EXPECT_EQ(0, set(tr, ev(), "hist:name=kept:keys=v"));
	trace_trg_other(1);
	EXPECT_EQ(0, trace_remove_event_call(o));
	/* The histogram they shared lives on with the other event. */
	EXPECT_STREQ("hist:name=kept:keys=v:vals=hitcount:sort=hitcount:size=2048 [active]\n",
		     triggers(tr, ev()));
	fire(1);
	text = hist(tr, ev());
	EXPECT_TRUE(strstr(text, "{ v:          1 } hitcount:          2\n") != NULL);
	free(text);
	EXPECT_EQ(0, trace_add_event_call(o));
	EXPECT_STREQ(help, triggers(tr, o));
	EXPECT_EQ(TRACE_EVENT_DISABLED, trace_array_event_state(tr, o));
	EXPECT_EQ(0, trace_array_destroy(tr));
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(19);
	KSFT_RUN(help_and_errors);
	KSFT_RUN(counts_and_families);
	KSFT_RUN(traceoff_traceon);
	KSFT_RUN(tracing_on_bit);
	KSFT_RUN(soft_mode);
	KSFT_RUN(stacktrace);
	KSFT_RUN(conditions);
	KSFT_RUN(snapshot);
	KSFT_RUN(snapshot_conditional);
	KSFT_RUN(snapshot_under_load);
	KSFT_RUN(hist_basic);
	KSFT_RUN(hist_modifiers);
	KSFT_RUN(hist_control);
	KSFT_RUN(hist_named);
	KSFT_RUN(hist_errors);
	KSFT_RUN(hist_threads);
	KSFT_RUN(churn);
	KSFT_RUN(random_commands);
	KSFT_RUN(event_removed);
	ksft_finished();
}
