// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * synthetic_events and dynamic_events, at the top of the tree only, as in
 * the kernel: the text of the synthetic events defined, and the commands
 * that define and remove them (trace_synth.h; the engine parses them).
 *
 *	echo 'lat u64 v; char who[]' >> synthetic_events      define
 *	echo '!lat' >> synthetic_events                       remove
 *	echo 's:lat u64 v' >> dynamic_events                  define
 *	echo '-:synthetic/lat' >> dynamic_events              remove
 *	echo 'lat u64 v' > synthetic_events       remove all, then define
 *
 * A write is split into lines and each line, cut at a '#', is one
 * command, as the kernel's trace_parse_run_command(): the first that
 * fails ends the write with its error (those before it are done), and
 * the engine says what error_log gets.  Opening with O_TRUNC removes
 * every synthetic event first, or fails with EBUSY when one is in use
 * (and then removes none), as the kernel's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../trace_array.h"
#include "tracefs_internal.h"

/* The kernel's WRITE_BUFSIZE: a line must be shorter. */
#define DYNEVENT_LINE_MAX	(4096 - 2)

static int dynevent_show(struct seq_buf *b, bool dyn)
{
	size_t len;
	char *text = trace_synth_text(dyn, &len);

	if (!text)
		return -ENOMEM;
	seq_buf_grow_putmem(b, text, len);
	free(text);
	return 0;
}

static int synthetic_events_show(struct tfs_file *f, struct seq_buf *b)
{
	(void)f;
	return dynevent_show(b, false);
}

static int dynamic_events_show(struct tfs_file *f, struct seq_buf *b)
{
	(void)f;
	return dynevent_show(b, true);
}

/* One command; its error logged as the kernel logs it (the command without leading blanks). */
static int dynevent_line(struct tfs_file *f, char *line, bool dyn)
{
	struct trace_err err;
	char *hash = strchr(line, '#');
	int ret;

	if (hash)
		*hash = '\0';
	ret = trace_synth_command(line, dyn, &err);
	if (ret && err.loc) {
		while (*line == ' ' || (*line >= '\t' && *line <= '\r'))
			line++;
		tfs_log_err(f->inst, err.loc, err.msg, line, err.pos);
	}
	return ret;
}

static ssize_t dynevent_write(struct tfs_file *f, const char *buf, size_t size, bool dyn)
{
	char *copy = tfs_strndup(buf, size), *line, *next;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (line = copy; !err && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strlen(line) > DYNEVENT_LINE_MAX)
			err = -EINVAL;
		else if (*line || next)
			err = dynevent_line(f, line, dyn);
		if (next && !*next)
			next = NULL;
	}
	free(copy);
	return err ? err : (ssize_t)size;
}

static ssize_t synthetic_events_write(struct tfs_file *f, const char *buf, size_t size)
{
	return dynevent_write(f, buf, size, false);
}

static ssize_t dynamic_events_write(struct tfs_file *f, const char *buf, size_t size)
{
	return dynevent_write(f, buf, size, true);
}

/* O_TRUNC: every synthetic event goes, or -EBUSY and none does. */
static int dynevent_trunc(struct tfs_node *node)
{
	(void)node;
	return trace_synth_release_all();
}

const struct tfs_fops tfs_fops_synthetic_events = {
	.mode		= 0640,
	.show		= synthetic_events_show,
	.write		= synthetic_events_write,
	.trunc_err	= dynevent_trunc,
};

const struct tfs_fops tfs_fops_dynamic_events = {
	.mode		= 0640,
	.show		= dynamic_events_show,
	.write		= dynamic_events_write,
	.trunc_err	= dynevent_trunc,
};
