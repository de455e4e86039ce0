# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Every .c file here is in libustrace (see the top Makefile); the parts in
# the folders below add their own (ring_buffer/, tracefs/, record/).

# trace_syscalls.c names the system calls of this architecture (the hist
# .syscall modifier) from the kernel headers' __NR_ numbers, as the
# compiler sees them: include/generated/syscall_names.h.
syscall-names	:= $(obj)include/generated/syscall_names.h
$(syscall-names): $(autoconf_h)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)echo '#include <asm/unistd.h>' | $(CC) -dM -E -x c - | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$$/SYSCALL(\2, \1)/p' | \
		sort -t'(' -k2 -n > $@.tmp && mv -f $@.tmp $@
$(call objs-of,$(d)/trace_syscalls.c): $(syscall-names)
