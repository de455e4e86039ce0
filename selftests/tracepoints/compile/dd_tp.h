/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* For compile-fail.sh: one tracepoint that two files both define. */
#ifndef CF_DD_TP_H
#define CF_DD_TP_H

#include <linux/tracepoint.h>

DECLARE_TRACE(dd_tp,
	TP_PROTO(int v),
	TP_ARGS(v));

#endif /* CF_DD_TP_H */
