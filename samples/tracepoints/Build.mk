# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The tracepoint sample: the .c files here make one program, which "make run"
# runs. Its trace headers live in include/trace/events/ beside it, as a
# kernel module's would.

tracepoint-sample-srcs := $(wildcard $(d)/*.c)

$(call add-prog,$(d)/tracepoint-sample,$(tracepoint-sample-srcs))
$(call add-cflags,$(tracepoint-sample-srcs),-I$(d)/include)
