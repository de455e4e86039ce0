/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * self_path.h - where a test program finds the files built beside it
 *
 *	char plugin[PATH_MAX];
 *
 *	if (self_path(plugin, sizeof(plugin), "te-plugin.so"))
 *		ksft_exit_fail_msg("cannot read /proc/self/exe\n");
 *
 * self_path(BUF, SIZE, NAME) writes into BUF the path of NAME in the
 * directory of the running program, as /proc/self/exe gives it, or that of
 * the program itself when NAME is NULL.  It returns 0, or -1 with errno set
 * when /proc/self/exe cannot be read or the path does not fit in SIZE bytes
 * (ENAMETOOLONG); BUF then holds an empty string.
 */
#ifndef USTRACE_SELFTESTS_SELF_PATH_H
#define USTRACE_SELFTESTS_SELF_PATH_H

#include <errno.h>
#include <string.h>
#include <unistd.h>

static inline int self_path(char *buf, size_t size, const char *name)
{
	ssize_t n;
	size_t dir, len;
	char *slash;

	if (!size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	n = readlink("/proc/self/exe", buf, size);
	if (n <= 0 || (size_t)n >= size) {
		if (n > 0)
			errno = ENAMETOOLONG;
		buf[0] = '\0';
		return -1;
	}
	buf[n] = '\0';
	if (!name)
		return 0;
	slash = strrchr(buf, '/');
	dir = slash ? (size_t)(slash - buf) + 1 : 0;
	len = strlen(name);
	if (dir + len >= size) {
		errno = ENAMETOOLONG;
		buf[0] = '\0';
		return -1;
	}
	memcpy(buf + dir, name, len + 1);
	return 0;
}

#endif /* USTRACE_SELFTESTS_SELF_PATH_H */
