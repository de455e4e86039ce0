/* SPDX-License-Identifier: MIT */
/*
 * One ELF reader, inline: an ELF64 object's file mapped whole, its
 * section headers and its symbol tables, every offset and size taken from
 * the file checked against its length.  The library's stack traces and
 * %ps symbols (kernel/trace/trace_stack.c, trace_syms.c) and ustrace list
 * (tools/tracing/cmd-list.c) read objects with it; it is a header of its
 * own, needing nothing from libustrace, because the command may use only
 * what include/ holds (Documentation/process/layout.rst).
 */
#ifndef _USTRACE_USTRACE_ELF_H
#define _USTRACE_USTRACE_ELF_H

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

/**
 * struct ustrace_elf - a mapped object file
 * @map, @size:        the file's bytes
 * @eh:                its header (@map)
 * @syms, @nr_syms:    its symbol table, after ustrace_elf_symbols()
 * @strtab, @strtab_size: that table's strings
 */
struct ustrace_elf {
	const unsigned char	*map;
	size_t			size;
	const Elf64_Ehdr	*eh;
	const Elf64_Sym		*syms;
	size_t			nr_syms;
	const char		*strtab;
	size_t			strtab_size;
};

/* Whether @len bytes at @off are all in the file. */
static inline bool ustrace_elf_has(const struct ustrace_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

static inline bool ustrace_elf_in_file(const struct ustrace_elf *e, const Elf64_Shdr *s)
{
	return ustrace_elf_has(e, s->sh_offset, s->sh_size);
}

/*
 * Map @path and check that it is an ELF64 object.
 * Return: 0; -ENOEXEC (not one, or shorter than its header); the errno of
 * open() or mmap().
 */
static inline int ustrace_elf_open(struct ustrace_elf *e, const char *path)
{
	struct stat st;
	void *map;
	int fd, err = 0;

	memset(e, 0, sizeof(*e));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -ENOEXEC;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		err = -errno;
	close(fd);
	if (err)
		return err;
	e->map = (const unsigned char *)map;
	e->size = (size_t)st.st_size;
	e->eh = (const Elf64_Ehdr *)map;
	if (memcmp(e->eh->e_ident, ELFMAG, SELFMAG) || e->eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    e->eh->e_shentsize != sizeof(Elf64_Shdr)) {
		munmap(map, e->size);
		memset(e, 0, sizeof(*e));
		return -ENOEXEC;
	}
	return 0;
}

static inline void ustrace_elf_close(struct ustrace_elf *e)
{
	if (e->map)
		munmap((void *)e->map, e->size);
	memset(e, 0, sizeof(*e));
}

/* Section header @i, or NULL if the file does not hold it whole. */
static inline const Elf64_Shdr *ustrace_elf_shdr(const struct ustrace_elf *e, unsigned int i)
{
	uint64_t off = (uint64_t)i * sizeof(Elf64_Shdr);

	if (i >= e->eh->e_shnum || !ustrace_elf_has(e, e->eh->e_shoff, off + sizeof(Elf64_Shdr)))
		return NULL;
	return (const Elf64_Shdr *)(e->map + e->eh->e_shoff + off);
}

/* The section named @name, or NULL. */
static inline const Elf64_Shdr *ustrace_elf_section(const struct ustrace_elf *e, const char *name)
{
	const Elf64_Shdr *shstr = ustrace_elf_shdr(e, e->eh->e_shstrndx);
	size_t len = strlen(name);

	if (!shstr || !ustrace_elf_in_file(e, shstr))
		return NULL;
	for (unsigned int i = 0; i < e->eh->e_shnum; i++) {
		const Elf64_Shdr *s = ustrace_elf_shdr(e, i);

		if (s && s->sh_name < shstr->sh_size && shstr->sh_size - s->sh_name > len &&
		    !memcmp(e->map + shstr->sh_offset + s->sh_name, name, len + 1))
			return s;
	}
	return NULL;
}

/*
 * The symbols of the table @sec (a SHT_SYMTAB or SHT_DYNSYM section) and
 * its strings (the section @sec links to).  Return: 0, or -ENOEXEC when
 * they are not all in the file.
 */
static inline int ustrace_elf_symtab(const struct ustrace_elf *e, const Elf64_Shdr *sec,
				     const Elf64_Sym **syms, size_t *nr,
				     const char **strtab, size_t *strtab_size)
{
	const Elf64_Shdr *str;

	if (!ustrace_elf_in_file(e, sec))
		return -ENOEXEC;
	str = ustrace_elf_shdr(e, sec->sh_link);
	if (!str || !ustrace_elf_in_file(e, str))
		return -ENOEXEC;
	*syms = (const Elf64_Sym *)(e->map + sec->sh_offset);
	*nr = sec->sh_size / sizeof(Elf64_Sym);
	*strtab = (const char *)e->map + str->sh_offset;
	*strtab_size = str->sh_size;
	return 0;
}

/*
 * The object's symbol table: .symtab, else .dynsym (a stripped object),
 * into @e->syms and @e->strtab.  Return: 0, or -ENOEXEC without one.
 */
static inline int ustrace_elf_symbols(struct ustrace_elf *e)
{
	const Elf64_Shdr *sh = NULL;

	for (unsigned int want = SHT_SYMTAB; !sh && want; want = want == SHT_SYMTAB ? SHT_DYNSYM : 0)
		for (unsigned int i = 0; i < e->eh->e_shnum && !sh; i++) {
			const Elf64_Shdr *s = ustrace_elf_shdr(e, i);

			if (s && s->sh_type == want)
				sh = s;
		}
	if (!sh)
		return -ENOEXEC;
	return ustrace_elf_symtab(e, sh, &e->syms, &e->nr_syms, &e->strtab, &e->strtab_size);
}

#endif /* _USTRACE_USTRACE_ELF_H */
