# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Benchmarks, run by "make bench" (never by "make check").
#
#   tp_bench      ns per call of a function holding one site: jump label
#                 (patched, and the fallback stub with USTRACE_JUMP_LABEL=0)
#                 and load-and-branch (tp_bench_nojl.c, compiled as with
#                 CONFIG_JUMP_LABEL=n), disabled and with 1 and 3 probes
#   callgrind.sh  instructions per disabled site, counted by callgrind

$(call add-prog,$(d)/tp_bench,$(d)/tp_bench.c $(d)/tp_bench_nojl.c)
$(call add-cflags,$(d)/tp_bench_nojl.c,-D__USTRACE_NO_ASM_GOTO)
BENCH_PROGS += $(d)/tp_bench

# rb_bench: ns per ring buffer event (reserve, 3 ints and a 16-character
# string, commit), one thread and two, against a loop that shares nothing.
$(call add-prog,$(d)/rb_bench,$(d)/rb_bench.c)
BENCH_PROGS += $(d)/rb_bench

# lttng_compare.sh: our enabled event (event_bench, a TRACE_EVENT recorded
# into the global buffer) against LTTng-UST's (lttng_bench, built only when
# pkg-config finds lttng-ust; scripts/install-bench-deps.sh installs it,
# and "make bench" runs it).
# Run by lttng_compare.sh only, so they are prerequisites of "bench" rather
# than BENCH_PROGS.
$(call add-prog,$(d)/event_bench,$(d)/event_bench.c)
$(call add-cflags,$(d)/event_bench.c,-I$(srctree)/$(d))
bench: $(obj)$(d)/event_bench
# "make bench" installs LTTng first (silent when present; a failure is
# reported and the comparison prints our numbers alone).
ifneq ($(filter bench,$(MAKECMDGOALS)),)
$(shell $(srctree)/scripts/install-bench-deps.sh >&2)
endif
ifeq ($(shell pkg-config --exists lttng-ust 2>/dev/null && echo y),y)
$(call add-prog,$(d)/lttng_bench,$(d)/lttng_bench.c,$(shell pkg-config --libs lttng-ust) -ldl)
$(call add-cflags,$(d)/lttng_bench.c,-I$(srctree)/$(d) $(shell pkg-config --cflags lttng-ust))
bench: $(obj)$(d)/lttng_bench
$(call add-prog,$(d)/sustained_lttng,$(d)/sustained_lttng.c,$(shell pkg-config --libs lttng-ust) -ldl -lpthread)
$(call add-cflags,$(d)/sustained_lttng.c,-I$(srctree)/$(d) $(shell pkg-config --cflags lttng-ust))
bench: $(obj)$(d)/sustained_lttng
endif

# sustained.sh: the highest event rate each recorder keeps with nothing
# lost, in producer/consumer mode, 8 MiB per CPU: ustrace record,
# trace-cmd record through the program's tracefs mount, trace-cmd record
# through the collector (ustrace daemon; an instance, which it consumes),
# and LTTng-UST with its consumer (discard mode, the same bytes).
# sustained_bench fires our bench:bench_event at a fixed rate for a fixed
# time, paced in ~50 us batches by the clock, from one or two threads
# (sustained_pace.h), and says when it could not keep the rate;
# sustained_lttng fires LTTng's ustrace_bench:bench_event the same way
# (built only with lttng-ust, as lttng_bench); sustained_count counts the
# events in a trace.dat by walking its pages.  The script searches each
# recorder's highest zero-loss rate with 2 s runs (doubling, then
# bisecting), runs it again for 10 s, and prints one table
# (Documentation/trace/recording.rst, "Sustained rate"; 4-5 minutes),
# and gives make bench's closing table the rate a 10 s run kept.
# USTRACE_SUSTAINED_SECONDS sets the long run's length,
# USTRACE_SUSTAINED_SEARCH_SECONDS the search runs',
# USTRACE_SUSTAINED_RECORDERS the rows (ustrace mount collector lttng),
# USTRACE_SUSTAINED_BUFFER_KB the buffers.
$(call add-prog,$(d)/sustained_bench,$(d)/sustained_bench.c,-lpthread)
$(call add-cflags,$(d)/sustained_bench.c,-I$(srctree)/$(d))
bench: $(obj)$(d)/sustained_bench
# sustained_count: counts sustained_bench's events in a trace.dat (the
# page ranges from the ustrace command's reader, tools/tracing/dat-read.c).
$(call add-prog,$(d)/sustained_count,$(d)/sustained_count.c tools/tracing/dat-read.c)
bench: $(obj)$(d)/sustained_count

# render_bench: events/s of the trace and trace_pipe text, and the
# buffer's memory against its configured size.
$(call add-prog,$(d)/render_bench,$(d)/render_bench.c)
$(call add-cflags,$(d)/render_bench.c,-I$(srctree)/$(d))
BENCH_PROGS += $(d)/render_bench

# pc_bench: producer/consumer mode, a writer at full speed with no reader
# (overwrite mode), with a reader taking whole pages as trace_pipe_raw
# does that polls, and with one that sleeps until buffer_percent
# (ring_buffer_wait()): the writer's cost in each, what is dropped.
# wakeups.sh: wakeups/s of an idle traced program with a reader attached.
# pipe_reader.sh: the CPU time a cat trace_pipe costs a busy traced program.
$(call add-prog,$(d)/pc_bench,$(d)/pc_bench.c,-lpthread)
BENCH_PROGS += $(d)/pc_bench

# filter_bench: ns per event unfiltered, with a 3-predicate filter that
# passes, and with ones that reject, side by side; the filter alone.
$(call add-static-prog,$(d)/filter_bench,$(d)/filter_bench.c,-lpthread)
$(call add-cflags,$(d)/filter_bench.c,-I$(srctree)/$(d))
BENCH_PROGS += $(d)/filter_bench
# Built by "make selftests" too: selftests/filter/instructions.sh counts
# its instructions (filter_bench --callgrind).
SELFTEST_TARGETS += $(d)/filter_bench

# hist_bench: ns per start/end pair of events, plain, with hist triggers,
# with a timestamp variable matched, with onmatch().trace() generating a
# synthetic event.
$(call add-static-prog,$(d)/hist_bench,$(d)/hist_bench.c,-lpthread)
$(call add-cflags,$(d)/hist_bench.c,-I$(srctree)/$(d))
BENCH_PROGS += $(d)/hist_bench
