/* SPDX-License-Identifier: MIT */
/*
 * Trace clocks, as the kernel's <linux/trace_clock.h> and the clocks of
 * tracefs's trace_clock file.  Each returns a u64 and is safe to call from
 * any thread, in a signal handler, and before main().
 *
 *   local     TSC scaled to nanoseconds: cheap, per-CPU in the kernel's
 *             sense (not ordered across CPUs by anything but the TSC)
 *   global    local, made monotonic across all threads with one shared
 *             cmpxchg (a contended cache line, as in the kernel)
 *   counter   an atomic counter, not time: orders events across CPUs
 *   mono      CLOCK_MONOTONIC
 *   mono_raw  CLOCK_MONOTONIC_RAW
 *   boot      CLOCK_BOOTTIME
 *   x86-tsc   the raw TSC, in cycles (x86 only)
 *
 * Documentation/trace/ring-buffer-design.rst lists how each differs from
 * the kernel clock of the same name.
 */
#ifndef _USTRACE_LINUX_TRACE_CLOCK_H
#define _USTRACE_LINUX_TRACE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

__ustrace_visible uint64_t trace_clock_local(void);
__ustrace_visible uint64_t trace_clock_global(void);
__ustrace_visible uint64_t trace_clock_counter(void);
__ustrace_visible uint64_t trace_clock_mono(void);
__ustrace_visible uint64_t trace_clock_mono_raw(void);
__ustrace_visible uint64_t trace_clock_boot(void);
#if defined(__x86_64__) || defined(__i386__)
__ustrace_visible uint64_t trace_clock_x86_tsc(void);
#endif

/**
 * struct trace_clock - one entry of the trace_clock list
 * @name:  as tracefs spells it ("local", "x86-tsc", ...)
 * @read:  the clock
 * @in_ns: whether it counts nanoseconds (stats print seconds.usecs)
 */
struct trace_clock {
	const char *name;
	uint64_t (*read)(void);
	bool in_ns;
};

__ustrace_visible const struct trace_clock *trace_clock_get(unsigned int idx);
__ustrace_visible const struct trace_clock *trace_clock_find(const char *name);

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_TRACE_CLOCK_H */
