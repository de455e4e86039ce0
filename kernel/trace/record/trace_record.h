/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recorder (trace_record.c): what its tests reach besides the public
 * <ustrace/record.h>.  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_RECORD_H
#define _USTRACE_KERNEL_TRACE_TRACE_RECORD_H

#include <stdbool.h>

struct trace_array;

/*
 * The instance the recorder records into while it records, else NULL:
 * a test prints its trace text before the file is written, to compare
 * the two.
 */
struct trace_array *trace_record_instance(void);

/*
 * For trace_record_libc.c, at _exit(), quick_exit() and exec: write the
 * file now, as the process ends (finish) or before the program is replaced
 * (recording goes on should the exec fail).  Both do nothing in a process
 * that does not record, a child of fork() or vfork() among them.
 * Context: async-signal-safe; safe in the child of a vfork().
 */
void trace_record_finish_now(void);
void trace_record_before_exec(void);

/*
 * For trace_record_libc.c's daemon(): before the fork, the file of what
 * this process recorded so far (it ends right after).  Return:
 * TRACE_RECORD_NONE if it does not record (a child of a recording process
 * among them), _API if ustrace_record_start() started its recording, _ENV
 * if the environment did.  In the child (one thread), with that value:
 * the parent's recording forgotten and, for _ENV, one of its own started
 * from the environment, as a program that starts does.
 */
enum { TRACE_RECORD_NONE, TRACE_RECORD_API, TRACE_RECORD_ENV };
int trace_record_before_daemon(void);
void trace_record_daemon_child(int was);

/* The name of that instance (instances/NAME in a tracefs mount). */
#define TRACE_RECORD_INSTANCE	"ustrace-record"

#endif /* _USTRACE_KERNEL_TRACE_TRACE_RECORD_H */
