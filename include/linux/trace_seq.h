/* SPDX-License-Identifier: MIT */
/*
 * A bounded text buffer for rendering events, as the kernel's
 * <linux/trace_seq.h>: a struct seq_buf (<linux/seq_buf.h>) over the
 * buffer the struct holds.
 *
 * Writes that do not fit are dropped whole and set @full; the text written
 * before stays valid and NUL-terminated.
 */
#ifndef _USTRACE_LINUX_TRACE_SEQ_H
#define _USTRACE_LINUX_TRACE_SEQ_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/seq_buf.h>

__USTRACE_BEGIN_DECLS

/*
 * The kernel's size since Linux 6.7 (8192 less its struct's other
 * members): the longest line an event prints, the text of a full
 * trace_marker record (4054 bytes) with room to spare.
 */
#define TRACE_SEQ_BUFFER_SIZE	8156

/**
 * struct trace_seq - a fixed buffer of text
 * @buffer: the text, always NUL-terminated
 * @seq:    the seq_buf over @buffer (the functions below point it there)
 * @len:    bytes of text in @buffer (not counting the NUL): @seq.len, by
 *          the name programs have used
 * @full:   a write did not fit and was dropped
 */
struct trace_seq {
	char		buffer[TRACE_SEQ_BUFFER_SIZE];
	union {
		struct seq_buf	seq;
		struct {
			char	*__seq_buffer;
			size_t	__seq_size;
			size_t	len;
		};
	};
	int		full;
};

static inline void trace_seq_init(struct trace_seq *s)
{
	seq_buf_init(&s->seq, s->buffer, TRACE_SEQ_BUFFER_SIZE);
	s->full = 0;
}

static inline unsigned int trace_seq_used(const struct trace_seq *s)
{
	return (unsigned int)s->seq.len;
}

static inline const char *trace_seq_buffer_ptr(const struct trace_seq *s)
{
	return s->buffer + s->seq.len;
}

static inline int trace_seq_has_overflowed(const struct trace_seq *s)
{
	return s->full;
}

/*
 * The library exports these under its own prefix (__ustrace_trace_seq_*): libtraceevent exports
 * functions named trace_seq_*() over a different struct, and a program may
 * load both.
 */
__ustrace_visible void __ustrace_trace_seq_vprintf(struct trace_seq *s,
						   const char *fmt, va_list args)
	__attribute__((__format__(__printf__, 2, 0)));
__ustrace_visible void __ustrace_trace_seq_putmem(struct trace_seq *s,
						const void *mem,
						unsigned int len);

static inline __attribute__((__format__(__printf__, 2, 0))) void
trace_seq_vprintf(struct trace_seq *s, const char *fmt, va_list args)
{
	__ustrace_trace_seq_vprintf(s, fmt, args);
}

static inline __attribute__((__format__(__printf__, 2, 3))) void
trace_seq_printf(struct trace_seq *s, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	__ustrace_trace_seq_vprintf(s, fmt, args);
	va_end(args);
}

static inline void trace_seq_putmem(struct trace_seq *s, const void *mem,
				    unsigned int len)
{
	__ustrace_trace_seq_putmem(s, mem, len);
}

static inline void trace_seq_puts(struct trace_seq *s, const char *str)
{
	__ustrace_trace_seq_putmem(s, str, (unsigned int)strlen(str));
}

static inline void trace_seq_putc(struct trace_seq *s, unsigned char c)
{
	__ustrace_trace_seq_putmem(s, &c, 1);
}

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_TRACE_SEQ_H */
