// SPDX-License-Identifier: LGPL-2.1-or-later
/* te-plugin.so: defines te_plugin:plugin_value and fires it. */
#define CREATE_TRACE_POINTS
#include "plugin/plugin-events.h"

__attribute__((__visibility__("default"))) void te_plugin_fire(int v);

void te_plugin_fire(int v)
{
	trace_plugin_value(v, "plugin");
}
