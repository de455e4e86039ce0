// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tp-dup-c.so: defines dup_tp with tp-dup-a.so's prototype, spelled with
 * other white space.
 */
#include <linux/tracepoint.h>
#include "libtpdef.h"

DECLARE_TRACE(dup_tp,
	TP_PROTO(int * a,long   b),
	TP_ARGS(a, b));

DEFINE_TRACE(dup_tp);

TP_EXPORT struct tracepoint *dup_self(void);

/* The struct this object's own code uses. */
struct tracepoint *dup_self(void)
{
	return &__tracepoint_dup_tp;
}
