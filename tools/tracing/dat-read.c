// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What ustrace record says about the file it leaves: the version, the
 * clock, and per CPU where its pages are and its stats, read from a
 * trace-cmd data file of version 6 or 7 (trace-cmd.dat.v6(5),
 * trace-cmd.dat.v7(5)).  Only the parts that lead there are parsed; every
 * offset and size taken from the file is checked against its length.
 * The file is in the host's byte order (we wrote it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ustrace/trace_dat.h>

#include "ustrace.h"

struct cursor {
	const unsigned char	*map;
	size_t			size;
	size_t			pos;
	bool			bad;
};

static const void *take(struct cursor *c, size_t len)
{
	const void *p;

	if (c->bad || len > c->size - c->pos) {
		c->bad = true;
		return NULL;
	}
	p = c->map + c->pos;
	c->pos += len;
	return p;
}

static uint64_t take_num(struct cursor *c, size_t len)
{
	const void *p = take(c, len);
	uint64_t v = 0;

	if (p) {
		uint16_t v2;
		uint32_t v4;

		if (len == 2) {
			memcpy(&v2, p, 2);
			v = v2;
		} else if (len == 4) {
			memcpy(&v4, p, 4);
			v = v4;
		} else {
			memcpy(&v, p, 8);
		}
	}
	return v;
}

static const char *take_str(struct cursor *c)
{
	const char *s = (const char *)c->map + c->pos;
	const void *nul = c->bad ? NULL : memchr(s, '\0', c->size - c->pos);

	if (!nul) {
		c->bad = true;
		return "";
	}
	c->pos += (size_t)((const char *)nul - s) + 1;
	return s;
}

static void seek(struct cursor *c, uint64_t pos)
{
	if (pos > c->size)
		c->bad = true;
	else
		c->pos = (size_t)pos;
}

static void skip_sized(struct cursor *c, size_t width)
{
	take(c, (size_t)take_num(c, width));
}

/* CPU @cpu's entry, made on first use; NULL for an unlikely CPU number. */
static struct dat_cpu *cpu_slot(struct dat_summary *d, int cpu)
{
	struct dat_cpu *cpus;

	if (cpu < 0 || cpu > 4096)
		return NULL;
	if (cpu >= d->nr_cpus) {
		cpus = realloc(d->cpus, (size_t)(cpu + 1) * sizeof(*cpus));
		if (!cpus)
			return NULL;
		memset(cpus + d->nr_cpus, 0, (size_t)(cpu + 1 - d->nr_cpus) * sizeof(*cpus));
		d->cpus = cpus;
		d->nr_cpus = cpu + 1;
	}
	return &d->cpus[cpu];
}

/* "CPU: N" first: the stats belong to CPU N. */
static void add_stats(struct dat_summary *d, const char *text, size_t len)
{
	struct dat_cpu *c;
	int cpu;

	if (sscanf(text, "CPU: %d", &cpu) != 1 || !(c = cpu_slot(d, cpu)))
		return;
	free(c->stats);
	c->stats = strndup(text, len);
}

static void set_cpu_data(struct dat_summary *d, int cpu, uint64_t offset, uint64_t size)
{
	struct dat_cpu *c = cpu_slot(d, cpu);

	if (c) {
		c->offset = offset;
		c->size = size;
	}
}

/* "[local] global ...": the bracketed one. */
static void set_clock(struct dat_summary *d, const char *text)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	if (close)
		snprintf(d->clock, sizeof(d->clock), "%.*s", (int)(close - open - 1), open + 1);
}

/* BUFFER: offset, name, clock, page size, CPUs, (cpu, offset, size) each. */
static void read_buffer_option(struct dat_summary *d, struct cursor *c)
{
	const char *name;
	uint32_t nr;

	take_num(c, 8);
	name = take_str(c);
	if (*name)
		return;		/* an instance: not ours */
	snprintf(d->clock, sizeof(d->clock), "%s", take_str(c));
	take_num(c, 4);
	nr = (uint32_t)take_num(c, 4);
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		int cpu = (int)take_num(c, 4);
		uint64_t off = take_num(c, 8), size = take_num(c, 8);

		set_cpu_data(d, cpu, off, size);
	}
}

/*
 * One option list: until DONE (version 7: which points to the next list,
 * returned in @next) or the 0 id of version 6.
 */
static void read_options(struct dat_summary *d, struct cursor *c, uint64_t *next)
{
	*next = 0;
	while (!c->bad) {
		uint16_t id = (uint16_t)take_num(c, 2);
		uint32_t size;
		struct cursor o;

		if (id == TRACE_DAT_OPT_DONE && d->version < 7)
			return;
		size = (uint32_t)take_num(c, 4);
		o = *c;
		o.size = c->pos + size <= c->size ? c->pos + size : c->size;
		take(c, size);
		if (c->bad)
			return;
		if (id == TRACE_DAT_OPT_DONE) {
			*next = take_num(&o, 8);
			return;
		}
		if (id == TRACE_DAT_OPT_CPUSTAT && size)
			add_stats(d, (const char *)o.map + o.pos, strnlen((const char *)o.map + o.pos, size));
		else if (id == TRACE_DAT_OPT_TRACECLOCK && size)
			set_clock(d, strndupa((const char *)o.map + o.pos, size));
		else if (id == TRACE_DAT_OPT_BUFFER && d->version >= 7)
			read_buffer_option(d, &o);
	}
}

/* Version 6: the parts in order, to the flyrecord table. */
static void read_v6(struct dat_summary *d, struct cursor *c)
{
	uint32_t n, nr_cpus;
	uint64_t next;

	for (int i = 0; i < 2; i++) {
		take_str(c);		/* "header_page", "header_event" */
		skip_sized(c, 8);
	}
	n = (uint32_t)take_num(c, 4);
	for (uint32_t i = 0; i < n && !c->bad; i++)
		skip_sized(c, 8);
	n = (uint32_t)take_num(c, 4);
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		uint32_t events;

		take_str(c);
		events = (uint32_t)take_num(c, 4);
		for (uint32_t j = 0; j < events && !c->bad; j++)
			skip_sized(c, 8);
	}
	skip_sized(c, 4);	/* kallsyms */
	skip_sized(c, 4);	/* printk formats */
	skip_sized(c, 8);	/* saved cmdlines */
	nr_cpus = (uint32_t)take_num(c, 4);
	if (c->bad || c->size - c->pos < 10)
		return;
	if (!memcmp(c->map + c->pos, "options  ", 10)) {
		take(c, 10);
		read_options(d, c, &next);
	}
	if (c->bad || c->size - c->pos < 10 || memcmp(c->map + c->pos, "flyrecord", 10)) {
		c->bad = true;
		return;
	}
	take(c, 10);
	for (uint32_t cpu = 0; cpu < nr_cpus && !c->bad; cpu++) {
		uint64_t off = take_num(c, 8), size = take_num(c, 8);

		set_cpu_data(d, (int)cpu, off, size);
	}
}

/* Version 7: the chain of options sections from the header's offset. */
static void read_v7(struct dat_summary *d, struct cursor *c)
{
	uint64_t next;
	int hops = 0;

	take_str(c);		/* compression */
	take_str(c);		/* and its version */
	next = take_num(c, 8);
	while (next && !c->bad && hops++ < 1000) {
		seek(c, next);
		if ((uint16_t)take_num(c, 2) != TRACE_DAT_OPT_DONE) {
			c->bad = true;
			return;
		}
		take(c, 14);	/* flags, string id, size */
		read_options(d, c, &next);
	}
}

/**
 * dat_read_summary - the version, clock and per-CPU data of a trace.dat
 * @path: the file
 * @d:    filled; free with dat_free_summary()
 *
 * Return: 0; -ENOEXEC (not a trace-cmd file of version 6 or 7, or
 * truncated); the errno of opening or mapping it.
 */
int dat_read_summary(const char *path, struct dat_summary *d)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cursor c = { 0 };
	struct stat st;
	const char *version;
	int fd, err = 0;

	memset(d, 0, sizeof(*d));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < 32) {
		close(fd);
		return -ENOEXEC;
	}
	c.size = (size_t)st.st_size;
	c.map = mmap(NULL, c.size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (c.map == MAP_FAILED)
		return -errno;
	if (memcmp(c.map, magic, sizeof(magic))) {
		err = -ENOEXEC;
		goto out;
	}
	c.pos = sizeof(magic);
	version = take_str(&c);
	d->version = atoi(version);
	take(&c, 2);		/* endianness, long size */
	d->page_size = (unsigned int)take_num(&c, 4);
	if (d->version == 6)
		read_v6(d, &c);
	else if (d->version == 7)
		read_v7(d, &c);
	else
		c.bad = true;
	for (int cpu = 0; cpu < d->nr_cpus && !c.bad; cpu++)
		if (d->cpus[cpu].offset > c.size ||
		    d->cpus[cpu].size > c.size - d->cpus[cpu].offset)
			c.bad = true;
	if (c.bad)
		err = -ENOEXEC;
out:
	munmap((void *)c.map, c.size);
	if (err)
		dat_free_summary(d);
	return err;
}

void dat_free_summary(struct dat_summary *d)
{
	for (int cpu = 0; cpu < d->nr_cpus; cpu++)
		free(d->cpus[cpu].stats);
	free(d->cpus);
	memset(d, 0, sizeof(*d));
}

/* A "NAME: N" line of a CPU's stats, 0 when missing. */
unsigned long long dat_stat(const struct dat_cpu *cpu, const char *name)
{
	size_t len = strlen(name);
	unsigned long long sum = 0;

	/* A merged file's CPUSTAT holds one text per program: their sum. */
	for (const char *p = cpu->stats; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ':')
			sum += strtoull(p + len + 1, NULL, 10);
	return sum;
}
