/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers of the tracefs tree tests: paths instead of inode numbers,
 * cat and echo as a shell does them, through the tfs_*() calls a server
 * makes.
 */
#ifndef _USTRACE_SELFTESTS_TFS_TEST_H
#define _USTRACE_SELFTESTS_TFS_TEST_H

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "../../kernel/trace/tracefs/tracefs.h"
#include "kselftest.h"

struct tfs_test {
	void		(*fn)(void);
	const char	*name;
};
#define TFS_TEST(fn)	{ fn, #fn }
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

extern const struct tfs_test tfs_tree_tests[], tfs_events_tests[],
	tfs_control_tests[], tfs_trace_tests[];

/* The inode of @path ("events/enable", "" for the root), or -errno. */
int64_t tfs_path(const char *path);
/* Its mode, or 0. */
mode_t tfs_mode(const char *path);
/* open(2) of @path: 0 (closed again) or -errno. */
int tfs_open_err(const char *path, int flags);
/*
 * Everything a read of @path gives, read @chunk bytes at a time at
 * increasing offsets; "<error N>" when open or read fails.  The text is
 * freed by a later call (eight are kept).
 */
const char *tfs_cat_chunked(const char *path, size_t chunk);
#define tfs_cat(path)	tfs_cat_chunked(path, 4096)
/* Free the calling thread's texts (before it exits). */
void tfs_forget_texts(void);
/* One write of @len bytes after an open with O_WRONLY | @flags. */
ssize_t tfs_write_path(const char *path, const void *buf, size_t len, int flags);
/*
 * One write(2) of @len bytes as the kernel's FUSE client sends it: pieces
 * of @piece bytes (the last one shorter), then close.  Return: what the
 * write(2) returns (the bytes taken up to a short piece, or -errno when
 * the first piece fails), or the -errno of close.
 */
ssize_t tfs_write_split(const char *path, const void *buf, size_t len, size_t piece,
			int flags);
/* write(2) again after a short one, as a shell's echo does: the total or -errno. */
ssize_t tfs_write_loop(const char *path, const void *buf, size_t len, int flags);
/* As "echo -n TEXT > path" (O_TRUNC) and ">>" (O_APPEND). */
#define tfs_echo(path, text)	tfs_write_path(path, text, strlen(text), O_TRUNC)
#define tfs_append(path, text)	tfs_write_path(path, text, strlen(text), O_APPEND)
/*
 * Each of the NULL-terminated @writes (echo > @path) fails with @err;
 * returns how many did not (and says which).
 */
int tfs_refuses(const char *path, int err, const char *const *writes);
#define TFS_WRITES(...)	((const char *const[]){ __VA_ARGS__, NULL })
/* Occurrences of @needle in @text. */
int tfs_count(const char *text, const char *needle);
/* Whether the directory @path lists @name. */
int tfs_dir_has(const char *path, const char *name);
/* Record events of the test: tfs_one(v), n times from v. */
void tfs_fire_one(int v, int n);
void tfs_fire_two(int v, int n);

#endif /* _USTRACE_SELFTESTS_TFS_TEST_H */
