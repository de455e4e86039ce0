/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The program's symbols and tracepoint strings, as the kernel's kallsyms
 * and printk_formats show the kernel's (trace_syms.c).  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_SYMS_H
#define _USTRACE_KERNEL_TRACE_TRACE_SYMS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The symbol holding @addr, as the kernel's %ps ("name") or, with
 * @offset, %pS ("name+0xoff/0xsize", the size reaching to the next
 * symbol, as kallsyms counts it).  Functions and data objects of every
 * loaded object.
 * Return: 0, or -ENOENT (@buf empty).
 * Context: a reader, not a probe (may read an object's file).
 */
int trace_sym_lookup(char *buf, size_t size, unsigned long addr, bool offset);

/*
 * Bring the texts below up to date with the objects loaded now (cheap
 * when none came or went).
 * Context: not a probe, not a signal handler.
 */
void trace_syms_update(void);

/*
 * The latest texts trace_syms_update() made (NULL before the first):
 * "ADDR T name[\t[module]]" lines, as /proc/kallsyms, with the trace
 * marker's name (TRACE_MARKER_IP); "0xADDR : \"text\"" lines, as
 * printk_formats, one per tracepoint_string() of every loaded object.
 * They stay valid for the life of the process.
 * Context: any, fatal-signal handlers included (one atomic load).
 */
const char *trace_syms_kallsyms(void);
const char *trace_syms_printk(void);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_SYMS_H */
