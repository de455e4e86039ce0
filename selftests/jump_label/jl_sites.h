/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers for the jump label selftests: find this program's jump entries,
 * read the live bytes of a site and the bytes the compiler left in the file,
 * and decode the few instructions a site or its stub may hold.
 *
 * A site, as <asm-x86/jump_label.h> lays it out:
 *
 *   site:  e9 <rel32>            jmp stub     (as compiled)
 *          0f 1f 44 00 00        nopl 0x0(%rax,%rax,1)   (patched, key off)
 *          e9 <rel32>            jmp target   (patched, key on)
 *
 *   stub:  80 3d <disp32> 00     cmpb $0x0, state(%rip)
 *          0f 85 <rel32>         jne  target
 *          e9 <rel32>            jmp  site+5
 */
#ifndef _SELFTESTS_JUMP_LABEL_JL_SITES_H
#define _SELFTESTS_JUMP_LABEL_JL_SITES_H

#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/jump_label.h>

#ifdef __USTRACE_HAVE_JUMP_LABEL
/* The same declarations <linux/jump_label.h> makes for its constructor. */
extern struct jump_entry __start___ustrace_jump_table[]
	__attribute__((__weak__, __visibility__("hidden")));
extern struct jump_entry __stop___ustrace_jump_table[]
	__attribute__((__weak__, __visibility__("hidden")));
#endif

#define JL_SITE_SIZE	5
#define JL_MAX_SITES	64

static const unsigned char jl_nop5[JL_SITE_SIZE] = {
	0x0f, 0x1f, 0x44, 0x00, 0x00
};

/* Were this file's sites compiled as patchable jump label sites? */
static inline bool jl_have_sites(void)
{
#ifdef __USTRACE_HAVE_JUMP_LABEL
	return true;
#else
	return false;
#endif
}

/* Fill @out with this program's entries for @key; return how many. */
static inline int jl_entries_of(const struct static_key *key,
				struct jump_entry **out, int max)
{
	int n = 0;
#ifdef __USTRACE_HAVE_JUMP_LABEL
	struct jump_entry *e;

	for (e = __start___ustrace_jump_table;
	     e && e < __stop___ustrace_jump_table; e++)
		if (e->key == (unsigned long)key && n < max)
			out[n++] = e;
#else
	(void)key;
	(void)out;
	(void)max;
#endif
	return n;
}

/* The byte the fallback stub tests (byte 0 of ->state). */
static inline unsigned char jl_state(const struct jump_entry *e)
{
	return __atomic_load_n((const unsigned char *)&e->state,
			       __ATOMIC_ACQUIRE);
}

static inline void jl_read_live(const struct jump_entry *e,
				unsigned char b[JL_SITE_SIZE])
{
	const volatile unsigned char *p = (const volatile unsigned char *)e->code;
	int i;

	for (i = 0; i < JL_SITE_SIZE; i++)
		b[i] = p[i];
}

static inline int32_t jl_rel32(const unsigned char *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Where "e9 rel32" at @addr jumps to. */
static inline unsigned long jl_jmp_dest(unsigned long addr,
					const unsigned char b[JL_SITE_SIZE])
{
	return addr + JL_SITE_SIZE + (long)jl_rel32(b + 1);
}

/* A readable line for the five bytes @b found at @addr. */
static inline const char *jl_decode(unsigned long addr,
				    const unsigned char b[JL_SITE_SIZE],
				    char *buf, size_t size)
{
	int len = snprintf(buf, size, "%02x %02x %02x %02x %02x  ",
			   b[0], b[1], b[2], b[3], b[4]);

	if (len < 0 || (size_t)len >= size)
		return buf;
	if (!memcmp(b, jl_nop5, JL_SITE_SIZE))
		snprintf(buf + len, size - len, "nopl 0x0(%%rax,%%rax,1)");
	else if (b[0] == 0xe9)
		snprintf(buf + len, size - len, "jmp 0x%lx",
			 jl_jmp_dest(addr, b));
	else if (b[0] == 0xcc)
		snprintf(buf + len, size - len, "int3 (a patch in progress)");
	else
		snprintf(buf + len, size - len, "(not a site instruction)");
	return buf;
}

struct jl_file_lookup {
	unsigned long addr;
	char path[4096];
	off_t offset;
	bool found;
};

static inline int jl_find_file_offset(struct dl_phdr_info *info, size_t size,
				      void *arg)
{
	struct jl_file_lookup *fl = arg;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		unsigned long start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || fl->addr < start ||
		    fl->addr + JL_SITE_SIZE > start + ph->p_filesz)
			continue;
		fl->offset = ph->p_offset + (fl->addr - start);
		snprintf(fl->path, sizeof(fl->path), "%s",
			 info->dlpi_name && info->dlpi_name[0] ?
			 info->dlpi_name : "/proc/self/exe");
		fl->found = true;
		return 1;
	}
	return 0;
}

/*
 * The bytes the compiler and linker left at @addr, read from the file the
 * code was mapped from.  Returns 0 or -1.
 */
static inline int jl_read_file(unsigned long addr, unsigned char *b, size_t n)
{
	struct jl_file_lookup fl = { .addr = addr };
	ssize_t got;
	int fd;

	dl_iterate_phdr(jl_find_file_offset, &fl);
	if (!fl.found)
		return -1;
	fd = open(fl.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = pread(fd, b, n, fl.offset);
	close(fd);
	return got == (ssize_t)n ? 0 : -1;
}

/* What the out-of-line stub at @stub tests and where it goes. */
struct jl_stub {
	unsigned long state;	/* address of the byte compared with 0 */
	unsigned long yes;	/* jne target */
	unsigned long no;	/* the final jmp's target */
};

/*
 * Decode the stub from memory.  Returns 0, or -1 when the bytes are not the
 * expected cmpb/jne/jmp sequence (short branch forms accepted).
 */
static inline int jl_decode_stub(unsigned long stub, struct jl_stub *out)
{
	const unsigned char *p = (const unsigned char *)stub;
	unsigned long ip;

	if (p[0] != 0x80 || p[1] != 0x3d || p[6] != 0x00)
		return -1;
	ip = stub + 7;
	out->state = ip + (long)jl_rel32(p + 2);
	p = (const unsigned char *)ip;
	if (p[0] == 0x0f && p[1] == 0x85) {
		ip += 6;
		out->yes = ip + (long)jl_rel32(p + 2);
	} else if (p[0] == 0x75) {
		ip += 2;
		out->yes = ip + (long)(signed char)p[1];
	} else {
		return -1;
	}
	p = (const unsigned char *)ip;
	if (p[0] == 0xe9)
		out->no = ip + 5 + (long)jl_rel32(p + 1);
	else if (p[0] == 0xeb)
		out->no = ip + 2 + (long)(signed char)p[1];
	else
		return -1;
	return 0;
}

#endif /* _SELFTESTS_JUMP_LABEL_JL_SITES_H */
