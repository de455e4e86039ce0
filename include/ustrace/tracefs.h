/* SPDX-License-Identifier: MIT */
/*
 * A program's own tracefs: the tree of /sys/kernel/tracing, for the events
 * of this process, mounted with FUSE and served by the library's threads.
 *
 * Setting USTRACE_TRACEFS=/some/dir in the environment of a program linked
 * with libustrace.so mounts it there at startup (options, such as gid=N,
 * in USTRACE_TRACEFS_OPTS); these calls do the same from the program.
 * See ustrace_tracefs_mount(3).
 */
#ifndef _USTRACE_TRACEFS_H
#define _USTRACE_TRACEFS_H

#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

/*
 * Mount the tracefs at @path (an existing directory) and serve it until
 * ustrace_tracefs_unmount() or the end of the process.  @options is NULL
 * or a comma-separated list: "gid=N", "allow_other".
 * Return: 0 or a negative errno value.
 */
__ustrace_visible int ustrace_tracefs_mount(const char *path, const char *options);

/* Unmount it and stop serving.  Return: 0 or a negative errno value. */
__ustrace_visible int ustrace_tracefs_unmount(void);

__USTRACE_END_DECLS

#endif /* _USTRACE_TRACEFS_H */
