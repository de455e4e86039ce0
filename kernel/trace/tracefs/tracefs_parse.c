// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What is written to tracefs files: the kernel's parsers, so that every
 * file accepts exactly what the kernel's accepts ("+1\n" yes, " 1" no).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefs_internal.h"

/* ------------------------------------------------------------------
 * Numbers
 */

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Base 0: "0x" hex (when a hex digit follows), "0" octal, else decimal. */
static unsigned int fixup_radix(const char **sp, unsigned int base)
{
	const char *s = *sp;
	bool hex_prefix = s[0] == '0' && tolower((unsigned char)s[1]) == 'x';

	if (!base) {
		if (s[0] != '0')
			base = 10;
		else if (hex_prefix && isxdigit((unsigned char)s[2]))
			base = 16;
		else
			base = 8;
	}
	if (base == 16 && hex_prefix)
		*sp = s + 2;
	return base;
}

/* kstrtoul() of a NUL-terminated string. */
static int parse_ulong(const char *s, unsigned int base, unsigned long *val)
{
	unsigned long res = 0;
	const char *start;
	int d;

	if (*s == '+')
		s++;
	base = fixup_radix(&s, base);
	for (start = s; (d = digit_value(*s)) >= 0 && (unsigned int)d < base; s++) {
		if (__builtin_mul_overflow(res, base, &res) ||
		    __builtin_add_overflow(res, (unsigned long)d, &res))
			return -ERANGE;
	}
	if (s == start)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*val = res;
	return 0;
}

/**
 * tfs_kstrtoul - parse a write as the kernel's kstrtoul_from_user() does
 * @buf:  the bytes written
 * @size: their number
 * @base: 0 (prefix decides), 8, 10 or 16
 * @val:  the number
 *
 * The kernel looks at the first 66 bytes only and stops at a NUL.
 *
 * Return: 0, -EINVAL (no digits, anything after the one newline), -ERANGE.
 */
int tfs_kstrtoul(const char *buf, size_t size, unsigned int base, unsigned long *val)
{
	char s[67];

	if (size > sizeof(s) - 1)
		size = sizeof(s) - 1;
	memcpy(s, buf, size);
	s[size] = '\0';
	return parse_ulong(s, base, val);
}

/**
 * tfs_kstrtoul_str - kstrtoul() of a NUL-terminated string
 * @s:    the string (a word of a write: any length)
 * @base: as tfs_kstrtoul()
 * @val:  the number
 *
 * Return: 0, -EINVAL, -ERANGE.
 */
int tfs_kstrtoul_str(const char *s, unsigned int base, unsigned long *val)
{
	return parse_ulong(s, base, val);
}

/* ------------------------------------------------------------------
 * Strings
 */

bool tfs_isspace(char c)
{
	return isspace((unsigned char)c) || (unsigned char)c == 0xa0;
}

char *tfs_strndup(const char *buf, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, buf, size);
	s[size] = '\0';
	return s;
}

char *tfs_strstrip(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

char *tfs_next_word(char **sp, size_t max, int *err)
{
	char *s = *sp, *word;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s) {
		*sp = s;
		return NULL;
	}
	word = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if ((size_t)(s - word) > max)
		*err = -EINVAL;
	if (*s)
		*s++ = '\0';
	*sp = s;
	return word;
}

/* Put @ch at the end of the word; false when it is too long. */
static bool parser_put(struct tfs_parser *p, char ch)
{
	if (p->idx >= TFS_WORD_MAX)
		return false;
	p->buffer[p->idx++] = ch;
	p->buffer[p->idx] = '\0';
	return true;
}

/*
 * The kernel's trace_get_user(), byte for byte: the byte that ends a word
 * (white space or a NUL) is consumed with it; input that ends inside a
 * word leaves @p->cont set, and the next call goes on with the word
 * instead of skipping white space.
 */
ssize_t tfs_parser_get(struct tfs_parser *p, const char *buf, size_t cnt)
{
	size_t read = 0;
	char ch;

	if (!cnt)
		return 0;
	ch = buf[read++];
	if (!p->cont) {
		while (read < cnt && tfs_isspace(ch))
			ch = buf[read++];
		p->idx = 0;
		p->buffer[0] = '\0';
		if (tfs_isspace(ch) || !ch)
			return (ssize_t)read;
	}
	while (read < cnt && !tfs_isspace(ch) && ch) {
		if (!parser_put(p, ch))
			goto fail;
		ch = buf[read++];
	}
	if (tfs_isspace(ch) || !ch)
		p->cont = false;
	else if (parser_put(p, ch))
		p->cont = true;
	else
		goto fail;
	return (ssize_t)read;
fail:
	tfs_parser_clear(p);
	return -EINVAL;
}

/* ------------------------------------------------------------------
 * CPU masks: comma-separated 32-bit hex chunks, the most significant first
 */

static bool mask_separator(char c)
{
	return c == ',' || isspace((unsigned char)c);
}

/*
 * One chunk read backwards from @s[*end]: at most 8 hex digits.  A ninth
 * digit is -EOVERFLOW; anything else not a separator is -EINVAL (on the
 * next chunk's turn, as the kernel finds it).
 */
static int mask_chunk(const char *s, long *end, uint32_t *chunk)
{
	uint32_t v = 0;
	int i, d;

	for (i = 0; i < 8; i++) {
		d = digit_value(s[*end]);
		if (d < 0)
			return -EINVAL;
		v |= (uint32_t)d << (4 * i);
		(*end)--;
		if (*end < 0 || mask_separator(s[*end]))
			goto out;
	}
	if (digit_value(s[*end]) >= 0)
		return -EOVERFLOW;
	(*end)--;
out:
	*chunk = v;
	return 0;
}

/**
 * tfs_parse_cpumask - a tracing_cpumask write, as bitmap_parse()
 * @buf:   the bytes written (up to the first newline or NUL)
 * @size:  their number
 * @mask:  receives the mask, (@nbits + 31) / 32 words
 * @nbits: the number of CPUs
 *
 * Return: 0, -EINVAL (not hex), -EOVERFLOW (bits beyond @nbits).
 */
int tfs_parse_cpumask(const char *buf, size_t size, uint32_t *mask, unsigned int nbits)
{
	unsigned int nr_chunks = (nbits + 31) / 32, chunk = 0;
	const char *nl = memchr(buf, '\n', size);
	long end = (long)strnlen(buf, nl ? (size_t)(nl - buf) : size) - 1;
	int err;

	memset(mask, 0, nr_chunks * sizeof(*mask));
	for (;;) {
		while (end >= 0 && mask_separator(buf[end]))
			end--;
		if (end < 0)
			break;
		if (chunk == nr_chunks)
			return -EOVERFLOW;
		err = mask_chunk(buf, &end, &mask[chunk++]);
		if (err)
			return err;
	}
	if (nbits % 32 && chunk == nr_chunks && (mask[nr_chunks - 1] >> (nbits % 32)))
		return -EOVERFLOW;
	return 0;
}

void tfs_print_cpumask(struct seq_buf *b, const uint32_t *mask, unsigned int nbits)
{
	int chunk = (int)((nbits + 31) / 32) - 1;
	unsigned int bits = nbits % 32 ? nbits % 32 : 32;

	const char *sep = "";

	for (; chunk >= 0; chunk--, bits = 32, sep = ",") {
		uint32_t v = mask[chunk];

		if (bits < 32)
			v &= (1u << bits) - 1;
		seq_buf_grow_printf(b, "%s%0*x", sep, (int)(bits + 3) / 4, v);
	}
	seq_buf_grow_puts(b, "\n");
}
