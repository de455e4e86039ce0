/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What libtpdef and libtpprobe export besides the tracepoint. */
#ifndef TP_LIBTPDEF_H
#define TP_LIBTPDEF_H

#include <stdbool.h>

#define TP_EXPORT	__attribute__((__visibility__("default")))

/* "where" values: who fired shlib_event. */
#define WHERE_PROGRAM	1
#define WHERE_LIBRARY	2

struct tracepoint;

/* libtpdef */
TP_EXPORT void tpdef_fire(long value);
TP_EXPORT bool tpdef_enabled(void);
TP_EXPORT struct tracepoint *tpdef_tracepoint(void);

/* libtpprobe.so: one probe, recording what it saw. */
struct tpprobe_seen {
	int calls;
	int where;
	long value;
	int order;	/* value of *order_counter when it ran */
};

TP_EXPORT int tpprobe_attach(int prio, int *order_counter);
TP_EXPORT int tpprobe_detach(void);
TP_EXPORT struct tpprobe_seen *tpprobe_seen(void);

#endif /* TP_LIBTPDEF_H */
