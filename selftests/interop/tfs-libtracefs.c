// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tfs-libtracefs MOUNT [INSTANCE]: the Debian libtracefs (1.6) reads a
 * ustrace program's events through its tracefs mount, with nothing but
 * the library's public calls.
 *
 * Points libtracefs at MOUNT with tracefs_set_tracing_dir(), enables
 * sample_trace:foo_bar and sample_trace:foo_hex with tracefs_event_enable()
 * (in INSTANCE, created with tracefs_instance_create(), or in the top
 * instance), lets the program fire for a moment, stops tracing, then
 * prints every event tracefs_iterate_raw_events() hands back, one line
 * each, as the tracefs "trace" file prints them without the flags column
 * (task names from saved_cmdlines, with tracefs_load_cmdlines()):
 *
 *	COMM-PID [CPU] SECS.USECS: NAME: PAYLOAD
 *
 * Before iterating it copies the instance's "trace" file (which reading
 * does not consume) to stdout between "--- trace" and "--- events", so
 * that interop/libtracefs.sh can compare the two, line for line.  Errors
 * go to stderr with exit status 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

struct iter_ctx {
	struct trace_seq seq;
	unsigned long nr;
};

static int fail(const char *what)
{
	fprintf(stderr, "tfs-libtracefs: %s: %s\n", what, strerror(errno ? errno : EINVAL));
	return 1;
}

static int print_event(struct tep_event *event, struct tep_record *record, int cpu,
		       void *data)
{
	struct iter_ctx *ctx = data;

	trace_seq_reset(&ctx->seq);
	tep_print_event(event->tep, &ctx->seq, record, "%s-%d [%03d] %6.1000d: %s: %s",
			TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_TIME, TEP_PRINT_NAME,
			TEP_PRINT_INFO);
	trace_seq_terminate(&ctx->seq);
	printf("%s\n", ctx->seq.buffer);
	ctx->nr++;
	(void)cpu;
	return 0;
}

/* The instance's "trace" file, as it reads now. */
static int copy_trace(struct tracefs_instance *inst)
{
	char *text = tracefs_instance_file_read(inst, "trace", NULL);

	if (!text)
		return fail("read trace");
	fputs(text, stdout);
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const events[] = { "foo_bar", "foo_hex" };
	struct tracefs_instance *inst = NULL;
	struct iter_ctx ctx = { .nr = 0 };
	struct tep_handle *tep;
	const char *dir;
	size_t i;
	int ret = 1;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s MOUNT [INSTANCE]\n", argv[0]);
		return 2;
	}
	if (tracefs_set_tracing_dir(argv[1]))
		return fail("tracefs_set_tracing_dir");
	dir = tracefs_tracing_dir();
	if (!dir || strcmp(dir, argv[1])) {
		fprintf(stderr, "tfs-libtracefs: tracefs_tracing_dir() is %s, not %s\n",
			dir ? dir : "NULL", argv[1]);
		return 1;
	}
	if (argc == 3) {
		inst = tracefs_instance_create(argv[2]);
		if (!inst)
			return fail("tracefs_instance_create");
	}
	trace_seq_init(&ctx.seq);
	tracefs_trace_off(inst);
	if (tracefs_instance_file_write(inst, "trace", "0") < 0) {
		fail("clear trace");
		goto out;
	}
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (tracefs_event_enable(inst, "sample_trace", events[i])) {
			fail(events[i]);
			goto out;
		}
		if (tracefs_event_is_enabled(inst, "sample_trace", events[i]) !=
		    TRACEFS_ALL_ENABLED) {
			fprintf(stderr, "tfs-libtracefs: %s does not read as enabled\n",
				events[i]);
			goto out;
		}
	}
	if (tracefs_trace_on(inst)) {
		fail("tracefs_trace_on");
		goto out;
	}
	usleep(300 * 1000);
	tracefs_trace_off(inst);

	/* The formats come from the mount too: NULL is the custom dir. */
	tep = tracefs_local_events(NULL);
	if (!tep) {
		fail("tracefs_local_events");
		goto out;
	}
	if (tracefs_load_cmdlines(NULL, tep)) {
		fail("tracefs_load_cmdlines");
		goto free_tep;
	}
	printf("--- trace\n");
	if (copy_trace(inst))
		goto free_tep;
	printf("--- events\n");
	if (tracefs_iterate_raw_events(tep, inst, NULL, 0, print_event, &ctx)) {
		fail("tracefs_iterate_raw_events");
		goto free_tep;
	}
	printf("--- %lu events\n", ctx.nr);
	ret = 0;
free_tep:
	tep_free(tep);
out:
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		tracefs_event_disable(inst, "sample_trace", events[i]);
	tracefs_trace_on(inst);
	trace_seq_destroy(&ctx.seq);
	if (inst) {
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	fflush(stdout);
	return ret;
}
