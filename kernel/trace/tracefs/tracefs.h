/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracefs tree without a kernel: directories and files with the
 * kernel's names, texts and errors, addressed by inode number.  The FUSE
 * server (tracefs_fuse.c, beside this file) translates FUSE requests into these
 * calls and nothing else, and the collector's client makes the same calls
 * for the collector in another process (kernel/trace/collector/).  Not
 * installed.
 *
 * Inode numbers are stable for the life of a node and never reused while
 * the tree exists (1 is the root).  A removed node's number gives -ENOENT
 * (-ESTALE is not needed: FUSE forgets are ignored).
 *
 * All functions are thread-safe, never block except where said, and
 * return negative errno values.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACEFS_H
#define _USTRACE_KERNEL_TRACE_TRACEFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TFS_ROOT_INO	1

struct tfs_stat {
	uint64_t	ino;
	mode_t		mode;	/* S_IFDIR | 0750 or S_IFREG | 0640 / 0440 / 0220 */
	off_t		size;	/* 0 for generated files (direct_io) */
	unsigned int	nlink;
};

/* Build the tree (idempotent).  Return: 0 or -ENOMEM. */
int tfs_init(void);

/* Names longer than NAME_MAX (255 bytes) are -ENAMETOOLONG here and below. */
int tfs_lookup(uint64_t parent, const char *name, struct tfs_stat *st);
int tfs_getattr(uint64_t ino, struct tfs_stat *st);

/*
 * Calls @fill for every entry after the first @offset ones ("." and ".."
 * are not included); stops when @fill returns non-zero.  @fill runs
 * without the tree's lock: it may call back into the tree.
 * Return: 0, -ENOENT, -ENOTDIR.
 */
int tfs_readdir(uint64_t ino, off_t offset,
		int (*fill)(void *ctx, const char *name, const struct tfs_stat *st, off_t next),
		void *ctx);

/*
 * Only in instances/: a new instance.  -EEXIST (the name exists, there or
 * elsewhere), -EPERM elsewhere, -EINVAL (a name the engine refuses).
 */
int tfs_mkdir(uint64_t parent, const char *name, struct tfs_stat *st);
/*
 * -EBUSY while the instance has open files, -EPERM outside instances/,
 * -ENOTDIR for a file, -ENOENT.  May wait for a grace period (probes
 * still writing into the instance).
 */
int tfs_rmdir(uint64_t parent, const char *name);

struct tfs_file;

/*
 * Open a file: @flags are open(2)'s (O_ACCMODE, O_TRUNC, O_NONBLOCK,
 * O_APPEND).  Access beyond the file's mode: -EACCES.  O_TRUNC on trace
 * clears the buffer, on set_event disables every event, ... as the kernel.
 * Files whose text does not change while read (format, enable, ...) are
 * generated at open and served from that snapshot; trace is a walk of the
 * buffer; trace_pipe and trace_pipe_raw consume.
 */
int tfs_open(uint64_t ino, int flags, struct tfs_file **filep);

/*
 * Read at @off.  Consuming files ignore @off.  Never blocks: a consuming
 * file with nothing to read returns -EAGAIN (the server then waits, see
 * tfs_readable(), unless the file was opened O_NONBLOCK).
 * Return: bytes read (0 at end of file), or -errno (-EBADF: not open
 * for reading).
 */
ssize_t tfs_read(struct tfs_file *file, char *buf, size_t size, off_t off);

/*
 * Write at @off.  A write is one command, as in the kernel, and takes
 * what the kernel's file takes: all of it, or less (set_event takes one
 * word, trace_marker what a record holds, set_event_pid stops at a NUL).
 * A zero-length write is a write (e.g. "> trace" with O_TRUNC and no data).
 *
 * A transport that delivers one write(2) in pieces (the kernel's FUSE
 * client: at most max_write bytes each, in order, at consecutive offsets)
 * passes TFS_WRITE_MORE with every piece that may have a successor: one
 * of the largest size it sends.  A write at @off + @size after such a
 * piece continues the same write(2): the word the piece ended in goes on
 * (set_event, set_event_pid), or, in the files the kernel reads no further
 * into than the first piece holds, it is taken and changes nothing.  The
 * write ends with a piece without the flag, a write elsewhere,
 * tfs_flush() or tfs_release().
 *
 * Return: the bytes taken, or -errno with nothing changed (a failing
 * piece of set_event_pid undoes the pieces of its write before it).
 */
#define TFS_WRITE_MORE	1u
ssize_t tfs_write(struct tfs_file *file, const char *buf, size_t size, off_t off,
		  unsigned int flags);

/*
 * The thread whose write(2) the calling thread serves (the transport
 * knows it: FUSE names it), 0 for none: trace_marker records carry its pid
 * and name and land on its CPU.
 */
void tfs_set_writer(pid_t tid);

/*
 * close(2) of a descriptor of the file: a write whose last piece had
 * TFS_WRITE_MORE ends here, and what it kept (a word at its very end)
 * is taken.  Return: 0, or the -errno of that word.
 */
int tfs_flush(struct tfs_file *file);
/* Does close(2) of this file need tfs_flush() (a file that keeps a word)? */
int tfs_wants_flush(const struct tfs_file *file);

/*
 * truncate(2) / O_TRUNC on an open file: as the open flag.  -EACCES for
 * a file that cannot be written, -EISDIR.
 */
int tfs_truncate(uint64_t ino);

/*
 * Would a read return data now (for blocking reads and poll)?  1 or 0;
 * always 1 for files that are not consuming.  The server asks it when it
 * is woken (below), not at a period.
 */
int tfs_readable(struct tfs_file *file);

/*
 * Waiting without polling, for a file that is not readable.  The traced
 * threads make no system calls, except this one way: a reader arms the
 * file's buffer, and the writer that makes it readable (the next event,
 * for trace_pipe and trace_pipe_raw, which wake on any data as the
 * kernel's reads do) bumps and FUTEX_WAKEs a word.  tfs_wait_word() is
 * that word, in memory a reader in another process can map too (a shared
 * futex, not FUTEX_PRIVATE), or NULL for a file that never waits.  The
 * file's word may change (a snapshot swap wakes it first): take it anew
 * before each wait.  Load the word, then tfs_wait_arm(), then FUTEX_WAIT
 * on the value loaded:
 * Return: 0 readable now (do not sleep), -1 sleep until the word changes,
 * N > 0 sleep at most N ms (an event is being written: its commit wakes
 * nobody).
 */
uint32_t *tfs_wait_word(struct tfs_file *file);
int tfs_wait_arm(struct tfs_file *file);

/*
 * The same for poll(2), where a file's poll waits for something else than
 * its reads: a CPU's trace_pipe and trace_pipe_raw poll readable only when
 * the buffer is buffer_percent full, as the kernel's trace_poll(), while
 * their reads wake on any data.  Same returns as tfs_readable() and
 * tfs_wait_arm().
 */
int tfs_poll_readable(struct tfs_file *file);
int tfs_poll_arm(struct tfs_file *file);

/* ioctl(2) of @cmd, without data.  Return: 0 or -errno (-ENOTTY: none). */
int tfs_ioctl(struct tfs_file *file, unsigned int cmd);

/*
 * Whether a reader woken for @file should wait a little more before it
 * reads, so that one read takes the events of a millisecond rather than
 * one (trace_pipe: each of its reads is a round trip through FUSE and a
 * flush of the writer's page, in the traced program; tracefs.rst).
 */
int tfs_linger(struct tfs_file *file);

/* Close. */
void tfs_release(struct tfs_file *file);

/*
 * What a FUSE server serves: this tree (tfs_local_backend, the functions
 * above), or another that answers the same calls with the same meanings
 * (the collector's tree of many processes, kernel/trace/collector/).
 * A backend's files are its own type, passed back to it as tfs_file.
 */
struct tfs_backend {
	int	(*init)(void);
	int	(*lookup)(uint64_t parent, const char *name, struct tfs_stat *st);
	int	(*getattr)(uint64_t ino, struct tfs_stat *st);
	int	(*readdir)(uint64_t ino, off_t offset,
			   int (*fill)(void *ctx, const char *name, const struct tfs_stat *st,
				       off_t next),
			   void *ctx);
	int	(*mkdir)(uint64_t parent, const char *name, struct tfs_stat *st);
	int	(*rmdir)(uint64_t parent, const char *name);
	int	(*open)(uint64_t ino, int flags, struct tfs_file **filep);
	ssize_t	(*read)(struct tfs_file *file, char *buf, size_t size, off_t off);
	ssize_t	(*write)(struct tfs_file *file, const char *buf, size_t size, off_t off,
			 unsigned int flags);
	void	(*set_writer)(pid_t tid);
	int	(*flush)(struct tfs_file *file);
	int	(*wants_flush)(const struct tfs_file *file);
	int	(*truncate)(uint64_t ino);
	int	(*readable)(struct tfs_file *file);
	uint32_t *(*wait_word)(struct tfs_file *file);
	int	(*wait_arm)(struct tfs_file *file);
	/* NULL: poll(2) waits as reads do (readable, wait_arm) */
	int	(*poll_readable)(struct tfs_file *file);
	int	(*poll_arm)(struct tfs_file *file);
	/* NULL: every ioctl(2) is ENOTTY */
	int	(*ioctl)(struct tfs_file *file, unsigned int cmd);
	/* NULL: a woken reader never lingers */
	int	(*linger)(struct tfs_file *file);
	void	(*release)(struct tfs_file *file);
};

extern const struct tfs_backend tfs_local_backend;

/*
 * Serve @be's tree at @path (options as ustrace_tracefs_mount()'s), in
 * this process's one server: ustrace_tracefs_mount() is this with the
 * local tree.  Return: as ustrace_tracefs_mount(3).
 */
int tfs_serve(const char *path, const char *options, const struct tfs_backend *be);

/* A group number as the mount's gid= takes it: @len decimal digits.  0, -EINVAL. */
int tfs_parse_gid(const char *s, size_t len, gid_t *gid);

#endif /* _USTRACE_KERNEL_TRACE_TRACEFS_H */
