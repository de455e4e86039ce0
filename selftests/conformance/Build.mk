# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Conformance: material written by kernel and trace-cmd developers, run
# against ustrace (README.rst says what and why).
#
#   conformance-fire  the corpus's event definitions (linux-source-6.1's
#                     include/trace/events/*.h, unchanged, taken into the
#                     build directory) defined by define-*.c and
#                     fired by fire.c; kstubs.h is the kernel they need
#   formats.sh        each event's format against the live kernel's
#                     (golden copies in formats-6.18/), with the drift
#                     between 6.1 and 6.18 listed in expected-formats.txt
#   trace-text.sh     the trace text against trace-cmd report (libtrace-
#                     event) of the same records; its quirks listed in
#                     expected-text.txt
#   ftracetest-*.sh   the kernel's own ftracetest (linux-source-6.1)
#                     against a program's tracefs; expected-ftracetest.txt
#   libtracefs-utest.sh  libtracefs 1.6.4's unit tests (from its source,
#                     USTRACE_LIBTRACEFS_SRC) through the trace-cmd shim;
#                     expected-utest.txt
#
# The corpus's headers include <linux/sched.h>, <net/sock.h>...: in the
# build directory each is a one-line file that includes kstubs.h (kinc/).

conf-dir	:= $(d)
conf-kinc	:= $(obj)$(d)/kinc
conf-headers	:= asm/ptrace.h asm/syscall.h linux/alarmtimer.h linux/backing-dev.h \
		   linux/binfmts.h linux/blkdev.h linux/blktrace_api.h linux/buffer_head.h \
		   linux/compaction.h linux/cpufreq.h linux/device.h linux/errseq.h \
		   linux/ftrace.h linux/hrtimer.h linux/i2c.h linux/if_vlan.h linux/io_uring.h \
		   linux/io_uring_types.h linux/ip.h linux/ipv6.h linux/kdev_t.h linux/lockdep.h \
		   linux/kthread.h linux/ktime.h linux/list.h linux/memcontrol.h linux/mm.h \
		   linux/mmzone.h linux/netdevice.h linux/node.h linux/pkt_sched.h \
		   linux/pm_qos.h linux/rtc.h linux/sched.h linux/sched/numa_balancing.h \
		   linux/signal.h linux/skbuff.h linux/sock_diag.h linux/spmi.h linux/tcp.h \
		   linux/timer.h \
		   linux/types.h linux/workqueue.h linux/writeback.h net/ipv6.h \
		   net/neighbour.h net/sch_generic.h net/sock.h net/tcp.h \
		   uapi/linux/io_uring.h
conf-kinc-files	:= $(addprefix $(conf-kinc)/,$(conf-headers))

$(conf-kinc-files): $(conf-kinc)/%:
	$(Q)mkdir -p $(@D) && echo '#include "kstubs.h"' > $@

# The corpus is the kernel's, not ours: its headers are taken, unchanged,
# from Debian's linux-source-6.1 (scripts/install-deps.sh installs it) into
# the build directory, never kept in the tree.  Without it conformance-fire
# is not built and the tests that need it skip.
conf-events	:= alarmtimer block bpf_test_run compaction cpuhp error_report filemap \
		   fs_dax i2c initcall io_uring ipi irq iscsi kmem kyber lock migrate \
		   mmap_lock mmflags napi neigh net net_probe_common netlink nmi oom osnoise \
		   page_isolation percpu power printk qdisc rcu rseq sched signal skb smbus \
		   sock spmi syscalls task tcp thermal_power_allocator thp timer vmscan \
		   workqueue writeback
conf-ktree	:= $(obj)$(d)/linux-6.1
conf-ktar	:= $(wildcard /usr/src/linux-source-6.1.tar.xz)
conf-kdir	:= $(wildcard /usr/src/linux-source-6.1/include/trace/events)
conf-kfiles	:= $(patsubst %,$(conf-ktree)/trace/events/%.h,$(conf-events))

ifneq ($(conf-kdir)$(conf-ktar),)
$(conf-ktree)/.extracted: $(conf-kdir) $(conf-ktar) $(d)/Build.mk
	$(call msg,GEN,$@)
	$(Q)rm -rf $(conf-ktree) && mkdir -p $(conf-ktree)/trace/events
	$(Q)if [ -n '$(conf-kdir)' ]; then \
		for e in $(conf-events); do cp '$(conf-kdir)'/$$e.h $(conf-ktree)/trace/events/ || exit 1; done; \
	else \
		tar -xJf '$(conf-ktar)' -C $(conf-ktree) --strip-components=2 \
			$(patsubst %,linux-source-6.1/include/trace/events/%.h,$(conf-events)); \
	fi
	$(Q)touch $@

# The kernel's side (kstubs.h, no libc) and the program's (main.c).
conf-ksrcs	:= $(wildcard $(d)/define-*.c) $(d)/fire.c
$(call add-prog,$(d)/conformance-fire,$(conf-ksrcs) $(d)/main.c)
# The kernel builds without -Wextra (its definitions compare ints and
# unsigned ints) and, with gcc, with -Wno-stringop-truncation (rcu.h's
# strncpy() of a whole array).  Its code reads and writes through
# misaligned pointers where x86 allows them (tcp.h's struct in6_addr
# over a __u8[16] at offset 42 of the record), which the kernel's own
# UBSAN does not check on x86 (CONFIG_UBSAN_ALIGNMENT off): nor does ours.
$(call add-cflags,$(conf-ksrcs),-I$(conf-kinc) -I$(srctree)/$(d) \
	-I$(conf-ktree) -Wno-sign-compare \
	$(if $(CC_IS_CLANG),,-Wno-stringop-truncation) \
	$(if $(findstring undefined,$(SANITIZE)),-fno-sanitize=alignment))
$(call objs-of,$(conf-ksrcs)): $(conf-kinc-files) $(conf-ktree)/.extracted
endif
