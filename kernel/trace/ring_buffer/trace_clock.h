/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The local trace clock, inline for the ring buffer's fast path.  Not
 * installed; programs use <linux/trace_clock.h>.
 *
 * local = offset + ((tsc * mult) >> 32): one rdtsc, one 64x64->128
 * multiply.  mult and offset are measured once (trace_clock.c) and never
 * change afterwards, so the clock is monotonic wherever the TSC is.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_CLOCK_H
#define _USTRACE_KERNEL_TRACE_TRACE_CLOCK_H

#include <stdint.h>

#include <linux/compiler.h>

enum {
	TC_UNINIT,
	TC_TSC,		/* invariant TSC: scale it */
	TC_MONO,	/* no usable TSC: CLOCK_MONOTONIC */
};

struct tc_scale {
	int mode;		/* TC_*, published last (release) */
	uint64_t mult;		/* ns per cycle, << 32 */
	uint64_t offset;	/* ns - scaled TSC, modulo 2^64 */
};

__attribute__((__visibility__("hidden"))) extern struct tc_scale tc_scale;
__attribute__((__visibility__("hidden"))) uint64_t tc_local_slow(void);

#if defined(__x86_64__)
/* The scaled TSC, for callers that checked tc_scale.mode == TC_TSC. */
static __always_inline uint64_t tc_local_tsc(void)
{
	uint64_t tsc = __builtin_ia32_rdtsc();

	return tc_scale.offset + (uint64_t)(((unsigned __int128)tsc * tc_scale.mult) >> 32);
}
#endif

static __always_inline uint64_t tc_local(void)
{
#if defined(__x86_64__)
	if (likely(__atomic_load_n(&tc_scale.mode, __ATOMIC_ACQUIRE) == TC_TSC))
		return tc_local_tsc();
#endif
	return tc_local_slow();
}

#endif /* _USTRACE_KERNEL_TRACE_TRACE_CLOCK_H */
