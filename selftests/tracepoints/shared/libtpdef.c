// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtpdef: defines shlib_event, built with -fvisibility=hidden.  The
 * tracepoint is reachable from outside only because DEFINE_TRACE gives it
 * default visibility; the functions below are exported one by one.
 */
#define CREATE_TRACE_POINTS
#include "shlib_tp.h"
#include "libtpdef.h"

EXPORT_TRACEPOINT_SYMBOL_GPL(shlib_event);

/* Hidden: the program checks that dlsym() cannot see it. */
void tpdef_hidden(void);
void tpdef_hidden(void)
{
}

void tpdef_fire(long value)
{
	trace_shlib_event_tp(WHERE_LIBRARY, value);
}

bool tpdef_enabled(void)
{
	return trace_shlib_event_enabled();
}

struct tracepoint *tpdef_tracepoint(void)
{
	return &__tracepoint_shlib_event;
}
