// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One ELF reader for the library (kernel/internal.h): an object's file
 * mapped whole, its section headers and its symbol table, every offset
 * and size taken from the file checked against its length.  The stack
 * traces' and %ps's symbols (kernel/trace/trace_stack.c, trace_syms.c)
 * read their objects with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "../internal.h"

int ustrace_elf_open(struct ustrace_elf *e, const char *path)
{
	const Elf64_Ehdr *eh;
	struct stat st;
	void *map;
	int fd, err = 0;

	memset(e, 0, sizeof(*e));
	fd = open(*path ? path : "/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -EINVAL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		err = -errno;
	close(fd);
	if (err)
		return err;
	eh = map;
	if ((size_t)st.st_size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr)) {
		munmap(map, (size_t)st.st_size);
		return -EINVAL;
	}
	e->map = map;
	e->size = (size_t)st.st_size;
	e->eh = eh;
	return 0;
}

void ustrace_elf_close(struct ustrace_elf *e)
{
	if (e->map)
		munmap((void *)e->map, e->size);
	memset(e, 0, sizeof(*e));
}

bool ustrace_elf_in_file(const struct ustrace_elf *e, const Elf64_Shdr *s)
{
	return s->sh_offset <= e->size && s->sh_size <= e->size - s->sh_offset;
}

const Elf64_Shdr *ustrace_elf_shdr(const struct ustrace_elf *e, unsigned int i)
{
	uint64_t off = (uint64_t)i * sizeof(Elf64_Shdr);

	if (i >= e->eh->e_shnum || e->eh->e_shoff > e->size ||
	    off + sizeof(Elf64_Shdr) > e->size - e->eh->e_shoff)
		return NULL;
	return (const Elf64_Shdr *)(e->map + e->eh->e_shoff + off);
}

const Elf64_Shdr *ustrace_elf_section(const struct ustrace_elf *e, const char *name)
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

int ustrace_elf_symbols(struct ustrace_elf *e)
{
	const Elf64_Shdr *sh = NULL, *str;

	for (unsigned int want = SHT_SYMTAB; !sh && want; want = want == SHT_SYMTAB ? SHT_DYNSYM : 0)
		for (unsigned int i = 0; i < e->eh->e_shnum && !sh; i++) {
			const Elf64_Shdr *s = ustrace_elf_shdr(e, i);

			if (s && s->sh_type == want)
				sh = s;
		}
	if (!sh || !ustrace_elf_in_file(e, sh))
		return -EINVAL;
	str = ustrace_elf_shdr(e, sh->sh_link);
	if (!str || !ustrace_elf_in_file(e, str))
		return -EINVAL;
	e->strtab = (const char *)e->map + str->sh_offset;
	e->strtab_size = str->sh_size;
	e->syms = (const Elf64_Sym *)(e->map + sh->sh_offset);
	e->nr_syms = sh->sh_size / sizeof(*e->syms);
	return 0;
}
