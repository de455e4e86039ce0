/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng-UST's side of selftests/bench/lttng_compare.sh: the tracepoint
 * ustrace_bench:bench_event, three ints and a string, the fields of our
 * bench:bench_event (event_bench_trace.h).
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ustrace_bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "lttng_bench_tp.h"

#if !defined(_LTTNG_BENCH_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define _LTTNG_BENCH_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(ustrace_bench, bench_event,
	TP_ARGS(int, a, int, b, int, c, const char *, comm),
	TP_FIELDS(
		ctf_integer(int, a, a)
		ctf_integer(int, b, b)
		ctf_integer(int, c, c)
		ctf_string(comm, comm)
	)
)

#endif /* _LTTNG_BENCH_TP_H */

#include <lttng/tracepoint-event.h>
