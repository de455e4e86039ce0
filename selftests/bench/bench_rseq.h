/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench_rseq.h - for the benchmarks' --callgrind runs: valgrind does not
 * let glibc register rseq, so the CPU number the writers' fast path reads
 * from the rseq area is not there and every event would take the slow
 * path.  bench_rseq_for_valgrind() writes CPU 0 into the area when rseq
 * is not registered (nothing else reads it then), so that callgrind
 * counts the path a real run takes.
 */
#ifndef _BENCH_RSEQ_H
#define _BENCH_RSEQ_H

#if __has_include(<sys/rseq.h>)
# include <sys/rseq.h>
#endif

static inline void bench_rseq_for_valgrind(void)
{
#if defined(__GLIBC__) && __has_include(<sys/rseq.h>) && \
	(__GLIBC__ > 2 || __GLIBC_MINOR__ >= 35)
	if (!__rseq_size) {
		struct rseq *rs = (struct rseq *)((char *)__builtin_thread_pointer() +
						  __rseq_offset);

		rs->cpu_id_start = 0;
		rs->cpu_id = 0;
	}
#endif
}

#endif /* _BENCH_RSEQ_H */
