// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The text of the events of programs that are gone, for the collector's
 * `trace` (Documentation/trace/system-mode.rst, "Buffers that outlive
 * their program").  A running program prints its own events: their
 * TP_printk() is compiled into it.  Once it is gone the collector has
 * their formats only (the program's format log), and prints them as
 * trace-cmd does, with libtraceevent's reading of the print fmt.
 *
 * libtraceevent is loaded when first needed (dlopen()), so that neither
 * the programs nor the collector depend on it: without it (or without its
 * header when this was built) the events of programs gone are in
 * `ustrace dump` and trace_pipe_raw only, and the collector's log says so
 * once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"

#if __has_include(<traceevent/event-parse.h>)
#include <dlfcn.h>
#include <pthread.h>
#include <traceevent/event-parse.h>

/* What is used of libtraceevent, looked up once. */
static struct {
	struct tep_handle *(*alloc)(void);
	void (*free)(struct tep_handle *tep);
	void (*set_long_size)(struct tep_handle *tep, int size);
	void (*set_page_size)(struct tep_handle *tep, int size);
	void (*set_loglevel)(enum tep_loglevel level);
	enum tep_errno (*parse_event)(struct tep_handle *tep, const char *buf,
				      unsigned long size, const char *sys);
	int (*register_function)(struct tep_handle *tep, char *name, unsigned long long addr,
				 char *mod);
	void (*print_event)(struct tep_handle *tep, struct trace_seq *s,
			    struct tep_record *record, const char *fmt, ...);
	void (*seq_init)(struct trace_seq *s);
	void (*seq_destroy)(struct trace_seq *s);
	void (*seq_terminate)(struct trace_seq *s);
	bool ok;
} tep;

static pthread_once_t tep_once = PTHREAD_ONCE_INIT;

static void tep_load(void)
{
	void *h = dlopen("libtraceevent.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
#define SYM(field, name) (*(void **)&tep.field = dlsym(h, name))
	SYM(alloc, "tep_alloc");
	SYM(free, "tep_free");
	SYM(set_long_size, "tep_set_long_size");
	SYM(set_page_size, "tep_set_page_size");
	SYM(set_loglevel, "tep_set_loglevel");
	SYM(parse_event, "tep_parse_event");
	SYM(register_function, "tep_register_function");
	SYM(print_event, "tep_print_event");
	SYM(seq_init, "trace_seq_init");
	SYM(seq_destroy, "trace_seq_destroy");
	SYM(seq_terminate, "trace_seq_terminate");
#undef SYM
	tep.ok = tep.alloc && tep.free && tep.set_long_size && tep.set_page_size &&
		 tep.parse_event && tep.register_function && tep.print_event && tep.seq_init &&
		 tep.seq_destroy && tep.seq_terminate;
	if (!tep.ok) {
		dlclose(h);
		return;
	}
	/* A format it cannot read is one event less in the text, not a line on stderr. */
	if (tep.set_loglevel)
		tep.set_loglevel(TEP_LOG_NONE);
}

struct coll_printer {
	struct tep_handle	*tep;
	int			*ftrace_ids;	/* the ftrace system's: printed without a name */
	int			nr_ftrace;
};

struct coll_printer *coll_printer_new(unsigned long marker_ip)
{
	struct coll_printer *p;

	pthread_once(&tep_once, tep_load);
	if (!tep.ok) {
		errno = ENOSYS;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->tep = tep.alloc();
	if (!p->tep) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	tep.set_long_size(p->tep, (int)sizeof(long));
	tep.set_page_size(p->tep, 4096);
	/* trace_marker's records, as the program's kallsyms says (coll_record.c's dumps). */
	tep.register_function(p->tep, "tracing_mark_write", marker_ip, NULL);
	return p;
}

void coll_printer_format(struct coll_printer *p, const char *system, const char *text, size_t len)
{
	const char *id = memmem(text, len, "\nID: ", 5);
	int *v;

	if (tep.parse_event(p->tep, text, len, system) || strcmp(system, "ftrace") || !id)
		return;
	v = realloc(p->ftrace_ids, (size_t)(p->nr_ftrace + 1) * sizeof(*v));
	if (!v)
		return;
	p->ftrace_ids = v;
	v[p->nr_ftrace++] = atoi(id + 5);
}

int coll_printer_event(struct coll_printer *p, const void *data, uint32_t len, int cpu,
		       uint64_t ts, char *buf, size_t size)
{
	struct tep_record rec = {
		.ts = ts, .cpu = cpu, .data = (void *)data, .size = (int)len,
		.record_size = (int)len,
	};
	struct trace_seq s;
	uint16_t type;
	bool named = true;
	int n;

	if (len < sizeof(type))
		return -EINVAL;
	memcpy(&type, data, sizeof(type));
	for (int i = 0; i < p->nr_ftrace; i++)
		if (p->ftrace_ids[i] == type)
			named = false;
	tep.seq_init(&s);
	if (named)
		tep.print_event(p->tep, &s, &rec, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	else
		tep.print_event(p->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	tep.seq_terminate(&s);
	n = snprintf(buf, size, "%s", s.buffer ? s.buffer : "");
	tep.seq_destroy(&s);
	/* The kernel's lines end in one newline whatever the text ends in. */
	while (n > 0 && (size_t)n < size && buf[n - 1] == '\n')
		buf[--n] = 0;
	return n;
}

void coll_printer_free(struct coll_printer *p)
{
	if (p) {
		tep.free(p->tep);
		free(p->ftrace_ids);
		free(p);
	}
}

#else /* no libtraceevent header */

struct coll_printer *coll_printer_new(unsigned long marker_ip)
{
	(void)marker_ip;
	errno = ENOSYS;
	return NULL;
}

void coll_printer_format(struct coll_printer *p, const char *system, const char *text, size_t len)
{
	(void)p, (void)system, (void)text, (void)len;
}

int coll_printer_event(struct coll_printer *p, const void *data, uint32_t len, int cpu,
		       uint64_t ts, char *buf, size_t size)
{
	(void)p, (void)data, (void)len, (void)cpu, (void)ts, (void)buf, (void)size;
	return -ENOSYS;
}

void coll_printer_free(struct coll_printer *p)
{
	(void)p;
}

#endif
