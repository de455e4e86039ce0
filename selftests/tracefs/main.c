// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracefs tree, in process (kernel/trace/tracefs/tracefs.h): every file's
 * text and every errno, through the calls a file system server makes,
 * against what the kernel's /sys/kernel/tracing gives for the same
 * command.  Linked with libustrace.a: the tree's calls are internal to
 * the library.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "tfs-events.h"

#include "tfs_test.h"

/* ------------------------------------------------------------------
 * Helpers
 */

int64_t tfs_path(const char *path)
{
	char *copy = strdup(path), *s = copy, *name;
	struct tfs_stat st = { .ino = TFS_ROOT_INO };
	int err = 0;

	while (!err && (name = strsep(&s, "/")))
		if (*name)
			err = tfs_lookup(st.ino, name, &st);
	free(copy);
	return err ? err : (int64_t)st.ino;
}

mode_t tfs_mode(const char *path)
{
	int64_t ino = tfs_path(path);
	struct tfs_stat st;

	if (ino < 0 || tfs_getattr((uint64_t)ino, &st))
		return 0;
	return st.mode;
}

static int open_path(const char *path, int flags, struct tfs_file **file)
{
	int64_t ino = tfs_path(path);

	return ino < 0 ? (int)ino : tfs_open((uint64_t)ino, flags, file);
}

int tfs_open_err(const char *path, int flags)
{
	struct tfs_file *file;
	int err = open_path(path, flags, &file);

	if (!err)
		tfs_release(file);
	return err;
}

/* Per thread: the concurrent test reads from several. */
#define KEPT_TEXTS	8
static __thread char *kept[KEPT_TEXTS];
static __thread unsigned int next_kept;

static const char *keep(char *text)
{
	free(kept[next_kept]);
	kept[next_kept] = text;
	next_kept = (next_kept + 1) % KEPT_TEXTS;
	return text;
}

void tfs_forget_texts(void)
{
	for (unsigned int i = 0; i < KEPT_TEXTS; i++) {
		free(kept[i]);
		kept[i] = NULL;
	}
}

static char *error_text(int err)
{
	char *s = malloc(32);

	if (s)
		snprintf(s, 32, "<error %d>", err);
	return s;
}

const char *tfs_cat_chunked(const char *path, size_t chunk)
{
	struct tfs_file *file;
	size_t len = 0, cap = 4096;
	char *text = malloc(cap + 1);
	ssize_t n;
	int err = open_path(path, O_RDONLY, &file);

	if (err || !text) {
		free(text);
		return keep(error_text(err));
	}
	for (;;) {
		if (len + chunk > cap) {
			cap = 2 * (len + chunk);
			text = realloc(text, cap + 1);
		}
		n = tfs_read(file, text + len, chunk, (off_t)len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	tfs_release(file);
	if (n < 0) {
		free(text);
		return keep(error_text((int)n));
	}
	text[len] = '\0';
	return keep(text);
}

ssize_t tfs_write_path(const char *path, const void *buf, size_t len, int flags)
{
	struct tfs_file *file;
	int err = open_path(path, O_WRONLY | flags, &file);
	ssize_t ret;

	if (err)
		return err;
	ret = tfs_write(file, buf, len, 0, 0);
	tfs_release(file);
	return ret;
}

/*
 * Write @buf as write(2)s of at most @max bytes do: each a piece, with
 * TFS_WRITE_MORE when it is @max long, at increasing offsets; another
 * write(2) after a short one, as a writer's loop (@loop) does.
 */
static ssize_t write_pieces(struct tfs_file *file, const char *buf, size_t len, size_t max,
			    bool loop)
{
	size_t done = 0, n;
	ssize_t ret = 0;

	while (done < len || !len) {
		n = len - done < max ? len - done : max;
		ret = tfs_write(file, buf + done, n, (off_t)done,
				!loop && n == max ? TFS_WRITE_MORE : 0);
		if (ret < 0)
			return done && !loop ? (ssize_t)done : ret;
		done += (size_t)ret;
		if (!len || (!loop && (size_t)ret < n) || (loop && !ret))
			break;
	}
	return (ssize_t)done;
}

ssize_t tfs_write_split(const char *path, const void *buf, size_t len, size_t piece,
			int flags)
{
	struct tfs_file *file;
	int err = open_path(path, O_WRONLY | flags, &file);
	ssize_t ret;

	if (err)
		return err;
	ret = write_pieces(file, buf, len, piece, false);
	err = tfs_flush(file);
	tfs_release(file);
	return err ? err : ret;
}

ssize_t tfs_write_loop(const char *path, const void *buf, size_t len, int flags)
{
	struct tfs_file *file;
	int err = open_path(path, O_WRONLY | flags, &file);
	ssize_t ret;

	if (err)
		return err;
	ret = write_pieces(file, buf, len, len ? len : 1, true);
	tfs_release(file);
	return ret;
}

int tfs_refuses(const char *path, int err, const char *const *writes)
{
	int bad = 0;

	for (; *writes; writes++) {
		ssize_t ret = tfs_echo(path, *writes);

		if (ret != err) {
			ksft_print_msg("%s: writing \"%s\" gave %zd, not %d\n", path, *writes,
				       ret, err);
			bad++;
		}
	}
	return bad;
}

int tfs_count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

struct dir_find {
	const char	*name;
	int		found;
};

static int dir_fill(void *ctx, const char *name, const struct tfs_stat *st, off_t next)
{
	struct dir_find *f = ctx;

	(void)st, (void)next;
	f->found |= !strcmp(name, f->name);
	return 0;
}

int tfs_dir_has(const char *path, const char *name)
{
	struct dir_find f = { .name = name };
	int64_t ino = tfs_path(path);

	if (ino < 0 || tfs_readdir((uint64_t)ino, 0, dir_fill, &f))
		return 0;
	return f.found;
}

void tfs_fire_one(int v, int n)
{
	for (int i = 0; i < n; i++)
		trace_tfs_one(v + i);
}

void tfs_fire_two(int v, int n)
{
	for (int i = 0; i < n; i++)
		trace_tfs_two(v + i);
}

/* ------------------------------------------------------------------
 * Running
 */

static const struct tfs_test *const suites[] = {
	tfs_tree_tests, tfs_events_tests, tfs_control_tests, tfs_trace_tests,
};

int main(void)
{
	unsigned int plan = 0, i;
	const struct tfs_test *t;

	ksft_print_header();
	if (tfs_init())
		ksft_exit_fail_msg("tfs_init() failed\n");
	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		for (t = suites[i]; t->fn; t++)
			plan++;
	ksft_set_plan(plan);
	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		for (t = suites[i]; t->fn; t++)
			ksft_run_test(t->fn, t->name);
	tfs_forget_texts();
	ksft_finished();
}
