/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What tp_bench.c and tp_bench_nojl.c share: one tracepoint, and the
 * functions each translation unit compiles in its own site form.
 */
#ifndef _SELFTESTS_BENCH_TP_BENCH_H
#define _SELFTESTS_BENCH_TP_BENCH_H

#include <linux/tracepoint.h>

DECLARE_TRACE(bench, TP_PROTO(int x), TP_ARGS(x));

/*
 * Keep every measured call a real call: no inlining, no cloning (GCC), no
 * interprocedural shortcuts.
 */
#ifdef __clang__
# define BENCH_NOINLINE	__attribute__((__noinline__))
#else
# define BENCH_NOINLINE	__attribute__((__noinline__, __noclone__))
#endif

/*
 * BENCH_SITE_FUNCS(sfx) - the function holding one site, and the loop that
 * calls it @n times.  callgrind.sh reads the cost of loop_site_<sfx> by
 * name.
 */
#define BENCH_SITE_FUNCS(sfx)						\
	BENCH_NOINLINE void bench_site_##sfx(int x)			\
	{								\
		trace_bench_tp(x);					\
	}								\
	BENCH_NOINLINE void loop_site_##sfx(long n)			\
	{								\
		long i;							\
									\
		for (i = 0; i < n; i++)					\
			bench_site_##sfx((int)i);			\
	}

void bench_site_jl(int x);
void loop_site_jl(long n);
void bench_site_nojl(int x);
void loop_site_nojl(long n);

#endif /* _SELFTESTS_BENCH_TP_BENCH_H */
