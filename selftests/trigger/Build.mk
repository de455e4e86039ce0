# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   trg-trigger  the trigger files (kernel/trace/trace_events_trigger.c):
#                every command with counts, removal, the file's text, the
#                kernel's errnos; stack traces; snapshot buffers swapped
#                while threads record; hist triggers: the hist file's
#                text, modifiers, sort, pause/cont/clear, named
#                histograms, error_log entries, inserts from threads.
#                Static: the trigger interface is internal.

$(call add-static-prog,$(d)/trg-trigger,$(d)/trigger.c,-lpthread)
$(call add-cflags,$(d)/trigger.c,-I$(srctree)/$(d))
TEST_PROGS += $(d)/trg-trigger
