// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel's way to define tracepoints: CREATE_TRACE_POINTS, then the
 * trace headers.  The first is found at <trace/events/seedcreate.h>, the
 * second through its TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE; both are
 * defined by this one file.
 */
#define CREATE_TRACE_POINTS
#include <trace/events/seedcreate.h>
#include "tpath/path_events.h"

void seed_fire_created(int a, const char *s, unsigned long x)
{
	trace_seedcreate_plain_tp(a, s);
	trace_seedcreate_cond_tp(a);
	trace_seedpath_event_tp(x);
}
