// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One trace.dat from the kernel's pages and programs' files: per CPU, the
 * events of every source in time order, in pages of the kernel's format,
 * so that trace-cmd and KernelShark see one buffer whose CPUs hold both
 * kinds (KernelShark's sched plugin then builds its task plots from the
 * kernel's sched_switch, and the program's events are on them).
 *
 * A page of either source (events/header_page, header_event):
 *
 *	u64 timestamp; u64 commit (bit 31: events were lost before it,
 *	bit 30: their count is stored after the data); data[commit]
 *	event: u32 type_len:5, time_delta:27; then by type_len
 *	  1..28  data of type_len * 4 bytes	0  u32 length, data
 *	  29     padding (time_delta 0: the rest of the page)
 *	  30     time extend: u32 delta >> 27	31 absolute stamp, likewise
 *
 * Every data event is decoded to (time, bytes), and written anew with the
 * delta from its predecessor in the merged stream (a time extend where it
 * does not fit 27 bits).  A page that followed a loss starts a new page,
 * which carries the flag and the count: trace-cmd prints "[N EVENTS
 * DROPPED]" where they were lost.
 *
 * Event ids: formats are per file, and a program's ids (from 21 up, as
 * its event registry gives them) would collide with the kernel's.  The
 * kernel's ids are kept (they are the machine's, seen in its tracefs);
 * each program's are moved up by a multiple of 1000 above the highest id
 * already in the file: the format's "ID:" line and each record's
 * common_type (through a map per program).  An event whose format an
 * earlier program brought already (one program run by many processes)
 * takes that one's id instead.  The ftrace formats (print, raw_data: ids
 * below 21, the kernel's own) keep theirs.  Without the kernel (ustrace
 * record of a process tree: the programs' files alone) the first program
 * keeps its ids.
 *
 * Time: the kernel's x86-tsc stamps are raw TSC cycles; a program's local
 * clock is offset + ((tsc * mult) >> 32) with the program's mult and offset
 * (the file's clock scale option), so the kernel's stamps are mapped onto
 * the first program's clock with the same arithmetic: both sides read the
 * same counter, and the disagreement is the rounding (< 1 ns).  A second
 * program's stamps go back to cycles through its own scale, then onto the
 * first's.  Other clocks (mono, mono_raw, boot) are the same clock on
 * both sides and are taken as they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/utsname.h>

#include "ktrace.h"

#define PAGE_DATA	(KT_PAGE_SIZE - 16)
#define MISSED_EVENTS	(1ull << 31)
#define MISSED_STORED	(1ull << 30)
#define COMMIT_MASK	((1ull << 27) - 1)
#define TS_BITS		27
#define TS_MASK		((1ull << TS_BITS) - 1)

enum { T_PADDING = 29, T_EXTEND = 30, T_STAMP = 31 };

/* How a source's stamps become the file's. */
struct ts_map {
	int		kind;		/* MAP_* */
	uint64_t	to_mult, to_offset;	/* the file's local clock */
	uint64_t	from_mult, from_offset;	/* this source's, inverted */
};

enum { MAP_SAME, MAP_TSC, MAP_LOCAL };

struct src {
	const unsigned char	*pages;
	uint64_t		size, next_page;
	const unsigned char	*data;
	size_t			commit, pos;
	uint64_t		ts;
	uint64_t		missed;		/* lost before the next record */
	bool			lost;
	struct ts_map		map;
	const uint16_t		*id_map;	/* NULL: ids as they are */
	long			nr_ids;		/* entries of @id_map */
	/* the record at hand */
	bool			has;
	uint64_t		rec_ts;
	const unsigned char	*rec;
	size_t			rec_len;
	bool			rec_lost;
	uint64_t		rec_missed;
};

struct out {
	int		fd;
	uint64_t	size;
	unsigned char	page[KT_PAGE_SIZE];
	size_t		len;
	uint64_t	last_ts;
	bool		open, lost;
	uint64_t	missed;
	int		err;
};

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint64_t map_ts(const struct ts_map *m, uint64_t ts)
{
	if (m->kind == MAP_LOCAL)
		ts = (uint64_t)(((unsigned __int128)(ts - m->from_offset) << 32) / m->from_mult);
	if (m->kind == MAP_SAME)
		return ts;
	return m->to_offset + (uint64_t)(((unsigned __int128)ts * m->to_mult) >> 32);
}

/* The next page of @s; false at the end. */
static bool src_page(struct src *s)
{
	uint64_t commit;

	if (s->next_page + KT_PAGE_SIZE > s->size)
		return false;
	s->data = s->pages + s->next_page;
	s->next_page += KT_PAGE_SIZE;
	s->ts = rd64(s->data);
	commit = rd64(s->data + 8);
	s->commit = (size_t)(commit & COMMIT_MASK);
	if (s->commit > PAGE_DATA)
		s->commit = 0;			/* damaged: skip the page */
	s->pos = 0;
	if (commit & MISSED_EVENTS) {
		s->lost = true;
		if ((commit & MISSED_STORED) && s->commit + 8 <= PAGE_DATA)
			s->missed += rd64(s->data + 16 + s->commit);
	}
	return true;
}

/* 59-bit absolute stamps take the top bits from the current time. */
static uint64_t abs_ts(uint64_t abs, uint64_t now)
{
	const uint64_t msb = 1ull << 59;

	abs |= now & ~(msb - 1);
	if (abs < now)
		abs += msb;
	return abs;
}

/* Move @s to its next data event; s->has says whether there is one. */
static void src_next(struct src *s)
{
	s->has = false;
	for (;;) {
		const unsigned char *ev;
		uint32_t h, type, delta, arr;
		size_t len;

		if (!s->data || s->pos + 4 > s->commit) {
			if (!src_page(s))
				return;
			continue;
		}
		ev = s->data + 16 + s->pos;
		h = rd32(ev);
		type = h & 31;
		delta = h >> 5;
		arr = s->pos + 8 <= s->commit ? rd32(ev + 4) : 0;
		if (type == T_PADDING && !delta) {
			s->pos = s->commit;
			continue;
		}
		len = type == T_PADDING || type == 0 ? 4 + (size_t)arr :
		      type >= T_EXTEND ? 8 : 4 + (size_t)type * 4;
		len = (len + 3) & ~(size_t)3;
		if (len < 4 || len > s->commit - s->pos) {
			s->pos = s->commit;	/* damaged: the rest of the page */
			continue;
		}
		s->pos += len;
		if (type == T_PADDING)
			continue;
		if (type == T_EXTEND) {
			s->ts += delta | ((uint64_t)arr << TS_BITS);
			continue;
		}
		if (type == T_STAMP) {
			s->ts = abs_ts(delta | ((uint64_t)arr << TS_BITS), s->ts);
			continue;
		}
		if (type == 0 && arr < 4)
			continue;
		s->ts += delta;
		s->has = true;
		s->rec = ev;
		s->rec_len = len;
		s->rec_ts = map_ts(&s->map, s->ts);
		s->rec_lost = s->lost;
		s->rec_missed = s->missed;
		s->lost = false;
		s->missed = 0;
		return;
	}
}

/* ------------------------------------------------------------------
 * Output pages
 */

static void out_flush(struct out *o)
{
	uint64_t commit = o->len;

	if (!o->open)
		return;
	if (o->lost) {
		commit |= MISSED_EVENTS;
		if (o->missed && o->len + 8 <= PAGE_DATA) {
			memcpy(o->page + 16 + o->len, &o->missed, 8);
			commit |= MISSED_STORED;
		}
	}
	memcpy(o->page + 8, &commit, 8);
	if (!o->err && pwrite(o->fd, o->page, KT_PAGE_SIZE, (off_t)o->size) != KT_PAGE_SIZE)
		o->err = -(errno ? errno : ENOSPC);
	o->size += KT_PAGE_SIZE;
	o->open = false;
}

static void out_start(struct out *o, uint64_t ts, bool lost, uint64_t missed)
{
	memset(o->page, 0, sizeof(o->page));
	memcpy(o->page, &ts, 8);
	o->len = 0;
	o->last_ts = ts;
	o->open = true;
	o->lost = lost;
	o->missed = missed;
}

static void out_u32(struct out *o, uint32_t v)
{
	memcpy(o->page + 16 + o->len, &v, 4);
	o->len += 4;
}

/* The record of @s, its id moved by the source's offset. */
static void out_record(struct out *o, const struct src *s)
{
	uint64_t ts = s->rec_ts, delta;
	uint32_t h = rd32(s->rec), type = h & 31;
	size_t room = PAGE_DATA - 8, body = s->rec_len - 4, need;

	if (o->open && s->rec_lost)
		out_flush(o);
	delta = o->open && ts > o->last_ts ? ts - o->last_ts : 0;
	need = s->rec_len + (delta > TS_MASK ? 8 : 0);
	if (o->open && o->len + need > room)
		out_flush(o);
	if (!o->open) {
		out_start(o, ts, s->rec_lost, s->rec_missed);
		delta = 0;
	}
	if (delta > TS_MASK) {
		out_u32(o, T_EXTEND | (uint32_t)(delta & TS_MASK) << 5);
		out_u32(o, (uint32_t)(delta >> TS_BITS));
		delta = 0;
	}
	out_u32(o, type | (uint32_t)delta << 5);
	memcpy(o->page + 16 + o->len, s->rec + 4, body);
	if (s->id_map) {
		unsigned char *id = o->page + 16 + o->len + (type == 0 ? 4 : 0);
		uint16_t v;

		memcpy(&v, id, 2);
		if (v >= 21 && v < s->nr_ids && s->id_map[v]) {
			v = s->id_map[v];
			memcpy(id, &v, 2);
		}
	}
	o->len += body;
	if (ts > o->last_ts)
		o->last_ts = ts;
}

/* CPU @cpu of every source, in time order, into @o. */
static int merge_cpu(struct src *srcs, int nr, struct out *o)
{
	for (int i = 0; i < nr; i++)
		src_next(&srcs[i]);
	for (;;) {
		struct src *best = NULL;

		for (int i = 0; i < nr; i++)
			if (srcs[i].has && (!best || srcs[i].rec_ts < best->rec_ts))
				best = &srcs[i];
		if (!best)
			break;
		out_record(o, best);
		src_next(best);
	}
	out_flush(o);
	return o->err;
}

/* ------------------------------------------------------------------
 * Formats, clocks, stats
 */

static long max_id(const struct trace_dat_format *f)
{
	long max = 20;

	for (; f; f = f->next)
		if (kt_format_id(f) > max)
			max = kt_format_id(f);
	return max;
}

/* @f with its id moved by @offset. */
static struct trace_dat_format *format_moved(const struct trace_dat_format *f, long offset)
{
	const char *p = strstr(f->text, "\nID: ");
	char *text, *end;
	long id;
	size_t len;
	struct trace_dat_format *n;

	if (!p || !offset)
		return trace_dat_format_new(f->system, f->text, f->len, f->ftrace);
	id = strtol(p + 5, &end, 10);
	text = malloc(f->len + 32);
	if (!text)
		return NULL;
	len = (size_t)(p + 5 - f->text);
	memcpy(text, f->text, len);
	len += (size_t)sprintf(text + len, "%ld", id + offset);
	memcpy(text + len, end, f->len - (size_t)(end - f->text));
	len += f->len - (size_t)(end - f->text);
	n = trace_dat_format_new(f->system, text, len, f->ftrace);
	free(text);
	return n;
}

static struct trace_dat_format **append(struct trace_dat_format **tail,
					struct trace_dat_format *f)
{
	if (!f)
		return NULL;
	*tail = f;
	return &f->next;
}

/* @a and @b, but for their "ID: N" lines, and of one system. */
static bool same_format(const struct trace_dat_format *a, const struct trace_dat_format *b)
{
	const char *pa = strstr(a->text, "\nID: "), *pb = strstr(b->text, "\nID: ");
	const char *ea, *eb;

	if (!pa || !pb || strcmp(a->system, b->system) || pa - a->text != pb - b->text ||
	    memcmp(a->text, b->text, (size_t)(pa - a->text)))
		return false;
	ea = strchr(pa + 1, '\n');
	eb = strchr(pb + 1, '\n');
	ea = ea ? ea : a->text + a->len;
	eb = eb ? eb : b->text + b->len;
	return a->len - (size_t)(ea - a->text) == b->len - (size_t)(eb - b->text) &&
	       !memcmp(ea, eb, a->len - (size_t)(ea - a->text));
}

/*
 * The file's formats: the first program's ftrace ones, the kernel's, then
 * each program's, its ids mapped (@maps, @nr_ids): an event whose format
 * an earlier program placed already (the same program, run many times)
 * takes that one's id; the others are moved up by a multiple of 1000 above
 * the highest id so far.  Without the kernel (@nokernel) the first
 * program keeps its ids.
 */
static int build_formats(struct ustrace_kernel *k, struct kt_dat *in, int nr_in,
			 bool nokernel, uint16_t **maps, long *nr_ids,
			 struct trace_dat_format **list)
{
	struct trace_dat_format **tail = list, **progs;
	long max, offset, id;

	*list = NULL;
	for (const struct trace_dat_format *f = nr_in ? in[0].formats : NULL; f; f = f->next)
		if (f->ftrace && !(tail = append(tail, format_moved(f, 0))))
			return -ENOMEM;
	for (const struct trace_dat_format *f = k->formats; f; f = f->next)
		if (!(tail = append(tail, format_moved(f, 0))))
			return -ENOMEM;
	progs = tail;
	for (int i = 0; i < nr_in; i++) {
		max = max_id(*list);
		offset = nokernel && !i ? 0 : (max / 1000 + 1) * 1000;
		nr_ids[i] = max_id(in[i].formats) + 1;
		maps[i] = calloc((size_t)nr_ids[i], sizeof(**maps));
		if (!maps[i])
			return -ENOMEM;
		for (const struct trace_dat_format *f = in[i].formats; f; f = f->next) {
			const struct trace_dat_format *same = NULL;

			id = kt_format_id(f);
			if (f->ftrace || id < 21)
				continue;
			for (const struct trace_dat_format *g = *progs; g && !same; g = g->next)
				if (same_format(f, g))
					same = g;
			if (same) {
				maps[i][id] = (uint16_t)kt_format_id(same);
				continue;
			}
			if (id + offset > 65535)
				return kt_fail(-ERANGE, "event ids: more than 65535");
			maps[i][id] = (uint16_t)(id + offset);
			if (!(tail = append(tail, format_moved(f, offset))))
				return -ENOMEM;
		}
	}
	return 0;
}

static bool same_clock_kind(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/*
 * How each input's stamps and the kernel's become the file's (input 0's).
 * @nokernel: the programs' files alone.
 */
static int clock_maps(struct ustrace_kernel *k, struct kt_dat *in, int nr_in, bool nokernel,
		      struct ts_map *kmap, struct ts_map *imaps)
{
	const struct kt_dat *ref = &in[0];
	bool tsc_local = !strcmp(ref->clock, "local") && ref->has_scale && ref->scale_mode == 1;

	memset(kmap, 0, sizeof(*kmap));
	memset(imaps, 0, sizeof(*imaps) * (size_t)nr_in);
	if (nokernel) {
		/* Nothing to map the kernel's onto. */
	} else if (tsc_local) {
		if (strcmp(k->clock, "x86-tsc"))
			return kt_fail(-EINVAL, "the program's clock is the TSC; the kernel's "
				       "must be x86-tsc, not %s", k->clock);
		*kmap = (struct ts_map){ .kind = MAP_TSC, .to_mult = ref->scale_mult,
					 .to_offset = ref->scale_offset };
	} else if (!strcmp(ref->clock, "local")) {
		if (!ref->has_scale)
			return kt_fail(-EINVAL, "the program's file does not say how its "
				       "local clock derives from the TSC (USTRACE_CLOCK_SCALE)");
		if (strcmp(k->clock, "mono"))
			return kt_fail(-EINVAL, "the program's local clock is CLOCK_MONOTONIC "
				       "here (no invariant TSC): the kernel's must be mono");
	} else if (!same_clock_kind(ref->clock, k->clock)) {
		return kt_fail(-EINVAL, "clock %s: the kernel's is %s; use one clock on both "
			       "sides (x86-tsc, mono, mono_raw, boot)", ref->clock, k->clock);
	}
	for (int i = 1; i < nr_in; i++) {
		if (strcmp(in[i].clock, ref->clock) ||
		    in[i].has_scale != ref->has_scale || in[i].scale_mode != ref->scale_mode)
			return kt_fail(-EINVAL, "the programs' files are on different clocks");
		if (tsc_local)
			imaps[i] = (struct ts_map){ .kind = MAP_LOCAL,
				.to_mult = ref->scale_mult, .to_offset = ref->scale_offset,
				.from_mult = in[i].scale_mult, .from_offset = in[i].scale_offset };
	}
	return 0;
}

/* A CPUSTAT text: the programs' lines, then the kernel's, "kernel " first. */
static char *cpu_stats(struct ustrace_kernel *k, struct kt_dat *in, int nr_in, int cpu)
{
	size_t size = 64;
	char *buf, *p;
	const char *kst = cpu < k->nr_cpus ? k->cpus[cpu].stats : NULL;

	for (int i = 0; i < nr_in; i++)
		if (cpu < in[i].nr_cpus && in[i].cpus[cpu].stats)
			size += strlen(in[i].cpus[cpu].stats) + 1;
	size += kst ? strlen(kst) * 2 : 0;
	buf = p = malloc(size);
	if (!buf)
		return NULL;
	p += sprintf(p, "CPU: %d\n", cpu);
	for (int i = 0; i < nr_in; i++) {
		const char *st = cpu < in[i].nr_cpus ? in[i].cpus[cpu].stats : NULL;
		const char *nl = st ? strchr(st, '\n') : NULL;

		/* each text starts with its own "CPU: N" line */
		if (nl && !strncmp(st, "CPU:", 4))
			st = nl + 1;
		if (st)
			p += sprintf(p, "%s", st);
		if (p > buf && p[-1] != '\n')
			*p++ = '\n', *p = '\0';
	}
	for (const char *l = kst; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		p += sprintf(p, "kernel %.*s\n", (int)n, l);
		l += n + (nl ? 1 : 0);
	}
	return buf;
}

/*
 * The saved cmdlines of the merge: the programs' lines first, then the
 * kernel's, one line per pid.  A reader given two lines for one pid picks
 * either (libtraceevent sorts them and searches), so a worker thread the
 * kernel last saw under the name it had before it named itself would come
 * out under that old name half the time.  The program's own line wins: it
 * is what the thread called itself when it traced.
 */
struct cmd_line {
	long		pid;
	const char	*text;
	size_t		len;
	size_t		order;
};

static int cmd_line_cmp(const void *a, const void *b)
{
	const struct cmd_line *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmd_line_order(const void *a, const void *b)
{
	const struct cmd_line *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* Appends the lines of TEXT (LEN bytes) to LINES; returns the new count. */
static size_t cmd_lines_add(struct cmd_line *lines, size_t n, const char *text, size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t l = nl ? (size_t)(nl - text) : (size_t)(end - text);
		char *after;
		long pid = strtol(text, &after, 10);

		if (l && after > text && after < text + l && *after == ' ') {
			lines[n].pid = pid;
			lines[n].text = text;
			lines[n].len = l;
			lines[n].order = n;
			n++;
		}
		text += l + (nl ? 1 : 0);
	}
	return n;
}

static char *join_cmdlines(struct ustrace_kernel *k, struct kt_dat *in, int nr_in,
			   size_t *len)
{
	const char *kc = k->cmdlines ? k->cmdlines : "";
	size_t size = strlen(kc) + 1, max, n = 0, kept = 0;
	struct cmd_line *lines;
	char *buf, *p;

	for (int i = 0; i < nr_in; i++)
		size += in[i].cmdlines_len + 1;
	/* a line is at least "0 x": no more lines than bytes / 2, plus one */
	max = size / 2 + 1;
	buf = p = malloc(size);
	lines = calloc(max, sizeof(*lines));
	if (!buf || !lines) {
		free(buf);
		free(lines);
		return NULL;
	}
	for (int i = 0; i < nr_in; i++)
		n = cmd_lines_add(lines, n, in[i].cmdlines, in[i].cmdlines_len);
	n = cmd_lines_add(lines, n, kc, strlen(kc));
	qsort(lines, n, sizeof(*lines), cmd_line_cmp);
	for (size_t i = 0; i < n; i++)
		if (!kept || lines[kept - 1].pid != lines[i].pid)
			lines[kept++] = lines[i];
	qsort(lines, kept, sizeof(*lines), cmd_line_order);
	for (size_t i = 0; i < kept; i++) {
		memcpy(p, lines[i].text, lines[i].len);
		p += lines[i].len;
		*p++ = '\n';
	}
	*p = '\0';
	free(lines);
	*len = (size_t)(p - buf);
	return buf;
}

/* ------------------------------------------------------------------
 * The whole file
 */

struct merge {
	struct trace_dat_format	*formats;
	uint16_t		**id_maps;
	long			*nr_ids;
	struct ts_map		kmap, *imaps;
	struct trace_dat_cpu	*cpus;
	struct out		*outs;
	char			*cmdlines;
	int			nr_cpus;
	int			nr_in;
};

static void merge_free(struct merge *m)
{
	for (int cpu = 0; m->cpus && cpu < m->nr_cpus; cpu++) {
		free((char *)m->cpus[cpu].stats);
		if (m->outs && m->outs[cpu].fd >= 0)
			close(m->outs[cpu].fd);
	}
	kt_formats_free(m->formats);
	for (int i = 0; m->id_maps && i < m->nr_in; i++)
		free(m->id_maps[i]);
	free(m->id_maps);
	free(m->nr_ids);
	free(m->imaps);
	free(m->cpus);
	free(m->outs);
	free(m->cmdlines);
}

static int merge_data(struct ustrace_kernel *k, struct kt_dat *in, int nr_in, struct merge *m)
{
	struct src *srcs = calloc((size_t)nr_in + 1, sizeof(*srcs));
	int err = srcs ? 0 : -ENOMEM;
	void *kmapped = NULL;

	for (int cpu = 0; !err && cpu < m->nr_cpus; cpu++) {
		struct out *o = &m->outs[cpu];
		int nr = 0;

		kmapped = NULL;
		if (cpu < k->nr_cpus && k->cpus[cpu].size) {
			kmapped = mmap(NULL, (size_t)k->cpus[cpu].size, PROT_READ, MAP_SHARED,
				       k->cpus[cpu].spill, 0);
			if (kmapped == MAP_FAILED)
				return kt_fail(-errno, "mmap: %s", strerror(errno));
			srcs[nr++] = (struct src){ .pages = kmapped, .size = k->cpus[cpu].size,
						   .map = m->kmap };
		}
		for (int i = 0; i < nr_in; i++)
			if (cpu < in[i].nr_cpus && in[i].cpus[cpu].size)
				srcs[nr++] = (struct src){ .pages = in[i].cpus[cpu].pages,
					.size = in[i].cpus[cpu].size, .map = m->imaps[i],
					.id_map = m->id_maps[i], .nr_ids = m->nr_ids[i] };
		o->fd = memfd_create("ustrace-merge", MFD_CLOEXEC);
		if (o->fd < 0)
			err = kt_fail(-errno, "memfd_create: %s", strerror(errno));
		else
			err = merge_cpu(srcs, nr, o);
		if (kmapped)
			munmap(kmapped, (size_t)k->cpus[cpu].size);
		m->cpus[cpu].fd = o->fd;
		m->cpus[cpu].size = o->size;
		m->cpus[cpu].stats = cpu_stats(k, in, nr_in, cpu);
		m->cpus[cpu].stats_len = m->cpus[cpu].stats ? strlen(m->cpus[cpu].stats) : 0;
	}
	free(srcs);
	return err;
}

static int merge_setup(struct ustrace_kernel *k, struct kt_dat *in, int nr_in,
		       bool nokernel, struct merge *m)
{
	int err;

	m->nr_in = nr_in;
	m->nr_cpus = k->nr_cpus;
	for (int i = 0; i < nr_in; i++)
		if (in[i].nr_cpus > m->nr_cpus)
			m->nr_cpus = in[i].nr_cpus;
	m->id_maps = calloc((size_t)nr_in + 1, sizeof(*m->id_maps));
	m->nr_ids = calloc((size_t)nr_in + 1, sizeof(*m->nr_ids));
	m->imaps = calloc((size_t)nr_in + 1, sizeof(*m->imaps));
	m->cpus = calloc((size_t)m->nr_cpus, sizeof(*m->cpus));
	m->outs = calloc((size_t)m->nr_cpus, sizeof(*m->outs));
	if (!m->id_maps || !m->nr_ids || !m->imaps || !m->cpus || !m->outs)
		return kt_fail(-ENOMEM, "out of memory");
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		m->outs[cpu].fd = -1;
	err = build_formats(k, in, nr_in, nokernel, m->id_maps, m->nr_ids, &m->formats);
	if (err)
		return kt_fail(err, "event formats: %s", strerror(-err));
	if (nr_in) {
		err = clock_maps(k, in, nr_in, nokernel, &m->kmap, m->imaps);
		if (err)
			return err;
	}
	return 0;
}

/**
 * kt_merge_write - write the merged file
 * @k:       the kernel's recording, stopped; NULL: the programs' files alone
 * @in:      the programs' files (the first gives the clock), may be none
 *           with @k, at least one without
 * @nr_in:   their number
 * @fd:      an empty file
 * @version: 6 or 7
 *
 * Return: 0 or -errno, with the message set.
 */
int kt_merge_write(struct ustrace_kernel *k, struct kt_dat *in, int nr_in, int fd,
		   int version)
{
	static struct ustrace_kernel none;
	struct merge m = { 0 };
	struct utsname u;
	char uname_buf[sizeof(u) + 8] = "";
	bool nokernel = !k;
	int err;

	if (nokernel && !nr_in)
		return kt_fail(-EINVAL, "nothing to write");
	if (nokernel)
		k = &none;
	err = merge_setup(k, in, nr_in, nokernel, &m);

	if (!err)
		err = merge_data(k, in, nr_in, &m);
	if (!err) {
		size_t cmd_len = 0;
		struct trace_dat_info info = {
			.version	= version,
			.header_page	= nr_in ? in[0].header_page : k->header_page,
			.header_event	= nr_in ? in[0].header_event : k->header_event,
			.formats	= m.formats,
			.kallsyms	= nr_in ? in[0].kallsyms : "",
			.clock_list	= nr_in && in[0].clock_list ? in[0].clock_list :
					  k->clock_list ? k->clock_list : "",
			.clock		= nr_in ? in[0].clock : k->clock,
			.nr_cpus	= m.nr_cpus,
			.cpus		= m.cpus,
		};

		m.cmdlines = join_cmdlines(k, in, nr_in, &cmd_len);
		info.cmdlines = m.cmdlines ? m.cmdlines : "";
		info.cmdlines_len = m.cmdlines ? cmd_len : 0;
		if (!uname(&u))
			snprintf(uname_buf, sizeof(uname_buf), "%s %s %s %s", u.sysname,
				 u.nodename, u.release, u.machine);
		info.uname = uname_buf[0] ? uname_buf : NULL;
		err = trace_dat_write(fd, &info);
		if (err)
			kt_fail(err, "writing: %s", strerror(-err));
	}
	merge_free(&m);
	return err;
}

/*
 * A file without the clock scale option may have it beside it, in
 * PATH.scale ("MODE MULT OFFSET"): what the library writes for each part
 * of a recording of ustrace record (USTRACE_PARTS), whose files must stay
 * as they would be alone.
 */
static void scale_beside(const char *path, struct kt_dat *d)
{
	char name[PATH_MAX + 8], buf[96];
	unsigned long long mult, offset;
	unsigned int mode;
	ssize_t n;
	int fd;

	if (d->has_scale)
		return;
	snprintf(name, sizeof(name), "%s.scale", path);
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (sscanf(buf, "%u %llu %llu", &mode, &mult, &offset) != 3 || !mult ||
	    (mode != 1 && mode != 2))
		return;
	d->has_scale = true;
	d->scale_mode = mode;
	d->scale_mult = mult;
	d->scale_offset = offset;
}

/**
 * ustrace_kernel_write - one trace.dat of the kernel's events and programs'
 * @k:       the recording, stopped (ustrace_kernel_stop()); NULL: the
 *           programs' files alone, merged (ustrace record of a process tree)
 * @inputs:  the programs' files (trace.dat version 7, recorded with
 *           USTRACE_CLOCK_SCALE set, or with the scale in INPUT.scale),
 *           NULL-terminated; NULL or empty: the kernel's events alone
 * @output:  the file to write; replaced whole (written under another name,
 *           then renamed)
 * @version: 6 or 7 (0: 7)
 *
 * Return: 0, or -errno with ustrace_kernel_errmsg() saying why (EINVAL:
 * the clocks do not match; ENOEXEC: an input is not such a file).
 */
int ustrace_kernel_write(struct ustrace_kernel *k, const char *const *inputs,
			 const char *output, int version)
{
	char tmp[PATH_MAX + 32];
	struct kt_dat *in;
	int nr_in = 0, err = 0, fd;

	if ((k && !k->stopped) || !output || (version && version != 6 && version != 7))
		return kt_fail(-EINVAL, "ustrace_kernel_write: bad arguments");
	while (inputs && inputs[nr_in])
		nr_in++;
	if (!k && !nr_in)
		return kt_fail(-EINVAL, "ustrace_kernel_write: no kernel, no input");
	in = calloc((size_t)nr_in + 1, sizeof(*in));
	if (!in)
		return kt_fail(-ENOMEM, "out of memory");
	for (int i = 0; !err && i < nr_in; i++) {
		err = kt_dat_open(inputs[i], &in[i]);
		if (!err)
			scale_beside(inputs[i], &in[i]);
	}
	if (!err) {
		snprintf(tmp, sizeof(tmp), "%s.part-%d", output, (int)getpid());
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			err = kt_fail(-errno, "%s: %s", tmp, strerror(errno));
	}
	if (!err) {
		err = kt_merge_write(k, in, nr_in, fd, version ? version : 7);
		if (close(fd) && !err)
			err = kt_fail(-errno, "%s: %s", tmp, strerror(errno));
		if (!err && rename(tmp, output))
			err = kt_fail(-errno, "%s: %s", output, strerror(errno));
		if (err)
			unlink(tmp);
	}
	for (int i = 0; i < nr_in; i++)
		kt_dat_close(&in[i]);
	free(in);
	return err;
}
