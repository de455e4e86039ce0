// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace list - the tracepoints or trace events an ELF object defines.
 *
 * The object is read, never loaded: a DEFINE_TRACE() leaves a symbol
 * __tracepoint_<name> (a struct tracepoint) in .symtab/.dynsym, and the
 * struct's .signature member points at the TP_PROTO text.  In a PIE or a
 * shared object that pointer is a R_X86_64_RELATIVE/R_AARCH64_RELATIVE
 * relocation whose addend is the address; elsewhere it is stored as is.
 * Every offset taken from the file is checked against the file's size.
 *
 * A TRACE_EVENT() leaves a local symbol event_<name> in .symtab (a
 * struct trace_event_call whose .name is "<name>"), which leads to its
 * class (system, fields) and print fmt.  For -F the event is registered
 * in this process, as the program's constructor would register it, and
 * the library prints its format: the text is the one the program's
 * tracefs and trace.dat show, but for the ID, which the library gives at
 * run time in registration order.
 */
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/trace_events.h>
#include <linux/tracepoint-defs.h>

#include <ustrace/collector.h>
#include <ustrace/elf.h>

#include "ustrace.h"

#define TP_PREFIX "__tracepoint_"

/* The object, and its whole table of section headers (checked at open). */
struct elf_file {
	struct ustrace_elf	e;
	const Elf64_Shdr	*sh;
};

struct tp_entry {
	char *name;
	char *signature;	/* NULL when it could not be read */
};

static bool in_file(const struct elf_file *f, uint64_t off, uint64_t len)
{
	return ustrace_elf_has(&f->e, off, len);
}

static int elf_open(struct elf_file *f, const char *path)
{
	int ret = ustrace_elf_open(&f->e, path);

	if (ret)
		return ret;
	if (!in_file(f, f->e.eh->e_shoff, (uint64_t)f->e.eh->e_shnum * sizeof(Elf64_Shdr))) {
		ustrace_elf_close(&f->e);
		return -ENOEXEC;
	}
	f->sh = (const Elf64_Shdr *)(f->e.map + f->e.eh->e_shoff);
	return 0;
}

/* File bytes at virtual address @addr, or NULL (bss, unmapped, bad). */
static const unsigned char *elf_at(const struct elf_file *f, uint64_t addr,
				   uint64_t len)
{
	int i;

	for (i = 0; i < f->e.eh->e_shnum; i++) {
		const Elf64_Shdr *s = &f->sh[i];

		if (s->sh_type == SHT_NOBITS || !(s->sh_flags & SHF_ALLOC))
			continue;
		if (addr < s->sh_addr || addr - s->sh_addr > s->sh_size ||
		    len > s->sh_size - (addr - s->sh_addr))
			continue;
		if (!in_file(f, s->sh_offset + (addr - s->sh_addr), len))
			return NULL;
		return f->e.map + s->sh_offset + (addr - s->sh_addr);
	}
	return NULL;
}

/* The pointer stored at @addr, resolving a RELATIVE relocation. */
static uint64_t elf_pointer(const struct elf_file *f, uint64_t addr)
{
	const unsigned char *p;
	uint64_t val = 0;
	int i;

	for (i = 0; i < f->e.eh->e_shnum; i++) {
		const Elf64_Shdr *s = &f->sh[i];
		const Elf64_Rela *r;
		uint64_t k, n;

		if (s->sh_type != SHT_RELA || s->sh_entsize != sizeof(*r) ||
		    !in_file(f, s->sh_offset, s->sh_size))
			continue;
		r = (const Elf64_Rela *)(f->e.map + s->sh_offset);
		n = s->sh_size / sizeof(*r);
		for (k = 0; k < n; k++) {
			uint32_t type = ELF64_R_TYPE(r[k].r_info);

			if (r[k].r_offset == addr &&
			    (type == R_X86_64_RELATIVE ||
			     type == R_AARCH64_RELATIVE))
				return r[k].r_addend;
		}
	}
	p = elf_at(f, addr, sizeof(val));
	if (p)
		memcpy(&val, p, sizeof(val));
	return val;
}

/* A NUL-terminated string at @addr, bounded by its section. */
static char *elf_string(const struct elf_file *f, uint64_t addr)
{
	const unsigned char *p = elf_at(f, addr, 1);
	size_t len = 0;

	if (!p)
		return NULL;
	while (elf_at(f, addr + len, 1) && p[len])
		len++;
	if (!elf_at(f, addr + len, 1))
		return NULL;
	return strndup((const char *)p, len);
}

static int add_entry(struct tp_entry **v, size_t *n, const char *name,
		     char *signature)
{
	struct tp_entry *nv;
	size_t i;

	for (i = 0; i < *n; i++) {
		if (!strcmp((*v)[i].name, name)) {
			free(signature);
			return 0;
		}
	}
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n].name = strdup(name);
	nv[*n].signature = signature;
	if (!nv[*n].name)
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* What a walk of the symbol tables hands each symbol it keeps. */
typedef int (*symbol_fn)(const struct elf_file *f, const Elf64_Sym *sym,
			 const char *name, void *priv);

/*
 * Call @fn for each defined object symbol of @symsec whose name starts
 * with @prefix (the name is given without it), up to @fn's first error.
 */
static int walk_objects(const struct elf_file *f, const Elf64_Shdr *symsec,
			const char *prefix, symbol_fn fn, void *priv)
{
	const Elf64_Sym *sym;
	const char *strtab;
	size_t k, nsyms, strtab_size;
	int ret;

	if (symsec->sh_entsize != sizeof(*sym) ||
	    ustrace_elf_symtab(&f->e, symsec, &sym, &nsyms, &strtab, &strtab_size))
		return 0;
	for (k = 0; k < nsyms; k++) {
		const char *name;

		if (sym[k].st_shndx == SHN_UNDEF ||
		    ELF64_ST_TYPE(sym[k].st_info) != STT_OBJECT ||
		    sym[k].st_name >= strtab_size)
			continue;
		name = strtab + sym[k].st_name;
		if (!memchr(name, 0, strtab_size - sym[k].st_name) ||
		    strncmp(name, prefix, strlen(prefix)))
			continue;
		ret = fn(f, &sym[k], name + strlen(prefix), priv);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every table of the object, or .symtab only (@symtab_only). */
static int walk_tables(const struct elf_file *f, bool symtab_only, const char *prefix,
		       symbol_fn fn, void *priv)
{
	int ret = 0;

	for (int s = 0; s < f->e.eh->e_shnum && !ret; s++)
		if (f->sh[s].sh_type == SHT_SYMTAB ||
		    (f->sh[s].sh_type == SHT_DYNSYM && !symtab_only))
			ret = walk_objects(f, &f->sh[s], prefix, fn, priv);
	return ret;
}

struct tp_list {
	struct tp_entry	*v;
	size_t		n;
};

static int add_tracepoint(const struct elf_file *f, const Elf64_Sym *sym,
			  const char *name, void *priv)
{
	struct tp_list *l = priv;
	uint64_t sigaddr = elf_pointer(f, sym->st_value +
				       offsetof(struct tracepoint, signature));

	return add_entry(&l->v, &l->n, name, sigaddr ? elf_string(f, sigaddr) : NULL);
}

/* ------------------------------------------------------------------
 * Trace events
 */

#define EVENT_PREFIX	"event_"
#define MAX_FIELDS	1024

/* An event read from the object, as the library would register it. */
struct ev_entry {
	struct trace_event_call		call;
	struct trace_event_class	class;
	struct trace_event_fields	*fields;
	unsigned int			nr_fields;
	bool				registered;
};

/* The string a pointer member at @addr points to. */
static char *elf_string_at(const struct elf_file *f, uint64_t addr)
{
	uint64_t p = elf_pointer(f, addr);

	return p ? elf_string(f, p) : NULL;
}

/* The class's fields, up to the table's terminating entry. */
static int read_fields(const struct elf_file *f, uint64_t addr, struct ev_entry *e)
{
	const size_t fsize = sizeof(struct trace_event_fields);

	for (unsigned int k = 0; k < MAX_FIELDS; k++) {
		uint64_t base = addr + k * fsize;
		const unsigned char *ints = elf_at(f, base + offsetof(struct trace_event_fields, size),
						   4 * sizeof(int));
		struct trace_event_fields *fld, *v;

		if (!ints)
			return -ENOEXEC;
		if (!elf_pointer(f, base + offsetof(struct trace_event_fields, name)))
			return 0;
		v = realloc(e->fields, (e->nr_fields + 2) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		e->fields = v;
		fld = &v[e->nr_fields];
		memset(fld, 0, 2 * sizeof(*fld));
		fld->name = elf_string_at(f, base + offsetof(struct trace_event_fields, name));
		fld->type = elf_string_at(f, base + offsetof(struct trace_event_fields, type));
		e->nr_fields++;
		if (!fld->name || !fld->type)
			return -ENOEXEC;
		memcpy(&fld->size, ints, 4 * sizeof(int));
	}
	return -ENOEXEC;
}

static void free_event(struct ev_entry *e)
{
	if (e->registered)
		trace_remove_event_call(&e->call);
	for (unsigned int k = 0; k < e->nr_fields; k++) {
		free((char *)e->fields[k].name);
		free((char *)e->fields[k].type);
	}
	free(e->fields);
	free((char *)e->call.name);
	free((char *)e->call.print_fmt);
	free((char *)e->class.system);
}

/*
 * The event whose trace_event_call is the symbol at @addr named
 * event_<name>, or 1 when the symbol is something else.
 */
static int read_event(const struct elf_file *f, uint64_t addr, const char *name,
		      struct ev_entry *e)
{
	uint64_t class;
	int ret = -ENOEXEC;

	memset(e, 0, sizeof(*e));
	e->call.name = elf_string_at(f, addr + offsetof(struct trace_event_call, name));
	if (!e->call.name || strcmp(e->call.name, name)) {
		free((char *)e->call.name);
		return 1;
	}
	class = elf_pointer(f, addr + offsetof(struct trace_event_call, event_class));
	e->call.print_fmt = elf_string_at(f, addr + offsetof(struct trace_event_call, print_fmt));
	e->class.system = class ? elf_string_at(f, class + offsetof(struct trace_event_class,
								     system)) : NULL;
	if (class && e->call.print_fmt && e->class.system)
		ret = read_fields(f, elf_pointer(f, class + offsetof(struct trace_event_class,
								      fields_array)), e);
	if (!ret && !e->fields)
		e->fields = calloc(1, sizeof(*e->fields));
	if (!ret && !e->fields)
		ret = -ENOMEM;
	if (ret)
		free_event(e);
	return ret;
}

struct ev_list {
	struct ev_entry	*v;
	size_t		n;
};

static int add_event(const struct elf_file *f, const Elf64_Sym *sym, const char *name,
		     void *priv)
{
	struct ev_list *l = priv;
	struct ev_entry *nv;
	int ret;

	if (sym->st_size != sizeof(struct trace_event_call))
		return 0;
	nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	ret = read_event(f, sym->st_value, name, &nv[l->n]);
	if (!ret)
		l->n++;
	return ret < 0 ? ret : 0;
}

static int cmp_event(const void *a, const void *b)
{
	const struct ev_entry *x = a, *y = b;
	int c = strcmp(x->class.system, y->class.system);

	return c ? c : strcmp(x->call.name, y->call.name);
}

/*
 * An event's format text (the engine renders it, as the program's tracefs
 * would), handed to @fn.
 */
static int event_format(struct ev_entry *e,
			int (*fn)(const char *system, const char *text, void *ctx), void *ctx)
{
	char *text;
	int len, err;

	/* Linked only now: the entries moved while the list grew and sorted. */
	e->class.fields_array = e->fields;
	e->call.event_class = &e->class;
	/* Not attached to anything here: only its format is wanted. */
	e->call.flags = TRACE_EVENT_FL_IGNORE_ENABLE;
	err = trace_add_event_call(&e->call);
	if (err)
		return err;
	e->registered = true;
	len = trace_event_format(&e->call, NULL, 0);
	text = len < 0 ? NULL : malloc((size_t)len + 1);
	if (!text)
		return len < 0 ? len : -ENOMEM;
	trace_event_format(&e->call, text, (size_t)len + 1);
	err = fn(e->class.system, text, ctx);
	free(text);
	return err;
}

/* As trace-cmd list -F prints a format: "system: SYS", the format, a blank line. */
static int print_format(const char *system, const char *text, void *ctx)
{
	(void)ctx;
	printf("system: %s\n%s\n", system, text);
	return 0;
}

static int list_events(const struct elf_file *f, const char *path, bool formats,
		       bool prefix)
{
	struct ev_list l = { 0 };
	struct ev_entry *v;
	size_t n, i;
	int ret;

	/* The event objects are static: only .symtab names them. */
	ret = walk_tables(f, true, EVENT_PREFIX, add_event, &l);
	v = l.v;
	n = l.n;
	qsort(v, n, sizeof(*v), cmp_event);
	for (i = 0; i < n && !ret; i++) {
		if (formats) {
			ret = event_format(&v[i], print_format, NULL);
			continue;
		}
		printf("%s%s%s:%s\n", prefix ? path : "", prefix ? ": " : "",
		       v[i].class.system, v[i].call.name);
	}
	for (i = 0; i < n; i++)
		free_event(&v[i]);
	free(v);
	if (ret)
		ustrace_err("%s: %s", path, ret == -ENOEXEC ? "a trace event that cannot be read" :
			    strerror(-ret));
	return ret;
}

/**
 * object_formats - the format of every trace event an ELF object defines
 * @path: the object (read, never loaded)
 * @fn:   called with each event's system and format text
 *
 * Return: 0, -ENOEXEC (not a 64-bit ELF object, or an event that cannot be
 * read), -errno; or what @fn returned.
 */
int object_formats(const char *path, int (*fn)(const char *system, const char *text, void *ctx),
		   void *ctx)
{
	struct elf_file f = { 0 };
	struct ev_list l = { 0 };
	int ret;

	ret = elf_open(&f, path);
	if (ret)
		return ret;
	ret = walk_tables(&f, true, EVENT_PREFIX, add_event, &l);
	for (size_t i = 0; i < l.n && !ret; i++)
		ret = event_format(&l.v[i], fn, ctx);
	for (size_t i = 0; i < l.n; i++)
		free_event(&l.v[i]);
	free(l.v);
	ustrace_elf_close(&f.e);
	return ret;
}

/* ------------------------------------------------------------------
 * Tracepoints
 */

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct tp_entry *)a)->name,
		      ((const struct tp_entry *)b)->name);
}

enum list_what { LIST_TRACEPOINTS, LIST_EVENTS, LIST_FORMATS };

static int list_object(const char *path, enum list_what what, bool verbose, bool prefix)
{
	struct elf_file f = { 0 };
	struct tp_list l = { 0 };
	struct tp_entry *v;
	size_t n, i;
	int ret;

	ret = elf_open(&f, path);
	if (ret) {
		ustrace_err("%s: %s", path, ret == -ENOEXEC ?
			    "not a 64-bit ELF object" : strerror(-ret));
		return 1;
	}
	if (what != LIST_TRACEPOINTS) {
		ret = list_events(&f, path, what == LIST_FORMATS, prefix);
		ustrace_elf_close(&f.e);
		return ret ? 1 : 0;
	}
	ret = walk_tables(&f, false, TP_PREFIX, add_tracepoint, &l);
	v = l.v;
	n = l.n;
	if (ret)
		ustrace_err("%s: %s", path, strerror(-ret));
	qsort(v, n, sizeof(*v), cmp_entry);
	for (i = 0; i < n; i++) {
		if (prefix)
			printf("%s: ", path);
		if (verbose)
			printf("%s(%s)\n", v[i].name,
			       v[i].signature ? v[i].signature : "?");
		else
			printf("%s\n", v[i].name);
		free(v[i].name);
		free(v[i].signature);
	}
	free(v);
	ustrace_elf_close(&f.e);
	return ret ? 1 : 0;
}

static void list_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace list [-v | -e | -F] OBJECT...\n"
		"       ustrace list -m DIR [-e | -F]\n"
		"       ustrace list [-e | -F]\n"
		"List the tracepoints that each ELF object (program or shared\n"
		"object) defines, read from its symbols without loading it, or\n"
		"the trace events a running program's tracefs at DIR offers, or\n"
		"with neither, those of the collector's (ustrace daemon).\n"
		"  -v, --verbose   show each tracepoint's prototype\n"
		"  -e, --events    list its trace events instead, as SYSTEM:EVENT\n"
		"  -F, --formats   print the format of each of its trace events\n"
		"  -m, --mount DIR the events of the tracefs mounted at DIR\n"
		"  -h, --help      this help\n");
}

/* Copy the file @dir/@name to standard output.  Return: 0, or -1 (said). */
static int cat_file(const char *dir, const char *name)
{
	char path[4096], buf[8192];
	size_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "r");
	if (!fp) {
		ustrace_err("list: %s: %s", path, strerror(errno));
		return -1;
	}
	fflush(stdout);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(fp);
	return 0;
}

/*
 * The events of a mount: its available_events ("SYSTEM:EVENT" lines), or
 * with -F the format of each after a "system:" line, blank lines between,
 * as for an object (and trace-cmd list -F).
 */
static int list_mount(const char *dir, enum list_what what)
{
	char path[4096], line[512], name[600];
	int ret = 0;
	FILE *fp;

	if (what != LIST_FORMATS)
		return cat_file(dir, "available_events") ? 1 : 0;
	snprintf(path, sizeof(path), "%s/available_events", dir);
	fp = fopen(path, "r");
	if (!fp) {
		ustrace_err("list: %s: %s", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');

		line[strcspn(line, "\n")] = '\0';
		if (!colon)
			continue;
		*colon = '\0';
		snprintf(name, sizeof(name), "events/%s/%s/format", line, colon + 1);
		printf("system: %s\n", line);
		fflush(stdout);
		ret |= cat_file(dir, name) ? 1 : 0;
		putchar('\n');
	}
	fclose(fp);
	return ret;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "events", no_argument, NULL, 'e' },
		{ "formats", no_argument, NULL, 'F' },
		{ "mount", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum list_what what = LIST_TRACEPOINTS;
	const char *mount = NULL;
	bool verbose = false;
	int c, i, ret = 0;

	while ((c = getopt_long(argc, argv, "veFm:h", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = true;
			break;
		case 'e':
			what = LIST_EVENTS;
			break;
		case 'F':
			what = LIST_FORMATS;
			break;
		case 'm':
			mount = optarg;
			break;
		case 'h':
			list_usage(stdout);
			return 0;
		default:
			list_usage(stderr);
			return 2;
		}
	}
	if (mount) {
		if (optind != argc || verbose) {
			list_usage(stderr);
			return 2;
		}
		return list_mount(mount, what);
	}
	if (optind == argc) {
		char rundir[4096], coll[4200];

		/*
		 * No object: the events of every traced program, the
		 * collector's tree (system mode), as trace-cmd list lists a
		 * kernel's.
		 */
		if (!verbose && !ustrace_collector_rundir(rundir, sizeof(rundir))) {
			snprintf(coll, sizeof(coll), "%s/tracing/available_events", rundir);
			if (!access(coll, R_OK)) {
				snprintf(coll, sizeof(coll), "%s/tracing", rundir);
				return list_mount(coll, what);
			}
		}
		list_usage(stderr);
		return 2;
	}
	for (i = optind; i < argc; i++)
		ret |= list_object(argv[i], what, verbose, argc - optind > 1);
	return ret;
}
