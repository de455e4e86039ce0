// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The names of this architecture's system calls, as the kernel's syscall
 * metadata gives them ("sys_write"), for the hist .syscall modifier.  The
 * numbers are the kernel headers' __NR_ constants (Build.mk makes
 * include/generated/syscall_names.h from <asm/unistd.h>).
 */
#define __USTRACE_CORE
#include <stddef.h>

#include "trace_trigger.h"

static const struct {
	unsigned int	nr;
	const char	*name;
} syscall_names[] = {
#define SYSCALL(nr, name)	{ nr, "sys_" #name },
#include <generated/syscall_names.h>
#undef SYSCALL
};

/* The name of system call @nr, or NULL (the kernel's get_syscall_name()). */
const char *trace_syscall_name(unsigned long long nr)
{
	size_t lo = 0, hi = sizeof(syscall_names) / sizeof(syscall_names[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syscall_names[mid].nr == nr)
			return syscall_names[mid].name;
		if (syscall_names[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
