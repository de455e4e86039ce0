// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The recorder at _exit(), quick_exit() and exec (trace_record.c writes).
 *
 * exit() writes the file from the destructor.  _exit(), _Exit() and the
 * exec family do not run destructors, so the library defines them: each
 * writes the file (exec keeps recording, should it fail), then calls
 * libc's, found with dlsym(RTLD_NEXT) when the library is loaded (never
 * in a child).  quick_exit() runs at_quick_exit() handlers: ours writes.
 * They are weak, so that a program linked statically with libc keeps
 * libc's.  Only the recording process writes: a child of fork() or of
 * vfork() (a pid of its own) goes straight on, which a vfork() child
 * must, sharing the parent's memory.  posix_spawn(), system() and popen()
 * exec inside libc, through none of these, in children anyway.
 * daemon() ends its parent with libc's own _exit(), which is not ours:
 * the library defines it too (below).  An exec
 * that replaces the program by another linked with libustrace, which
 * inherits the variables, records into the same file (the pid, %p, is
 * the same): the new program's file replaces this one when it ends.
 */
#define __USTRACE_CORE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "trace_record.h"

static void (*libc_exit)(int) __attribute__((__noreturn__));
static int (*libc_execve)(const char *, char *const[], char *const[]);
static int (*libc_execvpe)(const char *, char *const[], char *const[]);
static int (*libc_fexecve)(int, char *const[], char *const[]);
static int (*libc_execveat)(int, const char *, char *const[], char *const[], int);

static void rec_quick_exit(void)
{
	trace_record_finish_now();
}

__attribute__((__constructor__))
static void trace_record_libc_init(void)
{
	*(void **)&libc_exit = dlsym(RTLD_NEXT, "_exit");
	*(void **)&libc_execve = dlsym(RTLD_NEXT, "execve");
	*(void **)&libc_execvpe = dlsym(RTLD_NEXT, "execvpe");
	*(void **)&libc_fexecve = dlsym(RTLD_NEXT, "fexecve");
	*(void **)&libc_execveat = dlsym(RTLD_NEXT, "execveat");
	at_quick_exit(rec_quick_exit);
}

static __attribute__((__noreturn__)) void rec_real_exit(int status)
{
	if (libc_exit)
		libc_exit(status);
	for (;;)
		syscall(SYS_exit_group, status);
}

static int rec_real_execve(const char *path, char *const argv[], char *const envp[])
{
	if (libc_execve)
		return libc_execve(path, argv, envp);
	return (int)syscall(SYS_execve, path, argv, envp);
}

static int rec_real_execveat(int dirfd, const char *path, char *const argv[],
			     char *const envp[], int flags)
{
	if (libc_execveat)
		return libc_execveat(dirfd, path, argv, envp, flags);
	return (int)syscall(SYS_execveat, dirfd, path, argv, envp, flags);
}

/* execvpe() without libc's: each directory of PATH, as the shell does. */
static int rec_real_execvpe(const char *file, char *const argv[], char *const envp[])
{
	const char *dirs, *end;
	char path[PATH_MAX];
	int err = ENOENT;

	if (libc_execvpe)
		return libc_execvpe(file, argv, envp);
	if (strchr(file, '/'))
		return rec_real_execve(file, argv, envp);
	dirs = getenv("PATH");
	for (dirs = dirs ? dirs : "/bin:/usr/bin"; ; dirs = end + 1) {
		size_t len;

		end = strchrnul(dirs, ':');
		len = (size_t)(end - dirs);
		/* An empty entry is the working directory. */
		if (len + strlen(file) + 2 <= sizeof(path)) {
			memcpy(path, dirs, len);
			path[len] = '/';
			strcpy(path + len + 1, file);
			rec_real_execve(len ? path : file, argv, envp);
			if (errno != ENOENT && errno != ENOTDIR)
				err = errno;
		}
		if (!*end)
			break;
	}
	errno = err;
	return -1;
}

#define REC_LIBC_HOOK	__attribute__((__weak__, __visibility__("default")))

REC_LIBC_HOOK __attribute__((__noreturn__)) void _exit(int status)
{
	trace_record_finish_now();
	rec_real_exit(status);
}

REC_LIBC_HOOK __attribute__((__noreturn__)) void _Exit(int status)
{
	trace_record_finish_now();
	rec_real_exit(status);
}

/*
 * daemon(): libc's, but for what the recording needs.  The parent writes
 * its file and ends; the child, the program from now on, records on its
 * own, as a program just started (a recording that USTRACE_EVENTS
 * started: a part of its own under ustrace record, its own file with %p
 * in USTRACE_OUTPUT).
 */
REC_LIBC_HOOK int daemon(int nochdir, int noclose)
{
	int was = trace_record_before_daemon();
	struct stat st;
	pid_t pid;
	int fd;

	/* The streams are libc's: unflushed output goes on with the child. */
	pid = fork();
	/*
	 * No child: the program goes on, its file written; it records no
	 * more (its other threads may be inside the instance's probes).
	 */
	if (pid < 0)
		return -1;
	if (pid)
		rec_real_exit(0);
	trace_record_daemon_child(was);
	if (setsid() < 0)
		return -1;
	if (!nochdir && chdir("/"))
		return -1;
	if (!noclose) {
		fd = open("/dev/null", O_RDWR);
		if (fd < 0)
			return -1;
		/* As libc's: /dev/null must be the device, not a file put there. */
		if (fstat(fd, &st) || !S_ISCHR(st.st_mode) ||
		    st.st_rdev != makedev(1, 3)) {
			close(fd);
			errno = ENODEV;
			return -1;
		}
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	return 0;
}

REC_LIBC_HOOK int execve(const char *path, char *const argv[], char *const envp[])
{
	trace_record_before_exec();
	return rec_real_execve(path, argv, envp);
}

REC_LIBC_HOOK int execveat(int dirfd, const char *path, char *const argv[],
			   char *const envp[], int flags)
{
	trace_record_before_exec();
	return rec_real_execveat(dirfd, path, argv, envp, flags);
}

REC_LIBC_HOOK int fexecve(int fd, char *const argv[], char *const envp[])
{
	trace_record_before_exec();
	if (libc_fexecve)
		return libc_fexecve(fd, argv, envp);
	return rec_real_execveat(fd, "", argv, envp, AT_EMPTY_PATH);
}

REC_LIBC_HOOK int execvpe(const char *file, char *const argv[], char *const envp[])
{
	trace_record_before_exec();
	return rec_real_execvpe(file, argv, envp);
}

REC_LIBC_HOOK int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

REC_LIBC_HOOK int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/*
 * execl(), execle() and execlp(): the arguments up to the NULL into an
 * array, as libc does (the count first, then an array of that size).
 */
static size_t rec_execl_count(const char *arg, va_list *ap)
{
	size_t n = 0;

	for (; arg; arg = va_arg(*ap, const char *))
		n++;
	return n;
}

/* @argv[0 .. @n] from @arg and @ap, NULL last; @ap is left after the NULL. */
static void rec_execl_fill(char **argv, size_t n, const char *arg, va_list *ap)
{
	argv[0] = (char *)arg;
	for (size_t i = 1; i <= n; i++)
		argv[i] = va_arg(*ap, char *);
}

REC_LIBC_HOOK int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, arg);
	n = rec_execl_count(arg, &ap);
	va_end(ap);
	{
		char *argv[n + 1];

		va_start(ap, arg);
		rec_execl_fill(argv, n, arg, &ap);
		va_end(ap);
		return execve(path, argv, environ);
	}
}

REC_LIBC_HOOK int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, arg);
	n = rec_execl_count(arg, &ap);
	va_end(ap);
	{
		char *argv[n + 1];

		va_start(ap, arg);
		rec_execl_fill(argv, n, arg, &ap);
		va_end(ap);
		return execvpe(file, argv, environ);
	}
}

REC_LIBC_HOOK int execle(const char *path, const char *arg, ...)
{
	char *const *envp;
	va_list ap;
	size_t n;

	va_start(ap, arg);
	n = rec_execl_count(arg, &ap);
	envp = va_arg(ap, char *const *);
	va_end(ap);
	{
		char *argv[n + 1];

		va_start(ap, arg);
		rec_execl_fill(argv, n, arg, &ap);
		va_end(ap);
		return execve(path, argv, envp);
	}
}

