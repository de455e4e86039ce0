# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Fuzz targets (libFuzzer) for the parsers.
#
#   fuzz-replay     runs every target on its seeds and on the inputs of
#                   regress/ (those that once failed), without libFuzzer:
#                   part of "make check"
#   filter-fuzzer   the event filter parser and matcher under libFuzzer;
#                   built only by "make fuzz" (clang, USTRACE_FUZZ=1),
#                   which runs it for FUZZ_TIME seconds
#                   (scripts/run-fuzz.sh)

fuzz-srcs	:= $(d)/filter_fuzz.c

$(call add-static-prog,$(d)/fuzz-replay,$(fuzz-srcs) $(d)/replay.c,-lpthread)
$(call add-cflags,$(fuzz-srcs) $(d)/replay.c,-I$(srctree)/selftests/filter)
TEST_PROGS += $(d)/fuzz-replay

ifeq ($(USTRACE_FUZZ),1)
$(call add-static-prog,$(d)/filter-fuzzer,$(d)/filter_fuzz.c,-fsanitize=fuzzer -lpthread)
endif
