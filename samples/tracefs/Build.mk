# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The tracefs sample: a program that fires the trace event sample's events
# until it is killed, to drive through its tracefs (USTRACE_TRACEFS=dir).
# demo.sh, which "make run" runs, and selftests/ftrace/ftracetest use it.

$(call add-prog,$(d)/tracefs-sample,$(d)/tracefs-sample.c)
$(call add-cflags,$(d)/tracefs-sample.c,-I$(srctree)/samples/trace_events)
