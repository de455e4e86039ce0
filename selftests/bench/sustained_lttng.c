// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sustained_lttng: LTTng-UST's side of selftests/bench/sustained.sh.
 *
 * Fires ustrace_bench:bench_event (lttng_bench_tp.h: the fields of our
 * bench:bench_event) at a fixed rate, paced as sustained_bench is
 * (sustained_pace.h: options and report).  The session, its consumer and
 * its counters of discarded events are the script's (lttng).  Adds
 * "enabled 0|1": whether a session had enabled the event when the writers
 * started.
 */
#include <stdio.h>

#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "lttng_bench_tp.h"

#include "sustained_pace.h"

static int enabled;

static void fire(long seq, int thread)
{
	tracepoint(ustrace_bench, bench_event, (int)seq, thread, 42, pace_comm);
}

static void report_enabled(void)
{
	printf("enabled %d\n", enabled);
}

int main(int argc, char **argv)
{
	if (pace_parse(argc, argv, "sustained_lttng"))
		return 2;
	enabled = !!tracepoint_enabled(ustrace_bench, bench_event);
	pace_fire = fire;
	pace_report_extra = report_enabled;
	return pace_run("sustained_lttng");
}
