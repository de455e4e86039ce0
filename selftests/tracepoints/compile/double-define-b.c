// SPDX-License-Identifier: LGPL-2.1-or-later
/* For compile-fail.sh: the second definition of dd_tp. */
#include "dd_tp.h"

DEFINE_TRACE(dd_tp);

void dd_fire(void);
void dd_fire(void)
{
	trace_dd_tp_tp(2);
}
