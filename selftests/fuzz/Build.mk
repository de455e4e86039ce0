# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Fuzz targets (libFuzzer) for the parsers.
#
#   fuzz-replay     the filter target on its seeds, its corpus
#                   (corpus/filter.txt: the documented examples) and
#                   regress/filter-*.in (inputs that once failed), without
#                   libFuzzer: part of "make check"; fails with no input
#   trigger-replay  the same for the trigger target (selftests/trigger/
#                   trigger_fuzz.c), corpus/trigger.txt and
#                   regress/trigger-*.in
#   hist-replay     the same for the hist target (selftests/hist/
#                   hist_fuzz.c: synthetic events, inter-event commands),
#                   corpus/hist.txt and regress/hist-*.in
#   fuzz.sh         the harness: the replays, and scripts/run-fuzz.sh
#                   driven by a make that builds stand-in fuzzers
#   filter-fuzzer   the event filter parser and matcher under libFuzzer;
#                   built only by "make fuzz" (clang, USTRACE_FUZZ=1),
#                   which runs it for FUZZ_TIME seconds
#                   (scripts/run-fuzz.sh)

fuzz-srcs	:= $(d)/filter_fuzz.c

$(call add-static-prog,$(d)/fuzz-replay,$(fuzz-srcs) $(d)/replay-filter.c,-lpthread)
$(call add-cflags,$(fuzz-srcs) $(d)/replay-filter.c,-I$(srctree)/selftests/filter)
TEST_PROGS += $(d)/fuzz-replay

$(call add-static-prog,$(d)/trigger-replay,selftests/trigger/trigger_fuzz.c $(d)/replay-trigger.c,-lpthread)
TEST_PROGS += $(d)/trigger-replay

$(call add-static-prog,$(d)/hist-replay,selftests/hist/hist_fuzz.c $(d)/replay-hist.c,-lpthread)
TEST_PROGS += $(d)/hist-replay

ifeq ($(USTRACE_FUZZ),1)
$(call add-static-prog,$(d)/filter-fuzzer,$(d)/filter_fuzz.c,-fsanitize=fuzzer -lpthread)
endif
