// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtraceevent, apart: its <event-parse.h> declares a struct trace_seq of
 * its own, so it cannot share a file with <linux/trace_seq.h>.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <event-parse.h>

#include "tep-glue.h"

static struct tep_handle *tep;
static int nr_warnings;

/* Overrides libtraceevent's weak default: count every message. */
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
	       const char *fmt, va_list ap)
{
	(void)level;
	(void)print_err;
	nr_warnings++;
	printf("# libtraceevent %s: ", name ? name : "");
	vprintf(fmt, ap);
	printf("\n");
	return 0;
}

int tep_glue_init(void)
{
	tep = tep_alloc();
	if (!tep)
		return -1;
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, 4096);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	return 0;
}

int tep_glue_warnings(void)
{
	return nr_warnings;
}

int tep_glue_parse(const char *format, const char *system)
{
	struct tep_event *event = NULL;
	int err;

	err = tep_parse_format(tep, &event, format, strlen(format), system);
	if (!err && (!event || event->flags & TEP_EVENT_FL_FAILED))
		err = -1;
	return err;
}

int tep_glue_render(const void *data, int size, char *out, size_t out_size)
{
	struct tep_record record;
	struct trace_seq s;

	memset(&record, 0, sizeof(record));
	record.data = (void *)data;
	record.size = size;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(out, out_size, "%s", s.buffer);
	trace_seq_destroy(&s);
	return 0;
}
