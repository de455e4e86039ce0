# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Kernel and program on one timeline (kernel/trace/record/,
# <ustrace/kernel.h>, ustrace record -K): timeline.sh records ktl-app with
# the kernel's sched_switch and checks the file with the stock trace-cmd
# (check-timeline.py): both kinds in time order, the losses counted, every
# program event inside its own thread's run slice on its CPU, the clocks'
# disagreement measured; an instance left behind by no end; the error as
# user nobody.  loop.bash runs the proof many times in a row, under load
# (not in make check: run it by hand).  They skip without root and the
# kernel's tracefs.
#
# kernelshark.sh opens such files in KernelShark under Xvfb (the sched
# plugin, task plots, screenshots kept).
#
#   ktl-app   threads that sleep, spin and wake each other (see its comment)

$(call add-cflags,$(d)/ktl-app.c,-I$(srctree)/$(d))
$(call add-prog,$(d)/ktl-app,$(d)/ktl-app.c,-lpthread)
