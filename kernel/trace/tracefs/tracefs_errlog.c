// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * error_log: the last few commands a file refused, with why, in the
 * kernel's format:
 *
 *	[  123.456789] event filter parse error: error: <what>
 *	  Command: <the command>
 *	           ^
 *
 * The caret sits under the character the complaint is about.  Each
 * instance has its own log of the last TFS_ERRLOG_MAX entries; opening it
 * with O_TRUNC for writing ("echo > error_log") empties it.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/trace_clock.h>

#include "tracefs_internal.h"

/* The kernel's CMD_PREFIX, which the caret line is indented by. */
#define CMD_PREFIX	"  Command: "

static void err_free(struct tfs_err *err)
{
	free(err->loc);
	free(err->msg);
	free(err->cmd);
	memset(err, 0, sizeof(*err));
}

/**
 * tfs_log_err - add an entry to an instance's error_log
 * @inst: the instance whose file refused the command
 * @loc:  where, as the kernel names it ("event filter parse error")
 * @msg:  what went wrong
 * @cmd:  the command
 * @pos:  the offset in @cmd the caret points at
 *
 * The oldest entry goes when the log is full.  Without memory the entry
 * is dropped, as the kernel drops it.
 */
void tfs_log_err(struct tfs_inst *inst, const char *loc, const char *msg,
		 const char *cmd, unsigned int pos)
{
	struct tfs_err err = {
		.ts	= trace_clock_local(),
		.loc	= strdup(loc),
		.msg	= strdup(msg),
		.cmd	= strdup(cmd),
		.pos	= pos,
	};

	if (!err.loc || !err.msg || !err.cmd) {
		err_free(&err);
		return;
	}
	pthread_mutex_lock(&inst->lock);
	if (inst->nr_errs == TFS_ERRLOG_MAX) {
		err_free(&inst->errs[0]);
		memmove(&inst->errs[0], &inst->errs[1],
			(TFS_ERRLOG_MAX - 1) * sizeof(inst->errs[0]));
		inst->nr_errs--;
	}
	inst->errs[inst->nr_errs++] = err;
	pthread_mutex_unlock(&inst->lock);
}

void tfs_errlog_clear(struct tfs_inst *inst)
{
	unsigned int i;

	pthread_mutex_lock(&inst->lock);
	for (i = 0; i < inst->nr_errs; i++)
		err_free(&inst->errs[i]);
	inst->nr_errs = 0;
	pthread_mutex_unlock(&inst->lock);
}

static void err_show(struct seq_buf *b, const struct tfs_err *err)
{
	unsigned int i;

	seq_buf_grow_printf(b, "[%5llu.%06u] %s: error: %s\n" CMD_PREFIX "%s\n",
			    (unsigned long long)(err->ts / 1000000000u),
			    (unsigned int)(err->ts % 1000000000u / 1000u),
			    err->loc, err->msg, err->cmd);
	for (i = 0; i < sizeof(CMD_PREFIX) - 1 + err->pos; i++)
		seq_buf_grow_puts(b, " ");
	seq_buf_grow_puts(b, "^\n");
}

static int errlog_show(struct tfs_file *f, struct seq_buf *b)
{
	struct tfs_inst *inst = f->inst;
	unsigned int i;

	pthread_mutex_lock(&inst->lock);
	for (i = 0; i < inst->nr_errs; i++)
		err_show(b, &inst->errs[i]);
	pthread_mutex_unlock(&inst->lock);
	return 0;
}

/* A write changes nothing; only O_TRUNC clears (the kernel's). */
static ssize_t errlog_write(struct tfs_file *f, const char *buf, size_t size)
{
	(void)f, (void)buf;
	return (ssize_t)size;
}

static void errlog_trunc(struct tfs_node *node)
{
	tfs_errlog_clear(node->inst);
}

const struct tfs_fops tfs_fops_error_log = {
	.mode	= 0640,
	.show	= errlog_show,
	.write	= errlog_write,
	.trunc	= errlog_trunc,
};
