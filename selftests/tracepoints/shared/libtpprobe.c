// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtpprobe.so: probes shlib_event, which another object defines.  Built
 * without a link to that object: the dynamic linker finds the tracepoint
 * wherever the program got it (libtpdef.so or the program itself).
 */
#include "shlib_tp.h"
#include "libtpdef.h"

static struct tpprobe_seen seen;
static int *order;

static void tpprobe_probe(void *data, int where, long value)
{
	(void)data;
	seen.calls++;
	seen.where = where;
	seen.value = value;
	seen.order = order ? (*order)++ : -1;
}

int tpprobe_attach(int prio, int *order_counter)
{
	order = order_counter;
	return register_trace_prio_shlib_event(tpprobe_probe, &seen, prio);
}

int tpprobe_detach(void)
{
	return unregister_trace_shlib_event(tpprobe_probe, &seen);
}

struct tpprobe_seen *tpprobe_seen(void)
{
	return &seen;
}
