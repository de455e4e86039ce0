# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Tests of the ring buffer (include/linux/ring_buffer.h, kernel/trace/).
#
#   rb-layout        pages byte for byte, decoded from the format alone and
#                    by libtraceevent's kbuffer (skipped when pkg-config
#                    does not find libtraceevent); the reader API, the
#                    accounting, resize, reset, the clocks, swapping two
#                    buffers (snapshots); one thread
#   rb-torture       more writers than CPUs, preempted and migrated in the
#                    middle of events, nesting and discarding, against a
#                    consuming reader, an iterator and (some phases) a
#                    resizer; checks every event and
#                    read + overrun + dropped + commit overrun == written.
#                    Six phases of 0.7 s (RB_TORTURE_SECONDS)
#   rb-torture-long  the same, 20 s a phase, run by "make stress"
#   rb-swap          ring_buffer_swap() as fast as it goes while threads
#                    write (yielding inside their events): every committed
#                    event in one buffer or the other, once, intact, and
#                    the counters add up
#   rb-wake          readers sleep until their condition (any data,
#                    buffer_percent, a wake, a reset) and are woken
#                    within 100 ms of it, in this process and another
#   rb-pinned        a reader allowed on one CPU flushes, rings the bell
#                    of and resets another CPU's ring while its writer
#                    writes (it holds the tail and fences the writers'
#                    restartable sequences first): every event once, in
#                    order; the same with membarrier refused by seccomp
#                    (before the buffer: locked tails; after: no fence,
#                    nothing lost); a fork() in the middle of writes
#   no-rseq.sh       rb-torture, rb-wake, rb-swap and rb-pinned in
#                    processes where glibc registered no rseq

rb-kbuffer-cflags := $(shell $(PKG_CONFIG) --cflags libtraceevent 2>/dev/null)
rb-kbuffer-libs	:= $(shell $(PKG_CONFIG) --libs libtraceevent 2>/dev/null)

$(call add-prog,$(d)/rb-layout,$(d)/layout.c,$(rb-kbuffer-libs))
ifneq ($(rb-kbuffer-libs),)
$(call add-cflags,$(d)/layout.c,-DHAVE_KBUFFER $(rb-kbuffer-cflags))
endif

$(call add-prog,$(d)/rb-torture,$(d)/torture.c)
$(call add-prog,$(d)/rb-torture-long,$(d)/torture-long.c)
$(call add-prog,$(d)/rb-swap,$(d)/swap.c)
$(call add-prog,$(d)/rb-wake,$(d)/wake.c)
$(call add-prog,$(d)/rb-pinned,$(d)/pinned.c,-lpthread)

TEST_PROGS += $(d)/rb-layout $(d)/rb-torture $(d)/rb-swap $(d)/rb-wake $(d)/rb-pinned
STRESS_PROGS += $(d)/rb-torture-long
