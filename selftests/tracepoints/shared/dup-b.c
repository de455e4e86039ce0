// SPDX-License-Identifier: LGPL-2.1-or-later
/* tp-dup-b.so: defines dup_tp with a different prototype. */
#include <linux/tracepoint.h>
#include "libtpdef.h"

DECLARE_TRACE(dup_tp,
	TP_PROTO(long a),
	TP_ARGS(a));

DEFINE_TRACE(dup_tp);

TP_EXPORT struct tracepoint *dup_self(void);

/* The struct this object's own code uses. */
struct tracepoint *dup_self(void)
{
	return &__tracepoint_dup_tp;
}
