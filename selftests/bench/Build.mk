# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Benchmarks, run by "make bench" (never by "make check").
#
#   tp_bench      ns per call of a function holding one site: jump label
#                 (patched, and the fallback stub with USTRACE_JUMP_LABEL=0)
#                 and load-and-branch (tp_bench_nojl.c, compiled as with
#                 CONFIG_JUMP_LABEL=n), disabled and with 1 and 3 probes
#   callgrind.sh  instructions per disabled site, counted by callgrind

$(call add-prog,$(d)/tp_bench,$(d)/tp_bench.c $(d)/tp_bench_nojl.c)
$(call add-cflags,$(d)/tp_bench_nojl.c,-D__USTRACE_NO_ASM_GOTO)
BENCH_PROGS += $(d)/tp_bench

# rb_bench: ns per ring buffer event (reserve, 3 ints and a 16-character
# string, commit), one thread and two, against a loop that shares nothing.
$(call add-prog,$(d)/rb_bench,$(d)/rb_bench.c)
BENCH_PROGS += $(d)/rb_bench
