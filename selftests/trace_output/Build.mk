# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Tests of the trace and trace_pipe text (kernel/trace/trace.c).
#
#   to-output   the header block byte for byte (the live kernel's text),
#               event lines of one pinned thread against text built here,
#               several threads merged in time stamp order with their
#               names, trace_pipe consuming, entries-in-buffer/written and
#               LOST lines after overwriting; prints a rendering rate.

$(call add-prog,$(d)/to-output,$(d)/output.c,-lpthread)
$(call add-cflags,$(d)/output.c,-I$(srctree)/$(d))
TEST_PROGS += $(d)/to-output
