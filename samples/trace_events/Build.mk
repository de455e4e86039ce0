# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The trace event sample: one event of every variant and field kind,
# recorded and printed (selftests/trace_events/ checks its output).

$(call add-prog,$(d)/trace-events-sample,$(d)/trace-events-sample.c)
$(call add-cflags,$(d)/trace-events-sample.c,-I$(srctree)/$(d))
