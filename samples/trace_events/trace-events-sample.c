// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sample events: recorded, then printed from the buffer.
 *
 * This file defines CREATE_TRACE_POINTS before including the trace header,
 * so it gets the events themselves (tracepoints, probes, formats); any
 * other file of the program would include the header plainly and call
 * trace_foo_bar() and friends.
 */
#include <stdio.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "trace-events-sample.h"

static int fn_registered;

int foo_bar_reg(void)
{
	fn_registered = 1;
	return 0;
}

void foo_bar_unreg(void)
{
	fn_registered = 0;
}

static void fire_all(int i)
{
	static const int list[] = { 1, 2, 3, 0x10 };
	static const unsigned char bytes[] = { 0xde, 0xad, 0xbe, 0xef };
	unsigned long mask[64 / (8 * sizeof(long))] = { 0x5 };
	struct sample_pair pair = { i, -i };

	trace_foo_bar("hello", i, list, i % 4 + 1, "a string", mask, &pair);
	trace_foo_array(list, i % 4 + 1);
	trace_foo_bar_with_cond("cond", i);
	trace_foo_bar_with_fn("fn", i);
	trace_foo_with_template_simple("simple", i);
	trace_foo_with_template_cond("tcond", i);
	trace_foo_with_template_print("print", i);
	trace_foo_hex(bytes, i % 4 + 1, i % 2 ? 0x10000000001ull : 0x1ull);
}

int main(void)
{
	struct trace_buffer *buffer;
	int cpu, err;

	err = trace_set_clr_event("sample_trace", NULL, 1);
	if (err) {
		fprintf(stderr, "enabling the sample events: %s\n", strerror(-err));
		return 1;
	}
	printf("foo_bar_with_fn registered: %d\n", fn_registered);
	for (int i = 0; i < 11; i++)
		fire_all(i);
	trace_set_clr_event(NULL, NULL, 0);

	buffer = trace_get_global_buffer();
	for (cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *event;
		uint64_t ts;

		while ((event = ring_buffer_consume(buffer, cpu, &ts, NULL))) {
			struct trace_entry *entry = ring_buffer_event_data(event);
			struct trace_seq s;

			trace_seq_init(&s);
			trace_print_event(&s, entry, ring_buffer_event_length(event));
			printf("%d: %s\n", entry->pid, s.buffer);
		}
	}
	return 0;
}
