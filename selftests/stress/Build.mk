# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Torture tests of the tracepoint core.
#
#   stress       threads fire three tracepoints while others attach and
#                detach probes and wait for grace periods; a probe running
#                on an object freed after tracepoint_synchronize_unregister()
#                fails it (poison check, ASan).  3 s ("make check", every
#                variant; 1 s under TSan).
#   stress-long  the same for 60 s, run by "make stress".
#
# USTRACE_STRESS_SECS overrides the duration of both.

$(call add-prog,$(d)/stress,$(d)/stress.c)
TEST_PROGS += $(d)/stress

$(call add-prog,$(d)/stress-long,$(d)/stress-long.c)
STRESS_PROGS += $(d)/stress-long
