// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the event filter parser and matcher
 * (kernel/trace/trace_events_filter.c).
 *
 * An input is one byte that picks the event (and, with its top bit
 * clear, writes the expression to the event's filter file too), the
 * expression up to the first NUL, then bytes that fill the record the
 * compiled filter is run on (garbage __data_loc words and char * fields included: the matcher
 * must take any record).  Besides "no crash, no leak, no undefined
 * behaviour", it checks what must hold for every expression that
 * compiles: the filter keeps its text, the steps the probe runs decide
 * every record as the instructions' interpreter does, "!(E)" rejects
 * exactly what E passes, "(E) && (E)" and "(E) || (E)" decide as E
 * does; and for every
 * one that does not: the kernel's errno, and the error text starts with
 * the expression.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "flt-kinds.h"
#include "flt-sched.h"
#include "flt-signal.h"

#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/trace_filter.h"
#include "fuzz.h"

#define EXPR_MAX	4096
#define REC_MAX		256

static const char *const events[][2] = {
	{ "sched", "sched_switch" },
	{ "sched", "sched_wakeup" },
	{ "signal", "signal_generate" },
	{ "flt_test", "flt_all" },
	{ "flt_test", "flt_small" },
};

#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s failed for [%s]\n",	\
				__FILE__, __LINE__, #cond, expr);	\
			abort();					\
		}							\
	} while (0)

/* Does @expr, wrapped by @fmt, decide every record as @want says? */
static void check_wrapped(struct trace_event_call *call, const char *fmt, const char *expr,
			  const unsigned char *rec, const bool *want)
{
	static char buf[3 * EXPR_MAX];
	struct event_filter *f;
	unsigned int len;

	snprintf(buf, sizeof(buf), fmt, expr, expr);
	f = event_filter_compile(call, buf, NULL, NULL);
	if (!f)
		return;	/* doubled, it may have too many predicates */
	for (len = 0; len <= REC_MAX; len += REC_MAX / 4)
		check(event_filter_match(f, rec, len) == want[len / (REC_MAX / 4)]);
	event_filter_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct trace_seq seq;
	static char expr[EXPR_MAX];
	static unsigned char rec[REC_MAX];
	struct trace_event_call *call;
	struct event_filter *f;
	struct trace_err terr;
	static char wrapped[EXPR_MAX + 4];
	bool pass[5];
	size_t n, i;
	unsigned int len;
	uint8_t sel;

	if (!size)
		return 0;
	sel = data[0];
	call = trace_find_event_call(events[sel % 5][0], events[sel % 5][1]);
	if (!call)
		abort();
	data++, size--;
	for (n = 0; n < size && n < EXPR_MAX - 1 && data[n]; n++)
		expr[n] = (char)data[n];
	expr[n] = '\0';
	for (i = 0; i < REC_MAX; i++)
		rec[i] = n + 1 < size ? data[n + 1 + i % (size - n - 1)] : 0;
	memcpy(rec, &call->id, sizeof(short));

	/* The filter file: trimming, "0", the error text kept on the event. */
	if (!(sel & 0x80)) {
		trace_array_set_filter(NULL, call, expr, &terr);
		trace_seq_init(&seq);
		trace_array_print_filter(NULL, call, &seq);
		check(seq.len > 0 && seq.buffer[seq.len - 1] == '\n');
	}

	trace_seq_init(&seq);
	errno = 0;
	f = event_filter_compile_log(call, expr, &seq, &terr);
	if (!f) {
		check(errno == EINVAL || errno == EPERM || errno == ENOENT || errno == ESRCH);
		check(seq.full || !strncmp(seq.buffer, expr, strlen(expr)));
		check(!strcmp(terr.loc, "event filter parse error") && terr.msg[0]);
		return 0;
	}
	check(!strcmp(event_filter_string(f), expr));
	for (len = 0; len <= REC_MAX; len += REC_MAX / 4)
		pass[len / (REC_MAX / 4)] = event_filter_match(f, rec, len);
	/* The CPU may change under us; the rest is stable. */
	if (strcasestr(expr, "cpu")) {
		event_filter_free(f);
		return 0;
	}
	/* Every length: the steps read what the interpreter reads, no more. */
	for (len = 0; len <= REC_MAX; len++)
		check(event_filter_match(f, rec, len) == event_filter_match_insns(f, rec, len));
	event_filter_free(f);
	check_wrapped(call, "(%s) && (%s)", expr, rec, pass);
	check_wrapped(call, "(%s) || (%s)", expr, rec, pass);
	/*
	 * The negation, on a record long enough for every field (a short
	 * one is rejected by both).
	 */
	snprintf(wrapped, sizeof(wrapped), "!(%s)", expr);
	f = event_filter_compile(call, wrapped, NULL, NULL);
	if (f) {
		check(event_filter_match(f, rec, REC_MAX) == !pass[4]);
		event_filter_free(f);
	}
	return 0;
}
