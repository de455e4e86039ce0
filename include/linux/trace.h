/* SPDX-License-Identifier: MIT */
/*
 * The text of tracefs's trace and trace_pipe files, in-process: a header
 * block and one line per event, as the kernel prints them for the nop
 * tracer with the default options.
 *
 *	struct trace_iterator *iter;
 *	struct trace_seq *s = malloc(sizeof(*s));
 *
 *	trace_seq_init(s);
 *	trace_print_header(s, NULL);
 *	iter = trace_iterator_open(NULL, 0);		// 1: consume (trace_pipe)
 *	while (trace_iterator_print_line(iter, s) != 0) {
 *		fwrite(s->buffer, 1, s->len, stdout);	// -ENOSPC: flush, retry
 *		trace_seq_init(s);
 *	}
 *	trace_iterator_close(iter);
 *
 * A NULL buffer means the global buffer (trace_get_global_buffer()).
 * Documentation/trace/events.rst ("Text output") describes the columns.
 */
#ifndef _USTRACE_LINUX_TRACE_H
#define _USTRACE_LINUX_TRACE_H

#include <stdio.h>
#include <sys/types.h>

#include <linux/compiler.h>
#include <linux/ring_buffer.h>
#include <linux/trace_seq.h>

__USTRACE_BEGIN_DECLS

/* The kernel's TASK_COMM_LEN: a thread name and its NUL. */
#define TRACE_COMM_LEN		16

struct trace_iterator;

__ustrace_visible int trace_print_header(struct trace_seq *s, struct trace_buffer *buffer);
__ustrace_visible struct trace_iterator *trace_iterator_open(struct trace_buffer *buffer,
							     int consume);
__ustrace_visible int trace_iterator_print_line(struct trace_iterator *iter,
						struct trace_seq *s);
__ustrace_visible void trace_iterator_close(struct trace_iterator *iter);
__ustrace_visible ssize_t trace_print_file(FILE *fp, struct trace_buffer *buffer);
__ustrace_visible ssize_t trace_print_pipe(FILE *fp, struct trace_buffer *buffer);

/* The saved-cmdlines table: names of threads that recorded events */
__ustrace_visible void trace_find_cmdline(int pid, char comm[TRACE_COMM_LEN]);

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_TRACE_H */
