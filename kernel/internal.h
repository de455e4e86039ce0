/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the files of libustrace.  Not installed.
 */
#ifndef _USTRACE_KERNEL_INTERNAL_H
#define _USTRACE_KERNEL_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Integrity and resource problems are reported once on stderr and never
 * stop the host program.
 */
#define ustrace_warn_once(fmt, ...)					\
({									\
	static bool __warned;						\
	if (!__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))	\
		fprintf(stderr, fmt, ##__VA_ARGS__);			\
})

/* kernel/jump_label.c: held across fork() by the tracepoint core. */
void jump_label_lock(void);
void jump_label_unlock(void);

#endif /* _USTRACE_KERNEL_INTERNAL_H */
