/* SPDX-License-Identifier: MIT */
/*
 * Static keys for tracepoint sites.
 *
 * Terminology (as in the kernel):
 *   static key  - a counter; the branches that test it are "true" while it
 *                 is non-zero.
 *   site        - one place in the program text that tests a key.
 *   jump entry  - the record the compiler leaves for each site so that the
 *                 library can find and rewrite it.
 *
 * With CONFIG_JUMP_LABEL on x86-64 a site is five bytes of code that the
 * library rewrites at run time: a NOP while the key is off, a JMP to the
 * "true" block while it is on.  Nothing is loaded and nothing is tested on
 * the disabled path.
 *
 * Correctness never depends on patching.  The compiler emits every site as a
 * JMP to a small out-of-line stub that reads the entry's @state byte and
 * branches on it.  When the library may patch text it turns the site into a
 * NOP the first time it sees it; when it may not (USTRACE_JUMP_LABEL=0, a
 * W^X policy, no membarrier) the stub stays in use and the library only
 * keeps @state current.  Without CONFIG_JUMP_LABEL, or on another
 * architecture, a site is a plain load of the key and a predicted branch.
 */
#ifndef _USTRACE_LINUX_JUMP_LABEL_H
#define _USTRACE_LINUX_JUMP_LABEL_H

#include <stdbool.h>
#include <stddef.h>
#include <generated/autoconf.h>
#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

/**
 * struct static_key - a counter that sites test without loading it
 * @enabled: number of users that want the branch taken; read with a relaxed
 *           atomic load by the fallback form of a site
 * @priv:    owned by the library
 */
struct static_key {
	int enabled;
	void *priv;
};

#define STATIC_KEY_INIT_FALSE	{ .enabled = 0, .priv = (void *)0 }

/*
 * Binary layout of one jump entry, emitted by the site's asm into the
 * section __ustrace_jump_table (writable, 8-byte aligned, 32 bytes each):
 *
 *   +0  code    address of the 5-byte site
 *   +8  target  address of the "true" block
 *   +16 key     address of the struct static_key
 *   +24 state   0 or 1: the key's value as the out-of-line stub sees it;
 *               written by the library only (byte 0 is the one tested)
 */
struct jump_entry {
	unsigned long code;
	unsigned long target;
	unsigned long key;
	unsigned long state;
};

#if defined(CONFIG_JUMP_LABEL) && defined(__x86_64__) && !defined(__USTRACE_NO_ASM_GOTO)
# define __USTRACE_HAVE_JUMP_LABEL 1
# include <asm-x86/jump_label.h>
#endif

#ifdef __USTRACE_HAVE_JUMP_LABEL
/*
 * __ustrace_static_branch_unlikely(sym, member) - is the key sym.member on?
 *
 * @sym is the identifier of a global object (it is named, not passed by
 * address, so that the site needs no GOT load even in PIC code: the jump
 * entry carries a data relocation against the symbol instead).
 */
# define __ustrace_static_branch_unlikely(sym, member)			\
	__ustrace_arch_static_branch(#sym,					\
		offsetof(__typeof__(sym), member))
#else
# define __ustrace_static_branch_unlikely(sym, member)			\
	unlikely(__atomic_load_n(&(sym).member.enabled, __ATOMIC_RELAXED) > 0)
#endif

/* Library entry points (kernel names; 0 or -errno). */
extern void static_key_slow_inc(struct static_key *key) __ustrace_visible;
extern void static_key_slow_dec(struct static_key *key) __ustrace_visible;
extern int static_key_count(struct static_key *key) __ustrace_visible;

/*
 * Returns true when this process rewrites sites in place (jump labels
 * live), false when sites run their fallback form.
 */
extern bool jump_label_text_patching(void) __ustrace_visible;

extern void __ustrace_jump_table_register(struct jump_entry *start,
					  struct jump_entry *stop)
	__ustrace_visible;
extern void __ustrace_jump_table_unregister(struct jump_entry *start,
					    struct jump_entry *stop)
	__ustrace_visible;

#if defined(__USTRACE_HAVE_JUMP_LABEL) && !defined(__USTRACE_CORE)
/*
 * Each object (executable or shared object) hands its own jump table to the
 * library when it is loaded and takes it back when it is unloaded.  The
 * linker defines __start_/__stop_ for the section in every object that has
 * one; the weak hidden references stay NULL in objects that have none.
 * Every translation unit that includes this header gets its own
 * constructor; the library counts them, so registering the same table again
 * only bumps a reference.
 */
extern struct jump_entry __start___ustrace_jump_table[]
	__attribute__((__weak__, __visibility__("hidden")));
extern struct jump_entry __stop___ustrace_jump_table[]
	__attribute__((__weak__, __visibility__("hidden")));

__attribute__((__constructor__, __used__))
static void __ustrace_jump_table_init(void)
{
	if ((const void *)__start___ustrace_jump_table !=
	    (const void *)__stop___ustrace_jump_table)
		__ustrace_jump_table_register(__start___ustrace_jump_table,
					      __stop___ustrace_jump_table);
}

__attribute__((__destructor__, __used__))
static void __ustrace_jump_table_exit(void)
{
	if ((const void *)__start___ustrace_jump_table !=
	    (const void *)__stop___ustrace_jump_table)
		__ustrace_jump_table_unregister(__start___ustrace_jump_table,
						__stop___ustrace_jump_table);
}
#endif

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_JUMP_LABEL_H */
