// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tp-defplugin.so: defines dl_plugin_event.  The program cannot link to
 * it; it finds it with tracepoint_lookup() while the plugin is loaded.
 */
#include "libtpdef.h"
#include "plugin_tp.h"

static struct defplugin_counters *counters;

static int defplugin_reg(void)
{
	if (counters)
		counters->regfunc++;
	return 0;
}

static void defplugin_unreg(void)
{
	if (counters)
		counters->unregfunc++;
}

DEFINE_TRACE_FN(dl_plugin_event, defplugin_reg, defplugin_unreg);

TP_EXPORT void defplugin_set_counters(struct defplugin_counters *c);
TP_EXPORT void defplugin_fire(int v);
TP_EXPORT bool defplugin_enabled(void);

void defplugin_set_counters(struct defplugin_counters *c)
{
	counters = c;
}

void defplugin_fire(int v)
{
	trace_dl_plugin_event_tp(v);
}

bool defplugin_enabled(void)
{
	return trace_dl_plugin_event_enabled();
}
