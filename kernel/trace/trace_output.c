// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Text of events: the format descriptor of an event (tracefs's
 * events/<system>/<event>/format) and the rendering of a record (its
 * TP_printk()), with the __print_*() helpers the rendering calls.
 *
 * The helpers write into the scratch trace_seq of one rendering and
 * return the text they wrote, NUL-terminated, for the TP_printk() format
 * to print with %s; their output is the kernel's, character for character
 * (which is also what libtraceevent prints).
 */
#define __USTRACE_CORE
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/trace_events.h>

#include "trace.h"

/* The kernel's common fields, printed before the event's own. */
static const struct trace_event_fields common_fields[] = {
	{ .type = "unsigned short", .name = "common_type", .size = 2 },
	{ .type = "unsigned char", .name = "common_flags", .size = 1 },
	{ .type = "unsigned char", .name = "common_preempt_count", .size = 1 },
	{ .type = "int", .name = "common_pid", .size = 4, .is_signed = 1 },
};
static const unsigned int common_offsets[] = { 0, 2, 3, 4 };

/*
 * "\tfield:char comm[16];\t..." : an array's brackets go after the name,
 * with its length as a number, as the kernel prints them; a __data_loc
 * type is printed as it is (a __rel_loc one is not, in the kernel
 * either: "__rel_loc char name[]").  A table written by hand, without
 * .len, keeps the brackets of its type text.
 */
static int format_field(char *buf, size_t size,
			const struct trace_event_fields *f, unsigned int offset)
{
	const char *bracket = strchr(f->type, '[');

	/*
	 * <stdbool.h> makes bool a macro, so __field(bool, x) reaches the
	 * stages as _Bool; the kernel's bool is a typedef and prints as
	 * written.
	 */
	if (!strcmp(f->type, "_Bool"))
		return snprintf(buf, size,
				"\tfield:bool %s;\toffset:%u;\tsize:%d;\tsigned:%d;\n",
				f->name, offset, f->size, f->is_signed);
	if (!strncmp(f->type, "__data_loc", 10) || !bracket)
		return snprintf(buf, size,
				"\tfield:%s %s;\toffset:%u;\tsize:%d;\tsigned:%d;\n",
				f->type, f->name, offset, f->size, f->is_signed);
	if (f->len)
		return snprintf(buf, size,
				"\tfield:%.*s %s[%d];\toffset:%u;\tsize:%d;\tsigned:%d;\n",
				(int)(bracket - f->type), f->type, f->name, f->len,
				offset, f->size, f->is_signed);
	return snprintf(buf, size,
			"\tfield:%.*s %s%s;\toffset:%u;\tsize:%d;\tsigned:%d;\n",
			(int)(bracket - f->type), f->type, f->name, bracket,
			offset, f->size, f->is_signed);
}

#define advance(n)							\
	do {								\
		len += (n);						\
		if ((size_t)(n) < size) {				\
			buf += (n);					\
			size -= (n);					\
		} else if (size) {	/* a NULL @buf is not moved */	\
			buf += size;					\
			size = 0;					\
		}							\
	} while (0)

/**
 * trace_event_format - the format text of an event
 * @call: a registered event
 * @buf:  where to write it (may be NULL when @size is 0)
 * @size: bytes at @buf
 *
 * Exactly tracefs's events/<system>/<name>/format for an event with the
 * same fields.  Like snprintf(): the text is cut to @size - 1 bytes and
 * NUL-terminated.
 *
 * Return: the length of the whole text, or -ENOENT when @call is not
 * registered.
 */
int trace_event_format(struct trace_event_call *call, char *buf, size_t size)
{
	const struct trace_event_priv *priv;
	unsigned int i;
	int len = 0, n;

	trace_event_lock();
	priv = call->priv;
	if (!priv) {
		trace_event_unlock();
		return -ENOENT;
	}
	if (size)
		buf[0] = '\0';
	n = snprintf(buf, size, "name: %s\nID: %d\nformat:\n", call->name,
		     call->id);
	advance(n);
	for (i = 0; i < 4; i++) {
		n = format_field(buf, size, &common_fields[i], common_offsets[i]);
		advance(n);
	}
	n = snprintf(buf, size, "\n");
	advance(n);
	for (i = 0; i < priv->nr_fields; i++) {
		n = format_field(buf, size, &call->event_class->fields_array[i],
				 priv->offsets[i]);
		advance(n);
	}
	n = snprintf(buf, size, "\nprint fmt: %s\n",
		     priv->print_fmt ? priv->print_fmt : call->print_fmt);
	advance(n);
	trace_event_unlock();
	return len;
}

/*
 * A record comes from a buffer that a writer filled: check that every
 * field, and the data every __data_loc points to, lies inside it, and
 * that strings end inside it, before the renderer reads them.
 */
static int check_record(const struct trace_event_call *call,
			const unsigned char *rec, unsigned int len)
{
	const struct trace_event_priv *priv = call->priv;
	unsigned int i;

	for (i = 0; i < priv->nr_fields; i++) {
		const struct trace_event_fields *f = &call->event_class->fields_array[i];
		unsigned int off = priv->offsets[i], loc, dlen, doff;

		if (off + f->size > len)
			return -EINVAL;
		if (!f->is_dynamic)
			continue;
		memcpy(&loc, rec + off, sizeof(loc));
		/* A __rel_loc counts from the end of its word. */
		doff = (loc & 0xffff) + (f->is_dynamic == 2 ? off + 4 : 0);
		dlen = loc >> 16;
		if (doff > len || dlen > len - doff)
			return -EINVAL;
		if ((!strcmp(f->type, "__data_loc char[]") || !strcmp(f->type, "__rel_loc char[]")) &&
		    (!dlen || rec[doff + dlen - 1] != '\0'))
			return -EINVAL;
	}
	return 0;
}

/**
 * trace_print_event - render a record as its TP_printk() says
 * @s:     where the text goes (appended)
 * @entry: the record, starting with its struct trace_entry
 * @len:   the bytes of the record
 *
 * The text is the part of a trace line after "name: ", without newline;
 * libtraceevent's tep_print_event(..., "%s", TEP_PRINT_INFO) prints the
 * same for the same format and record, but for what the kernel prints
 * differently from it too (plain %p hashed, %pS with the symbol's size).
 * Pointers print as with the hash-ptr option on.
 *
 * Return: 0; -ENOENT when no registered event has the record's id;
 * -EINVAL when the record is shorter than its fields or one of its
 * __data_loc fields points outside it.
 */
int trace_print_event(struct trace_seq *s, const void *entry, unsigned int len)
{
	return trace_print_event_flags(s, entry, len, 0);
}

/* trace_print_event() with TRACE_PRINT_* @flags (the instance's options). */
int trace_print_event_flags(struct trace_seq *s, const void *entry, unsigned int len,
			    unsigned int flags)
{
	/* Records are only 4-byte aligned in the ring buffer. */
	union {
		struct trace_entry	ent;
		uint64_t		align;
		unsigned char		bytes[RB_PAGE_SIZE];
	} rec;
	struct trace_event_call *call;
	struct trace_seq *tmp;
	int err;

	if (len < sizeof(struct trace_entry) || len > sizeof(rec))
		return -EINVAL;
	memcpy(rec.bytes, entry, len);
	tmp = malloc(sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	trace_seq_init(tmp);
	trace_event_lock();
	call = trace_find_event_call_by_id(rec.ent.type);
	err = call ? check_record(call, rec.bytes, len) : -ENOENT;
	if (!err) {
		trace_printf_begin(flags, rec.bytes, len, tmp);
		call->output(s, tmp, rec.bytes);
		trace_printf_end();
	}
	trace_event_unlock();
	free(tmp);
	return err;
}

/*
 * The __print_flags() and __print_symbolic() tables come in two types
 * (unsigned long and u64 masks); one walk serves both, reading entry @i
 * through @entry: its mask, and its name (NULL at the end).
 */
typedef const char *(*print_entry_fn)(const void *array, unsigned int i,
				      unsigned long long *mask);

static const char *flags_entry(const void *array, unsigned int i, unsigned long long *mask)
{
	const struct trace_print_flags *f = (const struct trace_print_flags *)array + i;

	*mask = f->mask;
	return f->name;
}

static const char *flags_u64_entry(const void *array, unsigned int i,
				   unsigned long long *mask)
{
	const struct trace_print_flags_u64 *f = (const struct trace_print_flags_u64 *)array + i;

	*mask = f->mask;
	return f->name;
}

/* "A|B|0x40": the names of the masks @flags holds, then what is left. */
static const char *print_flags(struct trace_seq *p, const char *delim,
			       unsigned long long flags, const void *array,
			       print_entry_fn entry)
{
	const char *ret = trace_seq_buffer_ptr(p), *name;
	unsigned long long mask;
	bool first = true;
	unsigned int i;

	for (i = 0; flags && (name = entry(array, i, &mask)); i++) {
		if ((flags & mask) != mask)
			continue;
		flags &= ~mask;
		if (!first && delim)
			trace_seq_puts(p, delim);
		first = false;
		trace_seq_puts(p, name);
	}
	if (flags) {
		if (!first && delim)
			trace_seq_puts(p, delim);
		trace_seq_printf(p, "0x%llx", flags);
	}
	trace_seq_putc(p, 0);
	return ret;
}

/* The name of the entry whose mask is @val, or @val in hex. */
static const char *print_symbols(struct trace_seq *p, unsigned long long val,
				 const void *array, print_entry_fn entry)
{
	const char *ret = trace_seq_buffer_ptr(p), *name;
	unsigned long long mask;
	unsigned int i;

	for (i = 0; (name = entry(array, i, &mask)); i++) {
		if (val == mask) {
			trace_seq_puts(p, name);
			break;
		}
	}
	if (!name)
		trace_seq_printf(p, "0x%llx", val);
	trace_seq_putc(p, 0);
	return ret;
}

const char *__ustrace_print_flags_seq(struct trace_seq *p, const char *delim,
				      unsigned long flags,
				      const struct trace_print_flags *flag_array)
{
	return print_flags(p, delim, flags, flag_array, flags_entry);
}

const char *__ustrace_print_flags_seq_u64(struct trace_seq *p, const char *delim,
					  unsigned long long flags,
					  const struct trace_print_flags_u64 *flag_array)
{
	return print_flags(p, delim, flags, flag_array, flags_u64_entry);
}

const char *__ustrace_print_symbols_seq(struct trace_seq *p, unsigned long val,
					const struct trace_print_flags *symbol_array)
{
	return print_symbols(p, val, symbol_array, flags_entry);
}

const char *__ustrace_print_symbols_seq_u64(struct trace_seq *p,
					    unsigned long long val,
					    const struct trace_print_flags_u64 *symbol_array)
{
	return print_symbols(p, val, symbol_array, flags_u64_entry);
}

/* "01 02 ff" (__print_hex) or "0102ff" (__print_hex_str) */
const char *__ustrace_print_hex_seq(struct trace_seq *p, const unsigned char *buf,
				int len, int concatenate)
{
	const char *ret = trace_seq_buffer_ptr(p);
	int i;

	for (i = 0; i < len; i++)
		trace_seq_printf(p, "%s%02x", i && !concatenate ? " " : "",
				 buf[i]);
	trace_seq_putc(p, 0);
	return ret;
}

/* "{0x1,0x2,0x3}", each element unsigned of @el_size bytes */
const char *__ustrace_print_array_seq(struct trace_seq *p, const void *buf,
				  int count, size_t el_size)
{
	const char *ret = trace_seq_buffer_ptr(p);
	const unsigned char *ptr = buf;
	const char *prefix = "";
	int i;

	trace_seq_putc(p, '{');
	for (i = 0; i < count; i++, ptr += el_size) {
		uint64_t v = 0;

		switch (el_size) {
		case 1: { uint8_t x; memcpy(&x, ptr, 1); v = x; break; }
		case 2: { uint16_t x; memcpy(&x, ptr, 2); v = x; break; }
		case 4: { uint32_t x; memcpy(&x, ptr, 4); v = x; break; }
		case 8: memcpy(&v, ptr, 8); break;
		default:
			trace_seq_printf(p, "BAD SIZE:%zu 0x%x", el_size,
					 *ptr);
			continue;
		}
		trace_seq_printf(p, "%s0x%llx", prefix, (unsigned long long)v);
		prefix = ",";
	}
	trace_seq_putc(p, '}');
	trace_seq_putc(p, 0);
	return ret;
}

/*
 * As the kernel's "%*pb": 32-bit chunks in hex, most significant first,
 * comma-separated, each zero-padded to its width.
 */
const char *__ustrace_print_bitmask_seq(struct trace_seq *p, const void *bitmask_ptr,
				    unsigned int bitmask_size)
{
	const char *ret = trace_seq_buffer_ptr(p);
	const unsigned char *bytes = bitmask_ptr;
	unsigned int nr_bits = bitmask_size * 8;
	unsigned int chunksz = nr_bits % 32 ? nr_bits % 32 : 32;
	int i;

	for (i = (int)((nr_bits + 31) / 32 * 32) - 32; i >= 0; i -= 32) {
		unsigned long word;
		uint32_t val;
		unsigned int w = i / (8 * sizeof(long)), bit = i % (8 * sizeof(long));

		memcpy(&word, bytes + w * sizeof(long), sizeof(word));
		val = (uint32_t)(word >> bit);
		if (chunksz < 32)
			val &= (1u << chunksz) - 1;
		trace_seq_printf(p, "%s%0*x", i + 32 < (int)nr_bits ? "," : "",
				 (int)((chunksz + 3) / 4), val);
		chunksz = 32;
	}
	trace_seq_putc(p, 0);
	return ret;
}

/*
 * One row of __print_hex_dump(), as the kernel's hex_dump_to_buffer():
 * groups of 1, 2, 4 or 8 bytes (read as little-endian numbers), then with
 * @ascii the printable characters from a fixed column.
 */
static void hex_dump_row(struct trace_seq *p, const unsigned char *ptr, size_t len,
			 int rowsize, int groupsize, bool ascii)
{
	int ascii_column = rowsize * 2 + rowsize / groupsize + 1, lx = 0;
	size_t j;

	for (j = 0; j < len / (size_t)groupsize; j++) {
		unsigned long long v = 0;

		memcpy(&v, ptr + j * (size_t)groupsize, (size_t)groupsize);
		trace_seq_printf(p, "%s%0*llx", j ? " " : "", 2 * groupsize, v);
		lx += (j ? 1 : 0) + 2 * groupsize;
	}
	if (!ascii)
		return;
	for (; lx < ascii_column; lx++)
		trace_seq_putc(p, ' ');
	for (j = 0; j < len; j++)
		trace_seq_putc(p, ptr[j] < 0x80 && isprint(ptr[j]) ? ptr[j] : '.');
}

/* __print_hex_dump(): a newline, then one line per row, as the kernel's. */
const char *__ustrace_print_hex_dump_seq(struct trace_seq *p, const char *prefix_str,
					 int prefix_type, int rowsize, int groupsize,
					 const void *buf, size_t len, bool ascii)
{
	const char *ret = trace_seq_buffer_ptr(p);
	const unsigned char *ptr = buf;
	/* The rows are @rowsize apart; the line is laid out for 16 or 32. */
	size_t step = rowsize > 0 ? (size_t)rowsize : 16, i;
	int row = rowsize == 32 ? 32 : 16;

	trace_seq_putc(p, '\n');
	for (i = 0; i < len; i += step) {
		size_t linelen = len - i < step ? len - i : step;
		int g = groupsize;

		if (linelen > (size_t)row)
			linelen = (size_t)row;
		if ((g != 1 && g != 2 && g != 4 && g != 8) || linelen % (size_t)g)
			g = 1;
		if (prefix_type == DUMP_PREFIX_ADDRESS)
			trace_event_printf(p, "%s%p: ", prefix_str, (const void *)(ptr + i));
		else if (prefix_type == DUMP_PREFIX_OFFSET)
			trace_seq_printf(p, "%s%.8zx: ", prefix_str, i);
		else
			trace_seq_puts(p, prefix_str);
		hex_dump_row(p, ptr + i, linelen, row, g, ascii);
		trace_seq_putc(p, '\n');
	}
	trace_seq_putc(p, 0);
	return ret;
}
