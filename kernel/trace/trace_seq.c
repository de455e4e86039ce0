// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace_seq: bounded text buffers for rendering events, on a seq_buf
 * (kernel/lib/seq_buf.c) as in the kernel.
 *
 * A write either fits whole or is dropped whole and marks the buffer full,
 * as in the kernel: a line is never cut in the middle of a field.
 */
#include <linux/trace_seq.h>

/*
 * The seq_buf over the struct's own buffer: pointed there on every write,
 * so that a trace_seq zeroed or copied as a whole (which programs did
 * before it had a seq_buf) still writes into itself.
 */
static struct seq_buf *seq_of(struct trace_seq *s)
{
	s->seq.buffer = s->buffer;
	s->seq.size = TRACE_SEQ_BUFFER_SIZE;
	return &s->seq;
}

/* Undo a write that did not fit: the text before it stays, terminated. */
static void seq_drop(struct trace_seq *s, size_t save_len)
{
	s->seq.len = save_len;
	s->buffer[save_len] = '\0';
	s->full = 1;
}

void __ustrace_trace_seq_vprintf(struct trace_seq *s, const char *fmt,
			       va_list args)
{
	size_t save_len = s->seq.len;

	if (s->full)
		return;
	if (seq_buf_vprintf(seq_of(s), fmt, args))
		seq_drop(s, save_len);
}

void __ustrace_trace_seq_putmem(struct trace_seq *s, const void *mem,
			      unsigned int len)
{
	struct seq_buf *seq;

	if (s->full)
		return;
	seq = seq_of(s);
	if (len > seq_buf_buffer_left(seq)) {
		s->full = 1;
		return;
	}
	seq_buf_putmem(seq, mem, len);
}
