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

#include "../trace_array.h"
#include "tracefs_internal.h"

/* The largest pid the kernel's pid lists hold (trace_pid_list_set()). */
#define PID_LIST_MAX		((1 << 30) - 1)
/* trace.c's table of saved cmdlines has this many entries, fixed. */
#define SAVED_CMDLINES_SIZE	"1024"

/* ------------------------------------------------------------------
 * set_event_pid, set_event_notrace_pid
 */

static void put_pid(pid_t pid, void *priv)
{
	seq_buf_grow_printf(priv, "%d\n", (int)pid);
}

static int pids_show(struct tfs_file *f, struct seq_buf *b, int notrace)
{
	trace_array_for_each_event_pid(f->inst->tr, notrace, put_pid, b);
	return seq_buf_has_overflowed(b) ? -ENOMEM : 0;
}

/*
 * A pid as trace_pid_write() takes it: kstrtoul(, 0, ) of the word, cut
 * to a pid_t; the pid lists hold 0 .. 2^30 - 1 (trace_pid_list_set()
 * refuses the rest, and the write then fails with -1: EPERM).
 */
static int pid_of_word(const char *word, pid_t *pid)
{
	unsigned long val;

	if (tfs_kstrtoul_str(word, 0, &val))
		return -EINVAL;
	*pid = (pid_t)val;
	return *pid < 0 || *pid > PID_LIST_MAX ? -EPERM : 0;
}

/**
 * struct pid_write - a set_event_pid write that comes in pieces
 * @undo:   the list before its first piece, put back when a later one fails
 * @nr:     pids in @undo
 * @notrace: which list
 */
struct pid_write {
	pid_t	*undo;
	size_t	nr;
	int	notrace;
};

static void put_undo(pid_t pid, void *priv)
{
	struct pid_write *w = priv;
	pid_t *pids = realloc(w->undo, (w->nr + 1) * sizeof(*pids));

	if (!pids) {
		w->notrace = -1;
		return;
	}
	pids[w->nr++] = pid;
	w->undo = pids;
}

/* The first of several pieces: keep the list to put back. */
static int pid_write_begin(struct tfs_file *f, int notrace)
{
	struct pid_write *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->notrace = notrace;
	trace_array_for_each_event_pid(f->inst->tr, notrace, put_undo, w);
	if (w->notrace < 0) {
		free(w->undo);
		free(w);
		return -ENOMEM;
	}
	f->priv = w;
	return 0;
}

/* The write is over: @restore puts the list back as it was before it. */
static void pid_write_finish(struct tfs_file *f, bool restore)
{
	struct pid_write *w = f->priv;

	if (!w)
		return;
	if (restore)
		trace_array_set_event_pids(f->inst->tr, w->notrace, w->undo, w->nr, 0);
	free(w->undo);
	free(w);
	f->priv = NULL;
}

/*
 * trace_pid_write(): words up to the end, or up to one that is white space
 * or a NUL alone (the return then counts the bytes to there); one bad word
 * and nothing is added.  The pids of each piece are added at once; a word
 * a piece ends in goes on in the next one.
 */
static ssize_t pids_take(struct tfs_file *f, const char *buf, size_t size,
			 unsigned int piece, pid_t *pids, size_t *nr)
{
	struct tfs_parser *p = &f->parser;
	bool more = piece & TFS_PIECE_MORE;
	size_t read = 0;
	ssize_t n;
	int err;

	while (read < size) {
		n = tfs_parser_get(p, buf + read, size - read);
		if (n < 0)
			return n;
		read += (size_t)n;
		if (!tfs_parser_loaded(p)) {
			/* Only white space to the end: the next piece goes on. */
			if (!more || read < size || !buf[read - 1])
				p->done = true;
			break;
		}
		if (p->cont && more && read == size)
			break;
		err = pid_of_word(p->buffer, &pids[*nr]);
		if (err)
			return err;
		++*nr;
		tfs_parser_clear(p);
	}
	return (ssize_t)read;
}

static ssize_t pids_write_piece(struct tfs_file *f, const char *buf, size_t size,
				unsigned int piece, int notrace)
{
	bool cont = piece & TFS_PIECE_CONT;
	pid_t *pids;
	size_t nr = 0;
	ssize_t ret;
	int err = 0;

	if (!cont) {
		pid_write_finish(f, false);
		tfs_parser_clear(&f->parser);
		f->parser.done = false;
		if ((piece & TFS_PIECE_MORE) && (err = pid_write_begin(f, notrace)))
			return err;
	} else if (f->parser.done) {
		return 0;
	}
	/* A word a byte, at most, and the one the last piece ended in. */
	pids = malloc((size / 2 + 2) * sizeof(*pids));
	ret = pids ? pids_take(f, buf, size, piece, pids, &nr) : -ENOMEM;
	if (ret >= 0 && nr)
		err = trace_array_set_event_pids(f->inst->tr, notrace, pids, nr, 1);
	free(pids);
	if (err)
		ret = err;
	if (ret < 0 || ret != (ssize_t)size || !(piece & TFS_PIECE_MORE) || f->parser.done)
		pid_write_finish(f, ret < 0 && cont);
	return ret;
}

/* The last piece ended in the middle of a word: that is the last pid. */
static int pids_write_end(struct tfs_file *f, int notrace)
{
	struct tfs_parser *p = &f->parser;
	pid_t pid;
	int err = 0;

	if (!p->done && tfs_parser_loaded(p)) {
		err = pid_of_word(p->buffer, &pid);
		if (!err)
			err = trace_array_set_event_pids(f->inst->tr, notrace, &pid, 1, 1);
	}
	pid_write_finish(f, err != 0);
	tfs_parser_clear(p);
	p->done = true;
	return err;
}

/* Which list a file is: set_event_pid (0) or set_event_notrace_pid (1). */
static int pid_list(const struct tfs_node *node)
{
	return node->fops == &tfs_fops_set_event_notrace_pid;
}

static int event_pid_show(struct tfs_file *f, struct seq_buf *b)
{
	return pids_show(f, b, pid_list(f->node));
}

static ssize_t event_pid_write_piece(struct tfs_file *f, const char *buf, size_t size,
				     unsigned int piece)
{
	return pids_write_piece(f, buf, size, piece, pid_list(f->node));
}

static int event_pid_write_end(struct tfs_file *f)
{
	return pids_write_end(f, pid_list(f->node));
}

static void event_pid_release(struct tfs_file *f)
{
	pid_write_finish(f, false);
}

static void event_pid_trunc(struct tfs_node *node)
{
	trace_array_set_event_pids(node->inst->tr, pid_list(node), NULL, 0, 0);
}

const struct tfs_fops tfs_fops_set_event_pid = {
	.mode	= 0640,
	.show	= event_pid_show,
	.write_piece = event_pid_write_piece,
	.write_end = event_pid_write_end,
	.trunc	= event_pid_trunc,
	.release = event_pid_release,
};

const struct tfs_fops tfs_fops_set_event_notrace_pid = {
	.mode	= 0640,
	.show	= event_pid_show,
	.write_piece = event_pid_write_piece,
	.write_end = event_pid_write_end,
	.trunc	= event_pid_trunc,
	.release = event_pid_release,
};

/* ------------------------------------------------------------------
 * saved_cmdlines, saved_tgids, saved_cmdlines_size
 */

static void put_cmdline(int pid, int tgid, const char *comm, void *priv)
{
	(void)tgid;
	seq_buf_grow_printf(priv, "%d %s\n", pid, comm);
}

static void put_tgid(int pid, int tgid, const char *comm, void *priv)
{
	(void)comm;
	seq_buf_grow_printf(priv, "%d %d\n", pid, tgid);
}

/* The text of the saved-cmdlines table, as @put writes each entry. */
static int saved_show(struct seq_buf *b,
		      void (*put)(int pid, int tgid, const char *comm, void *priv))
{
	trace_for_each_saved_cmdline(put, b);
	return seq_buf_has_overflowed(b) ? -ENOMEM : 0;
}

static int saved_cmdlines_show(struct tfs_file *f, struct seq_buf *b)
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
static int saved_tgids_show(struct tfs_file *f, struct seq_buf *b)
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
static int printk_formats_show(struct tfs_file *f, struct seq_buf *b)
{
	const char *text;

	(void)f;
	trace_syms_update();
	text = trace_syms_printk();
	if (text)
		seq_buf_grow_puts(b, text);
	return seq_buf_has_overflowed(b) ? -ENOMEM : 0;
}

const struct tfs_fops tfs_fops_printk_formats = {
	.mode	= 0440,
	.show	= printk_formats_show,
};
