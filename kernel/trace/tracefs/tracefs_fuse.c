// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tracefs over FUSE: the server that makes `echo 1 > events/sys/enable`
 * work on a directory an instrumented program mounts for itself.
 *
 * The tree (names, texts, errors) is tracefs.c, beside this file.  This file
 * turns FUSE requests into its tfs_*() calls (tracefs.h) and
 * reaches nothing else of the engine; it serves a struct tfs_backend, the
 * local tree's calls or the collector's tree of many processes
 * (kernel/trace/collector/coll_tree.c, tfs_serve()).
 *
 * Threads.  Everything runs in threads of our own, created with every
 * signal blocked so that the program's signals keep going to the
 * program's threads:
 *
 *   server   mounts (clears a stale mount, runs fusermount3), then
 *            answers parked reads and polls (below); at the end it
 *            unmounts, stops the workers and closes the connection.
 *   workers  TFS_WORKERS threads, each looping: poll(/dev/fuse, stop),
 *            read one request, process it.  No handler waits: a read of
 *            trace_pipe with nothing to read is parked and the worker
 *            goes back for the next request.
 *
 * Blocking reads and poll(2).  While a read is parked or a poll handle is
 * kept, the server thread arms the files' buffers (tfs_wait_arm()) and
 * sleeps on their wake word, a shared futex that the writer which makes
 * a file readable bumps and wakes (the only system call a traced thread
 * makes for us, and only when someone waits); then it replies to the
 * read, or sends the poll notification.  Whoever else has news for it (a
 * read parked, an INTERRUPT, a stop) bumps and wakes the same word
 * (tfs_wake_server()).  An idle program with a reader attached wakes
 * nobody.  Only when the waiting files are in several instances (several
 * words) does it sleep on one of them at most TFS_TICK_MS at a time.  A
 * reader that gets a signal makes the kernel send INTERRUPT; its read is
 * answered with EINTR at once.  When every waiting file lingers
 * (trace_pipe, tfs_linger()), a wake is followed by TFS_LINGER_NS more
 * before the reads: the reply then takes the events of that time, not
 * the one that woke it, which the traced program would pay for each
 * event with a flush, a FUSE round trip and its context switches.
 *
 * Processes.  fusermount3 (setuid root) mounts and hands the /dev/fuse
 * descriptor back over a socket; it runs under a middle process of ours
 * (below), so that the program never gets a SIGCHLD of either nor sees
 * them in wait(), nor adopts fusermount3 as a subreaper.  A mount is
 * claimed first (tfs_claim()): of servers started at once on one
 * directory, one mounts and the others find it served.  The mount must
 * go when the program ends however it ends (exit, crash, SIGKILL, exec,
 * its whole process group or session killed): a watchdog process in a
 * session of its own, sharing our memory but holding none of our
 * descriptors but one pipe, waits for that pipe to close and then
 * lazily unmounts the path while it finds a dead FUSE mount there.
 * (fusermount3's own auto_unmount does that only when open() of the
 * mount point gives ENOTCONN at its first try - a race with the
 * connection's teardown when the server dies - and, in libfuse 3.14, never
 * for a user's mount without allow_other; it is the fallback when the
 * watchdog cannot start.)  A dead mount left behind anyway (the watchdog
 * was killed too) answers ENOTCONN; the next start at that path clears it.
 *
 * fork().  The child does not serve: its copies of our descriptors are
 * closed in the child at once (a fork handler, kernel/fork.c), so that
 * neither the mount nor the connection outlives the parent because of a
 * child; the child may mount a tracefs of its own.  exec() drops everything: every
 * descriptor is close-on-exec, and the watchdog then unmounts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ustrace/tracefs.h>

#include "../../internal.h"

#define FUSE_USE_VERSION 314
#include <fuse_lowlevel.h>

#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND	0
#endif

#include "../../internal.h"
#include "tracefs.h"

#define TFS_WORKERS		4
/* How often parked reads of several instances (words) ask whether data came. */
#define TFS_TICK_MS		20
/* How long a wake for files that linger (trace_pipe) waits before it reads. */
#define TFS_LINGER_NS		1000000L
/* How long we wait for fusermount3 to mount, or to unmount. */
#define TFS_MOUNT_WAIT_MS	30000
#define TFS_UNMOUNT_WAIT_MS	5000
#define TFS_FUSE_SUPER_MAGIC	0x65735546
#define TFS_STACK_SIZE		(64 * 1024)
#define TFS_PATH_ENV		"PATH=/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * The tree the one server of the process serves: the local one, or the
 * collector's (tfs_serve()).  Set before the server starts, read-only then.
 */
static const struct tfs_backend *tfs_be = &tfs_local_backend;

/* ------------------------------------------------------------------
 * Options: USTRACE_TRACEFS_OPTS, the second argument of the mount call
 */

struct tfs_mount_opts {
	gid_t	gid;
	bool	has_gid;
	bool	allow_other;
};

/* A decimal group number, as tracefs's gid= takes (-1 is no group). */
int tfs_parse_gid(const char *s, size_t len, gid_t *gid)
{
	unsigned long long val = 0;
	size_t i;

	if (!len || len > 10)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		val = val * 10 + (s[i] - '0');
	}
	if (val >= (gid_t)-1)
		return -EINVAL;
	*gid = val;
	return 0;
}

/* "gid=N,allow_other": the comma-separated list; empty items are ignored. */
static int tfs_parse_opts(const char *s, struct tfs_mount_opts *o)
{
	memset(o, 0, sizeof(*o));
	while (s && *s) {
		const char *end = strchrnul(s, ',');
		size_t len = end - s;

		if (len == 11 && !strncmp(s, "allow_other", 11)) {
			o->allow_other = true;
		} else if (len > 4 && !strncmp(s, "gid=", 4)) {
			if (tfs_parse_gid(s + 4, len - 4, &o->gid))
				return -EINVAL;
			o->has_gid = true;
		} else if (len) {
			return -EINVAL;
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* fusermount3 refuses allow_other to users unless /etc/fuse.conf allows it. */
static bool tfs_allow_other_permitted(void)
{
	char line[256], word[32];
	bool ok = false;
	FILE *f;

	if (geteuid() == 0)
		return true;
	f = fopen("/etc/fuse.conf", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %31s", word) == 1 && !strcmp(word, "user_allow_other"))
			ok = true;
	fclose(f);
	return ok;
}

/* ------------------------------------------------------------------
 * Processes of our own: fusermount3 and the watchdog
 *
 * Each starts as a clone(CLONE_VM) child: it shares our memory, so that
 * nothing of a large program is copied, until it execs or exits.  Code
 * that runs in such a child makes raw system calls only: no errno (it
 * would land in the creating thread's), no sanitizer interceptors, no
 * locks.  Every one is created from the server thread, whose signals are
 * all blocked, and keeps that mask: no handler of the program can run in
 * it.
 */

#define TFS_CHILD	__attribute__((no_sanitize("address", "thread", "undefined")))

#if defined(__x86_64__)
static inline __attribute__((always_inline)) TFS_CHILD
long tfs_sys(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
static inline __attribute__((always_inline)) TFS_CHILD
long tfs_sys(long nr, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
}
#else
/* Through libc: a failure also sets errno, in the creating thread. */
static TFS_CHILD long tfs_sys(long nr, long a, long b, long c, long d)
{
	long ret = syscall(nr, a, b, c, d);

	return ret == -1 ? -errno : ret;
}
#endif

/*
 * glibc's clone() under its other name: ThreadSanitizer intercepts clone()
 * and handles it as a fork, which with CLONE_VM breaks its state in the
 * parent.
 */
extern int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);

/* A program to run: fusermount3 with its arguments. */
struct tfs_exec {
	const char	*path;
	char *const	*argv;
	char *const	*envp;
	int		keep_fd[2];	/* left open across execve, or -1 */
	int		err_fd;		/* its stderr, or -1 */
	char		*stack;		/* top of the stack of the exec'ing child */
};

TFS_CHILD static int tfs_exec_child(void *arg)
{
	const struct tfs_exec *ex = arg;
	int i;

	for (i = 0; i < 2; i++)
		if (ex->keep_fd[i] >= 0)
			tfs_sys(SYS_fcntl, ex->keep_fd[i], F_SETFD, 0, 0);
	if (ex->err_fd > 2)
		tfs_sys(SYS_dup3, ex->err_fd, 2, 0, 0);
	tfs_sys(SYS_execve, (long)ex->path, (long)ex->argv, (long)ex->envp, 0);
	tfs_sys(SYS_exit, 127, 0, 0, 0);
	return 127;
}

/*
 * A program we run, through a middle process of ours: the middle is our
 * child without exit signal (reaped with __WCLONE: the program never
 * gets its SIGCHLD nor sees it in wait()); it starts the program as its
 * own child (whose exit signal execve() makes SIGCHLD, so it cannot be
 * ours), waits for it and ends with its status.  No orphan is left
 * meanwhile for a subreaper (the program may be one) to adopt.
 *
 *	block:	[ctl | ... middle's stack ^][... exec'ing child's stack ^]
 */
struct tfs_spawn_ctl {
	struct tfs_exec	*ex;
	int		started;	/* the program is exec'd (or failed to be) */
};

struct tfs_child {
	pid_t	pid;		/* the middle process, or -1 */
	char	*block;		/* its stacks, mapped until it is reaped */
};

TFS_CHILD static int tfs_middle(void *arg)
{
	struct tfs_spawn_ctl *ctl = arg;
	struct tfs_exec *ex = ctl->ex;
	int status = 127 << 8;
	long pid;

	pid = __clone(tfs_exec_child, ex->stack, CLONE_VM | CLONE_VFORK | SIGCHLD, ex);
	/* Exec'd or gone: nothing of @ex is read any more. */
	__atomic_store_n(&ctl->started, 1, __ATOMIC_RELEASE);
	tfs_sys(SYS_futex, (long)&ctl->started, FUTEX_WAKE, 1, 0);
	/*
	 * The program's descriptors, copied at clone: it may live as long as
	 * the mount (auto_unmount), and must keep none of them open.
	 */
	if (tfs_sys(SYS_close_range, 0, ~0u, 0, 0) == -ENOSYS)
		for (int i = 0; i < 65536; i++)
			tfs_sys(SYS_close, i, 0, 0, 0);
	while (pid > 0 && tfs_sys(SYS_wait4, pid, (long)&status, 0, 0) == -EINTR)
		;
	tfs_sys(SYS_exit, pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : 127, 0, 0, 0);
	return 0;
}

/* Start @ex; return once it is exec'd.  Return: 0 or -errno. */
static int tfs_spawn(struct tfs_exec *ex, struct tfs_child *c)
{
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	struct tfs_spawn_ctl *ctl;
	char *block;
	int err;

	c->pid = -1;
	c->block = NULL;
	block = mmap(NULL, 2 * TFS_STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (block == MAP_FAILED)
		return -errno;
	ctl = (struct tfs_spawn_ctl *)block;
	ctl->ex = ex;
	ex->stack = block + 2 * TFS_STACK_SIZE;
	c->pid = __clone(tfs_middle, block + TFS_STACK_SIZE, CLONE_VM, ctl);
	if (c->pid < 0) {
		err = -errno;
		munmap(block, 2 * TFS_STACK_SIZE);
		return err;
	}
	c->block = block;
	while (!__atomic_load_n(&ctl->started, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &ctl->started, FUTEX_WAIT, 0, &tick);
	return 0;
}

/*
 * Reap a child without exit signal, waiting at most @ms milliseconds.
 * Return: true when it is gone.
 */
static bool tfs_reap(pid_t pid, int ms)
{
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, __WCLONE | WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		if (r < 0 && errno != EINTR)
			return false;
		if (r == 0 && ms-- <= 0)
			return false;
		if (r == 0)
			nanosleep(&(struct timespec){ .tv_nsec = 1000 * 1000 }, NULL);
	}
}

/* Reap what tfs_spawn() started; its stacks stay while it runs on. */
static void tfs_child_reap(struct tfs_child *c, int ms)
{
	if (c->pid > 0 && tfs_reap(c->pid, ms))
		munmap(c->block, 2 * TFS_STACK_SIZE);
	c->pid = -1;
	c->block = NULL;
}

/* Wait at most @ms for @fd to be readable (or at its end). */
static bool tfs_wait_readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int r;

	while ((r = poll(&pfd, 1, ms)) < 0 && errno == EINTR)
		;
	return r > 0;
}

/*
 * The watchdog: a clone(CLONE_VM) child without exit signal, so our
 * memory but not our descriptors.  Its block stays mapped while it lives
 * (and the program's address space outlives the program while it does).
 * It keeps the life pipe and waits for its end: our only copy of the
 * write end closes on exit, crash, SIGKILL, exec, and at our own
 * unmount.  Then, while the path holds a dead FUSE mount (ENOTCONN), it
 * unmounts it lazily; ECONNABORTED or a wait means the connection is
 * still being torn down: it tries again.  A path we unmounted already,
 * or that someone else serves by now, leaves it nothing to do.
 */
struct tfs_watchdog {
	int		life_fd;
	bool		root;
	char		*argv[7];
	char		*envp[2];
	struct tfs_exec	ex;
	char		path[PATH_MAX];
	char		claim[PATH_MAX];	/* the directory tfs_claim() locks */
	char		fusermount[PATH_MAX];
};

#define TFS_WD_SIZE	(((sizeof(struct tfs_watchdog) + 4095) & ~4095ul) + 2 * TFS_STACK_SIZE)

TFS_CHILD static void tfs_watchdog_unmount(struct tfs_watchdog *wd)
{
	long pid;

	if (wd->root) {
		tfs_sys(SYS_umount2, (long)wd->path, MNT_DETACH | UMOUNT_NOFOLLOW, 0, 0);
		return;
	}
	pid = __clone(tfs_exec_child, wd->ex.stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &wd->ex);
	while (pid > 0 && tfs_sys(SYS_wait4, pid, 0, 0, 0) == -EINTR)
		;
}

TFS_CHILD static int tfs_watchdog_main(void *arg)
{
	struct tfs_watchdog *wd = arg;
	struct timespec tick = { .tv_nsec = 20 * 1000 * 1000 };
	struct stat st;
	int i, tries = 0;
	long r, lock;
	char byte;

	tfs_sys(SYS_prctl, PR_SET_NAME, (long)"ustrace-tfs-wd", 0, 0);
	/*
	 * A session and process group of its own: what kills the program's
	 * group (timeout -s KILL, kill -9 -PGID, a terminal's hangup) leaves
	 * it to unmount.
	 */
	tfs_sys(SYS_setsid, 0, 0, 0, 0);
	/*
	 * The program's descriptors, copied at clone: holding them would
	 * keep its pipes and sockets open.
	 */
	if (wd->life_fd > 0)
		tfs_sys(SYS_close_range, 0, wd->life_fd - 1, 0, 0);
	if (tfs_sys(SYS_close_range, wd->life_fd + 1, ~0u, 0, 0) == -ENOSYS)
		for (i = wd->life_fd + 1; i < 65536; i++)
			tfs_sys(SYS_close, i, 0, 0, 0);
	r = tfs_sys(SYS_openat, AT_FDCWD, (long)"/dev/null", O_RDWR, 0);
	for (i = 0; r >= 0 && i < 3; i++)
		if (r != i && i != wd->life_fd)
			tfs_sys(SYS_dup3, r, i, 0, 0);

	do
		r = tfs_sys(SYS_read, wd->life_fd, (long)&byte, 1, 0);
	while (r > 0 || r == -EINTR);

	/* Unmounted by us (the usual end), or served by another: nothing to do. */
	r = tfs_sys(SYS_newfstatat, AT_FDCWD, (long)wd->path, (long)&st, 0);
	if (r != -ENOTCONN && r != -ECONNABORTED && r != -EINTR && r != -EAGAIN)
		tfs_sys(SYS_exit, 0, 0, 0, 0);
	/*
	 * Take the claim on the path (tfs_claim()) before we clear it: a new
	 * server that clears our dead mount and mounts meanwhile must not
	 * have its mount taken for ours.  Up to 10 s, then without.
	 */
	lock = tfs_sys(SYS_openat, AT_FDCWD, (long)wd->claim, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	for (i = 0; lock >= 0 && i < 500; i++) {
		if (tfs_sys(SYS_flock, lock, LOCK_EX | LOCK_NB, 0, 0) != -EWOULDBLOCK)
			break;
		tfs_sys(SYS_nanosleep, (long)&tick, 0, 0, 0);
	}

	/* About 10 s, and a few unmounts (a stacked dead mount needs two). */
	for (i = 0; i < 500 && tries < 4; i++) {
		r = tfs_sys(SYS_newfstatat, AT_FDCWD, (long)wd->path, (long)&st, 0);
		if (r == -ENOTCONN) {
			tries++;
			tfs_watchdog_unmount(wd);
			continue;
		}
		if (r != -ECONNABORTED && r != -EINTR && r != -EAGAIN)
			break;
		tfs_sys(SYS_nanosleep, (long)&tick, 0, 0, 0);
	}
	tfs_sys(SYS_exit, 0, 0, 0, 0);
	return 0;
}

/*
 * The directory whose lock claims @path: @path's parent, its symbolic
 * links resolved, so that two names of one directory take one lock.
 */
static int tfs_claim_dir(const char *path, char *out)
{
	char dir[PATH_MAX], *slash;

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	strcpy(dir, path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	return realpath(dir, out) ? 0 : -errno;
}

/* The setuid fusermount3, or NULL. */
static char *tfs_find_fusermount(void)
{
	static const char *const dirs[] = {
		"/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin",
	};
	char path[PATH_MAX];
	const char *env;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/fusermount3", dirs[i]);
		if (!access(path, X_OK))
			return strdup(path);
	}
	env = secure_getenv("PATH");
	while (env && *env) {
		const char *end = strchrnul(env, ':');

		if (end > env && (size_t)(end - env) < sizeof(path) - 16) {
			snprintf(path, sizeof(path), "%.*s/fusermount3", (int)(end - env), env);
			if (!access(path, X_OK))
				return strdup(path);
		}
		env = *end ? end + 1 : end;
	}
	return NULL;
}

/* ------------------------------------------------------------------
 * The server
 */

enum tfs_state {
	TFS_STARTING,
	TFS_SERVING,
	TFS_ENDED,
};

/*
 * Our descriptors.  Each is set and closed under tfs_ctl_lock as soon as
 * it exists, so that a fork child, which closes its copies, never keeps
 * one: not even one on its way to fusermount3.
 */
enum {
	TFS_FD_FUSE,		/* the connection */
	TFS_FD_STOP,		/* eventfd: the workers stop */
	TFS_FD_LIFE,		/* the watchdog's pipe: unmount when it closes */
	TFS_FD_COMM,		/* fusermount3's socket, our end ... */
	TFS_FD_COMM_PEER,	/* ... and its */
	TFS_FD_ERR,		/* fusermount3's stderr, our end ... */
	TFS_FD_ERR_PEER,	/* ... and its */
	TFS_FD_WD,		/* the watchdog's end of the life pipe, until it has its own */
	TFS_FD_CLAIM,		/* the locked directory, while we mount (tfs_claim()) */
	TFS_NR_FDS,
};

/* A blocking read of a consuming file that had nothing to read yet. */
struct tfs_parked {
	struct tfs_parked	*next;
	fuse_req_t		req;
	struct tfs_file		*file;
	char			*buf;
	size_t			size;
	off_t			off;
	bool			interrupted;
};

/*
 * An open file.  poll needs the access mode, which FUSE does not resend;
 * the list lets an unmount release the files the kernel will no longer
 * send RELEASE for.
 */
struct tfs_handle {
	struct tfs_handle	*prev, *next;
	struct tfs_file		*file;
	int			flags;
};

/* A poll(2) waiting for a consuming file to become readable. */
struct tfs_poller {
	struct tfs_poller	*next;
	struct tfs_file		*file;
	struct fuse_pollhandle	*ph;
};

struct tfs_server {
	/* Set before the server thread starts, then read-only. */
	char			*path;
	char			*fusermount;
	char			*fsname;
	char			*mount_opts;	/* fusermount3's -o */
	uid_t			uid;
	gid_t			gid;
	struct timespec		time;
	bool			report;		/* nobody waits: print failures */
	size_t			piece_max;	/* see tfs_op_write(); set by init */

	/* Under tfs_ctl_lock; tfs_ctl_cond tells the state changed. */
	int			fds[TFS_NR_FDS];
	enum tfs_state		state;
	int			result;		/* of the mount */
	bool			stop;		/* unmount asked for */
	struct tfs_server	*forsaken_next;

	/* The server thread's. */
	struct fuse_session	*se;
	bool			mounted;
	struct tfs_watchdog	*wd;
	pid_t			wd_pid;
	struct tfs_child	fm;		/* fusermount3 -o auto_unmount, while it stays */
	pthread_t		thread;
	pthread_t		workers[TFS_WORKERS];
	int			nr_workers;

	/* Under lock; wake tells the server thread to look. */
	pthread_mutex_t		lock;
	pthread_cond_t		wake;
	struct tfs_parked	*parked;
	struct tfs_poller	*pollers;
	struct tfs_handle	*handles;
	uint32_t		*sleep_word;	/* the server thread sleeps on it */
	int			workers_running;
	bool			stopping;	/* the server thread is to end */
	bool			closing;	/* no read may park any more */
};

static pthread_mutex_t tfs_ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tfs_ctl_cond = PTHREAD_COND_INITIALIZER;
/* This process's server (starting, serving, or ended and not yet joined). */
static struct tfs_server *tfs_server;
/* Servers a fork child inherited: never used, kept reachable. */
static struct tfs_server *tfs_forsaken;

static void tfs_fd_close(struct tfs_server *srv, int which)
{
	pthread_mutex_lock(&tfs_ctl_lock);
	if (srv->fds[which] >= 0)
		close(srv->fds[which]);
	srv->fds[which] = -1;
	pthread_mutex_unlock(&tfs_ctl_lock);
}

/* A pipe (@flags: pipe2()'s, O_CLOEXEC always) whose ends we record. */
static int tfs_fd_pipe(struct tfs_server *srv, int rd, int wr, int flags)
{
	int p[2], err = 0;

	pthread_mutex_lock(&tfs_ctl_lock);
	if (pipe2(p, O_CLOEXEC | flags))
		err = -errno;
	else {
		srv->fds[rd] = p[0];
		srv->fds[wr] = p[1];
	}
	pthread_mutex_unlock(&tfs_ctl_lock);
	return err;
}

static struct tfs_server *tfs_server_new(const char *path, const struct tfs_mount_opts *o,
					 char *fusermount, bool report)
{
	struct tfs_server *srv = calloc(1, sizeof(*srv));
	pthread_condattr_t attr;
	char cwd[PATH_MAX];
	int i;

	if (!srv)
		goto fail;
	if (path[0] == '/')
		srv->path = strdup(path);
	else if (getcwd(cwd, sizeof(cwd)) && asprintf(&srv->path, "%s/%s", cwd, path) < 0)
		srv->path = NULL;
	if (asprintf(&srv->fsname, "ustrace:%d", (int)getpid()) < 0)
		srv->fsname = NULL;
	/* The kernel's tracefs says nodev, noexec, nosuid too. */
	if (asprintf(&srv->mount_opts, "default_permissions,nosuid,nodev,noexec,"
		     "fsname=%s,subtype=ustrace%s", srv->fsname ? srv->fsname : "",
		     o->allow_other ? ",allow_other" : "") < 0)
		srv->mount_opts = NULL;
	if (!srv->path || !srv->fsname || !srv->mount_opts)
		goto fail;
	srv->fusermount = fusermount;
	srv->uid = geteuid();
	srv->gid = o->has_gid ? o->gid : getegid();
	srv->report = report;
	clock_gettime(CLOCK_REALTIME, &srv->time);
	for (i = 0; i < TFS_NR_FDS; i++)
		srv->fds[i] = -1;
	srv->wd_pid = -1;
	srv->fm.pid = -1;
	srv->state = TFS_STARTING;
	pthread_mutex_init(&srv->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&srv->wake, &attr);
	pthread_condattr_destroy(&attr);
	return srv;
fail:
	if (srv) {
		free(srv->path);
		free(srv->fsname);
		free(srv->mount_opts);
		free(srv);
	}
	free(fusermount);
	return NULL;
}

static void tfs_server_free(struct tfs_server *srv)
{
	pthread_mutex_destroy(&srv->lock);
	pthread_cond_destroy(&srv->wake);
	free(srv->path);
	free(srv->fusermount);
	free(srv->fsname);
	free(srv->mount_opts);
	free(srv);
}

/* Threads of ours take no signal of the program's. */
static int tfs_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg,
			     const char *name)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!err)
		pthread_setname_np(*thread, name);
	return -err;
}

/* ------------------------------------------------------------------
 * Requests
 */

static void tfs_stat_of(const struct tfs_server *srv, const struct tfs_stat *ts,
			struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ts->ino;
	st->st_mode = ts->mode;
	st->st_nlink = ts->nlink;
	st->st_size = ts->size;
	st->st_uid = srv->uid;
	st->st_gid = srv->gid;
	st->st_blksize = 4096;
	st->st_atim = st->st_mtim = st->st_ctim = srv->time;
}

/* Timeouts stay 0: instances and events come and go, nothing is cached. */
static void tfs_reply_entry(fuse_req_t req, const struct tfs_stat *ts)
{
	struct fuse_entry_param e = { .ino = ts->ino };

	tfs_stat_of(fuse_req_userdata(req), ts, &e.attr);
	fuse_reply_entry(req, &e);
}

/*
 * The largest piece the kernel cuts a write(2) into: max_write, or
 * max_pages pages (its fs.fuse.max_pages_limit, 256 by default).
 */
static size_t tfs_piece_max(const struct fuse_conn_info *conn)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), max = conn->max_write;
	unsigned long pages = 0;
	FILE *f = fopen("/proc/sys/fs/fuse/max_pages_limit", "re");

	if (f) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	if (pages && pages * page < max)
		max = pages * page;
	return max;
}

static void tfs_op_init(void *userdata, struct fuse_conn_info *conn)
{
	struct tfs_server *srv = userdata;

	/* Every reply is built in memory; nothing goes through the page cache. */
	conn->want &= ~(FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE |
			FUSE_CAP_SPLICE_MOVE | FUSE_CAP_WRITEBACK_CACHE);
	/*
	 * The pieces of one write(2) come one at a time, in order (an AIO
	 * write's too): tfs_write() continues a write only at the offset
	 * where its last piece ended.
	 */
	conn->want &= ~FUSE_CAP_ASYNC_DIO;
	__atomic_store_n(&srv->piece_max, tfs_piece_max(conn), __ATOMIC_RELAXED);
	/* O_TRUNC reaches tfs_open() with the open, as the kernel's flag. */
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
}

static void tfs_op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct tfs_stat ts;
	int err = tfs_be->lookup(parent, name, &ts);

	if (err)
		fuse_reply_err(req, -err);
	else
		tfs_reply_entry(req, &ts);
}

static void tfs_op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct tfs_stat ts;
	struct stat st;
	int err = tfs_be->getattr(ino, &ts);

	(void)fi;
	if (err) {
		fuse_reply_err(req, -err);
		return;
	}
	tfs_stat_of(fuse_req_userdata(req), &ts, &st);
	fuse_reply_attr(req, &st, 0);
}

/*
 * Only truncation means something: to 0 it is the O_TRUNC of the file
 * (a kernel without atomic O_TRUNC sends it after the open).  Times are
 * accepted and not kept; modes and owners are fixed, as the mount says.
 */
static void tfs_op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			   int to_set, struct fuse_file_info *fi)
{
	int err = 0;

	(void)fi;
	if (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID))
		err = -EPERM;
	else if ((to_set & FUSE_SET_ATTR_SIZE) && attr->st_size == 0)
		err = tfs_be->truncate(ino);
	if (err)
		fuse_reply_err(req, -err);
	else
		tfs_op_getattr(req, ino, NULL);
}

struct tfs_dirbuf {
	fuse_req_t	req;
	char		*buf;
	size_t		size;
	size_t		used;
};

/*
 * FUSE directory offsets: "." is 0 (next 1), ".." 1 (next 2), and the
 * tree's entry at tfs offset N is N + 2.
 */
static int tfs_dir_add(void *ctx, const char *name, const struct tfs_stat *ts, off_t next)
{
	struct tfs_dirbuf *d = ctx;
	struct stat st;
	size_t len;

	tfs_stat_of(fuse_req_userdata(d->req), ts, &st);
	len = fuse_add_direntry(d->req, d->buf + d->used, d->size - d->used, name,
				&st, next + 2);
	if (len > d->size - d->used)
		return 1;
	d->used += len;
	return 0;
}

static void tfs_op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			   struct fuse_file_info *fi)
{
	struct tfs_dirbuf d = { .req = req, .size = size };
	struct tfs_stat ts;
	int err;

	(void)fi;
	err = tfs_be->getattr(ino, &ts);
	if (!err && !S_ISDIR(ts.mode))
		err = -ENOTDIR;
	if (!err && !(d.buf = malloc(size)))
		err = -ENOMEM;
	if (err) {
		fuse_reply_err(req, -err);
		return;
	}
	if ((off > 0 || !tfs_dir_add(&d, ".", &ts, -1)) &&
	    (off > 1 || !tfs_dir_add(&d, "..", &ts, 0)))
		err = tfs_be->readdir(ino, off > 2 ? off - 2 : 0, tfs_dir_add, &d);
	if (err && !d.used)
		fuse_reply_err(req, -err);
	else
		fuse_reply_buf(req, d.buf, d.used);
	free(d.buf);
}

static void tfs_op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	struct tfs_stat ts;
	int err = tfs_be->mkdir(parent, name, &ts);

	(void)mode;
	if (err)
		fuse_reply_err(req, -err);
	else
		tfs_reply_entry(req, &ts);
}

static void tfs_op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, -tfs_be->rmdir(parent, name));
}

/* The kernel's tracefs has no such operations: the VFS says EPERM ... */
static void tfs_op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	(void)parent;
	(void)name;
	fuse_reply_err(req, EPERM);
}

static void tfs_op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
			 mode_t mode, dev_t rdev)
{
	(void)mode;
	(void)rdev;
	tfs_op_unlink(req, parent, name);
}

static void tfs_op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
			   const char *name)
{
	(void)link;
	tfs_op_unlink(req, parent, name);
}

static void tfs_op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent, const char *name)
{
	(void)ino;
	tfs_op_unlink(req, parent, name);
}

static void tfs_op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
			  fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	(void)newparent;
	(void)newname;
	(void)flags;
	tfs_op_unlink(req, parent, name);
}

/* ... and EACCES for a file created with open(O_CREAT). */
static void tfs_op_create(fuse_req_t req, fuse_ino_t parent, const char *name,
			  mode_t mode, struct fuse_file_info *fi)
{
	(void)parent;
	(void)name;
	(void)mode;
	(void)fi;
	fuse_reply_err(req, EACCES);
}

static void tfs_handle_add(struct tfs_server *srv, struct tfs_handle *h)
{
	pthread_mutex_lock(&srv->lock);
	h->prev = NULL;
	h->next = srv->handles;
	if (h->next)
		h->next->prev = h;
	srv->handles = h;
	pthread_mutex_unlock(&srv->lock);
}

/* Forget the file and its poll handle, then close it. */
static void tfs_handle_release(struct tfs_server *srv, struct tfs_handle *h)
{
	struct tfs_poller **pp, *p;

	pthread_mutex_lock(&srv->lock);
	if (h->prev)
		h->prev->next = h->next;
	else
		srv->handles = h->next;
	if (h->next)
		h->next->prev = h->prev;
	for (pp = &srv->pollers; (p = *pp); ) {
		if (p->file != h->file) {
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		fuse_pollhandle_destroy(p->ph);
		free(p);
	}
	pthread_mutex_unlock(&srv->lock);
	tfs_be->release(h->file);
	free(h);
}

static void tfs_op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct tfs_server *srv = fuse_req_userdata(req);
	struct tfs_handle *h = malloc(sizeof(*h));
	int err = h ? tfs_be->open(ino, fi->flags, &h->file) : -ENOMEM;

	if (err) {
		free(h);
		fuse_reply_err(req, -err);
		return;
	}
	h->flags = fi->flags;
	tfs_handle_add(srv, h);
	/* Generated text: read through to us every time, never cached. */
	fi->fh = (uintptr_t)h;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	/* A request less at each close, but where a write may wait for it. */
	fi->noflush = !tfs_be->wants_flush(h->file);
	/* The opener was interrupted and the kernel dropped the reply. */
	if (fuse_reply_open(req, fi))
		tfs_handle_release(srv, h);
}

static struct tfs_handle *tfs_handle_of(const struct fuse_file_info *fi)
{
	return (struct tfs_handle *)(uintptr_t)fi->fh;
}

static struct tfs_file *tfs_file_of(const struct fuse_file_info *fi)
{
	return tfs_handle_of(fi)->file;
}

static void tfs_reply_read(fuse_req_t req, const char *buf, ssize_t n)
{
	if (n < 0)
		fuse_reply_err(req, -n);
	else
		fuse_reply_buf(req, buf, n);
}

/*
 * Tell the server thread to look (srv->lock held): the condition when it
 * waits for a first waiter, the word when it sleeps on one (a bump, so
 * that a wake between its look and its sleep is not lost).
 */
static void tfs_wake_server(struct tfs_server *srv)
{
	pthread_cond_signal(&srv->wake);
	if (srv->sleep_word) {
		__atomic_add_fetch(srv->sleep_word, 1, __ATOMIC_SEQ_CST);
		syscall(SYS_futex, srv->sleep_word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
}

/* libfuse calls this with the request's lock held; see tfs_park(). */
static void tfs_read_interrupted(fuse_req_t req, void *data)
{
	struct tfs_server *srv = data;
	struct tfs_parked *p;

	pthread_mutex_lock(&srv->lock);
	for (p = srv->parked; p; p = p->next) {
		if (p->req == req) {
			p->interrupted = true;
			tfs_wake_server(srv);
		}
	}
	pthread_mutex_unlock(&srv->lock);
}

/*
 * Keep a read for the server thread to answer.  The interrupt callback
 * finds the request by address in srv->parked, so it must be registered
 * before the request is listed: an INTERRUPT that came before that is
 * seen by fuse_req_interrupted() under srv->lock, one that comes after
 * finds the request listed.  The callback runs under the request's lock
 * and takes srv->lock, so neither call may be made with srv->lock held
 * ... except fuse_req_interrupted(), which takes only the session's lock.
 * A request stays valid while its callback runs (libfuse counts it), and
 * is answered only after it leaves the list, under srv->lock.
 */
static void tfs_park(struct tfs_server *srv, fuse_req_t req, struct tfs_file *file,
		     char *buf, size_t size, off_t off)
{
	struct tfs_parked *p = calloc(1, sizeof(*p)), **pp;
	ssize_t n = -EINTR;

	if (!p) {
		fuse_reply_err(req, ENOMEM);
		free(buf);
		return;
	}
	*p = (struct tfs_parked){ .req = req, .file = file, .buf = buf, .size = size,
				  .off = off };
	fuse_req_interrupt_func(req, tfs_read_interrupted, srv);

	pthread_mutex_lock(&srv->lock);
	if (srv->closing)
		n = 0;
	if (!srv->closing && !fuse_req_interrupted(req)) {
		for (pp = &srv->parked; *pp; pp = &(*pp)->next)
			;
		*pp = p;
		tfs_wake_server(srv);
		pthread_mutex_unlock(&srv->lock);
		return;
	}
	pthread_mutex_unlock(&srv->lock);
	tfs_reply_read(req, buf, n);
	free(buf);
	free(p);
}

static void tfs_op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			struct fuse_file_info *fi)
{
	struct tfs_file *file = tfs_file_of(fi);
	char *buf = malloc(size ? size : 1);
	ssize_t n;

	(void)ino;
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	n = tfs_be->read(file, buf, size, off);
	/* The read's flags are the file's now: F_SETFL O_NONBLOCK counts. */
	if (n == -EAGAIN && !(fi->flags & O_NONBLOCK)) {
		tfs_park(fuse_req_userdata(req), req, file, buf, size, off);
		return;
	}
	tfs_reply_read(req, buf, n);
	free(buf);
}

/*
 * The kernel cuts a write(2) of more than the largest piece into pieces
 * (each a request) of at most that size: the first one shorter by the
 * offset of the writer's buffer in its page, the ones after it whole.  A
 * piece that big may have a successor; a smaller one ends its write.
 * (A writev() of many small buffers gives smaller pieces: each buffer
 * takes a page of the request's.  Those are taken as separate writes.)
 */
static void tfs_op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
			 off_t off, struct fuse_file_info *fi)
{
	struct tfs_server *srv = fuse_req_userdata(req);
	size_t max = __atomic_load_n(&srv->piece_max, __ATOMIC_RELAXED);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned int flags = max && size + page > max ? TFS_WRITE_MORE : 0;
	ssize_t n;

	/* trace_marker records are the writer's, whose thread FUSE names. */
	tfs_be->set_writer(fuse_req_ctx(req)->pid);
	n = tfs_be->write(tfs_file_of(fi), buf, size, off, flags);
	tfs_be->set_writer(0);
	(void)ino;
	if (n < 0)
		fuse_reply_err(req, -n);
	else
		fuse_reply_write(req, n);
}

/* Each close(2): a write the file still waits on the end of ends. */
static void tfs_op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	fuse_reply_err(req, -tfs_be->flush(tfs_file_of(fi)));
}

/* A poll's readiness and arm: the backend's poll_*, else its read's. */
static int tfs_be_poll_readable(struct tfs_file *file)
{
	return tfs_be->poll_readable ? tfs_be->poll_readable(file) : tfs_be->readable(file);
}

static int tfs_be_poll_arm(struct tfs_file *file)
{
	return tfs_be->poll_arm ? tfs_be->poll_arm(file) : tfs_be->wait_arm(file);
}

/* Whether @file's woken reader lingers: the backend's linger, else never. */
static bool tfs_be_linger(struct tfs_file *file)
{
	return tfs_be->linger && tfs_be->linger(file);
}

/*
 * poll(2): POLLIN when the file is readable as its poll says (a CPU's
 * trace_pipe and trace_pipe_raw: buffer_percent; the others: a read would
 * not block).  A poller that has to wait leaves a handle; the server
 * thread notifies it when the file becomes readable, and the kernel then
 * polls again.  One handle per file: a newer one replaces the older.
 */
static void tfs_op_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
			struct fuse_pollhandle *ph)
{
	struct tfs_server *srv = fuse_req_userdata(req);
	struct tfs_file *file = tfs_file_of(fi);
	struct fuse_pollhandle *old = NULL;
	struct tfs_poller *p;
	unsigned int revents = 0;

	(void)ino;
	if ((tfs_handle_of(fi)->flags & O_ACCMODE) != O_RDONLY)
		revents |= POLLOUT | POLLWRNORM;
	if (tfs_be_poll_readable(file))
		revents |= POLLIN | POLLRDNORM;
	if (ph && (revents & POLLIN)) {
		fuse_pollhandle_destroy(ph);
		ph = NULL;
	}
	if (ph) {
		pthread_mutex_lock(&srv->lock);
		for (p = srv->pollers; p && p->file != file; p = p->next)
			;
		if (!p && !srv->closing && (p = calloc(1, sizeof(*p)))) {
			p->file = file;
			p->next = srv->pollers;
			srv->pollers = p;
		}
		if (p) {
			old = p->ph;
			p->ph = ph;
			ph = NULL;
			tfs_wake_server(srv);
		}
		pthread_mutex_unlock(&srv->lock);
	}
	if (old)
		fuse_pollhandle_destroy(old);
	if (ph)
		fuse_pollhandle_destroy(ph);
	fuse_reply_poll(req, revents);
}

/* A command without data (the tree's: USTRACE_TRACEFS_IOC_RAW_PAGES). */
static void tfs_op_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg,
			 struct fuse_file_info *fi, unsigned int flags, const void *in_buf,
			 size_t in_bufsz, size_t out_bufsz)
{
	struct tfs_file *file = tfs_file_of(fi);
	int ret = -ENOTTY;

	(void)ino, (void)arg, (void)in_buf;
	if (!(flags & FUSE_IOCTL_COMPAT) && !in_bufsz && !out_bufsz && tfs_be->ioctl)
		ret = tfs_be->ioctl(file, cmd);
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_ioctl(req, 0, NULL, 0);
}

/* No read of the file is parked: a read holds the file open. */
static void tfs_op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	tfs_handle_release(fuse_req_userdata(req), tfs_handle_of(fi));
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops tfs_ops = {
	.init		= tfs_op_init,
	.lookup		= tfs_op_lookup,
	.getattr	= tfs_op_getattr,
	.setattr	= tfs_op_setattr,
	.readdir	= tfs_op_readdir,
	.mkdir		= tfs_op_mkdir,
	.rmdir		= tfs_op_rmdir,
	.unlink		= tfs_op_unlink,
	.mknod		= tfs_op_mknod,
	.symlink	= tfs_op_symlink,
	.link		= tfs_op_link,
	.rename		= tfs_op_rename,
	.create		= tfs_op_create,
	.open		= tfs_op_open,
	.read		= tfs_op_read,
	.write		= tfs_op_write,
	.flush		= tfs_op_flush,
	.poll		= tfs_op_poll,
	.ioctl		= tfs_op_ioctl,
	.release	= tfs_op_release,
};

/* ------------------------------------------------------------------
 * Threads at work
 */

/* Answer the parked reads and polls whose file has data (srv->lock held). */
static void tfs_tick(struct tfs_server *srv)
{
	struct tfs_parked **pp = &srv->parked, *p;
	struct tfs_poller **qq = &srv->pollers, *q;

	while ((p = *pp)) {
		ssize_t n = -EAGAIN;

		if (p->interrupted)
			n = -EINTR;
		else if (tfs_be->readable(p->file))
			n = tfs_be->read(p->file, p->buf, p->size, p->off);
		if (n == -EAGAIN) {
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		tfs_reply_read(p->req, p->buf, n);
		free(p->buf);
		free(p);
	}
	while ((q = *qq)) {
		if (!tfs_be_poll_readable(q->file)) {
			qq = &q->next;
			continue;
		}
		*qq = q->next;
		fuse_lowlevel_notify_poll(q->ph);
		fuse_pollhandle_destroy(q->ph);
		free(q);
	}
}

/* The shorter of two sleeps in ms (-1: no limit). */
static int tfs_min_ms(int a, int b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

/*
 * Arm every waiting file and choose the word to sleep on (srv->lock
 * held).  Return: how long to sleep (0: someone is readable now, -1: until
 * woken), *seq, the word's value loaded before arming, and *linger,
 * whether every waiting file lingers after a wake.
 */
static int tfs_arm_waiters(struct tfs_server *srv, uint32_t **word, uint32_t *seq,
			   bool *linger)
{
	struct tfs_parked *p;
	struct tfs_poller *q;
	bool several = false;
	int ms = -1;

	*word = NULL;
	*linger = true;
	for (p = srv->parked; p; p = p->next) {
		uint32_t *w = tfs_be->wait_word(p->file);

		several |= *word && w != *word;
		if (!*word)
			*word = w;
		*linger &= !p->interrupted && tfs_be_linger(p->file);
	}
	for (q = srv->pollers; q; q = q->next) {
		uint32_t *w = tfs_be->wait_word(q->file);

		several |= *word && w != *word;
		if (!*word)
			*word = w;
		*linger &= tfs_be_linger(q->file);
	}
	if (!*word)
		return TFS_TICK_MS;
	/* Published before the load: a poke from now on changes the word. */
	srv->sleep_word = *word;
	*seq = __atomic_load_n(*word, __ATOMIC_SEQ_CST);
	for (p = srv->parked; p && ms; p = p->next)
		ms = p->interrupted ? 0 : tfs_min_ms(ms, tfs_be->wait_arm(p->file));
	for (q = srv->pollers; q && ms; q = q->next)
		ms = tfs_min_ms(ms, tfs_be_poll_arm(q->file));
	return several ? tfs_min_ms(ms, TFS_TICK_MS) : ms;
}

/* The server thread between mount and unmount. */
static void tfs_serve_waiters(struct tfs_server *srv)
{
	struct timespec ts;
	uint32_t *word, seq;
	bool linger;
	int ms;

	pthread_mutex_lock(&srv->lock);
	while (!srv->stopping && srv->workers_running) {
		if (!srv->parked && !srv->pollers) {
			pthread_cond_wait(&srv->wake, &srv->lock);
			tfs_tick(srv);
			continue;
		}
		ms = tfs_arm_waiters(srv, &word, &seq, &linger);
		if (ms) {
			ts.tv_sec = ms / 1000;
			ts.tv_nsec = (ms % 1000) * 1000000L;
			pthread_mutex_unlock(&srv->lock);
			if (word) {
				/* Woken, or the word moved before the wait: a wake either way. */
				if ((!syscall(SYS_futex, word, FUTEX_WAIT, seq,
					      ms < 0 ? NULL : &ts, NULL, 0) || errno == EAGAIN) &&
				    linger) {
					ts.tv_sec = 0;
					ts.tv_nsec = TFS_LINGER_NS;
					nanosleep(&ts, NULL);
				}
			} else {
				nanosleep(&ts, NULL);
			}
			pthread_mutex_lock(&srv->lock);
		}
		srv->sleep_word = NULL;
		tfs_tick(srv);
	}
	pthread_mutex_unlock(&srv->lock);
}

static ssize_t tfs_io_read(int fd, void *buf, size_t len, void *userdata)
{
	(void)userdata;
	return read(fd, buf, len);
}

static ssize_t tfs_io_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	(void)userdata;
	return writev(fd, iov, count);
}

/*
 * The descriptor is non-blocking: every worker wakes for a request and
 * all but one find nothing to read.  The stop eventfd stays readable once
 * written, so it ends every worker.
 */
static void *tfs_worker(void *arg)
{
	struct tfs_server *srv = arg;
	struct fuse_buf fbuf = { .mem = NULL };
	struct pollfd pfd[2] = {
		{ .fd = srv->fds[TFS_FD_FUSE], .events = POLLIN },
		{ .fd = srv->fds[TFS_FD_STOP], .events = POLLIN },
	};

	while (!fuse_session_exited(srv->se)) {
		int res = poll(pfd, 2, -1);

		if (res < 0 && errno == EINTR)
			continue;
		if (res < 0 || pfd[1].revents)
			break;
		res = fuse_session_receive_buf(srv->se, &fbuf);
		if (res == -EAGAIN || res == -EINTR)
			continue;
		/* 0: unmounted or the connection was aborted. */
		if (res <= 0)
			break;
		fuse_session_process_buf(srv->se, &fbuf);
	}
	free(fbuf.mem);

	pthread_mutex_lock(&srv->lock);
	srv->workers_running--;
	tfs_wake_server(srv);
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

/* ------------------------------------------------------------------
 * Mount and unmount
 */

/* Run fusermount3 -u -z on the path; wait until it is done. */
static void tfs_fusermount_unmount(struct tfs_server *srv)
{
	char *argv[] = { "fusermount3", "-u", "-z", "-q", "--", srv->path, NULL };
	char *envp[] = { TFS_PATH_ENV, NULL };
	struct tfs_exec ex = { srv->fusermount, argv, envp, { -1, -1 }, -1, NULL };
	struct tfs_child c;

	if (!tfs_spawn(&ex, &c))
		tfs_child_reap(&c, TFS_UNMOUNT_WAIT_MS);
}

static void tfs_unmount_path(struct tfs_server *srv)
{
	if (geteuid() == 0)
		umount2(srv->path, MNT_DETACH | UMOUNT_NOFOLLOW);
	else
		tfs_fusermount_unmount(srv);
}

/*
 * The source ("ustrace:PID" for a ustrace tracefs) of the topmost mount
 * at the path into @src.  Return: whether something is mounted there.
 */
static bool tfs_mount_source(const struct tfs_server *srv, char *src, size_t size)
{
	struct mntent ent;
	char buf[4096];
	bool found = false;
	FILE *f = setmntent("/proc/self/mounts", "re");

	if (!f)
		return false;
	while (getmntent_r(f, &ent, buf, sizeof(buf))) {
		if (strcmp(ent.mnt_dir, srv->path))
			continue;
		snprintf(src, size, "%s", ent.mnt_fsname);
		found = true;
	}
	endmntent(f);
	return found;
}

/* Is the topmost mount at the path ours (our fsname)? */
static bool tfs_mounted_here(const struct tfs_server *srv)
{
	char src[256];

	return tfs_mount_source(srv, src, sizeof(src)) && !strcmp(src, srv->fsname);
}

/* Why the mount failed, for a program that did not ask (USTRACE_TRACEFS). */
static void tfs_report_error(const struct tfs_server *srv, int err)
{
	char src[256];
	int pid;

	if (err == -EBUSY && tfs_mount_source(srv, src, sizeof(src)) &&
	    sscanf(src, "ustrace:%d", &pid) == 1)
		fprintf(stderr, "ustrace: tracefs at %s: %s: process %d serves its tracefs there; "
			"running without\n", srv->path, strerror(-err), pid);
	else
		fprintf(stderr, "ustrace: tracefs at %s: %s\n", srv->path, strerror(-err));
}

/*
 * Claim the path before looking at it and mounting: servers that start
 * at once on one directory (a shell loop, a test suite, a service
 * restarted while its old process still goes) would each find it free
 * and stack their mounts.  The claim is an flock() on the parent
 * directory (the path itself may be a dead mount, which cannot be
 * opened), held while we clear a dead mount, check and mount, and
 * taken by the watchdog before it clears ours; a server that finds
 * the path served then fails with EBUSY.  A parent we cannot open or
 * lock (no read permission, a file system without flock) leaves us
 * without the claim.
 * Return: 0, or -ETIMEDOUT after TFS_MOUNT_WAIT_MS.
 */
static int tfs_claim(struct tfs_server *srv)
{
	char dir[PATH_MAX];
	int fd, i;

	if (tfs_claim_dir(srv->path, dir))
		return 0;
	pthread_mutex_lock(&tfs_ctl_lock);
	fd = srv->fds[TFS_FD_CLAIM] = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	pthread_mutex_unlock(&tfs_ctl_lock);
	if (fd < 0)
		return 0;
	for (i = 0; i < TFS_MOUNT_WAIT_MS / 10; i++) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	if (i < TFS_MOUNT_WAIT_MS / 10)
		return 0;
	tfs_fd_close(srv, TFS_FD_CLAIM);
	return -ETIMEDOUT;
}

/*
 * A directory to mount on.  A FUSE mount whose server is gone answers
 * ENOTCONN: lazily unmount it (a mount stacked on another one needs
 * several rounds).  A live FUSE mount is someone's: EBUSY.
 */
static int tfs_check_mountpoint(struct tfs_server *srv)
{
	struct stat st, up;
	struct statfs sfs;
	char *parent;
	int tries, err;

	for (tries = 0; stat(srv->path, &st); tries++) {
		if (errno != ENOTCONN || tries == 4)
			return -errno;
		tfs_unmount_path(srv);
	}
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (asprintf(&parent, "%s/..", srv->path) < 0)
		return -ENOMEM;
	err = stat(parent, &up) ? -errno : 0;
	free(parent);
	if (!err && st.st_dev != up.st_dev && !statfs(srv->path, &sfs) &&
	    sfs.f_type == TFS_FUSE_SUPER_MAGIC)
		err = -EBUSY;
	return err;
}

/* Start the watchdog (before the mount: a death while mounting counts). */
static int tfs_watchdog_start(struct tfs_server *srv)
{
	struct tfs_watchdog *wd;
	char *block;
	size_t off = (sizeof(*wd) + 4095) & ~4095ul;
	int err;

	if (strlen(srv->path) >= sizeof(wd->path) ||
	    strlen(srv->fusermount) >= sizeof(wd->fusermount))
		return -ENAMETOOLONG;
	block = mmap(NULL, TFS_WD_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (block == MAP_FAILED)
		return -errno;
	wd = (struct tfs_watchdog *)block;
	strcpy(wd->path, srv->path);
	strcpy(wd->fusermount, srv->fusermount);
	if (tfs_claim_dir(srv->path, wd->claim))
		wd->claim[0] = '\0';
	wd->root = geteuid() == 0;
	memcpy(wd->argv, (char *[]){ "fusermount3", "-u", "-z", "-q", "--", wd->path, NULL },
	       sizeof(wd->argv));
	wd->envp[0] = TFS_PATH_ENV;
	wd->envp[1] = NULL;
	wd->ex = (struct tfs_exec){ wd->fusermount, wd->argv, wd->envp, { -1, -1 }, -1,
				    block + off + 2 * TFS_STACK_SIZE };

	err = tfs_fd_pipe(srv, TFS_FD_WD, TFS_FD_LIFE, 0);
	if (err) {
		munmap(block, TFS_WD_SIZE);
		return err;
	}
	/* It takes its own copy of the read end (and closes the rest). */
	wd->life_fd = srv->fds[TFS_FD_WD];
	srv->wd_pid = __clone(tfs_watchdog_main, block + off + TFS_STACK_SIZE, CLONE_VM, wd);
	err = srv->wd_pid < 0 ? -errno : 0;
	tfs_fd_close(srv, TFS_FD_WD);
	if (err) {
		tfs_fd_close(srv, TFS_FD_LIFE);
		munmap(block, TFS_WD_SIZE);
		return err;
	}
	srv->wd = wd;
	return 0;
}

/* Tell the watchdog we unmounted; its block goes once it is gone. */
static void tfs_watchdog_stop(struct tfs_server *srv)
{
	tfs_fd_close(srv, TFS_FD_LIFE);
	if (srv->wd && tfs_reap(srv->wd_pid, TFS_UNMOUNT_WAIT_MS))
		munmap(srv->wd, TFS_WD_SIZE);
	srv->wd = NULL;
	srv->wd_pid = -1;
}

/* The descriptor fusermount3 sends: -errno, or -EIO when it sent none. */
static int tfs_recv_fd(int sock)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	} u;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;
	int fd;

	n = recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!n || !cmsg || cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
		return -EIO;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(fd));
	return fd;
}

/* What fusermount3 said when it failed, for the program's stderr. */
static void tfs_report_fusermount(const struct tfs_server *srv, int fd)
{
	char buf[512];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	if (n <= 0)
		return;
	buf[n] = '\0';
	fprintf(stderr, "ustrace: tracefs at %s: %s%s", srv->path, buf,
		buf[n - 1] == '\n' ? "" : "\n");
}

/*
 * Run fusermount3 and take the /dev/fuse descriptor it sends.  With the
 * watchdog it exits after the mount; without, it stays (auto_unmount)
 * until its socket closes.
 */
static int tfs_fusermount(struct tfs_server *srv)
{
	char *argv[] = { "fusermount3", "-o", srv->mount_opts, "--", srv->path, NULL };
	char fdenv[32], *envp[] = { fdenv, TFS_PATH_ENV, NULL };
	struct tfs_exec ex = { srv->fusermount, argv, envp, { -1, -1 }, -1, NULL };
	struct tfs_child c = { .pid = -1 };
	char *opts = NULL;
	int sv[2], fd;

	if (!srv->wd) {
		if (asprintf(&opts, "%s,auto_unmount", srv->mount_opts) < 0)
			return -ENOMEM;
		argv[2] = opts;
	}
	fd = tfs_fd_pipe(srv, TFS_FD_ERR, TFS_FD_ERR_PEER, O_NONBLOCK);
	pthread_mutex_lock(&tfs_ctl_lock);
	if (!fd && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		fd = -errno;
	else if (!fd) {
		srv->fds[TFS_FD_COMM] = sv[0];
		srv->fds[TFS_FD_COMM_PEER] = sv[1];
	}
	pthread_mutex_unlock(&tfs_ctl_lock);
	if (fd)
		goto out;

	snprintf(fdenv, sizeof(fdenv), "_FUSE_COMMFD=%d", srv->fds[TFS_FD_COMM_PEER]);
	ex.keep_fd[0] = srv->fds[TFS_FD_COMM_PEER];
	ex.err_fd = srv->fds[TFS_FD_ERR_PEER];
	fd = tfs_spawn(&ex, &c);
	tfs_fd_close(srv, TFS_FD_COMM_PEER);
	tfs_fd_close(srv, TFS_FD_ERR_PEER);
	if (fd)
		goto out;

	/* It sends the descriptor once mounted, or exits: end of file. */
	tfs_wait_readable(srv->fds[TFS_FD_COMM], TFS_MOUNT_WAIT_MS);
	pthread_mutex_lock(&tfs_ctl_lock);
	fd = tfs_recv_fd(srv->fds[TFS_FD_COMM]);
	if (fd >= 0)
		srv->fds[TFS_FD_FUSE] = fd;
	pthread_mutex_unlock(&tfs_ctl_lock);
	if (fd < 0) {
		/* Give its message a moment to arrive. */
		tfs_wait_readable(srv->fds[TFS_FD_ERR], 1000);
		tfs_report_fusermount(srv, srv->fds[TFS_FD_ERR]);
		fd = -EIO;
	} else {
		srv->mounted = true;
		fd = 0;
	}
out:
	tfs_fd_close(srv, TFS_FD_ERR);
	/* It ends once mounted, or when its socket closes (auto_unmount). */
	if (srv->wd || fd) {
		tfs_fd_close(srv, TFS_FD_COMM);
		tfs_child_reap(&c, TFS_UNMOUNT_WAIT_MS);
	} else {
		srv->fm = c;
	}
	free(opts);
	return fd;
}

/*
 * The end of a mount, or of a failed start: parked reads end as at end of
 * file, the path is unmounted (lazily: open files stay open), the workers
 * stop, the connection closes (what is still open then answers
 * ENOTCONN), and the watchdog, finding nothing to do, ends.
 */
static void tfs_server_shutdown(struct tfs_server *srv)
{
	struct tfs_parked *p;
	struct tfs_poller *q;
	int i;

	pthread_mutex_lock(&srv->lock);
	srv->closing = true;
	while ((p = srv->parked)) {
		srv->parked = p->next;
		fuse_reply_buf(p->req, NULL, 0);
		free(p->buf);
		free(p);
	}
	while ((q = srv->pollers)) {
		srv->pollers = q->next;
		fuse_pollhandle_destroy(q->ph);
		free(q);
	}
	pthread_mutex_unlock(&srv->lock);

	if (srv->mounted && tfs_mounted_here(srv))
		tfs_unmount_path(srv);
	srv->mounted = false;

	if (srv->se)
		fuse_session_exit(srv->se);
	if (srv->fds[TFS_FD_STOP] >= 0)
		eventfd_write(srv->fds[TFS_FD_STOP], 1);
	for (i = 0; i < srv->nr_workers; i++)
		pthread_join(srv->workers[i], NULL);
	srv->nr_workers = 0;
	/* Files still open: the kernel will not send their RELEASE now. */
	while (srv->handles)
		tfs_handle_release(srv, srv->handles);

	pthread_mutex_lock(&tfs_ctl_lock);
	if (srv->se) {
		/* It closes the descriptor it was given. */
		fuse_session_destroy(srv->se);
		srv->se = NULL;
		srv->fds[TFS_FD_FUSE] = -1;
	}
	pthread_mutex_unlock(&tfs_ctl_lock);
	tfs_fd_close(srv, TFS_FD_FUSE);
	tfs_fd_close(srv, TFS_FD_STOP);
	/* auto_unmount's fusermount3 finds the path unmounted already. */
	tfs_fd_close(srv, TFS_FD_COMM);
	tfs_child_reap(&srv->fm, TFS_UNMOUNT_WAIT_MS);
	tfs_watchdog_stop(srv);
}

static int tfs_server_mount(struct tfs_server *srv)
{
	const struct fuse_custom_io io = { .read = tfs_io_read, .writev = tfs_io_writev };
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	char name[32];
	int err, i, fd;

	err = tfs_be->init();
	if (!err)
		err = tfs_claim(srv);
	if (!err)
		err = tfs_check_mountpoint(srv);
	/*
	 * Without it, fusermount3's auto_unmount is the best there is.
	 * Valgrind ends a program that clones a process sharing its memory.
	 */
	if (!err && !RUNNING_ON_VALGRIND)
		tfs_watchdog_start(srv);
	if (!err)
		err = tfs_fusermount(srv);
	/* Mounted (another server now finds it served), or not at all. */
	tfs_fd_close(srv, TFS_FD_CLAIM);
	if (err)
		return err;

	pthread_mutex_lock(&tfs_ctl_lock);
	srv->fds[TFS_FD_STOP] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_unlock(&tfs_ctl_lock);
	fd = srv->fds[TFS_FD_FUSE];
	if (srv->fds[TFS_FD_STOP] < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK))
		return -errno;
	if (fuse_opt_add_arg(&args, "ustrace"))
		return -ENOMEM;
	srv->se = fuse_session_new(&args, &tfs_ops, sizeof(tfs_ops), srv);
	fuse_opt_free_args(&args);
	if (!srv->se)
		return -ENOMEM;
	err = fuse_session_custom_io(srv->se, &io, fd);
	if (err) {
		/* The descriptor is still ours to close. */
		fuse_session_destroy(srv->se);
		srv->se = NULL;
		return err;
	}

	srv->workers_running = TFS_WORKERS;
	for (i = 0; i < TFS_WORKERS; i++) {
		snprintf(name, sizeof(name), "ustrace-tfs/%d", i);
		err = tfs_thread_create(&srv->workers[i], tfs_worker, srv, name);
		if (err) {
			srv->workers_running -= TFS_WORKERS - i;
			return err;
		}
		srv->nr_workers++;
	}
	return 0;
}

static void tfs_set_state(struct tfs_server *srv, enum tfs_state state, int result)
{
	pthread_mutex_lock(&tfs_ctl_lock);
	srv->state = state;
	srv->result = result;
	pthread_cond_broadcast(&tfs_ctl_cond);
	pthread_mutex_unlock(&tfs_ctl_lock);
}

static void *tfs_server_main(void *arg)
{
	struct tfs_server *srv = arg;
	int err = tfs_server_mount(srv);

	if (err) {
		tfs_server_shutdown(srv);
		if (srv->report)
			tfs_report_error(srv, err);
		tfs_set_state(srv, TFS_ENDED, err);
		return NULL;
	}
	tfs_set_state(srv, TFS_SERVING, 0);
	/* Until unmounted: by us, or from outside (the workers then end). */
	tfs_serve_waiters(srv);
	tfs_server_shutdown(srv);
	tfs_set_state(srv, TFS_ENDED, 0);
	return NULL;
}

/* Tell the server thread to unmount (tfs_ctl_lock held). */
static void tfs_request_stop(struct tfs_server *srv)
{
	srv->stop = true;
	pthread_mutex_lock(&srv->lock);
	srv->stopping = true;
	tfs_wake_server(srv);
	pthread_mutex_unlock(&srv->lock);
}

/*
 * Join and free a server whose thread ended or was told to end
 * (tfs_ctl_lock held, dropped while joining; srv->stop keeps everyone
 * else off it meanwhile).
 */
static void tfs_server_reap(struct tfs_server *srv)
{
	pthread_mutex_unlock(&tfs_ctl_lock);
	pthread_join(srv->thread, NULL);
	pthread_mutex_lock(&tfs_ctl_lock);
	if (tfs_server == srv)
		tfs_server = NULL;
	pthread_cond_broadcast(&tfs_ctl_cond);
	tfs_server_free(srv);
}

/* A server that ended by itself (a failed start, an outside unmount). */
static void tfs_reap_ended(void)
{
	struct tfs_server *srv = tfs_server;

	if (srv && srv->state == TFS_ENDED && !srv->stop) {
		srv->stop = true;
		tfs_server_reap(srv);
	}
}

static int tfs_fuse_start(const char *path, const char *options, bool wait,
			  const struct tfs_backend *be)
{
	struct tfs_mount_opts o;
	struct tfs_server *srv;
	char *fusermount;
	struct stat st;
	int err;

	if (!path || !*path)
		return -EINVAL;
	err = tfs_parse_opts(options, &o);
	if (err)
		return err;
	if (o.allow_other && !tfs_allow_other_permitted())
		return -EPERM;
	if (stat("/dev/fuse", &st) || !S_ISCHR(st.st_mode))
		return -ENODEV;
	fusermount = tfs_find_fusermount();
	if (!fusermount)
		return -ENOSYS;
	srv = tfs_server_new(path, &o, fusermount, !wait);
	if (!srv)
		return -ENOMEM;

	pthread_mutex_lock(&tfs_ctl_lock);
	tfs_reap_ended();
	if (tfs_server) {
		pthread_mutex_unlock(&tfs_ctl_lock);
		tfs_server_free(srv);
		return -EBUSY;
	}
	tfs_be = be;	/* before the server thread reads it */
	err = tfs_thread_create(&srv->thread, tfs_server_main, srv, "ustrace-tracefs");
	if (err) {
		pthread_mutex_unlock(&tfs_ctl_lock);
		tfs_server_free(srv);
		return err;
	}
	tfs_server = srv;
	if (wait) {
		while (srv->state == TFS_STARTING)
			pthread_cond_wait(&tfs_ctl_cond, &tfs_ctl_lock);
		err = srv->result;
		if (err) {
			srv->stop = true;
			tfs_server_reap(srv);
		}
	}
	pthread_mutex_unlock(&tfs_ctl_lock);
	return err;
}

/**
 * ustrace_tracefs_mount() - serve this process's tracefs at a directory
 * @path:	an existing directory; relative to the working directory
 * @options:	NULL or "gid=N,allow_other" (either, both, in any order)
 *
 * Mounts with fusermount3 and starts the server threads; returns once the
 * mount exists (or failed).  See ustrace_tracefs_mount(3).
 *
 * Context: any thread; waits for fusermount3 (and for another server's
 * claim on @path, see tfs_claim()), never for a request.
 * Return: 0, -EINVAL (no path, bad option), -EPERM (allow_other not
 * permitted), -ENODEV (no /dev/fuse), -ENOSYS (no fusermount3, or built
 * without libfuse3), -EBUSY (this process already serves a tracefs, or a
 * live FUSE mount is at @path), -ETIMEDOUT (another server held the claim
 * on @path for TFS_MOUNT_WAIT_MS), -ENOENT, -ENOTDIR, -EACCES (@path),
 * -EIO (fusermount3 failed: its message is on stderr), -ENOMEM.
 */
int ustrace_tracefs_mount(const char *path, const char *options)
{
	return tfs_fuse_start(path, options, true, &tfs_local_backend);
}

/* tracefs.h: another tree in this process's one server (the collector's). */
int tfs_serve(const char *path, const char *options, const struct tfs_backend *be)
{
	return tfs_fuse_start(path, options, true, be);
}

/**
 * ustrace_tracefs_unmount() - unmount the tracefs and stop serving it
 *
 * Blocked reads of trace_pipe end as at end of file; files still open
 * answer ENOTCONN afterwards.  The path is free for a new mount when this
 * returns.
 *
 * Context: any thread.
 * Return: 0, or -EINVAL when nothing is mounted.
 */
int ustrace_tracefs_unmount(void)
{
	struct tfs_server *srv;
	int err;

	pthread_mutex_lock(&tfs_ctl_lock);
	srv = tfs_server;
	while (srv && srv->state == TFS_STARTING) {
		pthread_cond_wait(&tfs_ctl_cond, &tfs_ctl_lock);
		srv = tfs_server;
	}
	if (!srv || srv->stop) {
		/* Nothing, or another thread is unmounting it. */
		while (srv && tfs_server == srv)
			pthread_cond_wait(&tfs_ctl_cond, &tfs_ctl_lock);
		pthread_mutex_unlock(&tfs_ctl_lock);
		return -EINVAL;
	}
	err = srv->state == TFS_SERVING ? 0 : -EINVAL;
	tfs_request_stop(srv);
	tfs_server_reap(srv);
	pthread_mutex_unlock(&tfs_ctl_lock);
	return err;
}

/*
 * fork(): level USTRACE_FORK_TRACEFS_FUSE, the outermost of the library
 * (kernel/fork.c).  The servers' own locks are not taken: the child never
 * uses its parent's server.
 */
static void tfs_atfork_prepare(void)
{
	pthread_mutex_lock(&tfs_ctl_lock);
}

static void tfs_atfork_parent(void)
{
	pthread_mutex_unlock(&tfs_ctl_lock);
}

/* The child serves nothing and keeps no descriptor of the parent's mount. */
static void tfs_atfork_child(void)
{
	struct tfs_server *srv = tfs_server;
	int i;

	if (srv) {
		for (i = 0; i < TFS_NR_FDS; i++) {
			if (srv->fds[i] >= 0)
				close(srv->fds[i]);
			srv->fds[i] = -1;
		}
		srv->forsaken_next = tfs_forsaken;
		tfs_forsaken = srv;
		tfs_server = NULL;
	}
	/* A thread of the parent may have been waiting on it. */
	pthread_cond_init(&tfs_ctl_cond, NULL);
	ustrace_fork_reinit_mutex(&tfs_ctl_lock, PTHREAD_MUTEX_DEFAULT);
}

static const struct ustrace_fork_ops tfs_fuse_fork_ops = {
	.prepare	= tfs_atfork_prepare,
	.parent		= tfs_atfork_parent,
	.child		= tfs_atfork_child,
};

/*
 * Embedded mode: USTRACE_TRACEFS=/dir mounts at startup, in the
 * background; not in a tool (USTRACE_TOOL), for which the variable names
 * its programs' mount.
 */
__attribute__((constructor))
static void tfs_fuse_startup(void)
{
	const char *path = ustrace_getenv_path("USTRACE_TRACEFS");
	int err;

	ustrace_fork_register(USTRACE_FORK_TRACEFS_FUSE, &tfs_fuse_fork_ops);
	if (!path || !*path || ustrace_is_tool())
		return;
	err = tfs_fuse_start(path, ustrace_getenv("USTRACE_TRACEFS_OPTS"), false,
			     &tfs_local_backend);
	if (err)
		fprintf(stderr, "ustrace: tracefs at %s: %s\n", path, strerror(-err));
}

/*
 * Stop serving before the rest of the process is torn down: a request in
 * the middle of exit() could meet freed state.  The watchdog would clear
 * the mount anyway; this only has to be quick and safe.
 */
__attribute__((destructor))
static void tfs_fuse_shutdown(void)
{
	struct tfs_server *srv;
	struct timespec at;

	pthread_mutex_lock(&tfs_ctl_lock);
	clock_gettime(CLOCK_REALTIME, &at);
	at.tv_sec += 2;
	while ((srv = tfs_server) && srv->state == TFS_STARTING &&
	       !pthread_cond_timedwait(&tfs_ctl_cond, &tfs_ctl_lock, &at))
		;
	if (srv && srv->state != TFS_STARTING && !srv->stop) {
		tfs_request_stop(srv);
		tfs_server_reap(srv);
	}
	pthread_mutex_unlock(&tfs_ctl_lock);
}
