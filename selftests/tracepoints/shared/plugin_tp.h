/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tracepoints of the dlopen test: dl_host_event is defined by the program
 * (which exports it to plugins), dl_plugin_event by tp-defplugin.so.
 */
#ifndef TP_PLUGIN_TP_H
#define TP_PLUGIN_TP_H

#include <linux/tracepoint.h>

DECLARE_TRACE(dl_host_event,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE(dl_plugin_event,
	TP_PROTO(int v),
	TP_ARGS(v));

/* tp-plugin.so: probes shlib_event and dl_host_event from its constructor. */
struct plugin_state {
	int host_calls;
	int shlib_calls;
	long last;
};

/* tp-defplugin.so */
struct defplugin_counters {
	int regfunc;
	int unregfunc;
};

#endif /* TP_PLUGIN_TP_H */
