// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program's trace.dat read back for the merge: version 7 as trace_dat.c
 * writes it (trace-cmd.dat.v7(5)), in the host's byte order, compression
 * "none".  The sections are found through the options, as trace-cmd finds
 * them; every offset and size is checked against the file's length.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <ustrace/trace_dat.h>

#include "ktrace.h"

struct cur {
	const unsigned char	*map;
	size_t			size, pos;
	bool			bad;
};

static const void *take(struct cur *c, size_t len)
{
	const void *p;

	if (c->bad || c->pos > c->size || len > c->size - c->pos) {
		c->bad = true;
		return NULL;
	}
	p = c->map + c->pos;
	c->pos += len;
	return p;
}

static uint64_t take_n(struct cur *c, size_t len)
{
	const void *p = take(c, len);
	uint64_t v = 0;
	uint32_t v4;
	uint16_t v2;

	if (!p)
		return 0;
	if (len == 2)
		memcpy(&v2, p, 2), v = v2;
	else if (len == 4)
		memcpy(&v4, p, 4), v = v4;
	else
		memcpy(&v, p, 8);
	return v;
}

static const char *take_str(struct cur *c)
{
	const char *s;
	const void *nul;

	if (c->bad || c->pos >= c->size) {
		c->bad = true;
		return "";
	}
	s = (const char *)c->map + c->pos;
	nul = memchr(s, '\0', c->size - c->pos);
	if (!nul) {
		c->bad = true;
		return "";
	}
	c->pos += (size_t)((const char *)nul - s) + 1;
	return s;
}

static char *dup_n(const void *p, size_t len)
{
	char *s = p ? malloc(len + 1) : NULL;

	if (s) {
		memcpy(s, p, len);
		s[len] = '\0';
	}
	return s;
}

/* A section's data at @off, past its header; false if it is not @id. */
static bool seek_section(struct cur *c, uint64_t off, unsigned int id)
{
	c->pos = (size_t)off;
	if (off > c->size || take_n(c, 2) != id) {
		c->bad = true;
		return false;
	}
	take(c, 2 + 4 + 8);
	return !c->bad;
}

static void read_headers(struct cur *c, struct kt_dat *d)
{
	uint64_t len;

	if (strcmp(take_str(c), "header_page"))
		c->bad = true;
	len = take_n(c, 8);
	d->header_page = dup_n(take(c, (size_t)len), (size_t)len);
	if (strcmp(take_str(c), "header_event"))
		c->bad = true;
	len = take_n(c, 8);
	d->header_event = dup_n(take(c, (size_t)len), (size_t)len);
}

static void read_formats(struct cur *c, struct kt_dat *d, const char *system, bool ftrace)
{
	struct trace_dat_format **tail = &d->formats;
	uint32_t n = (uint32_t)take_n(c, 4);

	while (*tail)
		tail = &(*tail)->next;
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		uint64_t len = take_n(c, 8);
		const char *text = take(c, (size_t)len);

		if (!text)
			break;
		*tail = trace_dat_format_new(system, text, (size_t)len, ftrace);
		if (!*tail) {
			c->bad = true;
			break;
		}
		tail = &(*tail)->next;
	}
}

static void read_systems(struct cur *c, struct kt_dat *d)
{
	uint32_t n = (uint32_t)take_n(c, 4);

	for (uint32_t i = 0; i < n && !c->bad; i++) {
		const char *system = take_str(c);

		read_formats(c, d, system, false);
	}
}

static void read_section(struct cur *c, struct kt_dat *d, unsigned int id, uint64_t off)
{
	struct cur s = *c;
	uint64_t len;

	if (!seek_section(&s, off, id)) {
		c->bad = true;
		return;
	}
	switch (id) {
	case TRACE_DAT_OPT_HEADER_INFO:
		read_headers(&s, d);
		break;
	case TRACE_DAT_OPT_FTRACE_EVENTS:
		read_formats(&s, d, "ftrace", true);
		break;
	case TRACE_DAT_OPT_EVENT_FORMATS:
		read_systems(&s, d);
		break;
	case TRACE_DAT_OPT_KALLSYMS:
		len = take_n(&s, 4);
		d->kallsyms = dup_n(take(&s, (size_t)len), (size_t)len);
		break;
	case TRACE_DAT_OPT_CMDLINES:
		len = take_n(&s, 8);
		d->cmdlines = dup_n(take(&s, (size_t)len), (size_t)len);
		d->cmdlines_len = (size_t)len;
		break;
	}
	c->bad |= s.bad;
}

static void read_buffer(struct cur *c, struct kt_dat *d, size_t end)
{
	uint32_t nr;

	take_n(c, 8);
	take_str(c);				/* "": the top instance */
	snprintf(d->clock, sizeof(d->clock), "%s", take_str(c));
	if (take_n(c, 4) != KT_PAGE_SIZE)
		c->bad = true;
	nr = (uint32_t)take_n(c, 4);
	if (c->bad || nr > 4096 || nr < (uint32_t)d->nr_cpus) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && c->pos < end; i++) {
		uint32_t cpu = (uint32_t)take_n(c, 4);
		uint64_t off = take_n(c, 8), size = take_n(c, 8);

		if (cpu >= (uint32_t)d->nr_cpus || off > d->map_size ||
		    size > d->map_size - off || size % KT_PAGE_SIZE) {
			c->bad = true;
			return;
		}
		d->cpus[cpu].pages = d->map + off;
		d->cpus[cpu].size = size;
	}
}

/* One options section at @off; returns the next one's offset (0: none). */
static uint64_t read_options(struct cur *c, struct kt_dat *d, uint64_t off, int *stat_cpu)
{
	if (!seek_section(c, off, TRACE_DAT_OPT_DONE))
		return 0;
	while (!c->bad) {
		unsigned int id = (unsigned int)take_n(c, 2);
		uint32_t size = (uint32_t)take_n(c, 4);
		size_t start = c->pos, end = start + size;
		uint32_t mode;

		if (c->bad || size > c->size - start)
			break;
		if (id == TRACE_DAT_OPT_DONE)
			return take_n(c, 8);
		if (id >= TRACE_DAT_OPT_HEADER_INFO && id <= TRACE_DAT_OPT_CMDLINES && size == 8)
			read_section(c, d, id, take_n(c, 8));
		else if (id == TRACE_DAT_OPT_CPUSTAT && *stat_cpu < d->nr_cpus)
			d->cpus[(*stat_cpu)++].stats = dup_n(take(c, size), size);
		else if (id == TRACE_DAT_OPT_TRACECLOCK)
			d->clock_list = dup_n(take(c, size), size);
		else if (id == TRACE_DAT_OPT_BUFFER)
			read_buffer(c, d, end);
		else if (id == TRACE_DAT_OPT_CLOCK_SCALE && size == 24) {
			mode = (uint32_t)take_n(c, 4);
			take_n(c, 4);
			d->scale_mult = take_n(c, 8);
			d->scale_offset = take_n(c, 8);
			d->scale_mode = mode;
			d->has_scale = true;
		} else if (id == 8 && size == 4) {
			d->nr_cpus = (int)take_n(c, 4);
		}
		c->pos = end;
	}
	return 0;
}

static int parse(struct kt_dat *d)
{
	struct cur c = { .map = d->map, .size = d->map_size };
	static const char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	int stat_cpu = 0;
	uint64_t next;

	if (memcmp(take(&c, 10) ?: "", magic, 10) || strcmp(take_str(&c), "7"))
		return kt_fail(-ENOEXEC, "not a trace.dat of version 7");
	take(&c, 2);
	if (take_n(&c, 4) != KT_PAGE_SIZE || strcmp(take_str(&c), "none"))
		return kt_fail(-ENOEXEC, "pages other than 4 KiB, or compressed");
	take_str(&c);
	next = take_n(&c, 8);
	/*
	 * CPUCOUNT comes after the CPUSTATs in the first options: know the
	 * count first (the data is per CPU), with a generous table.
	 */
	d->nr_cpus = 4096;
	d->cpus = calloc(4096, sizeof(*d->cpus));
	if (!d->cpus)
		return kt_fail(-ENOMEM, "out of memory");
	for (int n = 0; next && !c.bad && n < 16; n++)
		next = read_options(&c, d, next, &stat_cpu);
	if (c.bad || !d->header_page || !d->header_event || d->nr_cpus > 4096)
		return kt_fail(-ENOEXEC, "a damaged trace.dat");
	if (!d->cmdlines)
		d->cmdlines = strdup("");
	if (!d->kallsyms)
		d->kallsyms = strdup("");
	return 0;
}

/**
 * kt_dat_open - map and read a trace.dat of ours
 * @path: the file
 * @d:    filled in; kt_dat_close() it, whatever the result
 *
 * Return: 0, or -errno with the message set.
 */
int kt_dat_open(const char *path, struct kt_dat *d)
{
	struct stat st;
	int fd, err;

	memset(d, 0, sizeof(*d));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kt_fail(-errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || st.st_size < 64) {
		close(fd);
		return kt_fail(-ENOEXEC, "%s: not a trace.dat", path);
	}
	d->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		return kt_fail(-errno, "%s: %s", path, strerror(errno));
	}
	d->map_size = (size_t)st.st_size;
	err = parse(d);
	if (err)
		kt_fail(err, "%s: %s", path, ustrace_kernel_errmsg());
	return err;
}

void kt_dat_close(struct kt_dat *d)
{
	if (d->map)
		munmap(d->map, d->map_size);
	for (int cpu = 0; d->cpus && cpu < d->nr_cpus; cpu++)
		free((char *)d->cpus[cpu].stats);
	free(d->cpus);
	free((char *)d->header_page);
	free((char *)d->header_event);
	kt_formats_free(d->formats);
	free(d->kallsyms);
	free(d->cmdlines);
	free(d->clock_list);
	memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------------------------
 * Format lists
 */

struct trace_dat_format *trace_dat_format_new(const char *system, const char *text, size_t len,
					      bool ftrace)
{
	size_t slen = strlen(system);
	struct trace_dat_format *f = malloc(sizeof(*f) + len + 1 + slen + 1);

	if (!f)
		return NULL;
	f->next = NULL;
	f->ftrace = ftrace;
	f->len = len;
	memcpy(f->text, text, len);
	f->text[len] = '\0';
	memcpy(f->text + len + 1, system, slen + 1);
	f->system = f->text + len + 1;
	return f;
}

void kt_formats_free(struct trace_dat_format *f)
{
	while (f) {
		struct trace_dat_format *next = f->next;

		free(f);
		f = next;
	}
}

long kt_format_id(const struct trace_dat_format *f)
{
	const char *p = strstr(f->text, "\nID: ");

	return p ? strtol(p + 5, NULL, 10) : -1;
}
