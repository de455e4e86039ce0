// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * seq_buf: text in a buffer the caller provides (<linux/seq_buf.h>), and
 * the library's growing text on top of it (kernel/internal.h).
 *
 * The fixed-buffer writes but seq_buf_printf() are async-signal-safe: the
 * recorder's fatal-signal path builds its texts with them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/seq_buf.h>

#include "../internal.h"

int __ustrace_seq_buf_vprintf(struct seq_buf *s, const char *fmt, va_list args)
{
	size_t room;
	int n;

	if (seq_buf_has_overflowed(s))
		return -1;
	if (s->len >= s->size) {
		seq_buf_set_overflow(s);
		return -1;
	}
	/* vsnprintf() keeps the NUL inside @room: the text fits if n < room. */
	room = s->size - s->len;
	n = vsnprintf(s->buffer + s->len, room, fmt, args);
	if (n >= 0 && (size_t)n < room) {
		s->len += (size_t)n;
		return 0;
	}
	if (n < 0)
		s->buffer[s->len] = '\0';
	seq_buf_set_overflow(s);
	return -1;
}

int __ustrace_seq_buf_putmem(struct seq_buf *s, const void *mem, size_t len)
{
	size_t left = seq_buf_buffer_left(s);

	if (seq_buf_has_overflowed(s))
		return -1;
	if (len <= left) {
		if (len) {
			memcpy(s->buffer + s->len, mem, len);
			s->len += len;
			s->buffer[s->len] = '\0';
		}
		return 0;
	}
	if (s->size) {
		memcpy(s->buffer + s->len, mem, left);
		s->buffer[s->len + left] = '\0';
	}
	seq_buf_set_overflow(s);
	return -1;
}

/* ------------------------------------------------------------------
 * Numbers, without printf
 */

int __ustrace_seq_buf_put_decimal(struct seq_buf *s, uint64_t val, int width, char pad)
{
	char buf[64], *end = buf + sizeof(buf), *p;

	/* 20 digits at most: the rest of @buf is the padding's. */
	if (width > (int)sizeof(buf) - 20)
		width = (int)sizeof(buf) - 20;
	p = ustrace_fmt_decimal(end, val, width, pad);
	return seq_buf_putmem(s, p, (size_t)(end - p));
}

int __ustrace_seq_buf_put_usecs(struct seq_buf *s, uint64_t ns)
{
	char buf[USTRACE_FMT_USECS_MAX], *end = buf + sizeof(buf), *p;

	p = ustrace_fmt_usecs(end, ns);
	return seq_buf_putmem(s, p, (size_t)(end - p));
}

/* ------------------------------------------------------------------
 * A growing text: a seq_buf over memory it reallocates
 */

/* Room for @n more bytes and the NUL; false (the overflow marked) if none. */
static bool grow_reserve(struct seq_buf *s, size_t n)
{
	size_t size;
	char *buf;

	if (seq_buf_has_overflowed(s))
		return false;
	if (s->size && n < s->size - s->len)
		return true;
	size = s->size ? s->size : 256;
	while (size - s->len <= n) {
		if (size > SIZE_MAX / 2)
			goto fail;
		size *= 2;
	}
	buf = realloc(s->buffer, size);
	if (!buf)
		goto fail;
	if (!s->size)
		buf[0] = '\0';
	s->buffer = buf;
	s->size = size;
	return true;
fail:
	seq_buf_set_overflow(s);
	return false;
}

void seq_buf_grow_putmem(struct seq_buf *s, const void *mem, size_t len)
{
	if (grow_reserve(s, len))
		seq_buf_putmem(s, mem, len);
}

void seq_buf_grow_puts(struct seq_buf *s, const char *str)
{
	seq_buf_grow_putmem(s, str, strlen(str));
}

void seq_buf_grow_vprintf(struct seq_buf *s, const char *fmt, va_list args)
{
	va_list again;
	int n;

	va_copy(again, args);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0) {
		seq_buf_set_overflow(s);
		return;
	}
	if (grow_reserve(s, (size_t)n))
		seq_buf_vprintf(s, fmt, args);
}

void seq_buf_grow_printf(struct seq_buf *s, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	seq_buf_grow_vprintf(s, fmt, args);
	va_end(args);
}

void seq_buf_grow_free(struct seq_buf *s)
{
	free(s->buffer);
	memset(s, 0, sizeof(*s));
}
