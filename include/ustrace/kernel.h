/* SPDX-License-Identifier: MIT */
/*
 * The machine's kernel events next to the program's: a recording of the
 * kernel's own tracefs (sched:sched_switch, ...), in an instance of its
 * own, merged with a program's trace.dat into one file whose CPUs hold
 * both kinds in time order (ustrace record -K, ustrace_kernel_start(3)).
 *
 *	struct ustrace_kernel_attr attr = {
 *		.size	= sizeof(attr),
 *		.events	= (const char *[]){ "sched:sched_switch", NULL },
 *		.clock	= "x86-tsc",
 *	};
 *	struct ustrace_kernel *k = ustrace_kernel_start(&attr);
 *	... run the program, which writes prog.dat ...
 *	ustrace_kernel_stop(k);
 *	ustrace_kernel_write(k, (const char *[]){ "prog.dat", NULL }, "m.dat", 7);
 *	ustrace_kernel_free(k);
 *
 * ustrace_kernel_write(NULL, inputs, ...) merges programs' files alone
 * (ustrace record of a process tree).
 */
#ifndef _USTRACE_KERNEL_H
#define _USTRACE_KERNEL_H

#include <stddef.h>

#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

struct ustrace_kernel;

/**
 * struct ustrace_kernel_attr - what to record of the kernel
 * @size:      sizeof(struct ustrace_kernel_attr)
 * @events:    "SYSTEM[:EVENT]" names, NULL-terminated; at least one
 * @clock:     the kernel's trace_clock: "x86-tsc" (mapped onto the
 *             programs' local clock when merged), "mono", "mono_raw",
 *             "boot"; NULL: "x86-tsc" where the TSC is invariant, else
 *             "mono"
 * @buffer_kb: each CPU's kernel buffer in KiB; 0: 4096
 * @tracefs:   the kernel's tracefs; NULL: where /proc/mounts says,
 *             else /sys/kernel/tracing, mounted there if need be
 */
struct ustrace_kernel_attr {
	size_t			size;
	const char *const	*events;
	const char		*clock;
	unsigned long		buffer_kb;
	const char		*tracefs;
};

__ustrace_visible struct ustrace_kernel *ustrace_kernel_start(const struct ustrace_kernel_attr *attr);
__ustrace_visible int ustrace_kernel_stop(struct ustrace_kernel *k);
__ustrace_visible int ustrace_kernel_write(struct ustrace_kernel *k, const char *const *inputs,
					   const char *output, int version);
__ustrace_visible void ustrace_kernel_free(struct ustrace_kernel *k);
__ustrace_visible const char *ustrace_kernel_errmsg(void);
__ustrace_visible const char *ustrace_kernel_clock(const struct ustrace_kernel *k);

__USTRACE_END_DECLS

#endif /* _USTRACE_KERNEL_H */
