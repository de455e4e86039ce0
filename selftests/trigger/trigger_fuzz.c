// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the trigger and hist command parsers
 * (kernel/trace/trace_events_trigger.c, trace_events_hist.c) and the
 * triggers they set, run by events.
 *
 * An input is one byte that picks the event, the command up to the first
 * NUL, then bytes that become the values of the events fired once the
 * command is in.  Besides "no crash, no leak, no undefined behaviour":
 * a refused command leaves the event without triggers, a hist error
 * comes with a location and a caret inside the command, and the trigger
 * file and the hist file can always be read.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "trg-events.h"

#include <linux/trace.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/trace_filter.h"

#define CMD_MAX		1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s failed for [%s]\n",	\
				__FILE__, __LINE__, #cond, cmd);	\
			abort();					\
		}							\
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char cmd[CMD_MAX];
	static struct trace_seq s;
	struct trace_event_call *call, *ev, *other;
	struct trace_array *tr;
	struct trace_iterator *iter;
	struct trace_err err;
	size_t n, i;
	char *text;
	int ret;

	if (size < 1)
		return 0;
	n = strnlen((const char *)data + 1, size - 1);
	if (n >= CMD_MAX)
		return 0;
	memcpy(cmd, data + 1, n);
	cmd[n] = '\0';
	ev = trace_find_event_call("trg_test", "trg_ev");
	other = trace_find_event_call("trg_test", "trg_other");
	call = data[0] & 1 ? other : ev;
	tr = trace_array_create("fuzz");
	if (!tr)
		return 0;
	if (data[0] & 2)
		trace_array_set_clr_event(tr, "trg_test", NULL, 1);

	ret = trace_array_set_trigger(tr, call, cmd, &err);
	trace_seq_init(&s);
	trace_array_print_triggers(tr, call, &s);
	if (ret) {
		check(!strncmp(s.buffer, "# Available triggers:\n", 22));
		check(!err.loc || err.pos <= n);
	}
	/* Fire both events with the values that follow the command. */
	for (i = n + 2; i + 4 <= size && i < n + 2 + 64; i += 4) {
		int v;

		memcpy(&v, data + i, sizeof(v));
		trace_trg_ev(v, (unsigned long long)v * 3, (const char *)cmd, "who");
		trace_trg_other(v);
	}
	text = trace_array_hist_text(tr, call, NULL);
	check(text != NULL);
	free(text);
	trace_seq_init(&s);
	trace_array_snapshot_print_header(tr, &s);
	iter = trace_array_iterator_open(tr, 0, RING_BUFFER_ALL_CPUS);
	while (iter && (trace_seq_init(&s), trace_iterator_print_line(iter, &s)) == 1)
		;
	trace_iterator_close(iter);
	check(trace_array_destroy(tr) == 0);
	return 0;
}
