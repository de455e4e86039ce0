// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace_seq: bounded text buffers for rendering events.
 *
 * A write either fits whole or is dropped whole and marks the buffer full,
 * as in the kernel: a line is never cut in the middle of a field.
 */
#include <stdio.h>
#include <string.h>

#include <linux/trace_seq.h>

/* Room for text, keeping one byte for the terminating NUL. */
static unsigned int seq_room(const struct trace_seq *s)
{
	return TRACE_SEQ_BUFFER_SIZE - 1 - s->len;
}

void __ustrace_trace_seq_vprintf(struct trace_seq *s, const char *fmt,
			       va_list args)
{
	unsigned int room = seq_room(s);
	int n;

	if (s->full)
		return;
	n = vsnprintf(s->buffer + s->len, room + 1, fmt, args);
	if (n < 0 || (unsigned int)n > room) {
		s->buffer[s->len] = '\0';
		s->full = 1;
		return;
	}
	s->len += n;
}

void __ustrace_trace_seq_putmem(struct trace_seq *s, const void *mem,
			      unsigned int len)
{
	if (s->full)
		return;
	if (len > seq_room(s)) {
		s->full = 1;
		return;
	}
	memcpy(s->buffer + s->len, mem, len);
	s->len += len;
	s->buffer[s->len] = '\0';
}
