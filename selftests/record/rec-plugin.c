// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A shared object rec-app dlopen()s while it records: its event registers
 * then, long after the recording started, and must be recorded.
 */
#define CREATE_TRACE_POINTS
#include "rec-plugin-events.h"

void rec_plugin_fire(int n);

void rec_plugin_fire(int n)
{
	for (int i = 0; i < n; i++)
		trace_rec_loaded(i, "plugin");
}
