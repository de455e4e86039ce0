/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recorder (trace_record.c): what its tests reach besides the public
 * <ustrace/record.h>.  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_RECORD_H
#define _USTRACE_KERNEL_TRACE_TRACE_RECORD_H

struct trace_array;

/*
 * The instance the recorder records into while it records, else NULL:
 * a test prints its trace text before the file is written, to compare
 * the two.
 */
struct trace_array *trace_record_instance(void);

/* The name of that instance (instances/NAME in a tracefs mount). */
#define TRACE_RECORD_INSTANCE	"ustrace-record"

#endif /* _USTRACE_KERNEL_TRACE_TRACE_RECORD_H */
