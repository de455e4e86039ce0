// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced program that forks, execs and spawns, as daemons and programs
 * that shell out do: fork() + exit(), fork() + exec(), system(), popen(),
 * vfork() + exec(), posix_spawn(), from one thread and from several at
 * once while other threads trace, change enables and read the buffer,
 * while the program serves a tracefs that other processes read and write,
 * and while it records.  Every child ends with exit() (the exec'd ones too), so that
 * the destructors and atexit handlers of the library run in it; each must
 * end within CHILD_DEADLINE and the parent must go on.  A forked child may
 * mount a tracefs of its own (ustrace_tracefs_mount(3)).
 *
 *   fork-safety              every case, each in a process group of its
 *                            own with a deadline (a hang fails one case)
 *                            and a directory of its own, which the
 *                            harness removes with any mount left in it
 *   fork-safety --case NAME MODE DIR
 *                            one case: MODE "on" (fork_test:fork_ev
 *                            enabled) or "off" (no event enabled)
 *   fork-safety --child MODE what the cases exec: fires, says "child ok"
 *                            on stdout, exit(0)
 *
 * Only the library's public calls are used: this is the user's path.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define CREATE_TRACE_POINTS
#include "fork-events.h"

#include <linux/trace.h>
#include <linux/trace_events.h>
#include <ustrace/record.h>
#include <ustrace/tracefs.h>

#include "kselftest.h"
#include "self_path.h"
#include "tsan_options.h"

/*
 * ThreadSanitizer's own limits, not the library's: in the child of a
 * multi-threaded fork it counts the parent's threads as finished and never
 * joined (a "thread leak" at exit()), and by default it kills a child that
 * starts a thread (the tracefs server of case_child_mount()).
 */
TEST_TSAN_OPTIONS("report_thread_leaks=0:die_after_fork=0")

#if defined(__SANITIZE_ADDRESS__)
# define FORK_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define FORK_ASAN 1
# endif
#endif

#ifdef FORK_ASAN
# include <sanitizer/lsan_interface.h>
/*
 * LeakSanitizer's limit: in the child of a multi-threaded fork the other
 * threads are gone and their stacks are not scanned, so what only they
 * pointed to (a FUSE worker's request buffer, a reader's iterator) is a
 * "leak" at exit().  The check runs at the end of each case and of each
 * exec'd child instead (leak_check()), where every thread was joined.
 */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "leak_check_at_exit=0";
}

static int leak_check(int status)
{
	return __lsan_do_recoverable_leak_check() ? 1 : status;
}
#else
static int leak_check(int status)
{
	return status;
}
#endif

#define CHILD_DEADLINE	10	/* seconds, for one child */
#define CASE_DEADLINE	45	/* seconds, for one case */
#define CHILD_OK	"child ok\n"

static char self[PATH_MAX];
static bool mode_on;
/* The case's directory: the harness makes it and cleans it up. */
static const char *tmpdir;

/* ------------------------------------------------------------------
 * Helpers
 */

#define fail(fmt, ...) \
	fprintf(stderr, "# %d: " fmt "\n", (int)getpid(), ##__VA_ARGS__)

/*
 * Wait for @pid at most @secs seconds; kill it after (@group: its process
 * group).  Return: 0 and its status, or -ETIMEDOUT, or -errno of waitpid().
 */
static int wait_group_deadline(pid_t pid, int secs, int *status, bool group)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };

	for (long i = 0; i < secs * 500L; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		nanosleep(&ts, NULL);
	}
	kill(group ? -pid : pid, SIGKILL);
	waitpid(pid, status, 0);
	return -ETIMEDOUT;
}

static int wait_deadline(pid_t pid, int secs, int *status)
{
	return wait_group_deadline(pid, secs, status, false);
}

/* 0 if @status is exit(0); else say what it is. */
static int check_status(const char *what, int status)
{
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status))
		fail("%s: killed by signal %d", what, WTERMSIG(status));
	else
		fail("%s: exit status %d", what, WEXITSTATUS(status));
	return -1;
}

static int check_child(const char *what, pid_t pid)
{
	int status, err = wait_deadline(pid, CHILD_DEADLINE, &status);

	if (err == -ETIMEDOUT) {
		fail("%s: child %d still there after %d s (a hang in exit()?)", what,
		     (int)pid, CHILD_DEADLINE);
		return -1;
	}
	if (err) {
		fail("%s: waitpid: %s", what, strerror(-err));
		return -1;
	}
	return check_status(what, status);
}

/*
 * What the children exec: this program, traced, in its "--child" mode;
 * or, in the cases that spawn from several threads, a shell that says
 * "child ok" (a sanitized program takes a second or more to start on a
 * busy machine, and those cases are about the parent).
 */
static bool exec_shell;

/* The program and argument vector to exec, in @argv. */
static const char *child_argv(char *argv[4])
{
	argv[0] = exec_shell ? "sh" : self;
	argv[1] = exec_shell ? "-c" : "--child";
	argv[2] = exec_shell ? "echo child ok" : mode_on ? "on" : "off";
	argv[3] = NULL;
	return exec_shell ? "/bin/sh" : self;
}

/* The same as a shell command, for system() and popen(). */
static void child_cmd(char *cmd, size_t size)
{
	if (exec_shell)
		snprintf(cmd, size, "echo child ok");
	else
		snprintf(cmd, size, "exec '%s' --child %s", self, mode_on ? "on" : "off");
}

static void fire(int v)
{
	trace_fork_ev(v);
}

/* The text of the top-level buffer (not consumed). */
static char *buffer_text(void)
{
	struct trace_iterator *iter = trace_iterator_open(trace_get_global_buffer(), 0);
	struct trace_seq *s = malloc(sizeof(*s));
	size_t len = 0, size = 1 << 16;
	char *out = calloc(1, size);

	while (iter && s && out) {
		trace_seq_init(s);
		if (trace_iterator_print_line(iter, s) != 1)
			break;
		if (len + s->len + 1 > size) {
			size = 2 * (len + s->len + 1);
			out = realloc(out, size);
			if (!out)
				break;
		}
		memcpy(out + len, s->buffer, s->len + 1);
		len += s->len;
	}
	if (iter)
		trace_iterator_close(iter);
	free(s);
	return out;
}

/*
 * The test's own processes never read or write their tracefs themselves:
 * a thread blocked in a request to its own server cannot be killed once
 * the server's threads are gone, and a case that hangs must be killable.
 * Other processes (cat, sh) do it.  Return: bytes read into @buf, or -1.
 */
static int cat_file(const char *path, char *buf, size_t size)
{
	char cmd[PATH_MAX + 16];
	size_t n;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "exec cat '%s'", path);
	fp = popen(cmd, "r");
	if (!fp)
		return -1;
	n = fread(buf, 1, size - 1, fp);
	buf[n] = '\0';
	return pclose(fp) ? -1 : (int)n;
}

/* "sh -c SCRIPT sh ARG" ($1 is ARG), its output to /dev/null. */
static pid_t start_sh(const char *script, const char *arg)
{
	char *argv[] = { "sh", "-c", (char *)script, "sh", (char *)arg, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int err;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	err = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return err ? -1 : pid;
}

static void stop_sh(pid_t pid)
{
	int status;

	if (pid > 0) {
		kill(pid, SIGTERM);
		wait_deadline(pid, CHILD_DEADLINE, &status);
	}
}

/* ------------------------------------------------------------------
 * The ways to start a process, each waited for
 */

/* Set by the recorder case: its forked children check they do not record. */
static const char *recording;

/*
 * The child fires, changes an enable (only "on") and ends with exit().
 * A forked child of a recording process: the recording is not its own
 * (recording.rst).  Exit statuses 2-5 say which step failed.
 */
static int child_work(void)
{
	struct ustrace_record_attr attr = { .size = sizeof(attr), .events = "fork_test" };

	fire((int)getpid());
	if (mode_on) {
		if (trace_set_clr_event("fork_test", "fork_other", 1) ||
		    trace_set_clr_event("fork_test", "fork_other", 0))
			return 2;
	}
	if (recording) {
		attr.output = recording;
		if (ustrace_record_dump(NULL) != -EINVAL)
			return 3;
		if (ustrace_record_stop() != -EINVAL)
			return 4;
		if (ustrace_record_start(&attr) != -EBUSY)
			return 5;
	}
	return 0;
}

static int do_fork_exit(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid)
		exit(child_work());
	return check_child("fork() + exit()", pid) ? -1 : (int)pid;
}

static int do_fork_exec(void)
{
	char *args[4];
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		/* /dev/null: the child says "child ok" for popen() only. */
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execv(child_argv(args), args);
		exit(127);
	}
	return check_child("fork() + exec()", pid);
}

static int do_system(void)
{
	char cmd[2 * PATH_MAX];
	int status;

	child_cmd(cmd, sizeof(cmd) - 16);
	strcat(cmd, " >/dev/null");
	status = system(cmd);
	if (status < 0) {
		fail("system: %s", strerror(errno));
		return -1;
	}
	return check_status("system()", status);
}

static int do_popen(void)
{
	char cmd[2 * PATH_MAX], line[64] = "";
	FILE *fp;
	int status;

	child_cmd(cmd, sizeof(cmd));
	fp = popen(cmd, "r");
	if (!fp) {
		fail("popen: %s", strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), fp))
		line[0] = '\0';
	status = pclose(fp);
	if (status < 0) {
		fail("pclose: %s", strerror(errno));
		return -1;
	}
	if (strcmp(line, CHILD_OK)) {
		fail("popen(): read '%s', not '%s'", line, CHILD_OK);
		return -1;
	}
	return check_status("popen()/pclose()", status);
}

static int do_vfork_exec(void)
{
	char *args[4];
	const char *prog = child_argv(args);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid_t pid;

	pid = vfork();
	if (pid < 0) {
		fail("vfork: %s", strerror(errno));
		close(null);
		return -1;
	}
	if (!pid) {
		/* The descriptors are the child's own (no CLONE_FILES). */
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execv(prog, args);
		/* The only way out of a vfork() child that is not exec. */
		_exit(127);
	}
	close(null);
	return check_child("vfork() + exec()", pid);
}

static int do_posix_spawn(void)
{
	posix_spawn_file_actions_t fa;
	char *args[4];
	pid_t pid;
	int err;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	err = posix_spawn(&pid, child_argv(args), &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fail("posix_spawn: %s", strerror(err));
		return -1;
	}
	return check_child("posix_spawn()", pid);
}

/* fork() + exit() returns the child's pid; the others 0.  -1: failed. */
static int (*const methods[])(void) = {
	do_fork_exit, do_fork_exec, do_system, do_popen, do_vfork_exec, do_posix_spawn,
};
#define NR_METHODS	(int)(sizeof(methods) / sizeof(methods[0]))

/* ------------------------------------------------------------------
 * One way, from the only thread
 */

#define NR_SERIAL	2

/* With events on, the children's events are in the buffer (shared pages). */
static int case_fork_exit(void)
{
	int pids[NR_SERIAL], bad = 0;
	char want[32], comm[16] = "", name[48], *text;

	fire(1);
	for (int i = 0; i < NR_SERIAL; i++)
		if ((pids[i] = do_fork_exit()) < 0)
			return 1;
	fire(2);
	if (!mode_on)
		return 0;
	text = buffer_text();
	if (!text)
		return 1;
	if (prctl(PR_GET_NAME, comm, 0, 0, 0))
		return 1;
	for (int i = 0; i < NR_SERIAL; i++) {
		const char *at, *line;

		snprintf(want, sizeof(want), "fork_ev: v=%d\n", pids[i]);
		if (!(at = strstr(text, want))) {
			fail("the child's event '%.*s' is not in the trace", (int)strlen(want) - 1,
			     want);
			bad = 1;
			continue;
		}
		/*
		 * Named as the kernel names every task: the child saved its
		 * name where its parent, which prints the buffer, finds it.
		 */
		for (line = at; line > text && line[-1] != '\n'; line--)
			;
		while (*line == ' ')
			line++;
		snprintf(name, sizeof(name), "%s-%d ", comm, pids[i]);
		if (strncmp(line, name, strlen(name))) {
			fail("the child's line is not named '%s': '%.*s'", name,
			     (int)(at - line) + (int)strlen(want) - 1, line);
			bad = 1;
		}
	}
	if (!strstr(text, "fork_ev: v=1\n") || !strstr(text, "fork_ev: v=2\n")) {
		fail("the parent's events are not in the trace");
		bad = 1;
	}
	free(text);
	return bad;
}

/* This program first, traced, then a shell. */
static int serial(int (*method)(void))
{
	fire(1);
	for (int i = 0; i < NR_SERIAL; i++) {
		exec_shell = i > 0;
		if (method() < 0)
			return 1;
	}
	fire(2);
	return 0;
}

static int case_fork_exec(void)
{
	return serial(do_fork_exec);
}

static int case_system(void)
{
	return serial(do_system);
}

static int case_popen(void)
{
	return serial(do_popen);
}

static int case_vfork_exec(void)
{
	return serial(do_vfork_exec);
}

static int case_posix_spawn(void)
{
	return serial(do_posix_spawn);
}

/* ------------------------------------------------------------------
 * Every way, from several threads, while others trace
 */

#define NR_FORKERS	3
#define FORKS_EACH	NR_METHODS

struct busy {
	pthread_t	tracer[2], control, reader;
	bool		has_control, has_reader;
	int		stop;
	long		fired, toggled, read;
	/* A reader's iterator and text, reachable (LeakSanitizer in a child). */
	struct trace_iterator *iter;
	struct trace_seq *seq;
};

static struct busy busy;

static bool stopping(void)
{
	return __atomic_load_n(&busy.stop, __ATOMIC_RELAXED);
}

static void *tracer_fn(void *arg)
{
	(void)arg;
	for (int i = 0; !stopping(); i++) {
		fire(i);
		trace_fork_other(i);
		__atomic_add_fetch(&busy.fired, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Enable and disable: the event mutex, the tracepoint core, jump labels, RCU. */
static void *control_fn(void *arg)
{
	(void)arg;
	for (int i = 0; !stopping(); i++) {
		trace_set_clr_event("fork_test", "fork_other", 1);
		trace_set_clr_event("fork_test", "fork_other", 0);
		if (!(i % 8))
			tracepoint_synchronize_unregister();
		__atomic_add_fetch(&busy.toggled, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Walk the buffer: the reader locks; render: the saved cmdlines. */
static void *reader_fn(void *arg)
{
	(void)arg;
	busy.seq = malloc(sizeof(*busy.seq));
	if (!busy.seq)
		return NULL;
	while (!stopping()) {
		busy.iter = trace_iterator_open(trace_get_global_buffer(), 0);
		for (int n = 0; busy.iter && n < 64; n++) {
			trace_seq_init(busy.seq);
			if (trace_iterator_print_line(busy.iter, busy.seq) != 1)
				break;
		}
		if (busy.iter)
			trace_iterator_close(busy.iter);
		busy.iter = NULL;
		__atomic_add_fetch(&busy.read, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void busy_start(bool control)
{
	memset(&busy, 0, sizeof(busy));
	for (int i = 0; i < 2; i++)
		pthread_create(&busy.tracer[i], NULL, tracer_fn, NULL);
	busy.has_control = control;
	busy.has_reader = control;
	if (control)
		pthread_create(&busy.control, NULL, control_fn, NULL);
	if (busy.has_reader)
		pthread_create(&busy.reader, NULL, reader_fn, NULL);
}

static void busy_stop(void)
{
	__atomic_store_n(&busy.stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 2; i++)
		pthread_join(busy.tracer[i], NULL);
	if (busy.has_control)
		pthread_join(busy.control, NULL);
	if (busy.has_reader)
		pthread_join(busy.reader, NULL);
	free(busy.seq);
	fprintf(stderr, "# meanwhile: %ld events fired, %ld enable/disable, %ld walks\n",
		busy.fired, busy.toggled, busy.read);
}

/* Each forker goes through every way, starting at a different one. */
static void *forker_fn(void *arg)
{
	long k = (long)arg;

	for (int j = 0; j < FORKS_EACH; j++)
		if (methods[(k + j) % NR_METHODS]() < 0)
			return (void *)1;
	return NULL;
}

static int run_forkers(void *(*fn)(void *))
{
	pthread_t th[NR_FORKERS];
	void *ret;
	int bad = 0;

	exec_shell = true;

	for (long k = 0; k < NR_FORKERS; k++)
		pthread_create(&th[k], NULL, fn, (void *)k);
	for (int k = 0; k < NR_FORKERS; k++) {
		pthread_join(th[k], &ret);
		bad |= ret != NULL;
	}
	return bad;
}

static int case_threads(void)
{
	int bad;

	busy_start(mode_on);
	bad = run_forkers(forker_fn);
	busy_stop();
	return bad;
}

/* ------------------------------------------------------------------
 * A tracefs being served and read; a child that mounts its own
 */

/* 1: no FUSE here (skip); 0: mounted; -1: failed. */
static int mount_at(const char *dir)
{
	int err;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		fail("mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	err = ustrace_tracefs_mount(dir, NULL);
	if (err == -ENODEV || err == -ENOSYS)
		return 1;
	if (err) {
		fail("ustrace_tracefs_mount(%s): %s", dir, strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * In a forked child: the parent's mount is not ours; a mount of our own
 * works and shows our state (the enable the parent set is inherited).
 * Exit statuses 10-15 say which step failed.
 */
static int child_mounts(const char *dir)
{
	char path[PATH_MAX + 64], buf[64];
	int err;

	if (ustrace_tracefs_unmount() != -EINVAL)
		return 10;
	err = mount_at(dir);
	if (err)
		return err > 0 ? 11 : 12;
	snprintf(path, sizeof(path), "%s/tracing_on", dir);
	if (cat_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, "1\n"))
		return 13;
	snprintf(path, sizeof(path), "%s/events/fork_test/fork_ev/enable", dir);
	if (cat_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, mode_on ? "1\n" : "0\n"))
		return 14;
	fire((int)getpid());
	if (ustrace_tracefs_unmount())
		return 15;
	return 0;
}

static int fork_mounting_child(const char *dir)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		exit(child_mounts(dir));
	return check_child("fork() + ustrace_tracefs_mount() + exit()", pid);
}

/* A single-threaded parent; the child mounts, reads, unmounts, exit(). */
static int case_child_mount(void)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/child", tmpdir);
	fire(1);
	return fork_mounting_child(dir) ? 1 : 0;
}

/*
 * Forkers whose children mount at TMPDIR/cK.J now and then.  Not under
 * ThreadSanitizer: a thread started in the child of a multi-threaded
 * fork gets the pthread_t of one of the parent's threads (glibc reuses
 * their stacks), which ThreadSanitizer still counts as alive and refuses
 * ("dup thread with used id").  Not under AddressSanitizer: GCC 12's
 * runtime does not hold its allocator's locks across fork(), so a child
 * forked while another thread was in malloc() waits forever on the first
 * allocation of a size class that thread had locked (seen: the child's
 * popen() and its tracefs thread's realloc() in
 * SizeClassAllocator64::GetFromAllocator); glibc's own malloc is made
 * safe across fork, the sanitizer's is not, and mounting allocates a lot.
 * case_child_mount() mounts in a child forked from one thread.
 */
static void *mount_forker_fn(void *arg)
{
#if defined(TEST_TSAN) || defined(FORK_ASAN)
	const bool may_mount = false;
#else
	const bool may_mount = true;
#endif
	long k = (long)arg;
	char dir[PATH_MAX];

	for (int j = 0; j < FORKS_EACH; j++) {
		int err;

		if (may_mount && j == 1) {
			snprintf(dir, sizeof(dir), "%s/c%ld.%d", tmpdir, k, j);
			err = fork_mounting_child(dir);
		} else {
			err = methods[(k + j) % NR_METHODS]() < 0;
		}
		if (err)
			return (void *)1;
	}
	return NULL;
}

static int case_tracefs(void)
{
	char mnt[PATH_MAX], path[PATH_MAX + 64], buf[64];
	pid_t reader, writer;
	int bad, err;

	snprintf(mnt, sizeof(mnt), "%s/mnt", tmpdir);
	err = mount_at(mnt);
	if (err)
		return err > 0 ? KSFT_SKIP : 1;
	/* A reader of trace_pipe, parked in the server ... */
	snprintf(path, sizeof(path), "%s/trace_pipe", mnt);
	reader = start_sh("exec cat \"$1\"", path);
	/* ... and writes: the FUSE workers, the tree, the engine. */
	snprintf(path, sizeof(path), "%s/events/fork_test/fork_other/enable", mnt);
	writer = start_sh("while echo 1 > \"$1\" && echo 0 > \"$1\"; do :; done", path);
	if (reader < 0 || writer < 0)
		fail("cannot start sh");
	busy_start(mode_on);
	bad = run_forkers(mount_forker_fn) || reader < 0 || writer < 0;
	busy_stop();
	/* Both went on all along: the writes worked, the reader still reads. */
	if (waitpid(reader, NULL, WNOHANG) || waitpid(writer, NULL, WNOHANG)) {
		fail("the reader or the writer of the tracefs ended early");
		bad = 1;
	}
	stop_sh(writer);
	/* The parent still serves. */
	snprintf(path, sizeof(path), "%s/tracing_on", mnt);
	if (cat_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, "1\n")) {
		fail("%s after the forks: '%s'", path, buf);
		bad = 1;
	}
	stop_sh(reader);
	if (ustrace_tracefs_unmount()) {
		fail("ustrace_tracefs_unmount() in the parent failed");
		bad = 1;
	}
	return bad;
}

/* ------------------------------------------------------------------
 * Recording while children come and go
 */

static int case_recorder(void)
{
	struct ustrace_record_attr attr = { .size = sizeof(attr), .events = "fork_test" };
	char out[PATH_MAX], magic[10];
	struct stat st;
	int bad, err, fd;

	snprintf(out, sizeof(out), "%s/rec.dat", tmpdir);
	attr.output = out;
	recording = out;
	err = ustrace_record_start(&attr);
	if (err) {
		fail("ustrace_record_start: %s", strerror(-err));
		return 1;
	}
	busy_start(true);
	bad = run_forkers(forker_fn);
	busy_stop();
	err = ustrace_record_stop();
	if (err) {
		fail("ustrace_record_stop: %s", strerror(-err));
		bad = 1;
	}
	fd = open(out, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || read(fd, magic, sizeof(magic)) != sizeof(magic) ||
	    memcmp(magic, "\x17\x08\x44tracing", 10) || st.st_size < 4096) {
		fail("%s: not a trace.dat with pages", out);
		bad = 1;
	}
	if (fd >= 0)
		close(fd);
	return bad;
}

/* ------------------------------------------------------------------
 * The cases, and the harness
 */

enum { BOTH, ON_ONLY };

/*
 * fork-safety-static (fork-static.c) runs only the cases whose children
 * are forked: the others run no fork handler, and the sanitized variants
 * have a time limit.
 */
#ifdef FORK_STATIC
# define FORK_ONLY	true
#else
# define FORK_ONLY	false
#endif

static const struct fork_case {
	const char	*name;
	int		(*fn)(void);
	int		modes;
	bool		forks;
} cases[] = {
	{ "fork-exit",		case_fork_exit,		BOTH,		true },
	{ "fork-exec",		case_fork_exec,		BOTH,		true },
	{ "system",		case_system,		BOTH,		false },
	{ "popen",		case_popen,		BOTH,		false },
	{ "vfork-exec",		case_vfork_exec,	BOTH,		false },
	{ "posix-spawn",	case_posix_spawn,	BOTH,		false },
	{ "threads",		case_threads,		BOTH,		true },
	{ "child-mount",	case_child_mount,	BOTH,		true },
	{ "tracefs",		case_tracefs,		BOTH,		true },
	{ "recorder",		case_recorder,		ON_ONLY,	true },
};
#define NR_CASES	(int)(sizeof(cases) / sizeof(cases[0]))

static int run_case(const char *name)
{
	for (int i = 0; i < NR_CASES; i++) {
		if (strcmp(cases[i].name, name))
			continue;
		if (mode_on && trace_set_clr_event("fork_test", "fork_ev", 1)) {
			fail("cannot enable fork_test:fork_ev");
			return 1;
		}
		return cases[i].fn();
	}
	fail("no case %s", name);
	return 1;
}

/*
 * Mounts a case left in its directory: a failure when it ended by itself.
 * A case killed at its deadline leaves dead ones; FUSE connections that
 * are somehow still alive are aborted (when fusectl is mounted).
 */
static int clean_mounts(const char *dir)
{
	char line[2 * PATH_MAX], mp[PATH_MAX], dev[32], path[64];
	size_t len = strlen(dir);
	int left = 0;
	FILE *fp;

	fp = fopen("/proc/self/mountinfo", "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		unsigned int major, minor;

		if (sscanf(line, "%*s %*s %31s %*s %4095s", dev, mp) != 2 ||
		    strncmp(mp, dir, len) || mp[len] != '/' ||
		    sscanf(dev, "%u:%u", &major, &minor) != 2)
			continue;
		ksft_print_msg("mount left at %s\n", mp);
		left++;
		snprintf(path, sizeof(path), "/sys/fs/fuse/connections/%u/abort", minor);
		if (!access(path, W_OK)) {
			FILE *a = fopen(path, "w");

			if (a) {
				fputs("1", a);
				fclose(a);
			}
		}
		umount2(mp, MNT_DETACH);
	}
	if (fp)
		fclose(fp);
	return left;
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void harness_one(const struct fork_case *c, const char *mode)
{
	char dir[] = "/tmp/ustrace-fork.XXXXXX";
	char *argv[] = { self, "--case", (char *)c->name, (char *)mode, dir, NULL };
	posix_spawnattr_t attr;
	int err, status, left;
	pid_t pid;

	if (!mkdtemp(dir)) {
		ksft_test_result_fail("%s %s: mkdtemp: %s\n", c->name, mode, strerror(errno));
		return;
	}
	/* Its own process group: what it leaves behind goes with it. */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	fflush(NULL);
	err = posix_spawn(&pid, self, NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (err) {
		ksft_test_result_fail("%s %s: posix_spawn: %s\n", c->name, mode, strerror(err));
		rmdir(dir);
		return;
	}
	err = wait_group_deadline(pid, CASE_DEADLINE, &status, true);
	kill(-pid, SIGKILL);
	left = clean_mounts(dir);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	if (err == -ETIMEDOUT)
		ksft_test_result_fail("%s %s: no end after %d s\n", c->name, mode,
				      CASE_DEADLINE);
	else if (!err && WIFEXITED(status) && WEXITSTATUS(status) == KSFT_SKIP)
		ksft_test_result_skip("%s %s: no FUSE here\n", c->name, mode);
	else
		ksft_test_result(!err && WIFEXITED(status) && !WEXITSTATUS(status) && !left,
				 "%s %s\n", c->name, mode);
}

int main(int argc, char **argv)
{
	int n;

	if (self_path(self, sizeof(self), NULL))
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--child")) {
		mode_on = !strcmp(argv[2], "on");
		if (mode_on && trace_set_clr_event("fork_test", "fork_ev", 1))
			return 3;
		if (child_work())
			return 2;
		fputs(CHILD_OK, stdout);
		return leak_check(0);
	}
	if (argc == 5 && !strcmp(argv[1], "--case")) {
		mode_on = !strcmp(argv[3], "on");
		tmpdir = argv[4];
		return leak_check(run_case(argv[2]));
	}

	ksft_print_header();
	n = 0;
	for (int i = 0; i < NR_CASES; i++)
		if (cases[i].forks || !FORK_ONLY)
			n += cases[i].modes == BOTH ? 2 : 1;
	ksft_set_plan((unsigned int)n);
	for (int i = 0; i < NR_CASES; i++) {
		if (!cases[i].forks && FORK_ONLY)
			continue;
		harness_one(&cases[i], "on");
		if (cases[i].modes == BOTH)
			harness_one(&cases[i], "off");
	}
	ksft_finished();
}
