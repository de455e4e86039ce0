# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   hist-inter-event  inter-event hist triggers and synthetic events
#                     (kernel/trace/trace_events_hist*.c,
#                     trace_events_synth.c): the expression parser, variables
#                     matched by key and read once, onmatch(), onmax(),
#                     onchange(), snapshot(), synthetic events' definitions,
#                     format, text and errors, references that keep triggers
#                     busy, pairs matched by threads at once.  Static: the
#                     interface is internal.

$(call add-static-prog,$(d)/hist-inter-event,$(d)/inter_event.c,-lpthread)
$(call add-cflags,$(d)/inter_event.c,-I$(srctree)/$(d))
TEST_PROGS += $(d)/hist-inter-event

#   hist-fuzzer  the synthetic_events / dynamic_events parser and
#                inter-event hist commands, run by events, under libFuzzer
#                (clang, USTRACE_FUZZ=1; "make fuzz" runs it);
#                selftests/fuzz/hist-replay replays its seeds and regress
#                inputs in "make check"

$(call add-cflags,$(d)/hist_fuzz.c,-I$(srctree)/$(d))
ifeq ($(USTRACE_FUZZ),1)
$(call add-static-prog,$(d)/hist-fuzzer,$(d)/hist_fuzz.c,-fsanitize=fuzzer -lpthread)
endif
