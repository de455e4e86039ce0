// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the synthetic_events and dynamic_events parser
 * (kernel/trace/trace_events_synth.c) and inter-event hist commands
 * (variables, expressions, actions generating the events defined), run by
 * pairs of events.
 *
 * An input is a flags byte, definitions (lines, one command each) up to
 * a NUL, a hist command for hist_test:req_end up to the next NUL, then
 * bytes that become the values of the events fired.  Flag 1: the
 * definitions go to dynamic_events; 2: the synthetic events are enabled;
 * 4: req_start sets ts0 and p (its path) first.  Besides "no crash, no
 * leak, no undefined behaviour": an error comes with the kernel's
 * location and a caret inside the command, every synthetic event's format
 * and the hist file can be read, and once the instance is gone every
 * synthetic event can be removed (nothing keeps a reference).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "hist-events.h"

#include <linux/trace.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/trace_filter.h"
#include "../../kernel/trace/trace_synth.h"

#define CMD_MAX		2048

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *what;

#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s failed for [%s]\n",	\
				__FILE__, __LINE__, #cond, what);	\
			abort();					\
		}							\
	} while (0)

/* The input's next NUL-terminated part into @buf; its length. */
static size_t take(const uint8_t **data, size_t *size, char *buf)
{
	size_t n = strnlen((const char *)*data, *size);

	if (n >= CMD_MAX)
		n = CMD_MAX - 1;
	memcpy(buf, *data, n);
	buf[n] = '\0';
	n = n < *size ? n + 1 : n;
	*data += n;
	*size -= n;
	return strlen(buf);
}

/* Each line of @defs as a command; errors where the kernel puts them. */
static void define(char *defs, int dyn)
{
	struct trace_err err;
	char *line, *next;

	for (line = defs; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		what = line;
		if (trace_synth_command(line, dyn, &err) && err.loc) {
			check(!strcmp(err.loc, "synthetic_events"));
			check(err.pos <= strlen(line));
		}
	}
}

static void check_format(struct trace_event_call *call, void *priv)
{
	(void)priv;
	if (strcmp(call->event_class->system, "synthetic"))
		return;
	check(trace_event_format(call, NULL, 0) > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char defs[CMD_MAX], cmd[CMD_MAX];
	static struct trace_seq s;
	struct trace_event_call *start, *end;
	struct trace_iterator *iter;
	struct trace_array *tr;
	struct trace_err err;
	size_t n;
	uint8_t flags;
	char *text;
	int ret;

	if (size < 1)
		return 0;
	flags = data[0];
	data++, size--;
	take(&data, &size, defs);
	n = take(&data, &size, cmd);
	start = trace_find_event_call("hist_test", "req_start");
	end = trace_find_event_call("hist_test", "req_end");
	tr = trace_array_create("fuzz");
	if (!tr)
		return 0;
	define(defs, flags & 1);
	if (flags & 2)
		trace_array_set_clr_event(tr, "synthetic", NULL, 1);
	if (flags & 4) {
		what = "the start's trigger";
		check(!trace_array_set_trigger(tr, start, "hist:keys=id:ts0=common_timestamp:p=path",
					       &err));
	}
	what = cmd;
	ret = trace_array_set_trigger(tr, end, cmd, &err);
	if (ret && err.loc)
		check(err.pos <= n);
	/* Pairs with the values that follow. */
	for (size_t i = 0; i + 4 <= size && i < 64; i += 4) {
		int v;

		memcpy(&v, data + i, sizeof(v));
		trace_req_start(v & 7, defs, cmd);
		trace_req_end(v & 7, v, (unsigned long long)v * 3);
	}
	trace_for_each_event_call(check_format, NULL);
	text = trace_array_hist_text(tr, end, NULL);
	check(text != NULL);
	free(text);
	text = trace_synth_text(flags & 1, NULL);
	check(text != NULL);
	free(text);
	iter = trace_array_iterator_open(tr, 0, RING_BUFFER_ALL_CPUS);
	while (iter && (trace_seq_init(&s), trace_iterator_print_line(iter, &s)) == 1)
		;
	trace_iterator_close(iter);
	what = "the end";
	check(trace_array_destroy(tr) == 0);
	/* Nothing holds a synthetic event once its users are gone. */
	check(trace_synth_release_all() == 0);
	text = trace_synth_text(false, NULL);
	check(text && !*text);
	free(text);
	return 0;
}
