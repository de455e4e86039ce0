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

/*
 * kernel/env.c: the USTRACE_* variables, through secure_getenv(); those
 * that name a path are refused too while real and effective ids differ.
 */
const char *ustrace_getenv(const char *name);
const char *ustrace_getenv_path(const char *name);
bool ustrace_env_untrusted(void);

/* kernel/jump_label.c: held across fork() by the tracepoint core. */
void jump_label_lock(void);
void jump_label_unlock(void);

#endif /* _USTRACE_KERNEL_INTERNAL_H */
