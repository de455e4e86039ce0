/* SPDX-License-Identifier: MIT */
/*
 * x86-64 jump label sites.  Included by <linux/jump_label.h> only.
 *
 * A site as the compiler emits it (before the library has seen it):
 *
 *   1:  e9 <rel32 to 3>        jmp  3f            ; 5 bytes
 *   4:  ...                                       ; "false" path
 *
 *   .text.unlikely:
 *   3:  80 3d <2b+24> 00       cmpb $0, state(%rip)
 *       0f 85 <l_yes>          jne  l_yes
 *       e9 <4b>                jmp  4b
 *
 *   __ustrace_jump_table:
 *   2:  .quad 1b, l_yes, key, 0
 *
 * The library rewrites the five bytes at 1 into a 5-byte NOP
 * (0f 1f 44 00 00) while the key is off, or into "jmp l_yes" while it is
 * on.  The stub at 3 is what runs when the library may not patch text.
 * The numbered labels are local to each expansion, so inlined and unrolled
 * copies of a site each get their own entry.
 */
#ifndef _USTRACE_ASM_X86_JUMP_LABEL_H
#define _USTRACE_ASM_X86_JUMP_LABEL_H

#define JUMP_LABEL_NOP_SIZE	5

#define __ustrace_arch_static_branch(symstr, off)				\
({										\
	__label__ __ustrace_l_yes, __ustrace_l_out;				\
	bool __ustrace_taken;							\
	__asm__ goto(								\
		"1:\t.byte 0xe9\n\t"						\
		".long 3f - 4f\n"						\
		"4:\n\t"							\
		".pushsection __ustrace_jump_table, \"aw\"\n\t"		\
		".balign 8\n"							\
		"2:\t.quad 1b, %l[__ustrace_l_yes], " symstr " + %c0, 0\n\t"	\
		".popsection\n\t"						\
		".pushsection .text.unlikely, \"ax\"\n"			\
		"3:\tcmpb $0, 2b+24(%%rip)\n\t"				\
		"jne %l[__ustrace_l_yes]\n\t"					\
		"jmp 4b\n\t"							\
		".popsection\n"							\
		: : "i" (off) : "cc" : __ustrace_l_yes);			\
	__ustrace_taken = false;						\
	goto __ustrace_l_out;							\
__ustrace_l_yes:								\
	__ustrace_taken = true;							\
__ustrace_l_out:								\
	__ustrace_taken;							\
})

#endif /* _USTRACE_ASM_X86_JUMP_LABEL_H */
