// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hist triggers (Documentation/trace/histogram.rst): a table of the
 * event's hits and sums, keyed by up to three fields, read from the event
 * directory's hist file in the kernel's format.
 *
 *	echo 'hist:keys=common_pid.execname:vals=bytes:sort=bytes.descending' \
 *		> events/sys/ev/trigger
 *
 * The table is preallocated when the trigger is set: size= entries (2048
 * by default) and a hash table of twice as many slots, as the kernel's
 * tracing_map.  The probe inserts without locks:
 *
 *	slot:  { hash, element + 1 }         element: sums[], [comm], key
 *
 *   - a new key claims a free slot by a cmpxchg of its hash word, takes
 *     the next free element (an atomic add), fills in the key and then
 *     publishes the element with a release store;
 *   - a thread that finds its hash in a slot whose element is not
 *     published yet waits a few rounds, then counts the hit as dropped;
 *   - sums are atomic adds; a full table counts drops.
 *
 * Readers sort what is published, under the event mutex.  :clear pauses
 * the table, waits for the probes, and empties it.
 *
 * Not implemented: variables, expressions, actions (onmatch, onmax,
 * onchange), synthetic events.  They are refused with an error_log entry.
 */
#define __USTRACE_CORE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "trace_array.h"
#include "trace_events_internal.h"
#include "trace_filter.h"
#include "trace_trigger.h"

/* The kernel's limits (tracing_map.h, trace_events_hist.c). */
#define HIST_BITS_DEFAULT	11
#define HIST_BITS_MIN		7
#define HIST_BITS_MAX		17
#define HIST_KEYS_MAX		3
#define HIST_VALS_MAX		3	/* hitcount included */
#define HIST_FIELDS_MAX		(HIST_KEYS_MAX + HIST_VALS_MAX)
#define HIST_SORT_KEYS_MAX	2
#define HIST_VARS_MAX		16
#define HIST_ACTIONS_MAX	8
#define HIST_STR_MAX		256	/* MAX_FILTER_STR_VAL */
#define HIST_STACK_DEPTH	16
#define HIST_KEY_SIZE_MAX	(HIST_STR_MAX + HIST_STACK_DEPTH * 8)
#define HIST_COMM_LEN		16
#define HIST_SPIN_MAX		1000

/* The error_log messages, the kernel's. */
#define HIST_ERRORS							\
	C(TOO_MANY_VARS,	"Too many variables defined"),		\
	C(NAMED_MISMATCH,	"Named hist trigger doesn't match existing named trigger (includes variables)"), \
	C(TRIGGER_EEXIST,	"Hist trigger already exists"),		\
	C(TRIGGER_ENOENT_CLEAR,	"Can't clear or continue a nonexistent hist trigger"), \
	C(SET_CLOCK_FAIL,	"Couldn't set trace_clock"),		\
	C(BAD_FIELD_MODIFIER,	"Invalid field modifier"),		\
	C(VAR_CREATE_FIND_FAIL,	"Couldn't create or find variable"),	\
	C(ACTION_NOT_FOUND,	"No action found"),			\
	C(VAR_NOT_FOUND,	"Couldn't find variable"),		\
	C(FIELD_NOT_FOUND,	"Couldn't find field"),			\
	C(EMPTY_ASSIGNMENT,	"Empty assignment"),			\
	C(INVALID_SORT_MODIFIER,"Invalid sort modifier"),		\
	C(EMPTY_SORT_FIELD,	"Empty sort field"),			\
	C(TOO_MANY_SORT_FIELDS,	"Too many sort fields (Max = 2)"),	\
	C(INVALID_SORT_FIELD,	"Sort field must be a key or a val"),

#define C(a, b)		HIST_ERR_##a
enum { HIST_ERRORS };
#undef C
#define C(a, b)		b
static const char *const hist_err_text[] = { HIST_ERRORS };
#undef C

/* The kernel's hist_field_flags, for the same comparisons. */
enum {
	HIST_FL_HITCOUNT	= 1 << 0,
	HIST_FL_KEY		= 1 << 1,
	HIST_FL_STRING		= 1 << 2,
	HIST_FL_HEX		= 1 << 3,
	HIST_FL_SYM		= 1 << 4,
	HIST_FL_SYM_OFFSET	= 1 << 5,
	HIST_FL_EXECNAME	= 1 << 6,
	HIST_FL_SYSCALL		= 1 << 7,
	HIST_FL_STACKTRACE	= 1 << 8,
	HIST_FL_LOG2		= 1 << 9,
	HIST_FL_TIMESTAMP	= 1 << 10,
	HIST_FL_TIMESTAMP_USECS	= 1 << 11,
	HIST_FL_CPU		= 1 << 15,
	HIST_FL_BUCKET		= 1 << 17,
	HIST_FL_PERCENT		= 1 << 19,
	HIST_FL_GRAPH		= 1 << 20,
};

/* Where a field's value comes from. */
enum hist_src {
	SRC_COUNTER,		/* hitcount: 1 */
	SRC_NUM,		/* an integer field */
	SRC_STATIC_STR,		/* char[N] */
	SRC_DYN_STR,		/* __data_loc char[] */
	SRC_CPU,
	SRC_TIMESTAMP,
	SRC_STACK,
};

/**
 * struct hist_field - a key or a value
 * @flags:    HIST_FL_*
 * @src:      where its value comes from
 * @name:     the field's name (what hist_field_name() gives in the kernel)
 * @type:     the field's type, for matching triggers ("" if none)
 * @foff:     its offset in the record
 * @fsize:    its size in the record
 * @is_signed: a signed integer
 * @buckets:  .buckets=N
 * @size:     a key's bytes in the compound key (a multiple of 8)
 * @offset:   a key's offset in the compound key
 * @owned:    @name and @type of an event's field, copied: the event may
 *            go (dlclose()) while a named histogram it shared lives on
 */
struct hist_field {
	unsigned long	flags;
	enum hist_src	src;
	const char	*name;
	const char	*type;
	unsigned int	foff;
	unsigned int	fsize;
	bool		is_signed;
	unsigned long	buckets;
	unsigned int	size;
	unsigned int	offset;
	char		*owned;
};

struct hist_sort_key {
	unsigned int	idx;		/* in fields[]: 0 is hitcount */
	bool		descending;
};

/* One slot of the hash table: the key's hash and element index + 1. */
struct hist_slot {
	uint32_t	hash;
	uint32_t	elt;
};

/**
 * struct hist_map - the preallocated table
 * @max_elts: elements (size=)
 * @nr_slots: slots, twice the elements
 * @elt_size: bytes of an element: sums, then comm (execname), then key
 * @comm_off: offset of comm in an element (0: none)
 * @key_off:  offset of the key in an element
 */
struct hist_map {
	unsigned int		bits;
	unsigned int		max_elts;
	unsigned int		nr_slots;
	unsigned int		key_size;
	unsigned int		n_vals;
	unsigned int		elt_size;
	unsigned int		comm_off;
	unsigned int		key_off;
	struct hist_slot	*slots;
	unsigned char		*elts;
	unsigned int		next_elt;
	uint64_t		hits;
	uint64_t		drops;
};

/**
 * struct hist_data - a histogram: its definition and its table
 * @fields:     hitcount, the values, then the keys
 * @name:       "name=NAME" as written, for named triggers (shared by
 *              every trigger of that name, in any event or instance)
 * @clock:      clock=, "global" by default
 * @refs:       triggers using it; under the event mutex
 * @clearing:   :clear is emptying the table; probes keep off (atomic)
 * @next_named: the named histograms
 */
struct hist_data {
	struct hist_field	fields[HIST_FIELDS_MAX];
	unsigned int		n_vals;
	unsigned int		n_keys;
	unsigned int		n_fields;
	unsigned int		key_size;
	struct hist_sort_key	sort_keys[HIST_SORT_KEYS_MAX];
	unsigned int		n_sort_keys;
	unsigned int		map_bits;
	bool			enable_timestamps;
	bool			pause, cont, clear;
	char			*name;
	char			*clock;
	struct hist_map		*map;
	int			refs;
	int			clearing;
	struct hist_data	*next_named;
};

static struct hist_data *named_hists;

/* ------------------------------------------------------------------
 * The table
 */

static void hist_map_free(struct hist_map *map)
{
	if (!map)
		return;
	free(map->slots);
	free(map->elts);
	free(map);
}

static struct hist_map *hist_map_create(unsigned int bits, unsigned int key_size,
					unsigned int n_vals, bool comm)
{
	struct hist_map *map = calloc(1, sizeof(*map));

	if (!map)
		return NULL;
	map->bits = bits;
	map->max_elts = 1u << bits;
	map->nr_slots = 2u << bits;
	map->key_size = key_size;
	map->n_vals = n_vals;
	map->comm_off = comm ? n_vals * 8 : 0;
	map->key_off = n_vals * 8 + (comm ? HIST_COMM_LEN : 0);
	map->elt_size = map->key_off + key_size;
	map->slots = calloc(map->nr_slots, sizeof(*map->slots));
	map->elts = calloc(map->max_elts, map->elt_size);
	if (!map->slots || !map->elts) {
		hist_map_free(map);
		return NULL;
	}
	return map;
}

static unsigned char *hist_elt(const struct hist_map *map, uint32_t i)
{
	return map->elts + (size_t)i * map->elt_size;
}

static uint64_t *hist_sums(unsigned char *elt)
{
	return (uint64_t *)elt;
}

/*
 * A word at a time (keys are whole 64-bit words), multiplied and folded:
 * never 0, which marks a free slot.
 */
static uint32_t hist_hash(const unsigned char *key, unsigned int size)
{
	uint64_t h = 0x9e3779b97f4a7c15ull, w;

	for (unsigned int i = 0; i < size; i += 8) {
		memcpy(&w, key + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h ^= h >> 29;
	return (uint32_t)(h ^ (h >> 32)) | 1;
}

/*
 * The element of @key, inserted if new (the kernel's
 * tracing_map_insert()).  NULL when the table is full, or another thread
 * is still publishing the same key: counted as dropped.
 * Context: a probe; no locks.
 */
static unsigned char *hist_map_insert(struct hist_map *map, const unsigned char *key)
{
	uint32_t hash = hist_hash(key, map->key_size), mask = map->nr_slots - 1;
	uint32_t idx = hash & mask, probes = 0, spins = 0, zero, e, n;
	unsigned char *elt;

	__atomic_add_fetch(&map->hits, 1, __ATOMIC_RELAXED);
	while (probes < map->nr_slots) {
		struct hist_slot *slot = &map->slots[idx];
		uint32_t h = __atomic_load_n(&slot->hash, __ATOMIC_ACQUIRE);

		if (h == hash) {
			/* Pairs with the release store of a new element. */
			e = __atomic_load_n(&slot->elt, __ATOMIC_ACQUIRE);
			if (!e) {
				if (++spins > HIST_SPIN_MAX)
					break;
				continue;
			}
			elt = hist_elt(map, e - 1);
			if (!memcmp(elt + map->key_off, key, map->key_size))
				return elt;
		} else if (!h) {
			zero = 0;
			if (!__atomic_compare_exchange_n(&slot->hash, &zero, hash, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue;	/* taken meanwhile: look at it again */
			n = __atomic_fetch_add(&map->next_elt, 1, __ATOMIC_RELAXED);
			if (n >= map->max_elts) {
				__atomic_store_n(&slot->hash, 0, __ATOMIC_RELEASE);
				break;
			}
			elt = hist_elt(map, n);
			memcpy(elt + map->key_off, key, map->key_size);
			if (map->comm_off)
				trace_current_comm((char *)elt + map->comm_off);
			__atomic_store_n(&slot->elt, n + 1, __ATOMIC_RELEASE);
			return elt;
		}
		idx = (idx + 1) & mask;
		probes++;
	}
	__atomic_add_fetch(&map->drops, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* Empty the table; no probe may be using it. */
static void hist_map_clear(struct hist_map *map)
{
	memset(map->slots, 0, map->nr_slots * sizeof(*map->slots));
	memset(map->elts, 0, (size_t)map->max_elts * map->elt_size);
	__atomic_store_n(&map->next_elt, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&map->hits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&map->drops, 0, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------
 * Values of fields, in the probe
 */

static uint64_t rec_num(const unsigned char *rec, unsigned int len,
			const struct hist_field *f)
{
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } v = { .u64 = 0 };

	if (f->foff + f->fsize > len)
		return 0;
	/* Records are only 4-byte aligned. */
	memcpy(&v, rec + f->foff, f->fsize);
	switch (f->fsize) {
	case 1:
		return f->is_signed ? (uint64_t)(int64_t)(int8_t)v.u8 : v.u8;
	case 2:
		return f->is_signed ? (uint64_t)(int64_t)(int16_t)v.u16 : v.u16;
	case 4:
		return f->is_signed ? (uint64_t)(int64_t)(int32_t)v.u32 : v.u32;
	default:
		return v.u64;
	}
}

/* The kernel's order_base_2(): the log2 rounded up, 0 for 0 and 1. */
static uint64_t order_base_2(uint64_t v)
{
	return v > 1 ? 64 - (uint64_t)__builtin_clzll(v - 1) : 0;
}

static uint64_t field_value(const struct hist_field *f, struct event_trigger *t,
			    const struct trigger_ctx *ctx)
{
	uint64_t v;
	int cpu;

	switch (f->src) {
	case SRC_COUNTER:
		return 1;
	case SRC_CPU:
		cpu = sched_getcpu();
		v = cpu < 0 ? 0 : (uint64_t)cpu;
		break;
	case SRC_TIMESTAMP:
		v = ring_buffer_time_stamp(t->file->buffer);
		if (f->flags & HIST_FL_TIMESTAMP_USECS)
			v = (v + 500) / 1000;
		break;
	default:
		v = rec_num(ctx->rec, ctx->len, f);
		break;
	}
	if (f->flags & HIST_FL_LOG2)
		v = order_base_2(v);
	else if (f->flags & HIST_FL_BUCKET)
		v = v / f->buckets * f->buckets;
	return v;
}

/* A string key, NUL-terminated within its size, as the kernel's add_to_key(). */
static void key_string(unsigned char *dst, const struct hist_field *f,
		       const unsigned char *rec, unsigned int len)
{
	unsigned int off = f->foff, n = f->fsize;
	uint32_t loc;

	if (f->src == SRC_DYN_STR) {
		if (f->foff + 4 > len)
			return;
		memcpy(&loc, rec + f->foff, 4);
		off = loc & 0xffff;
		n = loc >> 16;
	}
	if (off > len)
		return;
	if (n > len - off)
		n = len - off;
	if (n > f->size - 1)
		n = f->size - 1;
	for (unsigned int i = 0; i < n && rec[off + i]; i++)
		dst[i] = rec[off + i];
}

static void hist_func(struct event_trigger *t, const struct trigger_ctx *ctx)
{
	struct hist_data *hd = t->data;
	union {
		unsigned char	bytes[HIST_KEY_SIZE_MAX];
		uint64_t	align;
	} key;
	unsigned long stack[HIST_STACK_DEPTH];
	unsigned char *elt;
	unsigned int i;
	uint64_t v;

	if (!ctx->rec || __atomic_load_n(&hd->clearing, __ATOMIC_ACQUIRE))
		return;
	memset(key.bytes, 0, hd->key_size);
	for (i = hd->n_vals; i < hd->n_fields; i++) {
		const struct hist_field *f = &hd->fields[i];

		if (f->src == SRC_STACK) {
			memset(stack, 0, sizeof(stack));
			trace_stack_capture(stack, HIST_STACK_DEPTH, ctx->ret);
			memcpy(key.bytes + f->offset, stack, sizeof(stack));
		} else if (f->flags & HIST_FL_STRING) {
			key_string(key.bytes + f->offset, f, ctx->rec, ctx->len);
		} else {
			v = field_value(f, t, ctx);
			memcpy(key.bytes + f->offset, &v, sizeof(v));
		}
	}
	elt = hist_map_insert(hd->map, key.bytes);
	if (!elt)
		return;
	for (i = 0; i < hd->n_vals; i++)
		__atomic_add_fetch(&hist_sums(elt)[i], field_value(&hd->fields[i], t, ctx),
				   __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------
 * A growing text buffer: a histogram may be longer than a trace_seq.
 */

struct hist_buf {
	char	*text;
	size_t	len, size;
	bool	failed;
};

static __attribute__((__format__(__printf__, 2, 3)))
void hb_printf(struct hist_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->text ? b->text + b->len : NULL, b->size - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = true;
			return;
		}
		if (b->len + (size_t)n < b->size)
			break;
		size_t size = b->size ? b->size * 2 : 4096;
		char *text;

		while (size <= b->len + (size_t)n)
			size *= 2;
		text = realloc(b->text, size);
		if (!text) {
			b->failed = true;
			return;
		}
		b->text = text;
		b->size = size;
	}
	b->len += (size_t)n;
}

static void hb_puts(struct hist_buf *b, const char *s)
{
	hb_printf(b, "%s", s);
}

/* ------------------------------------------------------------------
 * Printing
 */

/* The modifiers, in the order get_hist_field_flags() picks the one shown. */
static const struct {
	unsigned long	flag;
	const char	*name;
} hist_modifiers[] = {
	{ HIST_FL_HEX,			"hex" },
	{ HIST_FL_SYM,			"sym" },
	{ HIST_FL_SYM_OFFSET,		"sym-offset" },
	{ HIST_FL_EXECNAME,		"execname" },
	{ HIST_FL_SYSCALL,		"syscall" },
	{ HIST_FL_LOG2,			"log2" },
	{ HIST_FL_BUCKET,		"buckets" },
	{ HIST_FL_TIMESTAMP_USECS,	"usecs" },
	{ HIST_FL_PERCENT,		"percent" },
	{ HIST_FL_GRAPH,		"graph" },
};

static const char *field_flags_str(unsigned long flags)
{
	for (size_t i = 0; i < sizeof(hist_modifiers) / sizeof(hist_modifiers[0]); i++)
		if (flags & hist_modifiers[i].flag)
			return hist_modifiers[i].name;
	return NULL;
}

/* The kernel's hist_field_print(): "name.modifier[=N]". */
static void field_print(struct hist_buf *b, const struct hist_field *f)
{
	const char *flags = field_flags_str(f->flags);

	hb_puts(b, f->name);
	if (flags)
		hb_printf(b, ".%s", flags);
	if (f->buckets)
		hb_printf(b, "=%lu", f->buckets);
}

/* The trigger's line: in the trigger file, and the hist file's header. */
static void hist_print_trigger(struct hist_buf *b, const struct event_trigger *t)
{
	const struct hist_data *hd = t->data;
	unsigned int i;

	hb_puts(b, "hist:");
	if (hd->name)
		hb_printf(b, "%s:", hd->name);
	hb_puts(b, "keys=");
	for (i = hd->n_vals; i < hd->n_fields; i++) {
		if (i > hd->n_vals)
			hb_puts(b, ",");
		if (hd->fields[i].src == SRC_STACK)
			hb_puts(b, "stacktrace");
		else
			field_print(b, &hd->fields[i]);
	}
	hb_puts(b, ":vals=hitcount");
	for (i = 1; i < hd->n_vals; i++) {
		hb_puts(b, ",");
		field_print(b, &hd->fields[i]);
	}
	hb_puts(b, ":sort=");
	for (i = 0; i < hd->n_sort_keys; i++) {
		if (i)
			hb_puts(b, ",");
		if (!hd->sort_keys[i].idx)
			hb_puts(b, "hitcount");
		else
			field_print(b, &hd->fields[hd->sort_keys[i].idx]);
		if (hd->sort_keys[i].descending)
			hb_puts(b, ".descending");
	}
	hb_printf(b, ":size=%u", 1u << hd->map->bits);
	if (hd->enable_timestamps)
		hb_printf(b, ":clock=%s", hd->clock);
	if (t->filter_str)
		hb_printf(b, " if %s", t->filter_str);
	hb_puts(b, __atomic_load_n(&t->paused, __ATOMIC_RELAXED) ? " [paused]\n" : " [active]\n");
}

static void hist_print(struct trace_seq *s, const struct event_trigger *t)
{
	struct hist_buf b = { 0 };

	hist_print_trigger(&b, t);
	if (!b.failed && b.text)
		trace_seq_puts(s, b.text);
	free(b.text);
}

/* %ps / %pS padded as the kernel's "%-45ps": the address in hex if unknown. */
static void print_sym(struct hist_buf *b, uint64_t v, bool offset, int width)
{
	char name[512];

	if (trace_stack_sym(name, sizeof(name), (unsigned long)v, offset))
		snprintf(name, sizeof(name), "0x%llx", (unsigned long long)v);
	hb_printf(b, "%-*s", width, name);
}

static void print_key(struct hist_buf *b, const struct hist_data *hd, const unsigned char *elt)
{
	const unsigned char *key = elt + hd->map->key_off;
	bool multiline = false;
	uint64_t v;

	hb_puts(b, "{ ");
	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		const struct hist_field *f = &hd->fields[i];

		if (i > hd->n_vals)
			hb_puts(b, ", ");
		memcpy(&v, key + f->offset, sizeof(v));
		if (f->flags & HIST_FL_HEX) {
			hb_printf(b, "%s: %llx", f->name, (unsigned long long)v);
		} else if (f->flags & (HIST_FL_SYM | HIST_FL_SYM_OFFSET)) {
			bool off = f->flags & HIST_FL_SYM_OFFSET;

			hb_printf(b, "%s: [%llx] ", f->name, (unsigned long long)v);
			print_sym(b, v, off, off ? 55 : 45);
		} else if (f->flags & HIST_FL_EXECNAME) {
			hb_printf(b, "%s: %-16.16s[%10llu]", f->name,
				  (const char *)elt + hd->map->comm_off, (unsigned long long)v);
		} else if (f->flags & HIST_FL_SYSCALL) {
			const char *sc = trace_syscall_name(v);

			hb_printf(b, "%s: %-30s[%3llu]", f->name, sc ? sc : "unknown_syscall",
				  (unsigned long long)v);
		} else if (f->src == SRC_STACK) {
			hb_puts(b, "stacktrace:\n");
			for (unsigned int k = 0; k < HIST_STACK_DEPTH; k++) {
				memcpy(&v, key + f->offset + k * 8, sizeof(v));
				if (!v)
					break;
				hb_printf(b, "%9c", ' ');
				print_sym(b, v, true, 0);
				hb_puts(b, "\n");
			}
			multiline = true;
		} else if (f->flags & HIST_FL_LOG2) {
			hb_printf(b, "%s: ~ 2^%-2llu", f->name, (unsigned long long)v);
		} else if (f->flags & HIST_FL_BUCKET) {
			hb_printf(b, "%s: ~ %llu-%llu", f->name, (unsigned long long)v,
				  (unsigned long long)(v + f->buckets - 1));
		} else if (f->flags & HIST_FL_STRING) {
			hb_printf(b, "%s: %-50.*s", f->name, (int)f->size, (const char *)key + f->offset);
		} else {
			hb_printf(b, "%s: %10llu", f->name, (unsigned long long)v);
		}
	}
	if (!multiline)
		hb_puts(b, " ");
	hb_puts(b, "}");
}

/* 100 times the percentage of @val in @total, as __get_percentage(). */
static unsigned int percentage(uint64_t val, uint64_t total)
{
	if (!total)
		return val ? UINT_MAX : 0;
	if (val < UINT64_MAX / 10000)
		return (unsigned int)(val * 10000 / total);
	total /= 10000;
	if (!total)
		return val ? UINT_MAX : 0;
	return (unsigned int)(val / total);
}

struct hist_stat {
	uint64_t	max;
	uint64_t	total;
};

static void print_val(struct hist_buf *b, const struct hist_field *f, const char *name,
		      uint64_t val, const struct hist_stat *st)
{
	unsigned int pc, len, i;
	char bar[21];

	if (f->flags & HIST_FL_PERCENT) {
		pc = percentage(val, st->total);
		if (pc == UINT_MAX)
			hb_printf(b, " %s (%%):[ERROR]", name);
		else
			hb_printf(b, " %s (%%): %3u.%02u", name, pc / 100, pc % 100);
	} else if (f->flags & HIST_FL_GRAPH) {
		pc = percentage(val, st->max);
		if (pc == UINT_MAX) {
			snprintf(bar, sizeof(bar), "[ERROR]");
		} else {
			len = pc * 20 / 10000;
			for (i = 0; i < len && i < 20; i++)
				bar[i] = '#';
			while (i < 20)
				bar[i++] = ' ';
			bar[20] = '\0';
		}
		hb_printf(b, " %s: %20s", name, bar);
	} else if (f->flags & HIST_FL_HEX) {
		hb_printf(b, " %s: %10llx", name, (unsigned long long)val);
	} else {
		hb_printf(b, " %s: %10llu", name, (unsigned long long)val);
	}
}

/* What the sort compares: the sort keys of one histogram. */
static const struct hist_data *sort_hd;

static int cmp_field(const struct hist_data *hd, const struct hist_sort_key *sk,
		     const unsigned char *a, const unsigned char *b)
{
	const struct hist_field *f = &hd->fields[sk->idx];
	uint64_t x, y;
	int ret;

	if (sk->idx < hd->n_vals) {
		x = __atomic_load_n(&hist_sums((unsigned char *)a)[sk->idx], __ATOMIC_RELAXED);
		y = __atomic_load_n(&hist_sums((unsigned char *)b)[sk->idx], __ATOMIC_RELAXED);
		ret = (x > y) - (x < y);
	} else if (f->src == SRC_STACK) {
		ret = 0;
	} else if (f->flags & HIST_FL_STRING) {
		ret = strncmp((const char *)a + hd->map->key_off + f->offset,
			      (const char *)b + hd->map->key_off + f->offset, f->size);
	} else {
		memcpy(&x, a + hd->map->key_off + f->offset, 8);
		memcpy(&y, b + hd->map->key_off + f->offset, 8);
		/* Compared in the field's own type, as tracing_map_cmp_num(). */
		if (f->is_signed) {
			int64_t sx = (int64_t)x, sy = (int64_t)y;

			ret = (sx > sy) - (sx < sy);
		} else {
			ret = (x > y) - (x < y);
		}
	}
	return sk->descending ? -ret : ret;
}

static int cmp_entries(const void *pa, const void *pb)
{
	const unsigned char *a = *(const unsigned char *const *)pa;
	const unsigned char *b = *(const unsigned char *const *)pb;
	int ret = 0;

	for (unsigned int i = 0; i < sort_hd->n_sort_keys && !ret; i++)
		ret = cmp_field(sort_hd, &sort_hd->sort_keys[i], a, b);
	return ret;
}

/* The kernel's hist_trigger_show(); under the event mutex. */
static void hist_show(struct hist_buf *b, const struct event_trigger *t, int n)
{
	const struct hist_data *hd = t->data;
	const struct hist_map *map = hd->map;
	struct hist_stat st[HIST_VALS_MAX] = { { 0, 0 } };
	unsigned char **entries;
	unsigned int nr = 0, i, j;

	if (n > 0)
		hb_puts(b, "\n\n");
	hb_puts(b, "# event histogram\n#\n# trigger info: ");
	hist_print_trigger(b, t);
	hb_puts(b, "#\n\n");

	entries = malloc(map->max_elts * sizeof(*entries));
	for (i = 0; entries && i < map->nr_slots && nr < map->max_elts; i++) {
		uint32_t e = __atomic_load_n(&map->slots[i].elt, __ATOMIC_ACQUIRE);

		if (e && __atomic_load_n(&map->slots[i].hash, __ATOMIC_RELAXED))
			entries[nr++] = hist_elt(map, e - 1);
	}
	if (nr > 1) {
		sort_hd = hd;
		qsort(entries, nr, sizeof(*entries), cmp_entries);
	}
	for (j = 1; j < hd->n_vals; j++) {
		if (!(hd->fields[j].flags & (HIST_FL_PERCENT | HIST_FL_GRAPH)))
			continue;
		for (i = 0; i < nr; i++) {
			uint64_t v = __atomic_load_n(&hist_sums(entries[i])[j], __ATOMIC_RELAXED);

			st[j].total += v;
			if (st[j].max < v)
				st[j].max = v;
		}
	}
	for (i = 0; i < nr; i++) {
		print_key(b, hd, entries[i]);
		print_val(b, &hd->fields[0], "hitcount",
			  __atomic_load_n(&hist_sums(entries[i])[0], __ATOMIC_RELAXED), &st[0]);
		for (j = 1; j < hd->n_vals; j++) {
			hb_puts(b, " ");
			print_val(b, &hd->fields[j], hd->fields[j].name,
				  __atomic_load_n(&hist_sums(entries[i])[j], __ATOMIC_RELAXED),
				  &st[j]);
		}
		hb_puts(b, "\n");
	}
	free(entries);
	hb_printf(b, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		  (unsigned long long)__atomic_load_n(&map->hits, __ATOMIC_RELAXED), nr,
		  (unsigned long long)__atomic_load_n(&map->drops, __ATOMIC_RELAXED));
}

/* ------------------------------------------------------------------
 * Parsing
 */

/* One hist command being parsed, and where its errors point. */
struct hist_parse {
	struct trigger_parse	*p;
	struct trace_event_call	*call;
	char			*last_cmd;	/* "hist:" + what follows the command */
	char			loc[128];	/* "hist:SYSTEM:EVENT" */
	unsigned int		pf_off;		/* where that starts in p->text */
	char			*keys_str, *vals_str, *sort_str;
	char			*assignments[HIST_VARS_MAX];
	unsigned int		n_assignments;
	char			*actions[HIST_ACTIONS_MAX];
	unsigned int		n_actions;
};

/*
 * Log an error, the caret under @str as the kernel's err_pos() finds it
 * in its command text (the first occurrence; none: the start), moved
 * into the text as written.
 */
static void hist_err(struct hist_parse *hp, int type, const char *str)
{
	/* The caller reads the location after we return: kept per thread. */
	static __thread char loc[sizeof(hp->loc)];
	const char *at = str ? strstr(hp->last_cmd, str) : NULL;
	unsigned int pos = at ? (unsigned int)(at - hp->last_cmd) : 0;

	if (pos >= 5)
		pos = pos - 5 + hp->pf_off;
	memcpy(loc, hp->loc, sizeof(loc));
	trigger_err(hp->p, loc, hist_err_text[type], pos);
}

/* The kernel's trace_find_event_field(): the event's, then the common. */
static bool find_field(struct trace_event_call *call, const char *name, struct hist_field *hf)
{
	static const struct { const char *type, *name; unsigned int off, size; bool sgn; }
	common[] = {
		{ "unsigned short", "common_type", 0, 2, false },
		{ "unsigned char", "common_flags", 2, 1, false },
		{ "unsigned char", "common_preempt_count", 3, 1, false },
		{ "int", "common_pid", 4, 4, true },
	};
	const struct trace_event_fields *f = call->event_class->fields_array;
	const struct trace_event_priv *priv = call->priv;

	for (unsigned int i = 0; priv && i < priv->nr_fields; i++) {
		size_t n = strlen(f[i].name) + 1;

		if (strcmp(f[i].name, name))
			continue;
		hf->owned = malloc(n + strlen(f[i].type) + 1);
		if (!hf->owned)
			return false;
		memcpy(hf->owned, f[i].name, n);
		strcpy(hf->owned + n, f[i].type);
		hf->name = hf->owned;
		hf->type = hf->owned + n;
		hf->foff = priv->offsets[i];
		hf->fsize = (unsigned int)f[i].size;
		hf->is_signed = f[i].is_signed;
		return true;
	}
	for (unsigned int i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		if (strcmp(common[i].name, name))
			continue;
		hf->type = common[i].type;
		hf->foff = common[i].off;
		hf->fsize = common[i].size;
		hf->is_signed = common[i].sgn;
		hf->name = common[i].name;
		return true;
	}
	return false;
}

/* strtoul(s, 0) as the kernel's kstrtoul(s, 0): all of @s, no sign. */
static int parse_ulong0(const char *s, unsigned long *res)
{
	char *end;

	if (!isdigit((unsigned char)*s) && *s != '+')
		return -EINVAL;
	errno = 0;
	*res = strtoul(s, &end, 0);
	if (*end == '\n')
		end++;
	return errno || end == s || *end ? -EINVAL : 0;
}

static unsigned int dots_before_eq(const char *s)
{
	unsigned int n = 0;

	for (; *s && *s != '='; s++)
		n += *s == '.';
	return n;
}

/*
 * The kernel's parse_field() and create_hist_field() for one atom:
 * "name[.modifier]".  @flags has HIST_FL_KEY for a key.
 * Return: 0, -EINVAL (logged).
 */
static int parse_atom(struct hist_parse *hp, const char *field_str, unsigned long flags,
		      struct hist_field *hf)
{
	char *str, *modifier, *name;
	unsigned long buckets = 0;
	int err = -EINVAL;

	memset(hf, 0, sizeof(*hf));
	hf->type = "";
	/* Variables ("$x", "sys.event.x") are not implemented. */
	if (field_str[0] == '$' || dots_before_eq(field_str) > 1) {
		hist_err(hp, HIST_ERR_VAR_NOT_FOUND, field_str);
		return -EINVAL;
	}
	/* Nor are expressions and constants. */
	if (strpbrk(field_str, "+-*/()") || isdigit((unsigned char)field_str[0])) {
		hist_err(hp, HIST_ERR_FIELD_NOT_FOUND, field_str);
		return -EINVAL;
	}
	/* A copy, as the kernel's: errors point at the text as written. */
	modifier = str = strdup(field_str);
	if (!str)
		return -ENOMEM;
	name = strsep(&modifier, ".");
	if (modifier) {
		if (!strcmp(modifier, "hex")) {
			flags |= HIST_FL_HEX;
		} else if (!strcmp(modifier, "sym")) {
			flags |= HIST_FL_SYM;
		} else if (!strcmp(modifier, "symXoffset")) {
			flags |= HIST_FL_SYM_OFFSET;
		} else if (!strcmp(modifier, "execname") && !strcmp(name, "common_pid")) {
			flags |= HIST_FL_EXECNAME;
		} else if (!strcmp(modifier, "syscall")) {
			flags |= HIST_FL_SYSCALL;
		} else if (!strcmp(modifier, "log2")) {
			flags |= HIST_FL_LOG2;
		} else if (!strcmp(modifier, "usecs")) {
			flags |= HIST_FL_TIMESTAMP_USECS;
		} else if (!strncmp(modifier, "bucket", 6)) {
			unsigned long n;

			modifier += 6;
			if (*modifier == 's')
				modifier++;
			if (*modifier != '=')
				goto bad;
			modifier++;
			if (parse_ulong0(modifier, &n) || !n)
				goto bad;
			buckets = n;
			flags |= HIST_FL_BUCKET;
		} else if (!strncmp(modifier, "percent", 7) || !strncmp(modifier, "graph", 5)) {
			if (flags & HIST_FL_KEY)
				goto bad;
			flags |= modifier[0] == 'p' ? HIST_FL_PERCENT : HIST_FL_GRAPH;
		} else {
			goto bad;
		}
	}
	if (!strcmp(name, "common_timestamp")) {
		flags |= HIST_FL_TIMESTAMP;
		hf->src = SRC_TIMESTAMP;
		hf->name = "common_timestamp";
		hf->type = "u64";
		hf->fsize = 8;
	} else if (!strcmp(name, "common_cpu") || !strcmp(name, "cpu") || !strcmp(name, "CPU")) {
		flags |= HIST_FL_CPU;
		hf->src = SRC_CPU;
		hf->name = "common_cpu";
		hf->type = "unsigned int";
		hf->fsize = 4;
	} else if (!find_field(hp->call, name, hf)) {
		hist_err(hp, HIST_ERR_FIELD_NOT_FOUND, name);
		goto out;
	} else if (strchr(hf->type, '[') && strstr(hf->type, "char")) {
		/* char[N] and __data_loc char[]: strings ("char *" is a number). */
		flags |= HIST_FL_STRING;
		hf->src = strstr(hf->type, "__data_loc") ? SRC_DYN_STR : SRC_STATIC_STR;
	} else if (hf->fsize == 1 || hf->fsize == 2 || hf->fsize == 4 || hf->fsize == 8) {
		hf->src = SRC_NUM;
	} else {
		goto out;	/* an array: no value */
	}
	hf->flags = flags;
	hf->buckets = buckets;
	err = 0;
	goto out;
bad:
	hist_err(hp, HIST_ERR_BAD_FIELD_MODIFIER, modifier);
out:
	if (err) {
		free(hf->owned);
		hf->owned = NULL;
	}
	free(str);
	return err;
}

/* The kernel's create_val_fields(): hitcount, then at most two more. */
static int create_val_fields(struct hist_parse *hp, struct hist_data *hd)
{
	char *fields_str = hp->vals_str, *field_str;
	unsigned int i, j;
	int err;

	hd->fields[0] = (struct hist_field){
		.flags = HIST_FL_HITCOUNT, .src = SRC_COUNTER, .name = "hitcount", .type = "u64",
	};
	hd->n_vals = hd->n_fields = 1;
	for (i = 0, j = 1; fields_str && i < HIST_VALS_MAX && j < HIST_VALS_MAX; i++) {
		struct hist_field *hf = &hd->fields[j];

		field_str = strsep(&fields_str, ",");
		if (!strcmp(field_str, "hitcount"))
			continue;
		err = parse_atom(hp, field_str, 0, hf);
		if (err)
			return err;
		if (hf->flags & (HIST_FL_BUCKET | HIST_FL_LOG2 | HIST_FL_SYM | HIST_FL_SYM_OFFSET))
			hist_err(hp, HIST_ERR_BAD_FIELD_MODIFIER, field_str);
		/* ... and a sum of string addresses means nothing. */
		if (hf->flags & (HIST_FL_BUCKET | HIST_FL_LOG2 | HIST_FL_SYM | HIST_FL_SYM_OFFSET |
				 HIST_FL_STRING)) {
			free(hf->owned);
			hf->owned = NULL;
			return -EINVAL;
		}
		hd->n_vals++;
		hd->n_fields++;
		j++;
	}
	if (fields_str && strcmp(fields_str, "hitcount"))
		return -EINVAL;
	return 0;
}

/* The kernel's create_key_fields(): at most three. */
static int create_key_fields(struct hist_parse *hp, struct hist_data *hd)
{
	char *fields_str = hp->keys_str, *field_str;
	unsigned int i, size;
	int err;

	for (i = 0; fields_str && i < HIST_KEYS_MAX; i++) {
		struct hist_field *hf = &hd->fields[hd->n_fields];

		field_str = strsep(&fields_str, ",");
		if (!strcmp(field_str, "stacktrace")) {
			*hf = (struct hist_field){
				.flags = HIST_FL_KEY | HIST_FL_STACKTRACE, .src = SRC_STACK,
				.name = "", .type = "",
			};
			size = HIST_STACK_DEPTH * 8;
		} else {
			err = parse_atom(hp, field_str, HIST_FL_KEY, hf);
			if (err)
				return err;
			if (hf->src == SRC_STATIC_STR)
				size = hf->fsize;
			else if (hf->src == SRC_DYN_STR)
				size = HIST_STR_MAX;
			else
				size = 8;
		}
		hf->size = (size + 7) & ~7u;
		hf->offset = hd->key_size;
		hd->key_size += hf->size;
		hd->n_keys++;
		hd->n_fields++;
		if (hd->key_size > HIST_KEY_SIZE_MAX)
			return -EINVAL;
	}
	return fields_str ? -EINVAL : 0;
}

static int is_descending(struct hist_parse *hp, const char *str)
{
	if (!str || !strcmp(str, "ascending"))
		return 0;
	if (!strcmp(str, "descending"))
		return 1;
	hist_err(hp, HIST_ERR_INVALID_SORT_MODIFIER, str);
	return -EINVAL;
}

/* The kernel's create_sort_keys(): by hitcount unless said otherwise. */
static int create_sort_keys(struct hist_parse *hp, struct hist_data *hd)
{
	char *fields_str = hp->sort_str;
	unsigned int i, j;
	int desc;

	hd->n_sort_keys = 1;
	if (!fields_str)
		return 0;
	for (i = 0; i < HIST_SORT_KEYS_MAX; i++) {
		struct hist_sort_key *sk = &hd->sort_keys[i];
		char *field_str = strsep(&fields_str, ","), *field_name;

		if (!field_str)
			break;
		if (!*field_str) {
			hist_err(hp, HIST_ERR_EMPTY_SORT_FIELD, "sort=");
			return -EINVAL;
		}
		if (i == HIST_SORT_KEYS_MAX - 1 && fields_str) {
			hist_err(hp, HIST_ERR_TOO_MANY_SORT_FIELDS, "sort=");
			return -EINVAL;
		}
		field_name = strsep(&field_str, ".");
		if (!*field_name) {
			hist_err(hp, HIST_ERR_EMPTY_SORT_FIELD, "sort=");
			return -EINVAL;
		}
		if (!strcmp(field_name, "hitcount")) {
			desc = is_descending(hp, field_str);
			if (desc < 0)
				return desc;
			*sk = (struct hist_sort_key){ 0, desc };
			continue;
		}
		for (j = 1; j < hd->n_fields; j++)
			if (!strcmp(field_name, hd->fields[j].name))
				break;
		if (j == hd->n_fields) {
			hist_err(hp, HIST_ERR_INVALID_SORT_FIELD, field_name);
			return -EINVAL;
		}
		desc = is_descending(hp, field_str);
		if (desc < 0)
			return desc;
		*sk = (struct hist_sort_key){ j, desc };
	}
	hd->n_sort_keys = i;
	return 0;
}

/* The kernel's parse_map_size(): a power of two of 128 .. 131072. */
static int parse_map_size(const char *str)
{
	unsigned long size, bits = 0;

	if (parse_ulong0(str, &size) || !size)
		return -EINVAL;
	while ((1ul << bits) < size && bits < 63)
		bits++;
	if (bits < HIST_BITS_MIN || bits > HIST_BITS_MAX)
		return -EINVAL;
	return (int)bits;
}

/* The kernel's parse_assignment(): "keys=", "vals=", "sort=", ... */
static int parse_assignment(struct hist_parse *hp, struct hist_data *hd, char *str)
{
	static const char *const keys[] = { "key=", "keys=" };
	static const char *const vals[] = { "val=", "vals=", "values=" };
	int bits;

	for (unsigned int i = 0; i < 2; i++)
		if (!strncmp(str, keys[i], strlen(keys[i]))) {
			hp->keys_str = str + strlen(keys[i]);
			return 0;
		}
	for (unsigned int i = 0; i < 3; i++)
		if (!strncmp(str, vals[i], strlen(vals[i]))) {
			hp->vals_str = str + strlen(vals[i]);
			return 0;
		}
	if (!strncmp(str, "sort=", 5)) {
		hp->sort_str = str + 5;
	} else if (!strncmp(str, "name=", 5)) {
		free(hd->name);
		hd->name = strdup(str);
		if (!hd->name)
			return -ENOMEM;
	} else if (!strncmp(str, "clock=", 6)) {
		free(hd->clock);
		hd->clock = strdup(str + 6);
		if (!hd->clock)
			return -ENOMEM;
	} else if (!strncmp(str, "size=", 5)) {
		bits = parse_map_size(str + 5);
		if (bits < 0)
			return bits;
		hd->map_bits = (unsigned int)bits;
	} else {
		if (hp->n_assignments == HIST_VARS_MAX) {
			hist_err(hp, HIST_ERR_TOO_MANY_VARS, str);
			return -EINVAL;
		}
		hp->assignments[hp->n_assignments++] = str;
	}
	return 0;
}

/* The kernel's parse_hist_trigger_attrs(): the ':'-separated words. */
static int parse_attrs(struct hist_parse *hp, struct hist_data *hd, char *trigger_str)
{
	int err;

	while (trigger_str) {
		char *str = strsep(&trigger_str, ":"), *rhs = strchr(str, '=');

		if (rhs) {
			if (!rhs[1]) {
				hist_err(hp, HIST_ERR_EMPTY_ASSIGNMENT, str);
				return -EINVAL;
			}
			err = parse_assignment(hp, hd, str);
			if (err)
				return err;
		} else if (!strcmp(str, "pause")) {
			hd->pause = true;
		} else if (!strcmp(str, "cont") || !strcmp(str, "continue")) {
			hd->cont = true;
		} else if (!strcmp(str, "clear")) {
			hd->clear = true;
		} else if (hp->n_actions < HIST_ACTIONS_MAX &&
			   (!strncmp(str, "onmatch(", 8) || !strncmp(str, "onmax(", 6) ||
			    !strncmp(str, "onchange(", 9))) {
			hp->actions[hp->n_actions++] = str;
		} else {
			return -EINVAL;
		}
	}
	if (!hp->keys_str)
		return -EINVAL;
	if (!hd->clock) {
		hd->clock = strdup("global");
		if (!hd->clock)
			return -ENOMEM;
	}
	return 0;
}

static void hist_data_free(struct hist_data *hd)
{
	if (!hd)
		return;
	for (unsigned int i = 0; i < hd->n_fields; i++)
		free(hd->fields[i].owned);
	hist_map_free(hd->map);
	free(hd->name);
	free(hd->clock);
	free(hd);
}

/* The kernel's create_hist_data(): the definition and its empty table. */
static struct hist_data *create_hist_data(struct hist_parse *hp, char *param, int *errp)
{
	struct hist_data *hd = calloc(1, sizeof(*hd));
	bool comm = false;
	int err = -ENOMEM;

	if (!hd)
		goto fail;
	hd->map_bits = HIST_BITS_DEFAULT;
	err = parse_attrs(hp, hd, param);
	if (err)
		goto fail;
	/* Actions and variables: not implemented (see the top). */
	err = -EINVAL;
	if (hp->n_actions) {
		hist_err(hp, HIST_ERR_ACTION_NOT_FOUND, hp->actions[0]);
		goto fail;
	}
	if (hp->n_assignments) {
		hist_err(hp, HIST_ERR_VAR_CREATE_FIND_FAIL, hp->assignments[0]);
		goto fail;
	}
	err = create_val_fields(hp, hd);
	if (!err)
		err = create_key_fields(hp, hd);
	if (!err)
		err = create_sort_keys(hp, hd);
	if (err)
		goto fail;
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		if (hd->fields[i].flags & HIST_FL_EXECNAME)
			comm = true;
		if (hd->fields[i].src == SRC_TIMESTAMP)
			hd->enable_timestamps = true;
	}
	err = -ENOMEM;
	hd->map = hist_map_create(hd->map_bits, hd->key_size, hd->n_vals, comm);
	if (!hd->map)
		goto fail;
	return hd;
fail:
	hist_data_free(hd);
	*errp = err;
	return NULL;
}

/* ------------------------------------------------------------------
 * Matching, named triggers, registration
 */

static bool same_field(const struct hist_field *a, const struct hist_field *b)
{
	return a->flags == b->flags && !strcmp(a->name, b->name) && !strcmp(a->type, b->type) &&
	       a->fsize == b->fsize && a->is_signed == b->is_signed && a->offset == b->offset &&
	       a->size == b->size;
}

/*
 * The kernel's hist_trigger_match(): does the command (@hd, @filter_str)
 * define the histogram of @test?  @named: the histogram of the command's
 * name, if any.
 */
static bool hist_match(const struct hist_data *hd, const char *filter_str,
		       const struct event_trigger *test, const struct hist_data *named,
		       bool ignore_filter)
{
	const struct hist_data *th = test->data;

	if (named && named != th)
		return false;
	if (!named && th->name)
		return false;
	if (hd->n_vals != th->n_vals || hd->n_fields != th->n_fields ||
	    hd->n_sort_keys != th->n_sort_keys)
		return false;
	if (!ignore_filter && !filter_str != !test->filter_str)
		return false;
	for (unsigned int i = 0; i < hd->n_fields; i++)
		if (!same_field(&hd->fields[i], &th->fields[i]))
			return false;
	for (unsigned int i = 0; i < hd->n_sort_keys; i++)
		if (hd->sort_keys[i].idx != th->sort_keys[i].idx ||
		    hd->sort_keys[i].descending != th->sort_keys[i].descending)
			return false;
	if (!ignore_filter && filter_str && strcmp(filter_str, test->filter_str))
		return false;
	return true;
}

static struct hist_data *find_named(const char *name)
{
	struct hist_data *hd;

	for (hd = named_hists; hd && (!name || strcmp(hd->name, name)); hd = hd->next_named)
		;
	return name ? hd : NULL;
}

/* The hist trigger of @file the command names, or NULL. */
static struct event_trigger *find_match(struct trace_event_file *file,
					const struct hist_data *hd, const char *filter_str,
					const struct hist_data *named)
{
	struct event_trigger_list *l = trigger_list(file);

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == ETT_EVENT_HIST &&
		    hist_match(hd, filter_str, l->t[i], named, false))
			return l->t[i];
	return NULL;
}

static void hist_free(struct event_trigger *t)
{
	struct hist_data *hd = t->data, **pp;

	if (!hd || --hd->refs > 0)
		return;
	for (pp = &named_hists; *pp; pp = &(*pp)->next_named) {
		if (*pp == hd) {
			*pp = hd->next_named;
			break;
		}
	}
	hist_data_free(hd);
}

/* The kernel's hist_clear(): empty the table once no probe is in it. */
static void hist_clear(struct hist_data *hd)
{
	__atomic_store_n(&hd->clearing, 1, __ATOMIC_RELEASE);
	tracepoint_synchronize_unregister();
	hist_map_clear(hd->map);
	__atomic_store_n(&hd->clearing, 0, __ATOMIC_RELEASE);
}

/*
 * The kernel's existing_hist_update_only(): :pause, :cont and :clear of
 * an existing histogram.  Return: whether one was updated.
 */
static bool update_only(struct hist_data *hd, struct event_trigger *t)
{
	struct hist_data *named = NULL;
	struct event_trigger *test;

	if (!hd->pause && !hd->cont && !hd->clear)
		return false;
	if (hd->name) {
		named = find_named(hd->name);
		if (!named || !hist_match(hd, NULL, &(struct event_trigger){ .data = named },
					  named, true))
			return false;
	}
	test = find_match(t->file, hd, t->filter_str, named);
	if (!test)
		return false;
	if (hd->pause)
		__atomic_store_n(&test->paused, 1, __ATOMIC_RELAXED);
	else if (hd->cont)
		__atomic_store_n(&test->paused, 0, __ATOMIC_RELAXED);
	else
		hist_clear(test->data);
	return true;
}

/* The kernel's hist_register_trigger() and hist_trigger_enable(). */
static int hist_register(struct hist_parse *hp, struct hist_data *hd, struct event_trigger *t)
{
	struct hist_data *named = NULL;
	int err;

	if (hd->name) {
		named = find_named(hd->name);
		if (named && !hist_match(hd, NULL, &(struct event_trigger){ .data = named },
					 named, true)) {
			hist_err(hp, HIST_ERR_NAMED_MISMATCH, hd->name);
			return -EINVAL;
		}
	}
	if ((!hd->name || named) && find_match(t->file, hd, t->filter_str, named)) {
		hist_err(hp, HIST_ERR_TRIGGER_EEXIST, NULL);
		return -EEXIST;
	}
	if (hd->cont || hd->clear) {
		hist_err(hp, HIST_ERR_TRIGGER_ENOENT_CLEAR, NULL);
		return -ENOENT;
	}
	if (hd->enable_timestamps && trace_array_set_clock(t->file->tr, hd->clock)) {
		hist_err(hp, HIST_ERR_SET_CLOCK_FAIL, hd->clock);
		return -EINVAL;
	}
	if (hd->pause)
		t->paused = 1;
	if (named) {
		t->data = named;
	} else if (hd->name) {
		hd->next_named = named_hists;
		named_hists = hd;
	}
	((struct hist_data *)t->data)->refs++;
	err = trigger_register(t, true);
	if (err) {
		if (!named && hd->name)
			named_hists = hd->next_named;
		((struct hist_data *)t->data)->refs--;
		t->data = hd;
		return err;
	}
	if (named)
		hist_data_free(hd);
	return 0;
}

/*
 * Split "keys=... if FILTER" as the kernel's event_hist_trigger_parse():
 * the filter starts at an "if" with blanks on both sides.
 * Return: 0 or -EINVAL; *@filterp NULL when there is none.
 */
int hist_split_filter(char *pf, char **paramp, char **filterp)
{
	char *p = pf;

	*paramp = pf;
	*filterp = NULL;
	for (;;) {
		p = strstr(p, "if");
		if (!p)
			return 0;
		if (p == pf)
			return -EINVAL;
		if (p[-1] != ' ' && p[-1] != '\t') {
			p++;
			continue;
		}
		if (p >= pf + strlen(pf) - 3)
			return -EINVAL;
		if (p[2] != ' ' && p[2] != '\t') {
			p++;
			continue;
		}
		break;
	}
	p[-1] = '\0';
	*filterp = p;
	while (**paramp == ' ' || **paramp == '\t')
		(*paramp)++;
	for (char *e = *paramp + strlen(*paramp); e > *paramp && (e[-1] == ' ' || e[-1] == '\t'); )
		*--e = '\0';
	return 0;
}

static int hist_parse(const struct event_command *cmd, struct trigger_parse *p)
{
	struct trace_event_call *call = p->file->event_call;
	struct hist_parse hp = { .p = p, .call = call };
	struct event_trigger *t = NULL, *old;
	struct hist_data *hd;
	char *param, *filter, *s;
	int err = 0;

	if (!p->param_and_filter)
		return -EINVAL;
	hp.last_cmd = malloc(strlen(p->param_and_filter) + 6);
	if (!hp.last_cmd)
		return -ENOMEM;
	sprintf(hp.last_cmd, "hist:%s", p->param_and_filter);
	snprintf(hp.loc, sizeof(hp.loc), "hist:%s:%s", call->event_class->system, call->name);
	s = strstr(p->text, p->param_and_filter);
	hp.pf_off = s ? (unsigned int)(s - p->text) : 5;

	err = hist_split_filter(p->param_and_filter, &param, &filter);
	if (err)
		goto out;
	/* As the kernel, ".sym-offset" becomes ".symXoffset" for the parser. */
	for (s = strstr(param, ".sym-offset"); s; s = strstr(s + 11, ".sym-offset"))
		s[4] = 'X';
	hd = create_hist_data(&hp, param, &err);
	if (!hd)
		goto out;
	t = trigger_alloc(cmd, p->file, hd);
	if (!t) {
		hist_data_free(hd);
		err = -ENOMEM;
		goto out;
	}
	err = trigger_set_filter(p, t, filter);
	if (err)
		goto out_free;
	if (p->remove) {
		old = find_match(p->file, hd, t->filter_str, find_named(hd->name));
		if (old)
			trigger_unregister(old);
		goto out_free;
	}
	if (update_only(hd, t))
		goto out_free;
	err = hist_register(&hp, hd, t);
	if (!err)
		goto out;
out_free:
	hist_data_free(t->data);
	t->data = NULL;
	trigger_free(t);
out:
	free(hp.last_cmd);
	return err;
}

static bool is_hist(struct event_trigger *t, void *arg)
{
	(void)arg;
	return t->cmd->type == ETT_EVENT_HIST;
}

/* O_TRUNC: every hist trigger of the file goes. */
static void hist_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_list *l;
	unsigned int i = 0;

	while ((l = trigger_list(file)) && i < l->nr) {
		if (is_hist(l->t[i], NULL))
			trigger_unregister(l->t[i]);
		else
			i++;
	}
}

const struct event_command trigger_hist_cmd = {
	.name		= "hist",
	.type		= ETT_EVENT_HIST,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= hist_parse,
	.func		= hist_func,
	.print		= hist_print,
	.free		= hist_free,
	.unreg_all	= hist_unreg_all,
};

/* enable_hist / disable_hist fire: (un)pause every histogram of @file. */
void hist_pause_all(struct trace_event_file *file, bool pause)
{
	struct event_trigger_list *l = trigger_list(file);

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == ETT_EVENT_HIST)
			__atomic_store_n(&l->t[i]->paused, pause, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------
 * The hist file
 */

/**
 * trace_array_hist_text - the text of an event's hist file
 * @tr:   the instance (NULL: the top level)
 * @call: the event
 * @lenp: receives the length
 *
 * Every hist trigger of the event, in the kernel's format; "" when it has
 * none.
 * Return: the text (free() it), or NULL (ENOMEM).
 * Context: not a probe; takes the event mutex.
 */
char *trace_array_hist_text(struct trace_array *tr, struct trace_event_call *call,
			    size_t *lenp)
{
	struct hist_buf b = { 0 };
	struct event_trigger_list *l;
	int n = 0;

	hb_puts(&b, "");
	trace_event_lock();
	l = trigger_list(trace_array_file_locked(tr, call, false));
	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == ETT_EVENT_HIST)
			hist_show(&b, l->t[i], n++);
	trace_event_unlock();
	if (b.failed) {
		free(b.text);
		errno = ENOMEM;
		return NULL;
	}
	if (lenp)
		*lenp = b.len;
	return b.text;
}

/**
 * trace_array_print_hist - the hist file's text, as much as @s holds
 *
 * trace_array_hist_text() has all of it.
 */
void trace_array_print_hist(struct trace_array *tr, struct trace_event_call *call,
			    struct trace_seq *s)
{
	size_t len;
	char *text = trace_array_hist_text(tr, call, &len);

	if (text)
		trace_seq_putmem(s, text, (unsigned int)len);
	free(text);
}
