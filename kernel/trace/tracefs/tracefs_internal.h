/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the files of the tracefs tree (kernel/trace/tracefs/, but
 * not tracefs_fuse.c, which sees only tracefs.h).  Not installed.
 *
 * The tree is made of nodes: directories hold their children in an array,
 * files point at a struct tfs_fops that says what open, read, write and
 * O_TRUNC do.  Every node belongs to an instance (struct tfs_inst: the top
 * level or one instances/NAME) and knows the CPU, system, event or option
 * its file is about.
 *
 *	root ─┬─ trace          (fops: tfs_fops_trace, cpu -1)
 *	      ├─ per_cpu ── cpu0 ── trace   (fops: tfs_fops_trace, cpu 0)
 *	      ├─ events ─┬─ enable
 *	      │          └─ sys ─┬─ enable, filter
 *	      │                  └─ event ── enable, format, ...
 *	      └─ instances ── foo ── (the same again, inst = foo)
 *
 * Locking, outermost first: tfs_tree_lock (nodes, the inode table, the
 * instances, open counts) → file->lock (one open file) → inst->lock (the
 * error log, buffer_percent, tracing_cpumask) → the engine's event mutex,
 * which every trace_array_*() call takes itself.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACEFS_INTERNAL_H
#define _USTRACE_KERNEL_TRACE_TRACEFS_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/seq_buf.h>

#include "../../internal.h"
#include "tracefs.h"

struct trace_array;
struct trace_event_call;
struct tfs_file;
struct tfs_node;

/*
 * The text of a file, made at open or by a read, is a growing seq_buf
 * (seq_buf_grow_*(), kernel/internal.h); an append that failed marks its
 * overflow, and the text is then incomplete.
 */

/* ------------------------------------------------------------------
 * The kernel's parsers of what is written (tracefs_parse.c)
 */

/* kstrtoul_from_user(): digits, an optional '+', one optional '\n'. */
int tfs_kstrtoul(const char *buf, size_t size, unsigned int base, unsigned long *val);
/* kstrtoul() of a whole NUL-terminated string (a word: no length limit). */
int tfs_kstrtoul_str(const char *s, unsigned int base, unsigned long *val);
/* The first @size bytes as a string, cut at a NUL; free() it.  NULL: ENOMEM. */
char *tfs_strndup(const char *buf, size_t size);
/* strstrip(): white space off both ends, in place. */
char *tfs_strstrip(char *s);
/*
 * The next white-space separated word of @s (as trace_get_user() reads
 * them), NUL-terminated in place; NULL at the end.  @max: the longest word
 * the kernel's parser takes (longer: *@err = -EINVAL).
 */
char *tfs_next_word(char **s, size_t max, int *err);
/* The kernel's isspace(): ASCII white space and 0xa0 (Latin-1 NBSP). */
bool tfs_isspace(char c);

/* The longest word the kernel's word parsers take (EVENT_BUF_SIZE, PID_BUF_SIZE). */
#define TFS_WORD_MAX	127

/**
 * struct tfs_parser - the kernel's trace_parser: the words of a write,
 *	read one call at a time, where a word may go on in the next piece
 *	of the same write
 * @buffer: the word, NUL-terminated
 * @idx:    its length; 0 when the last call found white space only
 * @cont:   the input ended inside the word: the next call goes on with it
 * @done:   for the caller: this write took what it takes, the rest of
 *	    its pieces change nothing
 */
struct tfs_parser {
	char		buffer[TFS_WORD_MAX + 1];
	unsigned int	idx;
	bool		cont;
	bool		done;
};

static inline void tfs_parser_clear(struct tfs_parser *p)
{
	p->idx = 0;
	p->cont = false;
}

static inline bool tfs_parser_loaded(const struct tfs_parser *p)
{
	return p->idx != 0;
}

/*
 * trace_get_user(): skip white space (unless a word goes on), take the
 * next word up to white space or a NUL, and that one byte.  Return: the
 * bytes consumed (a NUL or white space alone leave nothing loaded), or
 * -EINVAL for a word longer than TFS_WORD_MAX (the parser is cleared).
 */
ssize_t tfs_parser_get(struct tfs_parser *p, const char *buf, size_t cnt);

/* bitmap_parse() of a tracing_cpumask write into @mask of @nbits bits. */
int tfs_parse_cpumask(const char *buf, size_t size, uint32_t *mask, unsigned int nbits);
/* "%*pb": the mask as the kernel prints it, with its newline. */
void tfs_print_cpumask(struct seq_buf *b, const uint32_t *mask, unsigned int nbits);

/* ------------------------------------------------------------------
 * Instances and nodes (tracefs.c)
 */

#define TFS_ERRLOG_MAX	8	/* the kernel's TRACING_LOG_ERRS_MAX */

/**
 * struct tfs_err - one entry of error_log
 * @ts:  when (the local trace clock, as the kernel's local_clock())
 * @loc: where ("event filter parse error")
 * @msg: what
 * @cmd: the command that failed
 * @pos: where under @cmd the caret goes
 */
struct tfs_err {
	uint64_t	ts;
	char		*loc, *msg, *cmd;
	unsigned int	pos;
};

/**
 * struct tfs_inst - what the tree keeps per instance
 * @tr:         the engine's instance
 * @dir:        its directory (the root, or instances/NAME)
 * @events:     its events/ directory, rebuilt from the registry on use
 * @events_gen: the registry's generation @events was last rebuilt for
 * @open_files: files of this instance open now; under tfs_tree_lock
 * @lock:       protects the members below
 * @errs:       error_log, oldest first (@nr_errs of them)
 * @cpumask:    tracing_cpumask, one bit per CPU of the buffer
 * @nr_cpus:    bits in @cpumask
 */
struct tfs_inst {
	struct trace_array	*tr;
	struct tfs_node		*dir;
	struct tfs_node		*events;
	unsigned long		events_gen;
	unsigned int		open_files;
	pthread_mutex_t		lock;
	struct tfs_err		errs[TFS_ERRLOG_MAX];
	unsigned int		nr_errs;
	uint32_t		*cpumask;
	unsigned int		nr_cpus;
};

/* What a directory is, for the ones whose children change. */
enum tfs_dir_kind {
	TFS_DIR_PLAIN,
	TFS_DIR_INSTANCES,	/* instances/: mkdir, rmdir */
	TFS_DIR_EVENTS,		/* events/ of an instance */
	TFS_DIR_SYSTEM,		/* events/SYS */
	TFS_DIR_EVENT,		/* events/SYS/EVENT */
};

/**
 * struct tfs_node - a file or directory
 * @ino:     its inode number, never reused
 * @name:    its name (owned)
 * @mode:    S_IFDIR | 0750, or S_IFREG | the fops' mode
 * @refs:    1 while in the tree, 1 per open file and per child
 * @removed: unlinked from the tree; freed with the last reference
 * @gen:     the registry pass that last saw it (events dirs)
 * @parent:  its directory (holds a reference)
 * @kids:    a directory's children, in creation order
 * @kind:    a directory's kind
 * @fops:    a file's operations
 * @inst:    the instance it belongs to
 * @cpu:     per_cpu/cpuN files: N; else RING_BUFFER_ALL_CPUS
 * @system:  files under events/SYS: the system (the SYS dir's name)
 * @event:   files under events/SYS/EVENT: the event (the EVENT dir's name)
 * @option:  options/NAME: its index in trace_option_names
 */
struct tfs_node {
	uint64_t		ino;
	char			*name;
	mode_t			mode;
	int			refs;
	bool			removed;
	unsigned int		gen;
	struct tfs_node		*parent;
	struct tfs_node		**kids;
	unsigned int		nr_kids, max_kids;
	enum tfs_dir_kind	kind;
	const struct tfs_fops	*fops;
	struct tfs_inst		*inst;
	int			cpu;
	const char		*system;
	const char		*event;
	int			option;
};

/**
 * struct tfs_fops - what a file does
 * @mode:     its permission bits: 0440, 0640 or 0220
 * @text:     the text of a file that always reads the same
 * @show:     the text of a file read from a snapshot, made at open and
 *	      after each write; return 0 or -errno
 * @open:     set up a streaming file (trace, trace_pipe...)
 * @read:     a streaming file's read; -EAGAIN when a consuming file is empty
 * @write:    one write; return the bytes taken (@size, or fewer where the
 *	      kernel's file takes fewer) or -errno (nothing changed).  The
 *	      pieces of a write after the first (see tfs_write()) change
 *	      nothing: the kernel reads no further than what the first holds
 * @write_piece: instead of @write, for a file whose kernel parser reads
 *	      words through the whole write: one piece of it; @piece has
 *	      TFS_PIECE_CONT when it continues the write in progress,
 *	      TFS_PIECE_MORE when another may follow.  Return as @write (0:
 *	      this piece takes nothing, the write ended before it)
 * @write_end: the write in progress ends without another piece: take
 *	      what @write_piece kept for it; return 0 or -errno
 * @trunc:    what O_TRUNC (or truncate()) with write access does
 * @readable: would @read return something now (consuming files)
 * @wait_word, @wait_arm: tfs_wait_word() and tfs_wait_arm() of the file
 * @poll_readable, @poll_arm: tfs_poll_readable() and tfs_poll_arm(), for
 *	      a file whose poll waits for more than its reads (NULL: the same)
 * @ioctl:    tfs_ioctl() (NULL: -ENOTTY)
 * @linger:   tfs_linger(): a reader woken for this file lingers before
 *	      it reads (trace_pipe)
 * @release:  undo @open
 * @trunc_err: an O_TRUNC that may fail (synthetic_events: -EBUSY): the
 *	      open or truncate(2) fails with its error
 */
struct tfs_fops {
	mode_t	mode;
	const char *text;
	int	(*show)(struct tfs_file *f, struct seq_buf *b);
	int	(*open)(struct tfs_file *f);
	ssize_t	(*read)(struct tfs_file *f, char *buf, size_t size, off_t off);
	ssize_t	(*write)(struct tfs_file *f, const char *buf, size_t size);
	ssize_t	(*write_piece)(struct tfs_file *f, const char *buf, size_t size,
			       unsigned int piece);
	int	(*write_end)(struct tfs_file *f);
	void	(*trunc)(struct tfs_node *node);
	int	(*readable)(struct tfs_file *f);
	uint32_t *(*wait_word)(struct tfs_file *f);
	int	(*wait_arm)(struct tfs_file *f);
	int	(*poll_readable)(struct tfs_file *f);
	int	(*poll_arm)(struct tfs_file *f);
	int	(*ioctl)(struct tfs_file *f, unsigned int cmd);
	bool	linger;
	void	(*release)(struct tfs_file *f);
	int	(*trunc_err)(struct tfs_node *node);
};

/* @write_piece's @piece. */
#define TFS_PIECE_CONT	1u
#define TFS_PIECE_MORE	2u

/**
 * struct tfs_file - an open file
 * @node:    the file
 * @inst:    its instance (@node->inst)
 * @flags:   open(2)'s flags
 * @lock:    one operation at a time on this open file
 * @text:    the snapshot of a @show file
 * @priv:    a streaming file's state; set_event_pid's write in progress
 * @wr_open: a write is in progress: its last piece may be followed by
 *	     another, at @wr_next
 * @wr_next: where that piece starts
 * @parser:  the words of the write in progress (@write_piece files)
 */
struct tfs_file {
	struct tfs_node		*node;
	struct tfs_inst		*inst;
	int			flags;
	pthread_mutex_t		lock;
	struct seq_buf		text;
	void			*priv;
	bool			wr_open;
	off_t			wr_next;
	struct tfs_parser	parser;
};

/* One entry of a directory made from a table. */
struct tfs_entry {
	const char		*name;
	const struct tfs_fops	*fops;
};

extern pthread_mutex_t tfs_tree_lock;

/* Under tfs_tree_lock. */
struct tfs_node *tfs_add_dir(struct tfs_node *parent, const char *name,
			     enum tfs_dir_kind kind);
struct tfs_node *tfs_add_file(struct tfs_node *parent, const char *name,
			      const struct tfs_fops *fops);
struct tfs_node *tfs_find_kid(struct tfs_node *dir, const char *name);
void tfs_remove_node(struct tfs_node *node);
int tfs_add_entries(struct tfs_node *dir, const struct tfs_entry *table);

/* ------------------------------------------------------------------
 * Feature files
 */

/* tracefs_events.c: events/ of @inst, rebuilt from the registry. */
int tfs_events_create(struct tfs_inst *inst);
void tfs_events_sync(struct tfs_inst *inst);

/* tracefs_errlog.c */
void tfs_log_err(struct tfs_inst *inst, const char *loc, const char *msg,
		 const char *cmd, unsigned int pos);
void tfs_errlog_clear(struct tfs_inst *inst);

/* tracefs_control.c: options/ and per_cpu/ of an instance. */
int tfs_options_create(struct tfs_inst *inst, struct tfs_node *dir);
int tfs_per_cpu_create(struct tfs_inst *inst, struct tfs_node *dir);

/* The files, by the name of the file they serve. */
extern const struct tfs_fops tfs_fops_readme, tfs_fops_available_events,
	tfs_fops_available_tracers, tfs_fops_current_tracer,
	tfs_fops_buffer_percent, tfs_fops_buffer_size_kb,
	tfs_fops_buffer_total_size_kb, tfs_fops_error_log,
	tfs_fops_printk_formats, tfs_fops_saved_cmdlines,
	tfs_fops_saved_cmdlines_size, tfs_fops_saved_tgids, tfs_fops_set_event,
	tfs_fops_set_event_pid, tfs_fops_set_event_notrace_pid, tfs_fops_trace,
	tfs_fops_trace_clock, tfs_fops_trace_marker, tfs_fops_trace_marker_raw,
	tfs_fops_trace_options, tfs_fops_trace_pipe, tfs_fops_tracing_cpumask,
	tfs_fops_tracing_on, tfs_fops_trace_pipe_raw, tfs_fops_stats,
	tfs_fops_option, tfs_fops_snapshot;

/* tracefs_dynevent.c: the synthetic events (top level only). */
extern const struct tfs_fops tfs_fops_synthetic_events, tfs_fops_dynamic_events;

#endif /* _USTRACE_KERNEL_TRACE_TRACEFS_INTERNAL_H */
