/* SPDX-License-Identifier: MIT */
/*
 * A text buffer over memory the caller provides, as the kernel's
 * <linux/seq_buf.h>: no allocation, no lock, no stdio but for
 * seq_buf_printf() (vsnprintf()), so that the writes other than printf
 * are async-signal-safe.  struct trace_seq (<linux/trace_seq.h>) sits on
 * one.
 *
 * @len > @size marks an overflow, as in the kernel.  One difference: a
 * write keeps the text NUL-terminated (when @size > 0), so the last byte
 * of the buffer is never text, and a write that does not fit copies what
 * fits before it marks the overflow (the kernel's seq_buf_printf() does
 * that too; its putmem copies nothing).
 */
#ifndef _USTRACE_LINUX_SEQ_BUF_H
#define _USTRACE_LINUX_SEQ_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

/**
 * struct seq_buf - text in a buffer the caller owns
 * @buffer: the memory
 * @size:   its bytes
 * @len:    bytes of text in it; > @size once a write did not fit
 */
struct seq_buf {
	char	*buffer;
	size_t	size;
	size_t	len;
};

static inline void seq_buf_clear(struct seq_buf *s)
{
	s->len = 0;
	if (s->size)
		s->buffer[0] = '\0';
}

static inline void seq_buf_init(struct seq_buf *s, char *buf, size_t size)
{
	s->buffer = buf;
	s->size = size;
	seq_buf_clear(s);
}

static inline bool seq_buf_has_overflowed(const struct seq_buf *s)
{
	return s->len > s->size;
}

static inline void seq_buf_set_overflow(struct seq_buf *s)
{
	s->len = s->size + 1;
}

/* Bytes of text in the buffer, what fitted of an overflowed one too. */
static inline size_t seq_buf_used(const struct seq_buf *s)
{
	if (seq_buf_has_overflowed(s))
		return s->size ? s->size - 1 : 0;
	return s->len;
}

/* Bytes a write may still add (the NUL's byte kept). */
static inline size_t seq_buf_buffer_left(const struct seq_buf *s)
{
	return s->len + 1 < s->size ? s->size - 1 - s->len : 0;
}

/* The text, NUL-terminated. */
static inline const char *seq_buf_str(const struct seq_buf *s)
{
	return s->size ? s->buffer : "";
}

/*
 * Exported under the library's prefix, as trace_seq's functions are.
 * Each returns 0, or -1 when the write did not fit (the overflow marked).
 */
__ustrace_visible int __ustrace_seq_buf_vprintf(struct seq_buf *s, const char *fmt,
						va_list args)
	__attribute__((__format__(__printf__, 2, 0)));
__ustrace_visible int __ustrace_seq_buf_putmem(struct seq_buf *s, const void *mem,
					       size_t len);
/* @val in decimal, right-aligned in @width columns padded with @pad. */
__ustrace_visible int __ustrace_seq_buf_put_decimal(struct seq_buf *s, uint64_t val,
						    int width, char pad);
/* "%5llu.%06llu": @ns in seconds and microseconds, rounded to the microsecond. */
__ustrace_visible int __ustrace_seq_buf_put_usecs(struct seq_buf *s, uint64_t ns);

static inline __attribute__((__format__(__printf__, 2, 0))) int
seq_buf_vprintf(struct seq_buf *s, const char *fmt, va_list args)
{
	return __ustrace_seq_buf_vprintf(s, fmt, args);
}

static inline __attribute__((__format__(__printf__, 2, 3))) int
seq_buf_printf(struct seq_buf *s, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = __ustrace_seq_buf_vprintf(s, fmt, args);
	va_end(args);
	return ret;
}

static inline int seq_buf_putmem(struct seq_buf *s, const void *mem, size_t len)
{
	return __ustrace_seq_buf_putmem(s, mem, len);
}

static inline int seq_buf_puts(struct seq_buf *s, const char *str)
{
	return __ustrace_seq_buf_putmem(s, str, strlen(str));
}

static inline int seq_buf_putc(struct seq_buf *s, unsigned char c)
{
	return __ustrace_seq_buf_putmem(s, &c, 1);
}

static inline int seq_buf_put_decimal(struct seq_buf *s, uint64_t val, int width, char pad)
{
	return __ustrace_seq_buf_put_decimal(s, val, width, pad);
}

static inline int seq_buf_put_usecs(struct seq_buf *s, uint64_t ns)
{
	return __ustrace_seq_buf_put_usecs(s, ns);
}

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_SEQ_BUF_H */
