// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The program's symbols, seen as the kernel's are:
 *
 * - %ps and %pS in TP_printk() name the function or object holding an
 *   address, with the kernel's text ("name+0xoff/0xsize", the size to the
 *   next symbol as kallsyms counts it);
 * - a recording carries them as its kallsyms section, so that trace-cmd
 *   and libtraceevent print the same names;
 * - tracepoint_string()s (the __tracepoint_str section of each object)
 *   make the printk_formats text, which tracefs shows and recordings
 *   carry, so that readers print the text a "const char *" field points
 *   to rather than its address.
 *
 * The symbols come from each loaded object's file (.symtab, or .dynsym when
 * stripped): functions and data objects, by address.  An address is found
 * with _dl_find_object(), which takes no lock; the objects themselves are
 * listed with dl_iterate_phdr(), which takes the loader's, so the texts
 * are made in the recorder's thread or a reader, never in a probe.
 */
#define __USTRACE_CORE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ustrace/elf.h>

#include "../internal.h"
#include "trace.h"
#include "trace_syms.h"

struct sym {
	uint64_t	addr;		/* in the file */
	uint32_t	name;		/* in the object's strtab */
	char		type;		/* kallsyms' letter: T, D, B, R; lower case local */
};

/* One loaded object: its symbols by address, its tracepoint strings. */
struct sym_obj {
	uintptr_t	bias;
	char		*path;		/* "" for the executable */
	const char	*module;	/* kallsyms' [module]: NULL for the executable */
	struct ustrace_elf elf;		/* <ustrace/elf.h> */
	struct sym	*syms;
	size_t		nr;
	uint64_t	tp_str_addr;	/* __tracepoint_str, in the file */
	uint64_t	tp_str_size;
	struct sym_obj	*next;
};

static struct sym_obj *objs;
static pthread_mutex_t syms_lock = PTHREAD_MUTEX_INITIALIZER;

/* fork(): level USTRACE_FORK_SYMS, the innermost (Documentation/trace/fork.rst). */
USTRACE_FORK_MUTEX_OPS(syms, &syms_lock);

__attribute__((__constructor__))
static void syms_fork_init(void)
{
	ustrace_fork_register(USTRACE_FORK_SYMS, &syms_fork_ops);
}

static char *kallsyms_text;
static char *printk_text;
static unsigned long long texts_gen = ~0ull;
/* The texts of the two changes before, under syms_lock. */
static char *retired[2][2];

/* ------------------------------------------------------------------
 * Reading an object's file
 */

/* kallsyms' letter for a symbol of section @s. */
static char sym_type(const Elf64_Sym *es, const Elf64_Shdr *s)
{
	char t;

	if (!s)
		t = 'A';
	else if (s->sh_flags & SHF_EXECINSTR)
		t = 'T';
	else if (s->sh_type == SHT_NOBITS)
		t = 'B';
	else if (!(s->sh_flags & SHF_WRITE))
		t = 'R';
	else
		t = 'D';
	return ELF64_ST_BIND(es->st_info) == STB_LOCAL ? (char)(t - 'A' + 'a') : t;
}

/* Aliases: functions first, then global ones, then by name. */
static const struct sym_obj *sort_obj;

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	bool fx = x->type == 'T' || x->type == 't', fy = y->type == 'T' || y->type == 't';

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (fx != fy)
		return fx ? -1 : 1;
	if ((x->type < 'a') != (y->type < 'a'))
		return x->type < 'a' ? -1 : 1;
	return strcmp(sort_obj->elf.strtab + x->name, sort_obj->elf.strtab + y->name);
}

/* The functions and objects of the file mapped in o->elf; 0 or -errno. */
static int load_syms(struct sym_obj *o)
{
	const Elf64_Shdr *tp;
	const Elf64_Sym *es;
	size_t n, j = 0;
	int err;

	tp = ustrace_elf_section(&o->elf, "__tracepoint_str");
	if (tp) {
		o->tp_str_addr = tp->sh_addr;
		o->tp_str_size = tp->sh_size;
	}
	err = ustrace_elf_symbols(&o->elf);
	if (err)
		return err;
	es = o->elf.syms;
	n = o->elf.nr_syms;
	o->syms = calloc(n ? n : 1, sizeof(*o->syms));
	if (!o->syms)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		unsigned int type = ELF64_ST_TYPE(es[i].st_info);

		if ((type != STT_FUNC && type != STT_OBJECT) || es[i].st_shndx == SHN_UNDEF ||
		    es[i].st_shndx >= SHN_LORESERVE || !es[i].st_value || !es[i].st_name ||
		    es[i].st_name >= o->elf.strtab_size ||
		    !memchr(o->elf.strtab + es[i].st_name, 0, o->elf.strtab_size - es[i].st_name))
			continue;
		o->syms[o->nr++] = (struct sym){ es[i].st_value, es[i].st_name,
						 sym_type(&es[i], ustrace_elf_shdr(&o->elf, es[i].st_shndx)) };
	}
	sort_obj = o;
	qsort(o->syms, o->nr, sizeof(*o->syms), cmp_sym);
	/* One name per address: the first after sorting. */
	for (size_t i = 0; i < o->nr; i++)
		if (!j || o->syms[j - 1].addr != o->syms[i].addr)
			o->syms[j++] = o->syms[i];
	o->nr = j;
	return 0;
}

/* The object loaded with @bias from @path, read once; under syms_lock. */
static struct sym_obj *obj_get(uintptr_t bias, const char *path)
{
	struct sym_obj *o;
	const char *slash;

	for (o = objs; o; o = o->next)
		if (o->bias == bias && !strcmp(o->path, path))
			return o;
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->bias = bias;
	o->path = strdup(path);
	if (!o->path) {
		free(o);
		return NULL;
	}
	slash = strrchr(o->path, '/');
	o->module = *path ? (slash ? slash + 1 : o->path) : NULL;
	/* An object without symbols stays listed, so that it is not read again. */
	if (!ustrace_elf_open(&o->elf, *path ? path : "/proc/self/exe") && load_syms(o)) {
		ustrace_elf_close(&o->elf);
		o->nr = 0;
	}
	o->next = objs;
	objs = o;
	return o;
}

/* ------------------------------------------------------------------
 * %ps and %pS
 */

int trace_sym_lookup(char *buf, size_t size, unsigned long addr, bool offset)
{
	struct dl_find_object dlfo;
	const struct sym_obj *o;
	struct link_map *lm;
	size_t lo = 0, hi;
	uint64_t a;

	if (size)
		buf[0] = '\0';
	if (!addr || _dl_find_object((void *)addr, &dlfo) || !(lm = dlfo.dlfo_link_map))
		return -ENOENT;
	pthread_mutex_lock(&syms_lock);
	o = obj_get(lm->l_addr, lm->l_name ? lm->l_name : "");
	if (!o || !o->nr || addr < lm->l_addr) {
		pthread_mutex_unlock(&syms_lock);
		return -ENOENT;
	}
	a = addr - lm->l_addr;
	hi = o->nr;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (o->syms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		pthread_mutex_unlock(&syms_lock);
		return -ENOENT;
	}
	if (offset) {
		const struct sym *s = &o->syms[lo - 1];
		/* As kallsyms: a symbol reaches to the next one, the last to the object's end. */
		uint64_t end = lo < o->nr ? o->syms[lo].addr :
			       (uint64_t)((uintptr_t)dlfo.dlfo_map_end - lm->l_addr);

		snprintf(buf, size, "%s+0x%llx/0x%llx", o->elf.strtab + s->name,
			 (unsigned long long)(a - s->addr), (unsigned long long)(end - s->addr));
	} else {
		snprintf(buf, size, "%s", o->elf.strtab + o->syms[lo - 1].name);
	}
	pthread_mutex_unlock(&syms_lock);
	return 0;
}

/* ------------------------------------------------------------------
 * The kallsyms and printk_formats texts
 */

struct text {
	char	*buf;
	size_t	len;
	size_t	size;
	bool	oom;
};

static void text_put(struct text *t, const char *s, size_t n)
{
	if (t->oom)
		return;
	if (t->len + n + 1 > t->size) {
		size_t size = t->size ? t->size : 65536;
		char *buf;

		while (size < t->len + n + 1)
			size *= 2;
		buf = realloc(t->buf, size);
		if (!buf) {
			t->oom = true;
			return;
		}
		t->buf = buf;
		t->size = size;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

__attribute__((__format__(__printf__, 2, 3)))
static void text_printf(struct text *t, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		text_put(t, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

struct walk {
	struct text		kallsyms;
	struct text		printk;
	unsigned long long	gen;
	bool			gen_only;
};

static void kallsyms_of(struct text *t, const struct sym_obj *o)
{
	for (size_t i = 0; i < o->nr; i++) {
		unsigned long addr = (unsigned long)(o->bias + o->syms[i].addr);

		if (o->module)
			text_printf(t, "%016lx %c %s\t[%s]\n", addr, o->syms[i].type,
				    o->elf.strtab + o->syms[i].name, o->module);
		else
			text_printf(t, "%016lx %c %s\n", addr, o->syms[i].type,
				    o->elf.strtab + o->syms[i].name);
	}
}

/*
 * The strings of the object's __tracepoint_str, read in its memory (the
 * pointers are relocated there), with printk_formats' escapes.
 */
static void printk_of(struct text *t, const struct sym_obj *o)
{
	const char *const *p = (const char *const *)(o->bias + o->tp_str_addr);
	size_t n = o->tp_str_size / sizeof(*p);

	for (size_t i = 0; i < n; i++) {
		const char *s = p[i];

		if (!s)
			continue;
		text_printf(t, "0x%lx : \"", (unsigned long)s);
		for (; *s; s++) {
			switch (*s) {
			case '\n':
				text_put(t, "\\n", 2);
				break;
			case '\t':
				text_put(t, "\\t", 2);
				break;
			case '"':
				text_put(t, "\\\"", 2);
				break;
			default:	/* a backslash too, as the kernel's */
				text_put(t, s, 1);
			}
		}
		text_put(t, "\"\n", 2);
	}
}

/*
 * For each loaded object, under the loader's lock: the object cannot go
 * meanwhile.  syms_lock is taken inside it, never the other way round
 * (trace_sym_lookup() holds syms_lock under the event mutex, which a
 * constructor run by the loader may be waiting for).
 */
static int walk_one(struct dl_phdr_info *info, size_t size, void *priv)
{
	struct walk *w = priv;
	const struct sym_obj *o;

	(void)size;
	w->gen = (unsigned long long)info->dlpi_adds << 32 | (uint32_t)info->dlpi_subs;
	if (w->gen_only)
		return 1;
	pthread_mutex_lock(&syms_lock);
	o = obj_get(info->dlpi_addr, info->dlpi_name ? info->dlpi_name : "");
	if (o) {
		kallsyms_of(&w->kallsyms, o);
		if (o->tp_str_size)
			printk_of(&w->printk, o);
	}
	pthread_mutex_unlock(&syms_lock);
	return 0;
}

void trace_syms_update(void)
{
	struct walk w = { .gen_only = true };
	unsigned long long gen;

	dl_iterate_phdr(walk_one, &w);
	if (w.gen == __atomic_load_n(&texts_gen, __ATOMIC_ACQUIRE))
		return;
	w.gen_only = false;
	/* The trace marker's ip, which trace_marker.c records. */
	text_printf(&w.kallsyms, "%016lx T tracing_mark_write\n", TRACE_MARKER_IP);
	text_put(&w.printk, "", 0);
	dl_iterate_phdr(walk_one, &w);
	gen = w.gen;
	pthread_mutex_lock(&syms_lock);
	if (w.kallsyms.oom || w.printk.oom || gen == texts_gen) {
		pthread_mutex_unlock(&syms_lock);
		free(w.kallsyms.buf);
		free(w.printk.buf);
		return;
	}
	/*
	 * The old texts stay for two more changes: a fatal-signal handler
	 * may be writing one into a file.  They change only when objects
	 * come or go; a third change frees the oldest.
	 */
	free(retired[0][0]);
	free(retired[0][1]);
	retired[0][0] = retired[1][0];
	retired[0][1] = retired[1][1];
	retired[1][0] = kallsyms_text;
	retired[1][1] = printk_text;
	__atomic_store_n(&kallsyms_text, w.kallsyms.buf, __ATOMIC_RELEASE);
	__atomic_store_n(&printk_text, w.printk.buf, __ATOMIC_RELEASE);
	__atomic_store_n(&texts_gen, gen, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&syms_lock);
}

const char *trace_syms_kallsyms(void)
{
	return __atomic_load_n(&kallsyms_text, __ATOMIC_ACQUIRE);
}

const char *trace_syms_printk(void)
{
	return __atomic_load_n(&printk_text, __ATOMIC_ACQUIRE);
}
