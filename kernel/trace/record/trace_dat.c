// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace-cmd data file writer.  Both versions start alike:
 *
 *	"\x17\x08\x44" "tracing" VERSION "\0" ENDIAN LONG_SIZE PAGE_SIZE(u32)
 *
 * Version 6 then lays the parts out in a fixed order, each with its size:
 *
 *	"header_page\0" u64 TEXT  "header_event\0" u64 TEXT
 *	u32 N (u64 FORMAT){N}				ftrace events
 *	u32 SYSTEMS (NAME "\0" u32 N (u64 FORMAT){N}){SYSTEMS}
 *	u32 KALLSYMS  u32 PRINTK  u64 CMDLINES		each with its text
 *	u32 CPUS "options  \0" (u16 ID u32 SIZE DATA)* u16 0
 *	"flyrecord\0" (u64 OFFSET u64 SIZE){CPUS} u64 CLOCK_TEXT
 *	padding to a page, each CPU's pages
 *
 * Version 7 names its compression ("none\0\0" here), points at its first
 * options section, and is a chain of sections, each "u16 ID, u16 FLAGS,
 * u32 STRING, u64 SIZE" and its data; trace-cmd finds the strings
 * section by walking the chain from the start, and the other sections
 * through the options:
 *
 *	headers(16) ftrace(17) events(18) kallsyms(19) printk(20) cmdlines(21)
 *	options(0): where those are, TRACECLOCK, UNAME, CPUSTAT per CPU,
 *		    CPUCOUNT, DONE -> the second options section
 *	flyrecord(3): padding to a page, each CPU's pages
 *	options(0): BUFFER (the flyrecord section, clock, each CPU's pages),
 *		    DONE -> 0
 *	strings(15): the sections' names
 *
 * Everything is written by one routine run twice: a dry run that only
 * counts bytes and notes where each part lands, then the real one, which
 * uses those offsets where a part points forward.  The numbers are in the
 * host's byte order, which the header declares.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <linux/ring_buffer.h>
#include <ustrace/trace_dat.h>

#include "trace_dat.h"

/*
 * The sections of a version 7 file, in file order, with their ids (a
 * section's id is that of the option that points to it).
 */
enum {
	SEC_HEADERS, SEC_FTRACE, SEC_EVENTS, SEC_KALLSYMS, SEC_PRINTK,
	SEC_CMDLINES, SEC_OPTIONS, SEC_FLYRECORD, SEC_BUFFER_OPTIONS,
	SEC_STRINGS, NR_SECS
};

static const struct {
	unsigned short	id;
	const char	*name;
} sections[NR_SECS] = {
	[SEC_HEADERS]		= { TRACE_DAT_OPT_HEADER_INFO, "headers" },
	[SEC_FTRACE]		= { TRACE_DAT_OPT_FTRACE_EVENTS, "ftrace events" },
	[SEC_EVENTS]		= { TRACE_DAT_OPT_EVENT_FORMATS, "events format" },
	[SEC_KALLSYMS]		= { TRACE_DAT_OPT_KALLSYMS, "kallsyms" },
	[SEC_PRINTK]		= { TRACE_DAT_OPT_PRINTK, "printk" },
	[SEC_CMDLINES]		= { TRACE_DAT_OPT_CMDLINES, "command lines" },
	[SEC_OPTIONS]		= { TRACE_DAT_OPT_DONE, "options" },
	[SEC_FLYRECORD]		= { TRACE_DAT_OPT_BUFFER, "buffer flyrecord" },
	[SEC_BUFFER_OPTIONS]	= { TRACE_DAT_OPT_DONE, "buffer options" },
	[SEC_STRINGS]		= { TRACE_DAT_OPT_STRINGS, "strings" },
};

#define DAT_PAGE_SIZE	RB_PAGE_SIZE
#define SEC_HDR_SIZE	16

/*
 * Where the parts land, noted by the dry run: the real run writes the
 * offsets and sizes that point forward from these.
 */
struct dat_layout {
	uint64_t	sec_off[NR_SECS];
	uint64_t	sec_size[NR_SECS];
	uint64_t	data_off;
};

struct dat_out {
	int			fd;
	bool			dry;
	int			err;
	uint64_t		off;
	struct dat_layout	*lay;
	const struct trace_dat_info *info;
	unsigned int		nr_formats;	/* the list as it was at the start */
};

static char copy_buf[64 * 1024] __attribute__((__aligned__(DAT_PAGE_SIZE)));
static const char zero_page[DAT_PAGE_SIZE];

/*
 * The descriptors are the recorder thread's, in a table of its own that
 * sanitizers modelling the process's descriptors do not know of: system
 * calls, not libc's wrappers (trace_record.c).
 */
static ssize_t dat_write(int fd, const void *buf, size_t len)
{
	return syscall(SYS_write, fd, buf, len);
}

static ssize_t dat_pread(int fd, void *buf, size_t len, off_t off)
{
	return syscall(SYS_pread64, fd, buf, len, off);
}

/* ------------------------------------------------------------------
 * Output
 */

static void out_bytes(struct dat_out *o, const void *buf, size_t len)
{
	const char *p = buf;

	o->off += len;
	if (o->dry || o->err)
		return;
	while (len) {
		ssize_t n = dat_write(o->fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->err = -errno;
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}

static void out_u16(struct dat_out *o, uint16_t v)
{
	out_bytes(o, &v, sizeof(v));
}

static void out_u32(struct dat_out *o, uint32_t v)
{
	out_bytes(o, &v, sizeof(v));
}

static void out_u64(struct dat_out *o, uint64_t v)
{
	out_bytes(o, &v, sizeof(v));
}

/* A string with its NUL. */
static void out_str(struct dat_out *o, const char *s)
{
	out_bytes(o, s, strlen(s) + 1);
}

static void out_zeroes(struct dat_out *o, uint64_t len)
{
	while (len) {
		size_t n = len < sizeof(zero_page) ? (size_t)len : sizeof(zero_page);

		out_bytes(o, zero_page, n);
		len -= n;
	}
}

static void out_pad_to_page(struct dat_out *o)
{
	out_zeroes(o, (DAT_PAGE_SIZE - o->off % DAT_PAGE_SIZE) % DAT_PAGE_SIZE);
}

/*
 * out_bytes() with O_DIRECT set on the file (its flags were *@fl): at the
 * first refusal (EINVAL: an offset, a size or a file system it does not
 * take), the flag is dropped, *@fl set to -1, and the rest written
 * through the page cache.
 */
static void out_direct(struct dat_out *o, const char *p, size_t len, long *fl)
{
	while (len && *fl >= 0) {
		ssize_t n = dat_write(o->fd, p, len);

		if (n > 0) {
			o->off += (uint64_t)n;
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EINVAL) {
			o->err = -errno;
			return;
		}
		syscall(SYS_fcntl, o->fd, F_SETFL, *fl);
		*fl = -1;
	}
	out_bytes(o, p, len);
}

/*
 * @len bytes of @fd from offset 0.  Through the caller's buffer, if it
 * gave one, with O_DIRECT on the file: a recording's gigabytes go to the
 * disk without filling the page cache first (and without the copy into
 * it, which on the test machine's fresh memory ran at ~350 MB/s).
 */
static void out_file(struct dat_out *o, int fd, uint64_t len)
{
	char *buf = o->info->copy_buf ? o->info->copy_buf : copy_buf;
	size_t size = o->info->copy_buf ? o->info->copy_size : sizeof(copy_buf);
	uint64_t pos = 0;
	long fl = -1;

	if (o->dry || o->err) {
		o->off += len;
		return;
	}
	if (o->info->copy_buf && !(o->off % DAT_PAGE_SIZE)) {
		fl = syscall(SYS_fcntl, o->fd, F_GETFL);
		if (fl < 0 || (fl & O_DIRECT) || syscall(SYS_fcntl, o->fd, F_SETFL, fl | O_DIRECT))
			fl = -1;
	}
	while (pos < len && !o->err) {
		size_t want = len - pos < size ? (size_t)(len - pos) : size;
		ssize_t n = dat_pread(fd, buf, want, (off_t)pos);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 ? -errno : -EIO;
			break;
		}
		if (fl >= 0)
			out_direct(o, buf, (size_t)n, &fl);
		else
			out_bytes(o, buf, (size_t)n);
		pos += (uint64_t)n;
	}
	if (fl >= 0)
		syscall(SYS_fcntl, o->fd, F_SETFL, fl);
}

/* ------------------------------------------------------------------
 * Parts common to both versions
 */

static uint32_t string_id(int sec)
{
	uint32_t id = 0;

	for (int i = 0; i < sec; i++)
		id += (uint32_t)strlen(sections[i].name) + 1;
	return id;
}

static void sec_begin(struct dat_out *o, int sec)
{
	if (o->info->version < 7)
		return;
	o->lay->sec_off[sec] = o->off;
	out_u16(o, sections[sec].id);
	out_u16(o, 0);
	out_u32(o, string_id(sec));
	out_u64(o, o->lay->sec_size[sec]);
}

static void sec_end(struct dat_out *o, int sec)
{
	if (o->info->version >= 7 && o->dry)
		o->lay->sec_size[sec] = o->off - o->lay->sec_off[sec] - SEC_HDR_SIZE;
}

static void out_headers(struct dat_out *o)
{
	sec_begin(o, SEC_HEADERS);
	out_bytes(o, "header_page", 12);
	out_u64(o, strlen(o->info->header_page));
	out_bytes(o, o->info->header_page, strlen(o->info->header_page));
	out_bytes(o, "header_event", 13);
	out_u64(o, strlen(o->info->header_event));
	out_bytes(o, o->info->header_event, strlen(o->info->header_event));
	sec_end(o, SEC_HEADERS);
}

/* The @i-th format of the list, i < nr_formats. */
#define for_each_format(o, f, i)						\
	for ((f) = (o)->info->formats, (i) = 0; (f) && (i) < (o)->nr_formats; \
	     (f) = __atomic_load_n(&(f)->next, __ATOMIC_ACQUIRE), (i)++)

static void out_ftrace_formats(struct dat_out *o)
{
	const struct trace_dat_format *f;
	unsigned int i;
	uint32_t n = 0;

	sec_begin(o, SEC_FTRACE);
	for_each_format(o, f, i)
		n += f->ftrace;
	out_u32(o, n);
	for_each_format(o, f, i) {
		if (!f->ftrace)
			continue;
		out_u64(o, f->len);
		out_bytes(o, f->text, f->len);
	}
	sec_end(o, SEC_FTRACE);
}

/* Whether a format before position @upto has @system (it was written). */
static bool system_seen(struct dat_out *o, const char *system, unsigned int upto)
{
	const struct trace_dat_format *f;
	unsigned int i;

	for_each_format(o, f, i) {
		if (i == upto)
			break;
		if (!f->ftrace && !strcmp(f->system, system))
			return true;
	}
	return false;
}

/* The systems in the order their first event came, each with its events. */
static void out_event_formats(struct dat_out *o)
{
	const struct trace_dat_format *f, *g;
	unsigned int i, j;
	uint32_t nr_systems = 0;

	sec_begin(o, SEC_EVENTS);
	for_each_format(o, f, i)
		nr_systems += !f->ftrace && !system_seen(o, f->system, i);
	out_u32(o, nr_systems);
	for_each_format(o, f, i) {
		uint32_t n = 0;

		if (f->ftrace || system_seen(o, f->system, i))
			continue;
		for_each_format(o, g, j)
			n += !g->ftrace && !strcmp(g->system, f->system);
		out_str(o, f->system);
		out_u32(o, n);
		for_each_format(o, g, j) {
			if (g->ftrace || strcmp(g->system, f->system))
				continue;
			out_u64(o, g->len);
			out_bytes(o, g->text, g->len);
		}
	}
	sec_end(o, SEC_EVENTS);
}

static void out_sized_text(struct dat_out *o, int sec, const char *text, size_t len,
			   bool wide)
{
	sec_begin(o, sec);
	if (wide)
		out_u64(o, len);
	else
		out_u32(o, (uint32_t)len);
	out_bytes(o, text, len);
	sec_end(o, sec);
}

static void out_metadata(struct dat_out *o)
{
	const struct trace_dat_info *info = o->info;

	out_headers(o);
	out_ftrace_formats(o);
	out_event_formats(o);
	out_sized_text(o, SEC_KALLSYMS, info->kallsyms, strlen(info->kallsyms), false);
	out_sized_text(o, SEC_PRINTK, info->printk ? info->printk : "",
		       info->printk ? strlen(info->printk) : 0, false);
	out_sized_text(o, SEC_CMDLINES, info->cmdlines, info->cmdlines_len, true);
}

static void out_option(struct dat_out *o, uint16_t id, const void *data, uint32_t size)
{
	out_u16(o, id);
	out_u32(o, size);
	out_bytes(o, data, size);
}

static void out_option_str(struct dat_out *o, uint16_t id, const char *s)
{
	out_option(o, id, s, (uint32_t)strlen(s) + 1);
}

/* TRACECLOCK, UNAME and a CPUSTAT per CPU: both versions have them. */
static void out_common_options(struct dat_out *o)
{
	const struct trace_dat_info *info = o->info;

	out_option_str(o, TRACE_DAT_OPT_TRACECLOCK, info->clock_list);
	if (info->uname)
		out_option_str(o, TRACE_DAT_OPT_UNAME, info->uname);
	for (int cpu = 0; cpu < info->nr_cpus; cpu++) {
		const struct trace_dat_cpu *c = &info->cpus[cpu];

		/* trace-cmd turns the last byte into a newline: keep a NUL there. */
		out_u16(o, TRACE_DAT_OPT_CPUSTAT);
		out_u32(o, (uint32_t)c->stats_len + 1);
		out_bytes(o, c->stats, c->stats_len);
		out_bytes(o, "", 1);
	}
	if (info->clock_scale) {
		uint32_t mode[2] = { info->scale_mode, 0 };

		out_u16(o, TRACE_DAT_OPT_CLOCK_SCALE);
		out_u32(o, 24);
		out_bytes(o, mode, sizeof(mode));
		out_u64(o, info->scale_mult);
		out_u64(o, info->scale_offset);
	}
}

/* Each CPU's pages, back to back from a page boundary. */
static void out_cpu_data(struct dat_out *o)
{
	out_pad_to_page(o);
	if (o->dry)
		o->lay->data_off = o->off;
	for (int cpu = 0; cpu < o->info->nr_cpus; cpu++)
		out_file(o, o->info->cpus[cpu].fd, o->info->cpus[cpu].size);
}

/* Where CPU @cpu's pages are (from the dry run's data offset). */
static uint64_t cpu_data_off(struct dat_out *o, int cpu)
{
	uint64_t off = o->lay->data_off;

	for (int i = 0; i < cpu; i++)
		off += o->info->cpus[i].size;
	return off;
}

/* ------------------------------------------------------------------
 * Version 6
 */

static void out_v6(struct dat_out *o)
{
	const struct trace_dat_info *info = o->info;
	int cpu;

	out_metadata(o);
	out_u32(o, (uint32_t)info->nr_cpus);
	out_bytes(o, "options  ", 10);
	out_common_options(o);
	out_u16(o, TRACE_DAT_OPT_DONE);
	out_bytes(o, "flyrecord", 10);
	for (cpu = 0; cpu < info->nr_cpus; cpu++) {
		out_u64(o, cpu_data_off(o, cpu));
		out_u64(o, info->cpus[cpu].size);
	}
	/* A TRACECLOCK option says the clock's text follows the table too. */
	out_u64(o, strlen(info->clock_list));
	out_bytes(o, info->clock_list, strlen(info->clock_list));
	out_cpu_data(o);
}

/* ------------------------------------------------------------------
 * Version 7
 */

static void out_section_pointer(struct dat_out *o, uint16_t id, int sec)
{
	out_u16(o, id);
	out_u32(o, 8);
	out_u64(o, o->lay->sec_off[sec]);
}

static void out_v7_options(struct dat_out *o)
{
	uint32_t nr_cpus = (uint32_t)o->info->nr_cpus;

	sec_begin(o, SEC_OPTIONS);
	for (int sec = SEC_HEADERS; sec <= SEC_CMDLINES; sec++)
		out_section_pointer(o, sections[sec].id, sec);
	out_common_options(o);
	out_option(o, TRACE_DAT_OPT_CPUCOUNT, &nr_cpus, sizeof(nr_cpus));
	out_section_pointer(o, TRACE_DAT_OPT_DONE, SEC_BUFFER_OPTIONS);
	sec_end(o, SEC_OPTIONS);
}

/* BUFFER: "" (the top instance), its clock and each CPU's pages. */
static void out_v7_buffer_options(struct dat_out *o)
{
	const struct trace_dat_info *info = o->info;
	uint32_t size = 8 + 1 + (uint32_t)strlen(info->clock) + 1 + 4 + 4 +
			(uint32_t)info->nr_cpus * (4 + 8 + 8);

	sec_begin(o, SEC_BUFFER_OPTIONS);
	out_u16(o, TRACE_DAT_OPT_BUFFER);
	out_u32(o, size);
	out_u64(o, o->lay->sec_off[SEC_FLYRECORD]);
	out_str(o, "");
	out_str(o, info->clock);
	out_u32(o, DAT_PAGE_SIZE);
	out_u32(o, (uint32_t)info->nr_cpus);
	for (int cpu = 0; cpu < info->nr_cpus; cpu++) {
		out_u32(o, (uint32_t)cpu);
		out_u64(o, cpu_data_off(o, cpu));
		out_u64(o, info->cpus[cpu].size);
	}
	out_u16(o, TRACE_DAT_OPT_DONE);
	out_u32(o, 8);
	out_u64(o, 0);
	sec_end(o, SEC_BUFFER_OPTIONS);
}

static void out_v7(struct dat_out *o)
{
	out_bytes(o, "none", 5);
	out_bytes(o, "", 1);
	out_u64(o, o->lay->sec_off[SEC_OPTIONS]);
	out_metadata(o);
	out_v7_options(o);
	sec_begin(o, SEC_FLYRECORD);
	out_cpu_data(o);
	sec_end(o, SEC_FLYRECORD);
	out_v7_buffer_options(o);
	sec_begin(o, SEC_STRINGS);
	for (int sec = 0; sec < NR_SECS; sec++)
		out_str(o, sections[sec].name);
	sec_end(o, SEC_STRINGS);
}

static void out_file_header(struct dat_out *o)
{
	const char magic[] = { 0x17, 0x08, 0x44 };
	const char version[2] = { (char)('0' + o->info->version), '\0' };
	const char endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	const char long_size = sizeof(long);

	out_bytes(o, magic, sizeof(magic));
	out_bytes(o, "tracing", 7);
	out_bytes(o, version, sizeof(version));
	out_bytes(o, &endian, 1);
	out_bytes(o, &long_size, 1);
	out_u32(o, DAT_PAGE_SIZE);
}

static void out_all(struct dat_out *o)
{
	o->off = 0;
	out_file_header(o);
	if (o->info->version >= 7)
		out_v7(o);
	else
		out_v6(o);
}

/**
 * trace_dat_write - write a trace-cmd data file
 * @fd:   an empty file, open for writing
 * @info: what goes into it
 *
 * The format list is taken as it is when the call starts: formats added
 * meanwhile are not written.
 *
 * Return: 0, -EINVAL (a version other than 6 or 7), or the negative errno
 * of a failed write or read.
 * Context: async-signal-safe; not reentrant.
 */
int trace_dat_write(int fd, const struct trace_dat_info *info)
{
	const struct trace_dat_format *f;
	struct dat_layout lay;
	struct dat_out o = { .fd = fd, .dry = true, .lay = &lay, .info = info };

	memset(&lay, 0, sizeof(lay));

	if (info->version != 6 && info->version != 7)
		return -EINVAL;
	for (f = info->formats; f; f = __atomic_load_n(&f->next, __ATOMIC_ACQUIRE))
		o.nr_formats++;
	out_all(&o);
	o.dry = false;
	out_all(&o);
	return o.err;
}
