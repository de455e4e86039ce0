/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* inl_event, and an inline function that fires it, for inline.c. */
#ifndef TP_INLINE_TP_H
#define TP_INLINE_TP_H

#include <linux/tracepoint.h>

enum inl_kind {
	KIND_INLINE = 1,	/* the inline function below */
	KIND_STATIC,		/* an inlined static function */
	KIND_UNROLLED,		/* an unrolled loop */
	KIND_OTHER_FILE,	/* the inline function, from inline2.c */
};

DECLARE_TRACE(inl_event,
	TP_PROTO(int kind, int i),
	TP_ARGS(kind, i));

static inline void inl_fire_inline(int kind, int i)
{
	trace_inl_event_tp(kind, i);
}

void inl_fire_other_file(int i);

#endif /* TP_INLINE_TP_H */
