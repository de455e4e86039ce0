// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For compile-fail.sh: defines dd_tp, as double-define-b.c does; linking
 * the two into one program must fail.  With -DTWICE this file defines it
 * a second time itself, which must not compile.
 */
#include "dd_tp.h"

DEFINE_TRACE(dd_tp);
#ifdef TWICE
DEFINE_TRACE(dd_tp);
#endif

int main(void)
{
	trace_dd_tp_tp(1);
	return 0;
}
