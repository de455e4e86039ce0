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

#   trigger-fuzzer  the trigger and hist parsers, and what they set, run by
#                events, under libFuzzer (clang, USTRACE_FUZZ=1): not part
#                of "make check" (selftests/trigger/trigger_fuzz.c)

ifeq ($(USTRACE_FUZZ),1)
$(call add-static-prog,$(d)/trigger-fuzzer,$(d)/trigger_fuzz.c,-fsanitize=fuzzer -lpthread)
$(call add-cflags,$(d)/trigger_fuzz.c,-I$(srctree)/$(d))
endif
