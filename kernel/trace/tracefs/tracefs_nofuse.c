// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library without a FUSE server (CONFIG_TRACEFS_FUSE=n, or no libfuse3
 * found when it was built: kernel/trace/tracefs/Build.mk builds this file
 * in place of tracefs_fuse.c).  The tracefs tree is still there, for the
 * library's own callers; nothing serves it, and USTRACE_TRACEFS says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ustrace/tracefs.h>

#include "../../internal.h"

int ustrace_tracefs_mount(const char *path, const char *options)
{
	(void)path;
	(void)options;
	return -ENOSYS;
}

int ustrace_tracefs_unmount(void)
{
	return -ENOSYS;
}

__attribute__((constructor))
static void tfs_fuse_startup(void)
{
	const char *path = ustrace_getenv_path("USTRACE_TRACEFS");

	if (path && *path && !ustrace_is_tool())
		fprintf(stderr, "ustrace: tracefs at %s: %s\n", path, strerror(ENOSYS));
}
