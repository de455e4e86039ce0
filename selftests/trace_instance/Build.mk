# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   te-instance  the instance engine (kernel/trace/trace_array.h):
#                per-instance enables, soft mode, pid filters, markers,
#                options, clocks, resize, instances removed under load.
#                Static: the engine's control calls are internal.

$(call add-static-prog,$(d)/te-instance,$(d)/instance.c,-lpthread)
$(call add-cflags,$(d)/instance.c,-I$(srctree)/selftests/trace_output)
TEST_PROGS += $(d)/te-instance
