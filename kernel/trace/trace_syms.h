/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The program's symbols and tracepoint strings, as the kernel's kallsyms
 * and printk_formats show the kernel's (trace_syms.c).  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_SYMS_H
#define _USTRACE_KERNEL_TRACE_TRACE_SYMS_H

#include <stdbool.h>
#include <stddef.h>

#include "trace_array.h"

/*
 * The symbol holding @addr, as the kernel's %ps ("name") or, with
 * @offset, %pS ("name+0xoff/0xsize", the size reaching to the next
 * symbol, as kallsyms counts it).  Functions and data objects of every
 * loaded object.
 * Return: 0, or -ENOENT (@buf empty).
 * Context: a reader, not a probe (may read an object's file).
 */
int trace_sym_lookup(char *buf, size_t size, unsigned long addr, bool offset);


#endif /* _USTRACE_KERNEL_TRACE_TRACE_SYMS_H */
