// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * x86-64 text patching for jump label sites.
 *
 * A site is five bytes: the compiled "jmp stub", a NOP (0f 1f 44 00 00) or
 * "jmp target" (e9 rel32).  Other threads may execute a site while we
 * rewrite it, so we follow the breakpoint protocol the kernel uses for live
 * code (text_poke_bp), with membarrier(SYNC_CORE) as the "every CPU has
 * serialized" step:
 *
 *   1. write int3 (cc) over byte 0 of every queued site;   sync cores
 *   2. write bytes 1..4 of the new instruction;              sync cores
 *   3. write byte 0 of the new instruction;                  sync cores
 *
 * Between 1 and 3 a thread that reaches a site traps on the int3.  Our
 * SIGTRAP handler recognises the address and moves the thread on as the new
 * instruction would: to the target for a JMP, past the site for a NOP.  A
 * trap that is delivered late (the thread was descheduled between the trap
 * and the signal) finds the final instruction in place and simply re-runs
 * it.  Any other SIGTRAP goes to the handler that was there before us.
 *
 * The handler reads the queue while the patching thread may be refilling
 * it for the next batch, so the queue is guarded by a sequence count
 * (poke_seq: odd while the queue is being changed).  A handler that sees
 * it odd, or changed across its lookup, puts the thread back on the site:
 * the thread either runs the instruction now there or traps again and
 * finds a stable queue.
 *
 * The handler stays installed for the life of the process once patching
 * has begun: a late trap may arrive at any time after a batch.  If the
 * program installs its own SIGTRAP handler later, we take the signal back
 * before the next batch and chain to theirs; should theirs chain back to
 * us, the re-entry is detected and the signal gets the action that was in
 * place before the library's first handler.
 */
#define __USTRACE_CORE
#include <errno.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "../../jump_label.h"
#include "../../internal.h"

/*
 * The functions that read or write program text.  Sanitizers must not
 * instrument them: TSan has no shadow for text, and the accesses are
 * ordered by the protocol above, not by the memory model.
 */
#define __text_access __attribute__((__no_sanitize__("thread", "address")))

#define INT3_INSN_OPCODE	0xcc
#define JMP32_INSN_OPCODE	0xe9
#define POKE_MAX		256
#define POKE_HISTORY		4096

static const unsigned char x86_nop5[JUMP_LABEL_NOP_SIZE] = {
	0x0f, 0x1f, 0x44, 0x00, 0x00
};

struct text_poke {
	unsigned char *addr;
	unsigned long emulate;		/* where a trapped thread goes */
	unsigned char insn[JUMP_LABEL_NOP_SIZE];
};

/* Protected by jump_label_mutex (the only caller); read by the handler. */
static struct text_poke poke_queue[POKE_MAX];
static int poke_count;
static int poke_live;			/* entries the handler may look at */
static unsigned int poke_seq;		/* odd while the queue changes */
static unsigned long poke_history[POKE_HISTORY];
static unsigned int poke_history_next;

static struct sigaction jl_old_sigtrap;	/* whom to chain to */
static struct sigaction jl_orig_sigtrap;	/* before our first claim */
static bool jl_claimed;
static __thread bool jl_chaining;

/*
 * Every thread of the process executes a core-serializing instruction
 * before this returns.  It cannot fail once the process is registered
 * (arch_jump_label_init); if it ever did, the protocol would lose its
 * guarantee, so say so.
 */
static void sync_core(void)
{
	if (syscall(__NR_membarrier,
		    MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0))
		ustrace_warn_once("ustrace: membarrier(SYNC_CORE) failed while "
				  "patching tracepoint sites\n");
}

static bool in_history(unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < POKE_HISTORY; i++)
		if (__atomic_load_n(&poke_history[i], __ATOMIC_RELAXED) == addr)
			return true;
	return false;
}

static void run_old_action(const struct sigaction *old, int sig,
			   siginfo_t *si, void *uctx)
{
	if (old->sa_flags & SA_SIGINFO) {
		old->sa_sigaction(sig, si, uctx);
	} else if (old->sa_handler == SIG_IGN) {
		return;
	} else if (old->sa_handler == SIG_DFL) {
		/* What would have happened without us: the default action. */
		signal(SIGTRAP, SIG_DFL);
		raise(SIGTRAP);
	} else {
		old->sa_handler(sig);
	}
}

static void chain_sigtrap(int sig, siginfo_t *si, void *uctx)
{
	if (jl_chaining) {
		/* The handler we chained to chained back to us. */
		run_old_action(&jl_orig_sigtrap, sig, si, uctx);
		return;
	}
	jl_chaining = true;
	run_old_action(&jl_old_sigtrap, sig, si, uctx);
	jl_chaining = false;
}

__text_access
static void jl_sigtrap(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;
	unsigned long ip = uc->uc_mcontext.gregs[REG_RIP];
	unsigned long addr = ip - 1;	/* int3 leaves ip after itself */
	unsigned long emulate = 0;
	unsigned int seq;
	int i, live;

	if (jl_chaining) {
		chain_sigtrap(sig, si, uctx);
		return;
	}
	seq = __atomic_load_n(&poke_seq, __ATOMIC_ACQUIRE);
	if (seq & 1)
		goto retry;
	live = __atomic_load_n(&poke_live, __ATOMIC_ACQUIRE);
	for (i = 0; i < live; i++) {
		if ((unsigned long)__atomic_load_n(&poke_queue[i].addr,
						   __ATOMIC_RELAXED) == addr) {
			emulate = __atomic_load_n(&poke_queue[i].emulate,
						  __ATOMIC_RELAXED);
			break;
		}
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&poke_seq, __ATOMIC_RELAXED) != seq)
		goto retry;
	if (emulate) {
		if (*(volatile unsigned char *)addr != INT3_INSN_OPCODE)
			goto retry;
		uc->uc_mcontext.gregs[REG_RIP] = emulate;
		return;
	}
	if (in_history(addr))
		goto retry;
	chain_sigtrap(sig, si, uctx);
	return;
retry:
	/* Run whatever is at the site now; an int3 traps us again. */
	uc->uc_mcontext.gregs[REG_RIP] = addr;
}

/* (Re)install the handler if the program replaced it since last time. */
static int jl_claim_sigtrap(void)
{
	struct sigaction sa, cur;

	if (sigaction(SIGTRAP, NULL, &cur))
		return -errno;
	if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == jl_sigtrap)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = jl_sigtrap;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, &jl_old_sigtrap))
		return -errno;
	if (!jl_claimed) {
		jl_orig_sigtrap = jl_old_sigtrap;
		jl_claimed = true;
	}
	return 0;
}

bool arch_jump_label_init(void)
{
	const char *env = ustrace_getenv("USTRACE_JUMP_LABEL");
	long cmds;

	if (env && !strcmp(env, "0"))
		return false;
	cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE))
		return false;
	if (syscall(__NR_membarrier,
		    MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0))
		return false;
	return jl_claim_sigtrap() == 0;
}

/* The queue is complete: handlers may trust what they read in it. */
static void queue_stable(void)
{
	if (poke_seq & 1)
		__atomic_store_n(&poke_seq, poke_seq + 1, __ATOMIC_RELEASE);
}

__text_access
int arch_jump_label_transform_queue(struct jump_entry *entry, bool enable)
{
	unsigned char *addr = (unsigned char *)entry->code;
	struct text_poke *tp;
	int i, ret;

	if (poke_count == POKE_MAX) {
		ret = arch_jump_label_transform_apply();
		if (ret)
			return ret;
	}
	/*
	 * A site starts with e9 (JMP) or 0f (NOP).  Anything else is a
	 * debugger's breakpoint: writing under it would be undone when the
	 * debugger restores the byte it saved, leaving a torn instruction.
	 * The site keeps its form until the breakpoint is removed.
	 */
	if (*(volatile unsigned char *)addr != JMP32_INSN_OPCODE &&
	    *(volatile unsigned char *)addr != x86_nop5[0]) {
		ustrace_warn_once("ustrace: a breakpoint sits on the tracepoint "
				  "site at %p; it is not updated\n", (void *)addr);
		return 0;
	}
	if (!(poke_seq & 1))
		__atomic_store_n(&poke_seq, poke_seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	tp = &poke_queue[poke_count];
	__atomic_store_n(&tp->addr, addr, __ATOMIC_RELAXED);
	if (enable) {
		int32_t rel = (int32_t)(entry->target -
					(entry->code + JUMP_LABEL_NOP_SIZE));

		tp->insn[0] = JMP32_INSN_OPCODE;
		memcpy(&tp->insn[1], &rel, sizeof(rel));
		__atomic_store_n(&tp->emulate, entry->target, __ATOMIC_RELAXED);
	} else {
		memcpy(tp->insn, x86_nop5, JUMP_LABEL_NOP_SIZE);
		__atomic_store_n(&tp->emulate, entry->code + JUMP_LABEL_NOP_SIZE,
				 __ATOMIC_RELAXED);
	}
	/* Already in place (a key toggled twice, a table seen again). */
	for (i = 0; i < JUMP_LABEL_NOP_SIZE; i++)
		if (((volatile unsigned char *)addr)[i] != tp->insn[i])
			break;
	if (i < JUMP_LABEL_NOP_SIZE)
		poke_count++;
	return 0;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Make the pages of the queued sites writable (all of them, or none), or
 * put them back to read+exec when @writable is false.  @pages gets the
 * sorted, unique page addresses on the first call.
 */
static int set_text_writable(unsigned long *pages, int *npages, bool writable)
{
	long psz = sysconf(_SC_PAGESIZE);
	int i, n = *npages;

	if (writable) {
		n = 0;
		for (i = 0; i < poke_count; i++) {
			unsigned long a = (unsigned long)poke_queue[i].addr;

			pages[n++] = a & ~(psz - 1);
			pages[n++] = (a + JUMP_LABEL_NOP_SIZE - 1) & ~(psz - 1);
		}
		qsort(pages, n, sizeof(*pages), cmp_ulong);
		for (i = 1, *npages = n ? 1 : 0; i < n; i++)
			if (pages[i] != pages[*npages - 1])
				pages[(*npages)++] = pages[i];
		n = *npages;
	}
	for (i = 0; i < n; i++) {
		int prot = PROT_READ | PROT_EXEC | (writable ? PROT_WRITE : 0);

		if (mprotect((void *)pages[i], psz, prot)) {
			int err = -errno;

			while (writable && i-- > 0)
				mprotect((void *)pages[i], psz,
					 PROT_READ | PROT_EXEC);
			return err;
		}
	}
	return 0;
}

__text_access
int arch_jump_label_transform_apply(void)
{
	static unsigned long pages[2 * POKE_MAX];
	int i, npages = 0, ret;

	if (!poke_count) {
		queue_stable();
		return 0;
	}
	ret = set_text_writable(pages, &npages, true);
	if (!ret)
		ret = jl_claim_sigtrap();
	if (ret) {
		if (npages)
			set_text_writable(pages, &npages, false);
		poke_count = 0;
		queue_stable();
		return ret;
	}

	for (i = 0; i < poke_count; i++) {
		__atomic_store_n(&poke_history[poke_history_next++ % POKE_HISTORY],
				 (unsigned long)poke_queue[i].addr,
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&poke_live, poke_count, __ATOMIC_RELAXED);
	queue_stable();

	/* Step 1: a breakpoint over the first byte of each site. */
	for (i = 0; i < poke_count; i++)
		*(volatile unsigned char *)poke_queue[i].addr = INT3_INSN_OPCODE;
	sync_core();

	/* Step 2: the tail of the new instruction, behind the breakpoint. */
	for (i = 0; i < poke_count; i++) {
		volatile unsigned char *p = poke_queue[i].addr;
		int b;

		for (b = 1; b < JUMP_LABEL_NOP_SIZE; b++)
			p[b] = poke_queue[i].insn[b];
	}
	sync_core();

	/* Step 3: the first byte; the new instruction is now whole. */
	for (i = 0; i < poke_count; i++)
		*(volatile unsigned char *)poke_queue[i].addr =
			poke_queue[i].insn[0];
	sync_core();

	__atomic_store_n(&poke_live, 0, __ATOMIC_RELEASE);
	set_text_writable(pages, &npages, false);
	poke_count = 0;
	return 0;
}
