// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For compile-fail.sh: EXPORT_TRACEPOINT_SYMBOL{,_GPL} compile only in the
 * file that defines the tracepoint.
 *
 *   -DDEFINE_HERE   defines ex_tp, then exports it: compiles
 *   (nothing)       only declares ex_tp, then exports it: must not compile
 *   -DGPL           uses EXPORT_TRACEPOINT_SYMBOL_GPL instead
 */
#include <linux/tracepoint.h>

DECLARE_TRACE(ex_tp,
	TP_PROTO(int v),
	TP_ARGS(v));

#ifdef DEFINE_HERE
DEFINE_TRACE(ex_tp);
#endif

#ifdef GPL
EXPORT_TRACEPOINT_SYMBOL_GPL(ex_tp);	/* EXPORT */
#else
EXPORT_TRACEPOINT_SYMBOL(ex_tp);	/* EXPORT */
#endif

void ex_fire(int v);
void ex_fire(int v)
{
	trace_ex_tp_tp(v);
}
