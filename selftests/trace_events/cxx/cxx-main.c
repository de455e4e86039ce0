// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fires every event of cxx_events.h, whichever language defined them, and
 * prints their formats and the trace text: cxx.sh compares the output of
 * the C and the C++ definition.
 */
#include <stdio.h>
#include <string.h>

#include "cxx_events.h"

#include <linux/trace.h>
#include <linux/trace_events.h>

static const char *const names[] = {
	"cxx_one", "cxx_two", "cxx_fn", "cxx_bits", "cxx_print", "cxx_more",
};

int main(void)
{
	static const int arr[3] = { 1, 2, 3 };
	static const struct cxx_pair pr = { 7, -2 };
	static char fmt[8192];
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct trace_event_call *call = trace_find_event_call("cxx", names[i]);

		if (!call) {
			printf("no event cxx:%s\n", names[i]);
			return 1;
		}
		if (trace_event_format(call, fmt, sizeof(fmt)) < 0) {
			printf("no format for cxx:%s\n", names[i]);
			return 1;
		}
		fputs(fmt, stdout);
	}
	if (trace_set_clr_event("cxx", NULL, 1)) {
		printf("cannot enable cxx\n");
		return 1;
	}
	trace_cxx_one(1, "first");
	trace_cxx_two(1, "not recorded");
	trace_cxx_two(2, "second");
	trace_cxx_fn(-5);
	trace_cxx_bits(0x40);
	trace_cxx_print(0x41);
	trace_cxx_more(2, 5, arr, &pr);
	trace_set_clr_event("cxx", NULL, 0);
	fflush(stdout);
	return trace_print_file(stdout, trace_get_global_buffer()) < 0;
}
