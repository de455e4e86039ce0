// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Stack traces of the traced thread: the stacktrace trigger records one
 * after the event, as the kernel's ftrace:kernel_stack record (id 4,
 * "<stack trace>" and one " => function" line per frame), and hist
 * triggers use them as keys.  The "kernel" of a program is the program:
 * the frames are its own, from the probe outwards.
 *
 * Capturing runs in the probe: glibc's backtrace(), whose unwinder
 * (libgcc's, finding the unwind tables with _dl_find_object()) takes no
 * lock and allocates nothing once libgcc_s is loaded, which
 * trace_stack_prepare() makes sure of before a trigger can fire.  Only
 * addresses are recorded.  Names are looked up when the trace is read,
 * in the symbol tables of the objects, so that static functions have
 * names too.
 */
#define __USTRACE_CORE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <execinfo.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#include <ustrace/elf.h>

#include "../internal.h"
#include "trace.h"
#include "trace_trigger.h"

/*
 * The kernel's struct stack_entry: the common header, int size, then as
 * many callers as were captured.  Records are only 4-byte aligned, so
 * the callers are copied in and out, never read through a struct.
 */
struct stack_head {
	struct trace_entry	ent;
	int			size;
};
#define STACK_CALLER_OFF	16

#ifndef noinline
# define noinline	__attribute__((__noinline__))
#endif

static const struct trace_event_fields stack_fields[] = {
	{ .type = "int", .name = "size", .size = 4, .align = 4, .is_signed = 1 },
	{ .type = "unsigned long[8]", .name = "caller", .size = 64, .align = 8 },
	{ 0 }
};

static const struct trace_event_class ftrace_stack_class = {
	.system		= "ftrace",
	.fields_array	= stack_fields,
};

/* trace.c prints TRACE_EVENT_FL_FTRACE records with trace_ftrace_print(). */
static void no_output(struct trace_seq *s, struct trace_seq *p, const void *entry)
{
	(void)s, (void)p, (void)entry;
}

static struct trace_event_call ftrace_stack_call = {
	.event_class	= &ftrace_stack_class,
	.name		= "kernel_stack",
	.print_fmt	= "\"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" "
			  "\"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" "
			  "\"\\t=> %ps\\n\\t=> %ps\\n\", "
			  "(void *)REC->caller[0], (void *)REC->caller[1], "
			  "(void *)REC->caller[2], (void *)REC->caller[3], "
			  "(void *)REC->caller[4], (void *)REC->caller[5], "
			  "(void *)REC->caller[6], (void *)REC->caller[7]",
	.output		= no_output,
	.id		= TRACE_STACK_ID,
	.flags		= TRACE_EVENT_FL_IGNORE_ENABLE | TRACE_EVENT_FL_FTRACE,
};

__attribute__((__constructor__))
static void trace_stack_init(void)
{
	trace_add_event_call(&ftrace_stack_call);
}

/* ------------------------------------------------------------------
 * Capturing, in the probe
 */

static void prepare_once(void)
{
	void *frame[2];

	/* The first call loads libgcc_s (dlopen: locks, allocations). */
	backtrace(frame, 2);
}

/**
 * trace_stack_prepare - make trace_stack_capture() safe in a probe
 *
 * Context: not a probe; before a trigger that captures stacks is set.
 */
void trace_stack_prepare(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, prepare_once);
}

/**
 * trace_stack_capture - the return addresses of the calling thread
 * @ips:   filled, innermost first
 * @max:   entries at @ips
 * @after: a return address in the chain: the frames up to and including
 *         it (the trigger code, the engine's commit) are left out; NULL,
 *         or not found: only this function's own frame is
 *
 * Return: the entries filled.
 * Context: any thread, a probe included, after trace_stack_prepare().
 */
noinline unsigned int trace_stack_capture(unsigned long *ips, unsigned int max,
					  const void *after)
{
	void *frames[TRACE_STACK_MAX + 16];
	int n = backtrace(frames, (int)(sizeof(frames) / sizeof(frames[0])));
	int start = 1, i;
	unsigned int k = 0;

	for (i = 0; after && i < n; i++) {
		if (frames[i] == after) {
			start = i + 1;
			break;
		}
	}
	for (i = start; i < n && k < max; i++)
		ips[k++] = (unsigned long)frames[i];
	return k;
}

/**
 * trace_stack_record - record the thread's stack as ftrace:kernel_stack
 * @buffer: where (the event's instance)
 * @after:  see trace_stack_capture()
 *
 * Dropped when the buffer refuses it, as any record.
 * Context: a probe.
 */
void trace_stack_record(struct trace_buffer *buffer, const void *after)
{
	unsigned long ips[TRACE_STACK_MAX];
	unsigned int n = trace_stack_capture(ips, TRACE_STACK_MAX, after);
	struct stack_head head = {
		.ent	= { .type = TRACE_STACK_ID, .pid = trace_current_tid() },
		.size	= (int)n,
	};
	struct ring_buffer_event *event;
	char *rec;

	event = ring_buffer_lock_reserve(buffer, STACK_CALLER_OFF + n * sizeof(ips[0]));
	if (!event)
		return;
	rec = ring_buffer_event_data(event);
	memset(rec, 0, STACK_CALLER_OFF);
	memcpy(rec, &head, sizeof(head));
	memcpy(rec + STACK_CALLER_OFF, ips, n * sizeof(ips[0]));
	ring_buffer_unlock_commit(buffer, event);
}

/* ------------------------------------------------------------------
 * Names, when the trace is read
 *
 * The object of an address comes from the dynamic linker (its load bias
 * and file, from _dl_find_object(), which takes no lock: the text may be
 * printed under the event mutex, which a constructor running inside
 * dlopen() - under the loader's lock - may be waiting for), its name from
 * the object's symbol table (.symtab, or .dynsym when stripped), mapped
 * from the file.  /proc/self/maps would not do: patching jump labels
 * splits the text mappings.
 */

struct elf_sym {
	uint64_t	addr;
	uint64_t	size;
	uint32_t	name;
};

/* The functions of one loaded object, by address. */
struct sym_table {
	uintptr_t		bias;
	char			*path;
	struct ustrace_elf	elf;		/* <ustrace/elf.h> */
	struct elf_sym		*syms;
	size_t			nr;
	struct sym_table	*next;
};

static struct sym_table *sym_tables;

static int cmp_sym(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Read the function symbols of the file mapped in t->elf; 0 or -errno. */
static int elf_load_syms(struct sym_table *t)
{
	const Elf64_Sym *syms;
	int err = ustrace_elf_symbols(&t->elf);

	if (err)
		return err;
	syms = t->elf.syms;
	t->syms = calloc(t->elf.nr_syms ? t->elf.nr_syms : 1, sizeof(*t->syms));
	if (!t->syms)
		return -ENOMEM;
	for (size_t i = 0; i < t->elf.nr_syms; i++) {
		if (ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC || syms[i].st_shndx == SHN_UNDEF ||
		    !syms[i].st_value || syms[i].st_name >= t->elf.strtab_size)
			continue;
		t->syms[t->nr++] = (struct elf_sym){ syms[i].st_value, syms[i].st_size,
						      syms[i].st_name };
	}
	qsort(t->syms, t->nr, sizeof(*t->syms), cmp_sym);
	return 0;
}

/* The table of the object loaded with @bias from @path; under sym_lock. */
static struct sym_table *sym_table_get(uintptr_t bias, const char *path)
{
	struct sym_table *t;

	for (t = sym_tables; t; t = t->next)
		if (t->bias == bias && !strcmp(t->path, path))
			return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->bias = bias;
	t->path = strdup(path);
	/* An object without symbols stays in the list, so that it is not read again. */
	if (!ustrace_elf_open(&t->elf, *path ? path : "/proc/self/exe") && elf_load_syms(t))
		ustrace_elf_close(&t->elf);
	t->next = sym_tables;
	sym_tables = t;
	return t;
}

#define SYM_CACHE_SIZE	1024	/* a power of two */
#define SYM_NAME_MAX	256

struct sym_cache_entry {
	unsigned long	ip;
	const char	*name;		/* NULL: no symbol */
	unsigned long	offset;
	unsigned long	size;
};

/* Direct-mapped: an address looked up again evicts nobody else's. */
static struct sym_cache_entry sym_cache[SYM_CACHE_SIZE];
static pthread_mutex_t sym_lock = PTHREAD_MUTEX_INITIALIZER;

/* fork(): level USTRACE_FORK_STACK_SYMS, the innermost. */
USTRACE_FORK_MUTEX_OPS(sym, &sym_lock);

__attribute__((__constructor__))
static void sym_fork_init(void)
{
	ustrace_fork_register(USTRACE_FORK_STACK_SYMS, &sym_fork_ops);
}

/*
 * The function that holds @ip: the last one starting at or before it
 * that it is inside of (or that has no size), as kallsyms names it.
 */
static void sym_lookup(struct sym_cache_entry *e, unsigned long ip)
{
	struct dl_find_object obj;
	struct link_map *lm;
	struct sym_table *t;
	uint64_t a;
	size_t lo = 0, hi;

	e->ip = ip;
	e->name = NULL;
	e->offset = e->size = 0;
	if (_dl_find_object((void *)ip, &obj) || !(lm = obj.dlfo_link_map))
		return;
	t = sym_table_get(lm->l_addr, lm->l_name ? lm->l_name : "");
	if (!t || !t->nr)
		return;
	a = ip - lm->l_addr;
	hi = t->nr;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->syms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Aliases share an address: any that holds @ip will do. */
	for (size_t i = lo; i-- > 0 && t->syms[i].addr == t->syms[lo - 1].addr; ) {
		const struct elf_sym *s = &t->syms[i];

		if (s->size && a >= s->addr + s->size)
			continue;
		e->name = t->elf.strtab + s->name;
		e->offset = (unsigned long)(a - s->addr);
		e->size = (unsigned long)s->size;
		return;
	}
}

/**
 * trace_stack_sym - the name of a code address, as the kernel's %ps or %pS
 * @buf:    where, NUL-terminated
 * @size:   bytes at @buf
 * @ip:     the address
 * @offset: "name+0xoff/0xsize" (%pS) rather than "name" (%ps)
 *
 * Return: 0, or -ENOENT when the address has no symbol (@buf empty).
 * Context: not a probe (reads the objects' symbol tables).
 */
int trace_stack_sym(char *buf, size_t size, unsigned long ip, bool offset)
{
	struct sym_cache_entry *e = &sym_cache[(ip >> 2) & (SYM_CACHE_SIZE - 1)];
	int ret = 0;

	pthread_mutex_lock(&sym_lock);
	if (e->ip != ip || !ip)
		sym_lookup(e, ip);
	if (!e->name) {
		ret = -ENOENT;
		if (size)
			buf[0] = '\0';
	} else if (offset) {
		snprintf(buf, size, "%s+0x%lx/0x%lx", e->name, e->offset, e->size);
	} else {
		snprintf(buf, size, "%s", e->name);
	}
	pthread_mutex_unlock(&sym_lock);
	return ret;
}

/**
 * trace_stack_print - the text of an ftrace:kernel_stack record
 * @s:   where it goes, with its newlines
 * @rec: the record, @len bytes
 *
 * "<stack trace>" and " => name" per frame, as the kernel's
 * trace_stack_print() with the default options.
 *
 * Return: 0, or -EINVAL for a record too short.
 */
int trace_stack_print(struct trace_seq *s, const void *rec, unsigned int len)
{
	const char *callers = (const char *)rec + STACK_CALLER_OFF;
	char name[SYM_NAME_MAX + 64];
	unsigned long ip;
	unsigned int n, i;

	if (len < STACK_CALLER_OFF)
		return -EINVAL;
	n = (len - STACK_CALLER_OFF) / (unsigned int)sizeof(ip);
	trace_seq_puts(s, "<stack trace>\n");
	for (i = 0; i < n; i++) {
		/* Records are only 4-byte aligned. */
		memcpy(&ip, callers + i * sizeof(ip), sizeof(ip));
		if (ip == ULONG_MAX || trace_seq_has_overflowed(s))
			break;
		trace_seq_puts(s, " => ");
		if (!ip)
			trace_seq_putc(s, '0');
		else if (trace_stack_sym(name, sizeof(name), ip, false))
			trace_seq_printf(s, "0x%08lx", ip);
		else
			trace_seq_puts(s, name);
		trace_seq_putc(s, '\n');
	}
	return 0;
}
