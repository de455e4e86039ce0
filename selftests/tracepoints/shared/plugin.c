// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tp-plugin.so: attaches probes from its constructor and never detaches
 * them.  dlclose() must take them away before the code is unmapped.
 */
#include "shlib_tp.h"
#include "libtpdef.h"
#include "plugin_tp.h"

TP_EXPORT struct plugin_state plugin_state;
TP_EXPORT int plugin_register_error;

static void plugin_host_probe(void *data, int v)
{
	struct plugin_state *st = data;

	/* dlopen.c fires from several threads at once. */
	__atomic_add_fetch(&st->host_calls, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&st->last, v, __ATOMIC_RELAXED);
}

static void plugin_shlib_probe(void *data, int where, long value)
{
	struct plugin_state *st = data;

	(void)where;
	__atomic_add_fetch(&st->shlib_calls, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&st->last, value, __ATOMIC_RELAXED);
}

__attribute__((__constructor__))
static void plugin_init(void)
{
	int ret;

	/* Above the program's probes: it must run before them. */
	ret = register_trace_prio_dl_host_event(plugin_host_probe,
						&plugin_state, 100);
	if (!ret)
		ret = register_trace_prio_shlib_event(plugin_shlib_probe,
						      &plugin_state, 100);
	plugin_register_error = ret;
}
