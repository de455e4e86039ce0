/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who may change a CPU's tail, and how: the writers on the CPU change an
 * open tail with a restartable sequence (rseq), without a locked
 * instruction; everything else uses cmpxchg16b, and only on a tail that
 * no restartable sequence writes.  Not installed.
 *
 * The rule (ring-buffer-design.rst, "Who changes the tail"):
 *
 *   - an open tail (its offset below RB_OFF_BELL: no flag, not frozen)
 *     changes only by rb_tail_rseq_cas() run on the tail's CPU.  Threads
 *     on one CPU run one at a time, and the kernel restarts a sequence
 *     that is preempted, migrated or interrupted by a signal before its
 *     last instruction, the 16-byte store: so the compare and the store
 *     are one step to every other thread that may write the tail then;
 *   - a tail with a flag (the bell, hold, locked) or frozen is written by
 *     no sequence (no event fits it), so it changes by cmpxchg16b, from
 *     any CPU;
 *   - a reader that must change an open tail (to flush it, ring the bell
 *     or freeze it) first sets RB_OFF_HOLD on it with a cmpxchg16b, then
 *     fences the CPU's sequences (membarrier(2)'s
 *     MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ: a sequence that was running
 *     is restarted, so a store that would undo the hold cannot come
 *     after it), checks that the hold is still there, and changes the
 *     held tail with cmpxchg16b (rb_tail_change());
 *   - the fence covers this process's threads only: before a fork()
 *     lets another process write the buffers, every tail is locked
 *     (RB_OFF_LOCKED, rb_lock_tail()), and stays so.  A process with no
 *     fence (membarrier refused) makes its buffers locked from the start;
 *   - in a process whose threads have no rseq (glibc did not register it:
 *     GLIBC_TUNABLES=glibc.pthread.rseq=0, valgrind, another libc), which
 *     its forked children inherit, every change is a cmpxchg16b.
 *
 * Either way a change succeeds only from the value its writer read, so
 * the slow paths keep their cmpxchg loops.
 *
 * What the rule trusts: that the rseq area at __rseq_offset is this
 * thread's, kept up to date by the kernel.  A program that unregisters
 * glibc's rseq (glibc forbids it), and a child of vfork() or of a raw
 * clone(CLONE_VM) (the kernel does not carry rseq over to those, and they
 * run on their parent's thread area) that fires events, break it; so does
 * a child of a raw fork system call, which skips the fork handlers.
 */
#ifndef _USTRACE_KERNEL_TRACE_RB_RSEQ_H
#define _USTRACE_KERNEL_TRACE_RB_RSEQ_H

#include <stddef.h>
#if __has_include(<sys/rseq.h>)
# include <sys/rseq.h>
#endif

#include "rb_internal.h"

#if defined(__GLIBC__) && defined(RSEQ_SIG) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
# define RB_HAVE_RSEQ 1
#endif

#ifdef RB_HAVE_RSEQ
/* The CPU rseq says the thread is on (the kernel updates it on every return to userspace). */
static __always_inline const u32 *rb_rseq_cpu_id(void)
{
	return (const u32 *)((char *)__builtin_thread_pointer() + __rseq_offset +
			     offsetof(struct rseq, cpu_id));
}

# ifdef __x86_64__
/*
 * The same, read once more each call, %fs-relative: no pointer to keep
 * in a register.
 */
static __always_inline u32 rb_rseq_cpu(void)
{
	u32 cpu;

	__asm__ __volatile__("movl %%fs:%c1(%2), %0"
			     : "=r" (cpu)
			     : "i" (offsetof(struct rseq, cpu_id)), "r" (__rseq_offset));
	return cpu;
}

#  define RB_RSEQ_TAIL 1
#  define __rb_str2(x)	#x
#  define __rb_str(x)	__rb_str2(x)

/*
 * rb_tail_rseq_cas - if this thread runs on @cpu and @tail is
 *	{ @opos, @ots }, make it @new, as one step on that CPU
 *
 * A restartable sequence: the kernel sends the thread to the abort label
 * (after the signature glibc registered, RSEQ_SIG) if it is preempted,
 * migrated or takes a signal before the sequence's last instruction, the
 * aligned 16-byte store of both words (one instruction: the tail never
 * has one word new and the other old for a writer of its CPU; CPUs with
 * AVX also make it atomic to the others, which only read it).
 *
 * Only for an open tail; see the top of this file.
 * Return: true if stored; false if not (another CPU, another value, or
 * the sequence was restarted).
 */
static __always_inline bool rb_tail_rseq_cas(struct rb_tail *tail, u32 cpu, u64 opos, u64 ots,
					     struct rb_tail new)
{
	typedef long long rb_v2di __attribute__((__vector_size__(16)));
	rb_v2di v = { (long long)new.pos, (long long)new.ts };

#ifdef RB_TSAN
	__tsan_release(tail);
#endif
	__asm__ goto(
		".pushsection __rseq_cs, \"aw\"\n\t"
		".balign 32\n"
		"3:\n\t"
		".long 0, 0\n\t"			/* version, flags */
		".quad 1f, 2f - 1f, 4f\n\t"		/* start, length, abort */
		".popsection\n\t"
		"leaq 3b(%%rip), %%rax\n\t"
		"movq %%rax, %%fs:%c[cs](%[off])\n"
		"1:\n\t"
		"cmpl %[cpu], %%fs:%c[id](%[off])\n\t"
		"jne %l[fail]\n\t"
		"cmpq %[opos], %[pos]\n\t"
		"jne %l[fail]\n\t"
		"cmpq %[ots], %[ts]\n\t"
		"jne %l[fail]\n\t"
		"movdqa %[v], %[tail]\n"
		"2:\n\t"
		".pushsection __rseq_failure, \"ax\"\n\t"
		/* ud1 with the signature as its displacement, as librseq's */
		".byte 0x0f, 0xb9, 0x3d\n\t"
		".long " __rb_str(RSEQ_SIG) "\n"
		"4:\n\t"
		"jmp %l[fail]\n\t"
		".popsection"
		:
		: [cs] "i" (offsetof(struct rseq, rseq_cs)),
		  [id] "i" (offsetof(struct rseq, cpu_id)),
		  [off] "r" (__rseq_offset), [cpu] "r" (cpu),
		  [opos] "r" (opos), [ots] "r" (ots), [v] "x" (v),
		  [pos] "m" (tail->pos), [ts] "m" (tail->ts), [tail] "m" (*tail)
		: "rax", "cc", "memory"
		: fail);
#ifdef RB_TSAN
	__tsan_acquire(tail);
#endif
	return true;
fail:
	return false;
}
# endif /* __x86_64__ */
#endif /* RB_HAVE_RSEQ */

/* No event fits a tail with a flag or frozen: no sequence writes it. */
static __always_inline bool rb_tail_open(u64 pos)
{
	return rb_pos_off(pos) < RB_OFF_BELL;
}

/*
 * Whether this process's writers change open tails with rseq: rseq is
 * registered (by glibc, for every thread; forked children inherit it).
 */
static inline bool rb_rseq_writes(void)
{
#ifdef RB_RSEQ_TAIL
	return __rseq_size != 0;
#else
	return false;
#endif
}

enum rb_cas {
	RB_CAS_OK,
	RB_CAS_CHANGED,		/* the tail is not *old: *old is what it is now */
	RB_CAS_ELSEWHERE,	/* an open tail, and this thread is not on its CPU */
	RB_CAS_ABANDONED,	/* rb_tail_change(): the function said no */
	RB_CAS_REFUSED,		/* rb_tail_change(): no fence could be had */
};

/*
 * rb_tail_cas - a writer's change of @cpu's tail from *@old to @new, by
 * the rule at the top of this file.  After a change, a full barrier, as a
 * cmpxchg16b's (the slow paths order the slot words after it).
 */
static inline enum rb_cas rb_tail_cas(struct rb_tail *tail, unsigned int cpu,
				      struct rb_tail *old, struct rb_tail new)
{
#ifdef RB_RSEQ_TAIL
	if (rb_tail_open(old->pos) && rb_rseq_writes()) {
		if (rb_tail_rseq_cas(tail, cpu, old->pos, old->ts, new)) {
			/* The barrier: a cmpxchg16b that changes nothing. */
			rb_tail_snapshot(tail);
			return RB_CAS_OK;
		}
		if (rb_rseq_cpu() != cpu)
			return RB_CAS_ELSEWHERE;
		*old = rb_tail_snapshot(tail);
		return RB_CAS_CHANGED;
	}
#else
	(void)cpu;
#endif
	return rb_tail_cmpxchg(tail, old, new) ? RB_CAS_OK : RB_CAS_CHANGED;
}

/*
 * What a reader's change makes of the tail @cur (RB_OFF_HOLD cleared, no
 * other flag added but those it means): true and *@new, or false to leave
 * the tail as it is.
 */
typedef bool (*rb_tail_fn)(struct rb_tail cur, void *arg, struct rb_tail *new);

/*
 * rb_tail_change - a change of @cpu's tail from a thread on any CPU (a
 * reader): @fn's of the tail as it is, by the rule above (ring_buffer.c).
 * *@old is the tail the caller read, and the tail replaced on RB_CAS_OK.
 * Return: RB_CAS_OK; RB_CAS_ABANDONED when @fn said no (nothing changed,
 * the hold taken down); RB_CAS_REFUSED when the CPU could not be fenced.
 */
enum rb_cas rb_tail_change(struct rb_cpu_meta *meta, unsigned int cpu, struct rb_tail *old,
			   rb_tail_fn fn, void *arg);

/*
 * rb_fence_cpu - restart the restartable sequences of this process
 * running on @cpu.  Return: 0, or -errno.
 */
int rb_fence_cpu(unsigned int cpu);

/*
 * rb_lock_tail - make a CPU's tail RB_OFF_LOCKED for good (rb_rseq.h's
 * rule; fork()'s prepare handler, with the CPU's reader lock held).
 * Return: 0, or -errno when the CPU could not be fenced (locked anyway).
 */
int rb_lock_tail(struct rb_cpu_meta *meta, unsigned int cpu);

#endif /* _USTRACE_KERNEL_TRACE_RB_RSEQ_H */
