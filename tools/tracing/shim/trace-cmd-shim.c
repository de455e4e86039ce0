// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace-trace-cmd.so: preloaded into the stock trace-cmd by
 * "ustrace trace-cmd", so that it works on a ustrace tracefs mount
 * ($USTRACE_TRACEFS_MOUNT) as on the kernel's, without patching it.
 *
 * What stops stock trace-cmd 3.1.6 / libtracefs 1.6 outside a kernel
 * tracefs, and what this does about it:
 *
 *  - libtracefs finds the tracing directory in /proc/mounts: the
 *    constructor calls its public tracefs_set_tracing_dir() with the
 *    mount;
 *  - some libtracefs 1.6 calls ignore that directory and use
 *    /sys/kernel/tracing (instances, dynamic_events): paths under
 *    /sys/kernel/tracing and /sys/kernel/debug/tracing are redirected to
 *    the mount;
 *  - record, start and stream write 1 to /proc/sys/kernel/ftrace_enabled
 *    and give up when that fails: the function tracer is not ours to
 *    enable, so that file reads "1" and takes writes;
 *  - the recorder moves trace_pipe_raw data with splice(2), which a FUSE
 *    file with direct_io cannot serve (it returns 0): a splice from a
 *    file of the mount is done with read(2) and write(2), whole pages up
 *    to the length asked, as the kernel's splice moves them.
 *
 * Nothing else is changed; every other call goes to the C library.
 *
 * trace-cmd is a tool: the USTRACE_* variables are its programs'.  Should
 * libustrace be loaded into it (a plugin, a preload), the marker keeps it
 * from serving or recording trace-cmd itself.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <ustrace/tool.h>
#include <ustrace/tracefs.h>

USTRACE_TOOL;

static const char *const kernel_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

#define FTRACE_ENABLED	"/proc/sys/kernel/ftrace_enabled"

static char mount_dir[PATH_MAX];
static size_t mount_len;

/*
 * Programs trace-cmd runs ("trace-cmd record ./app") get the environment
 * without this object in LD_PRELOAD: the redirections are trace-cmd's.
 */
static void unpreload_self(void)
{
	const char *old = getenv("LD_PRELOAD");
	char *copy, *tok, *save = NULL, *out;
	size_t len = 0;

	if (!old || !strstr(old, "ustrace-trace-cmd.so"))
		return;
	copy = strdup(old);
	out = calloc(1, strlen(old) + 1);
	if (!copy || !out) {
		free(copy);
		free(out);
		return;
	}
	for (tok = strtok_r(copy, ": ", &save); tok; tok = strtok_r(NULL, ": ", &save)) {
		if (strstr(tok, "ustrace-trace-cmd.so"))
			continue;
		len += (size_t)sprintf(out + len, "%s%s", len ? ":" : "", tok);
	}
	if (len)
		setenv("LD_PRELOAD", out, 1);
	else
		unsetenv("LD_PRELOAD");
	free(copy);
	free(out);
}

__attribute__((__constructor__))
static void shim_init(void)
{
	const char *dir = secure_getenv("USTRACE_TRACEFS_MOUNT");
	int (*set_dir)(const char *);

	unpreload_self();
	if (!dir || !*dir || strlen(dir) >= sizeof(mount_dir))
		return;
	strcpy(mount_dir, dir);
	mount_len = strlen(mount_dir);
	while (mount_len > 1 && mount_dir[mount_len - 1] == '/')
		mount_dir[--mount_len] = '\0';
	set_dir = (int (*)(const char *))dlsym(RTLD_DEFAULT, "tracefs_set_tracing_dir");
	if (set_dir && set_dir(mount_dir))
		fprintf(stderr, "ustrace-trace-cmd: tracefs_set_tracing_dir(%s) failed\n",
			mount_dir);
}

/*
 * @path with a kernel tracing directory replaced by the mount, in @buf;
 * @path itself when it is not under one.
 */
static const char *redirect(const char *path, char *buf, size_t size)
{
	size_t i, len;

	if (!path || !mount_len)
		return path;
	for (i = 0; i < sizeof(kernel_dirs) / sizeof(kernel_dirs[0]); i++) {
		len = strlen(kernel_dirs[i]);
		if (strncmp(path, kernel_dirs[i], len) ||
		    (path[len] != '\0' && path[len] != '/'))
			continue;
		if ((size_t)snprintf(buf, size, "%s%s", mount_dir, path + len) >= size)
			return path;
		return buf;
	}
	return path;
}

static bool is_ftrace_enabled(const char *path)
{
	return mount_len && path && !strcmp(path, FTRACE_ENABLED);
}

/* ftrace_enabled: reads "1", takes any write. */
static int ftrace_enabled_fd(int flags)
{
	int fd;

	if ((flags & O_ACCMODE) != O_RDONLY)
		return open("/dev/null", O_WRONLY | (flags & O_CLOEXEC));
	fd = memfd_create("ftrace_enabled", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, "1\n", 2) != 2 || lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -1;
	}
	return fd;
}

#define REAL(name)							\
	static __typeof__(name) *real_##name;				\
	if (!real_##name)						\
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	va_list ap;
	mode_t mode;

	REAL(open);
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	if (is_ftrace_enabled(path))
		return ftrace_enabled_fd(flags);
	return real_open(redirect(path, buf, sizeof(buf)), flags, mode);
}

int open64(const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	va_list ap;
	mode_t mode;

	REAL(open64);
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	if (is_ftrace_enabled(path))
		return ftrace_enabled_fd(flags);
	return real_open64(redirect(path, buf, sizeof(buf)), flags, mode);
}

/* _FORTIFY_SOURCE's open(path, flags) without a mode. */
int __open64_2(const char *path, int flags)
{
	return open64(path, flags);
}

int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	va_list ap;
	mode_t mode;

	REAL(openat);
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	if (is_ftrace_enabled(path))
		return ftrace_enabled_fd(flags);
	return real_openat(dirfd, redirect(path, buf, sizeof(buf)), flags, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	char buf[PATH_MAX];

	REAL(fopen64);
	if (is_ftrace_enabled(path)) {
		int fd = ftrace_enabled_fd(strchr(mode, 'w') || strchr(mode, 'a') ?
					   O_WRONLY : O_RDONLY);

		return fd < 0 ? NULL : fdopen(fd, mode);
	}
	return real_fopen64(redirect(path, buf, sizeof(buf)), mode);
}

FILE *fopen(const char *path, const char *mode)
{
	return fopen64(path, mode);
}

int stat64(const char *path, struct stat64 *st)
{
	char buf[PATH_MAX];

	REAL(stat64);
	return real_stat64(redirect(path, buf, sizeof(buf)), st);
}

int stat(const char *path, struct stat *st)
{
	char buf[PATH_MAX];

	REAL(stat);
	return real_stat(redirect(path, buf, sizeof(buf)), st);
}

int access(const char *path, int mode)
{
	char buf[PATH_MAX];

	REAL(access);
	if (is_ftrace_enabled(path))
		return 0;
	return real_access(redirect(path, buf, sizeof(buf)), mode);
}

DIR *opendir(const char *path)
{
	char buf[PATH_MAX];

	REAL(opendir);
	return real_opendir(redirect(path, buf, sizeof(buf)));
}

int mkdir(const char *path, mode_t mode)
{
	char buf[PATH_MAX];

	REAL(mkdir);
	return real_mkdir(redirect(path, buf, sizeof(buf)), mode);
}

int rmdir(const char *path)
{
	char buf[PATH_MAX];

	REAL(rmdir);
	return real_rmdir(redirect(path, buf, sizeof(buf)));
}

int unlink(const char *path)
{
	char buf[PATH_MAX];

	REAL(unlink);
	return real_unlink(redirect(path, buf, sizeof(buf)));
}

int chdir(const char *path)
{
	char buf[PATH_MAX];

	REAL(chdir);
	return real_chdir(redirect(path, buf, sizeof(buf)));
}

int glob64(const char *pattern, int flags, int (*errfunc)(const char *, int), glob64_t *g)
{
	char buf[PATH_MAX];

	REAL(glob64);
	return real_glob64(redirect(pattern, buf, sizeof(buf)), flags, errfunc, g);
}

/* A trace_pipe_raw page, and the most one splice() moves. */
#define SPLICE_PAGE	4096
#define SPLICE_MAX	65536

/* Is @fd a file of the mount? */
static bool fd_on_mount(int fd)
{
	char link[64], target[PATH_MAX];
	ssize_t len;

	if (!mount_len)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return false;
	target[len] = '\0';
	return !strncmp(target, mount_dir, mount_len) &&
	       (target[mount_len] == '/' || target[mount_len] == '\0');
}

static ssize_t write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return done ? (ssize_t)done : n;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/*
 * The pages a splice moves after its first: read without waiting until
 * @len is full or nothing is left, into @buf past @done.  The file is
 * made non-blocking for those reads, with every signal held: trace-cmd's
 * recorder sets O_NONBLOCK itself when it is told to stop (in a signal
 * handler), and must find it set after.  Return: the bytes read.
 */
static size_t splice_more(int fd, char *buf, size_t done, size_t len)
{
	sigset_t all, old;
	size_t more = 0;
	int fl;

	sigfillset(&all);
	if (pthread_sigmask(SIG_BLOCK, &all, &old))
		return 0;
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && ((fl & O_NONBLOCK) || !fcntl(fd, F_SETFL, fl | O_NONBLOCK))) {
		while (done + more + SPLICE_PAGE <= len) {
			ssize_t n = read(fd, buf + done + more, len - done - more);

			if (n <= 0 || n % SPLICE_PAGE)
				break;
			more += (size_t)n;
		}
		if (!(fl & O_NONBLOCK))
			fcntl(fd, F_SETFL, fl);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return more;
}

/*
 * splice() from a file of the mount, as the kernel's splice of
 * trace_pipe_raw: the first read waits as the file's reads do (trace-cmd
 * polls first: a CPU's file polls readable at buffer_percent); then, when
 * it gave a whole page, the pages that are there without waiting, up to
 * @len (64 KiB at most), so that a wake-up moves what is there rather than
 * one page.  The open file is asked for them in the same read
 * (USTRACE_TRACEFS_IOC_RAW_PAGES, each time: it is the open file's, and
 * trace-cmd may open another under the same number); a tree that does
 * not take the ioctl gets them read one by one.  Everything read is
 * written to @fd_out.  @off_in is ignored: trace-cmd passes NULL for the
 * pipe files it splices from.
 */
ssize_t splice(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out, size_t len,
	       unsigned int flags)
{
	static __thread char *buf;
	size_t chunk = len < SPLICE_MAX ? len : SPLICE_MAX, got;
	bool pages;
	ssize_t n;

	REAL(splice);
	if (!fd_on_mount(fd_in))
		return real_splice(fd_in, off_in, fd_out, off_out, len, flags);
	if (!buf) {
		buf = malloc(SPLICE_MAX);
		if (!buf) {
			errno = ENOMEM;
			return -1;
		}
	}
	pages = chunk >= 2 * SPLICE_PAGE && !ioctl(fd_in, USTRACE_TRACEFS_IOC_RAW_PAGES);
	do {
		n = read(fd_in, buf, chunk);
	} while (n < 0 && errno == EINTR);
	if (n <= 0)
		return n;
	got = (size_t)n;
	if (got == SPLICE_PAGE && !pages)
		got += splice_more(fd_in, buf, got, chunk);
	return write_all(fd_out, buf, got);
}
