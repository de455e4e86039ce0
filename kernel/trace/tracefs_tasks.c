// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The files about threads: set_event_pid and set_event_notrace_pid (which
 * threads record), saved_cmdlines and saved_tgids (the names and thread
 * groups of the threads that recorded), saved_cmdlines_size, and
 * printk_formats (the program's tracepoint_string()s).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/trace_seq.h>

#include "trace_array.h"
#include "trace_events_internal.h"
#include "trace_syms.h"
#include "tracefs_internal.h"

/* The kernel's longest pid word (PID_BUF_SIZE). */
#define PID_WORD_MAX		127
/* trace.c's table of saved cmdlines has this many entries, fixed. */
#define SAVED_CMDLINES_SIZE	"1024"

/* ------------------------------------------------------------------
 * set_event_pid, set_event_notrace_pid
 */

static void put_pid(pid_t pid, void *priv)
{
	tfs_buf_printf(priv, "%d\n", (int)pid);
}

static int pids_show(struct tfs_file *f, struct tfs_buf *b, int notrace)
{
	trace_array_for_each_event_pid(f->inst->tr, notrace, put_pid, b);
	return b->oom ? -ENOMEM : 0;
}

/* The pids of a write: words, each a number as kstrtoul(, 0, ) reads it. */
static int pids_parse(char *s, pid_t **pidsp, size_t *nr)
{
	size_t max = strlen(s) / 2 + 1;
	pid_t *pids = malloc(max * sizeof(*pids));
	unsigned long val;
	int err = 0;
	char *word;

	*nr = 0;
	if (!pids)
		return -ENOMEM;
	while (!err && (word = tfs_next_word(&s, PID_WORD_MAX, &err))) {
		if (!err)
			err = tfs_kstrtoul(word, strlen(word), 0, &val);
		if (!err && val > INT_MAX)
			err = -EINVAL;
		if (!err)
			pids[(*nr)++] = (pid_t)val;
	}
	if (err)
		free(pids);
	else
		*pidsp = pids;
	return err == -ERANGE ? -EINVAL : err;
}

/* The pids are added to the list; all or none. */
static ssize_t pids_write(struct tfs_file *f, const char *buf, size_t size, int notrace)
{
	pid_t *pids = NULL;
	size_t nr;
	char *alloc;
	int err;

	if (!size)
		return 0;
	alloc = tfs_strndup(buf, size);
	if (!alloc)
		return -ENOMEM;
	err = pids_parse(alloc, &pids, &nr);
	free(alloc);
	if (!err && nr)
		err = trace_array_set_event_pids(f->inst->tr, notrace, pids, nr, 1);
	free(pids);
	return err ? err : (ssize_t)size;
}

/* Which list a file is: set_event_pid (0) or set_event_notrace_pid (1). */
static int pid_list(const struct tfs_node *node)
{
	return node->fops == &tfs_fops_set_event_notrace_pid;
}

static int event_pid_show(struct tfs_file *f, struct tfs_buf *b)
{
	return pids_show(f, b, pid_list(f->node));
}

static ssize_t event_pid_write(struct tfs_file *f, const char *buf, size_t size)
{
	return pids_write(f, buf, size, pid_list(f->node));
}

static void event_pid_trunc(struct tfs_node *node)
{
	trace_array_set_event_pids(node->inst->tr, pid_list(node), NULL, 0, 0);
}

const struct tfs_fops tfs_fops_set_event_pid = {
	.mode	= 0640,
	.show	= event_pid_show,
	.write	= event_pid_write,
	.trunc	= event_pid_trunc,
};

const struct tfs_fops tfs_fops_set_event_notrace_pid = {
	.mode	= 0640,
	.show	= event_pid_show,
	.write	= event_pid_write,
	.trunc	= event_pid_trunc,
};

/* ------------------------------------------------------------------
 * saved_cmdlines, saved_tgids, saved_cmdlines_size
 */

static void put_cmdline(int pid, int tgid, const char *comm, void *priv)
{
	(void)tgid;
	tfs_buf_printf(priv, "%d %s\n", pid, comm);
}

static void put_tgid(int pid, int tgid, const char *comm, void *priv)
{
	(void)comm;
	tfs_buf_printf(priv, "%d %d\n", pid, tgid);
}

/* The text of the saved-cmdlines table, as @put writes each entry. */
static int saved_show(struct tfs_buf *b,
		      void (*put)(int pid, int tgid, const char *comm, void *priv))
{
	trace_for_each_saved_cmdline(put, b);
	return b->oom ? -ENOMEM : 0;
}

static int saved_cmdlines_show(struct tfs_file *f, struct tfs_buf *b)
{
	(void)f;
	return saved_show(b, put_cmdline);
}

const struct tfs_fops tfs_fops_saved_cmdlines = {
	.mode	= 0440,
	.show	= saved_cmdlines_show,
};

/*
 * The kernel fills saved_tgids only while record-tgid is on; the engine
 * notes every thread's group, so the option decides what is shown.
 */
static int saved_tgids_show(struct tfs_file *f, struct tfs_buf *b)
{
	if (trace_array_get_option(f->inst->tr, "record-tgid") <= 0)
		return 0;
	return saved_show(b, put_tgid);
}

const struct tfs_fops tfs_fops_saved_tgids = {
	.mode	= 0440,
	.show	= saved_tgids_show,
};

/* Read-only: the engine's table cannot be resized (the kernel's can). */
const struct tfs_fops tfs_fops_saved_cmdlines_size = {
	.mode	= 0440,
	.text	= SAVED_CMDLINES_SIZE "\n",
};

/* ------------------------------------------------------------------
 * printk_formats
 */

/* The program's tracepoint_string()s (trace_syms.c). */
static int printk_formats_show(struct tfs_file *f, struct tfs_buf *b)
{
	const char *text;

	(void)f;
	trace_syms_update();
	text = trace_syms_printk();
	if (text)
		tfs_buf_puts(b, text);
	return b->oom ? -ENOMEM : 0;
}

const struct tfs_fops tfs_fops_printk_formats = {
	.mode	= 0440,
	.show	= printk_formats_show,
};
