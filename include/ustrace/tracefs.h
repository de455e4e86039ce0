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
#include <sys/ioctl.h>

/*
 * ioctl(2) on an open per_cpu/cpuN/trace_pipe_raw of such a tree (no
 * argument): from then on, a read of that open file asking for two whole
 * pages or more returns every whole page there is, up to the size asked,
 * where the kernel's read returns one page.  The first page is read as
 * before (a blocking read waits for it; it may be the last page in part);
 * the ones after it are complete pages only, taken without waiting, as
 * the kernel's splice(2) takes them.  A FUSE file cannot be spliced, and
 * each read is a request to the program: "ustrace trace-cmd" sets this
 * so that trace-cmd's splice costs one request rather than one a page.
 * The kernel's tracefs, and the tree's other files, fail it with ENOTTY.
 */
#define USTRACE_TRACEFS_IOC_RAW_PAGES	_IO('u', 0x01)

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
