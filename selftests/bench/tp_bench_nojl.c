// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The benchmark's site in its load-and-branch form: this file is compiled
 * with -D__USTRACE_NO_ASM_GOTO (selftests/bench/Build.mk), which is what
 * every site compiles to with CONFIG_JUMP_LABEL=n.
 */
#ifndef __USTRACE_NO_ASM_GOTO
# error "build with -D__USTRACE_NO_ASM_GOTO"
#endif
#include "tp_bench.h"

BENCH_SITE_FUNCS(nojl)
