// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace list - the tracepoints an ELF object defines.
 *
 * The object is read, never loaded: a DEFINE_TRACE() leaves a symbol
 * __tracepoint_<name> (a struct tracepoint) in .symtab/.dynsym, and the
 * struct's .signature member points at the TP_PROTO text.  In a PIE or a
 * shared object that pointer is a R_X86_64_RELATIVE/R_AARCH64_RELATIVE
 * relocation whose addend is the address; elsewhere it is stored as is.
 * Every offset taken from the file is checked against the file's size.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/tracepoint-defs.h>

#include "ustrace.h"

#define TP_PREFIX "__tracepoint_"

struct elf_file {
	const unsigned char *map;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
};

struct tp_entry {
	char *name;
	char *signature;	/* NULL when it could not be read */
};

static bool in_file(const struct elf_file *f, uint64_t off, uint64_t len)
{
	return off <= f->size && len <= f->size - off;
}

static int elf_open(struct elf_file *f, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -ENOEXEC;
	}
	f->size = st.st_size;
	f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED)
		return -errno;
	f->eh = (const Elf64_Ehdr *)f->map;
	if (memcmp(f->eh->e_ident, ELFMAG, SELFMAG) ||
	    f->eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    f->eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(f, f->eh->e_shoff,
		     (uint64_t)f->eh->e_shnum * sizeof(Elf64_Shdr))) {
		munmap((void *)f->map, f->size);
		return -ENOEXEC;
	}
	f->sh = (const Elf64_Shdr *)(f->map + f->eh->e_shoff);
	return 0;
}

/* File bytes at virtual address @addr, or NULL (bss, unmapped, bad). */
static const unsigned char *elf_at(const struct elf_file *f, uint64_t addr,
				   uint64_t len)
{
	int i;

	for (i = 0; i < f->eh->e_shnum; i++) {
		const Elf64_Shdr *s = &f->sh[i];

		if (s->sh_type == SHT_NOBITS || !(s->sh_flags & SHF_ALLOC))
			continue;
		if (addr < s->sh_addr || addr - s->sh_addr > s->sh_size ||
		    len > s->sh_size - (addr - s->sh_addr))
			continue;
		if (!in_file(f, s->sh_offset + (addr - s->sh_addr), len))
			return NULL;
		return f->map + s->sh_offset + (addr - s->sh_addr);
	}
	return NULL;
}

/* The pointer stored at @addr, resolving a RELATIVE relocation. */
static uint64_t elf_pointer(const struct elf_file *f, uint64_t addr)
{
	const unsigned char *p;
	uint64_t val = 0;
	int i;

	for (i = 0; i < f->eh->e_shnum; i++) {
		const Elf64_Shdr *s = &f->sh[i];
		const Elf64_Rela *r;
		uint64_t k, n;

		if (s->sh_type != SHT_RELA || s->sh_entsize != sizeof(*r) ||
		    !in_file(f, s->sh_offset, s->sh_size))
			continue;
		r = (const Elf64_Rela *)(f->map + s->sh_offset);
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

static int scan_symtab(const struct elf_file *f, const Elf64_Shdr *symsec,
		       struct tp_entry **v, size_t *n)
{
	const Elf64_Shdr *strsec;
	const Elf64_Sym *sym;
	uint64_t k, nsyms;
	int ret;

	if (symsec->sh_link >= f->eh->e_shnum ||
	    symsec->sh_entsize != sizeof(*sym) ||
	    !in_file(f, symsec->sh_offset, symsec->sh_size))
		return 0;
	strsec = &f->sh[symsec->sh_link];
	if (!in_file(f, strsec->sh_offset, strsec->sh_size))
		return 0;
	sym = (const Elf64_Sym *)(f->map + symsec->sh_offset);
	nsyms = symsec->sh_size / sizeof(*sym);
	for (k = 0; k < nsyms; k++) {
		const char *name;
		uint64_t sigaddr;

		if (sym[k].st_shndx == SHN_UNDEF ||
		    ELF64_ST_TYPE(sym[k].st_info) != STT_OBJECT ||
		    sym[k].st_name >= strsec->sh_size)
			continue;
		name = (const char *)f->map + strsec->sh_offset +
		       sym[k].st_name;
		if (!memchr(name, 0, strsec->sh_size - sym[k].st_name) ||
		    strncmp(name, TP_PREFIX, strlen(TP_PREFIX)))
			continue;
		sigaddr = elf_pointer(f, sym[k].st_value +
				      offsetof(struct tracepoint, signature));
		ret = add_entry(v, n, name + strlen(TP_PREFIX),
				sigaddr ? elf_string(f, sigaddr) : NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct tp_entry *)a)->name,
		      ((const struct tp_entry *)b)->name);
}

static int list_object(const char *path, bool verbose, bool prefix)
{
	struct elf_file f = { 0 };
	struct tp_entry *v = NULL;
	size_t n = 0, i;
	int ret, s;

	ret = elf_open(&f, path);
	if (ret) {
		ustrace_err("%s: %s", path, ret == -ENOEXEC ?
			    "not a 64-bit ELF object" : strerror(-ret));
		return 1;
	}
	for (s = 0; s < f.eh->e_shnum && !ret; s++)
		if (f.sh[s].sh_type == SHT_SYMTAB ||
		    f.sh[s].sh_type == SHT_DYNSYM)
			ret = scan_symtab(&f, &f.sh[s], &v, &n);
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
	munmap((void *)f.map, f.size);
	return ret ? 1 : 0;
}

static void list_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace list [-v] OBJECT...\n"
		"List the tracepoints that each ELF object (program or shared\n"
		"object) defines, read from its symbols without loading it.\n"
		"  -v, --verbose   show each tracepoint's prototype\n");
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool verbose = false;
	int c, i, ret = 0;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = true;
			break;
		case 'h':
			list_usage(stdout);
			return 0;
		default:
			list_usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		list_usage(stderr);
		return 2;
	}
	for (i = optind; i < argc; i++)
		ret |= list_object(argv[i], verbose, argc - optind > 1);
	return ret;
}
