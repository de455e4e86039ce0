# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Tests of the static keys and jump label sites (include/linux/jump_label.h,
# include/asm-x86/jump_label.h, kernel/jump_label.c,
# kernel/arch/x86/jump_label.c).
#
#   sites        the live bytes of the program's own sites: NOP while off,
#                JMP to the target while on (text patching), the compiled
#                JMP to a stub that tests the state byte (fallback)
#   concurrent   a site rewritten thousands of times while other threads
#                run through it; SIGTRAP still reaches the program
#   disasm.sh    the code the compiler makes of a site (hot.c), both forms
#                (found and run by scripts/run-tests.sh)
#
# Byte checks skip where there are no jump label sites (CONFIG_JUMP_LABEL=n,
# other architectures) or no text patching (USTRACE_JUMP_LABEL=0).

$(call add-prog,$(d)/sites,$(d)/sites.c)
$(call add-prog,$(d)/concurrent,$(d)/concurrent.c)
TEST_PROGS += $(d)/sites $(d)/concurrent
