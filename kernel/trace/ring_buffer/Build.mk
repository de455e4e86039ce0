# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The ring buffer and its clocks (Documentation/trace/ring-buffer-design.rst):
# every .c file here is in libustrace.  Its headers are private to this
# folder but for rb_fast.h, which the event probe's reserve inlines
# (kernel/trace/trace_events.c).

LIB_SRCS-y += $(wildcard $(d)/*.c)
