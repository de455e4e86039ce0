/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the files of libustrace.  Not installed.
 */
#ifndef _USTRACE_KERNEL_INTERNAL_H
#define _USTRACE_KERNEL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
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
 * The tools' marker (USTRACE_TOOL, <ustrace/tool.h>): a program that
 * defines it hands the USTRACE_* variables on and does not act on them.
 * A weak reference with default visibility, so that the dynamic linker
 * binds it to the program's (or a preloaded object's) definition.
 */
extern const char __ustrace_tool __attribute__((__weak__, __visibility__("default")));

/* Does this process run a tool: no tracefs, no recording from the environment? */
static inline bool ustrace_is_tool(void)
{
	return &__ustrace_tool != NULL;
}

/* kernel/jump_label.c: held across fork() by the tracepoint core. */
void jump_label_lock(void);
void jump_label_unlock(void);

#endif /* _USTRACE_KERNEL_INTERNAL_H */
