// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rec-app - the program the recording tests record (selftests/record/).
 *
 * It records either because the environment says so (USTRACE_EVENTS...,
 * started by the library before main()) or because -o starts it with
 * ustrace_record_start(); then it fires events from worker threads, each
 * pinned to a CPU, and ends as asked: ustrace_record_stop(), return from
 * main() (the library's destructor writes the file), or a fatal signal.
 *
 *   -o FILE   ustrace_record_start() into FILE, with -e EVENTS (default
 *             "sample_trace,rec_test,te_plugin"), -m MODE (pc or
 *             overwrite), -C CLOCK, -V VERSION, -b KB
 *   -w N      N worker threads (default 2), worker i on CPU i % online
 *   -n N      each worker fires N rec_test:rec_seq events
 *   -P USEC   and sleeps USEC after every 100 of them
 *   -s        each worker fires every sample event (samples/trace_events)
 *             for 11 rounds
 *   -M        trace_marker and trace_marker_raw writes (static build)
 *   -p SO     dlopen() SO (te-plugin.so of selftests/trace_events) and
 *             fire its te_plugin:plugin_value event 3 times
 *   -d        ustrace_record_dump(NULL) after the workers, then -n again
 *   -u        SIGUSR2 to itself after the workers, then -n again
 *   -t FILE   the recorder instance's trace text into FILE just before
 *             the file is written (static build)
 *   -k SIG    end by SIG: SEGV by a fault, others by raise()
 *   -H SIG    a handler of our own for SIG, installed before -o starts
 *             the recording (after, when the environment started it): it
 *             says so and ends by _exit(42)
 *   -x        end by returning from main() (default when the environment
 *             started the recording)
 *   -F        print the descriptors open besides 0, 1 and 2, one a line
 *             ("fd N -> TARGET"), once the recording started
 *   -c N      after the workers, close descriptors 3 to 1023 as a daemon
 *             does, open N files victim-0 ... in the working directory,
 *             write "VICTIM-DATA\n" into each and keep them open, then
 *             -n again (the sequence goes on from where it was)
 *   -W        after the workers, print "ready" and wait for a signal
 *   -O        after the workers, print "line" on stdout until that fails
 *             (a closed pipe: SIGPIPE)
 *   -A        after the workers, alarm(1) and wait (SIGALRM)
 *   -S        after the workers, spin (SIGXCPU under a CPU time limit)
 *   -Z        before -o starts the recording, a seccomp filter that
 *             refuses close_range() and unshare() (EPERM): the recorder
 *             cannot have a descriptor table of its own
 *   -Y        the same for close_range() only (ENOSYS, as before Linux
 *             5.9): unshare() and a close of each descriptor
 *   -U        before -o starts the recording, a seccomp filter that
 *             refuses openat() with O_TMPFILE (EOPNOTSUPP, as a file
 *             system without unnamed files does)
 *   -X HOW    end by HOW: _exit, _Exit, quick_exit, exec (execl() of
 *             /bin/true), execvp (of "true"), reexec (execv() of
 *             this program again, with -w and -n as given, which records
 *             on its own and returns from main()), or go on after: execfail
 *             (exec of a file that does not exist), vfork (a child that
 *             calls _exit()), vfork-exec (a child that execs /bin/true),
 *             fork (a child that calls _exit()), fork-fire (a child that
 *             fires rec_seq worker=-1 seq=7777 and calls exit()), spawn
 *             (posix_spawn() of /bin/true), daemon (daemon(0, 0): the
 *             parent ends, the child goes on); those then run -n again
 *             and return from main()
 *
 * rec-app-static is the same program linked with libustrace.a, for -M and
 * -t, which reach into the library.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <ustrace/record.h>

#define CREATE_TRACE_POINTS
#include "trace-events-sample.h"
#include "rec-events.h"
#include "tsan_options.h"

/*
 * ThreadSanitizer's limit, not the library's: by default it kills a child
 * of a multi-threaded fork that starts a thread, which the daemon of -X
 * daemon does (its recorder's; the parent had one).
 */
TEST_TSAN_OPTIONS("die_after_fork=0")

#ifdef REC_APP_STATIC
#include <linux/trace.h>
#include "../../kernel/trace/trace_array.h"
#include "../../kernel/trace/record/trace_record.h"
#endif

static int nr_workers = 2;
static unsigned long nr_seq, seq_base;
static unsigned int pace_us;
static int sample_rounds;

/* TRACE_EVENT_FN's registration hooks for the sample's foo_bar_with_fn. */
int foo_bar_reg(void)
{
	return 0;
}

void foo_bar_unreg(void)
{
}

/* Every sample event once, the values varying with @i. */
static void sample_round(int i)
{
	static const int nums[] = { 7, 8, 9, 0x20 };
	static const unsigned char raw[] = { 0xca, 0xfe, 0xba, 0xbe };
	unsigned long bits[1] = { 0x3ul << i };
	struct sample_pair pair = { .first = -i, .second = i };

	trace_foo_bar("rec", i, nums, 1 + i % 4, "recorded", bits, &pair);
	trace_foo_array(nums, 4 - i % 4);
	trace_foo_bar_with_cond("cond", i * 5);
	trace_foo_bar_with_fn("fn", i);
	trace_foo_with_template_simple("tsimple", i);
	trace_foo_with_template_cond("tcond", i * 5);
	trace_foo_with_template_print("tprint", i);
	trace_foo_hex(raw, 1 + i % 4, i & 1 ? 0x2ull : 0x10000000003ull);
}

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char name[16];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(online > 0 ? id % online : 0, &set);
	/* Refused in a restricted cpuset: the events just land elsewhere. */
	sched_setaffinity(0, sizeof(set), &set);
	snprintf(name, sizeof(name), "rec-worker-%d", id);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	for (int r = 0; r < sample_rounds; r++)
		sample_round(r);
	for (unsigned long s = 0; s < nr_seq; s++) {
		trace_rec_seq(id, seq_base + s);
		if (pace_us && s % 100 == 99)
			usleep(pace_us);
	}
	return NULL;
}

static int run_workers(void)
{
	pthread_t t[64];
	int n = nr_workers < 64 ? nr_workers : 64;

	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(long)i))
			return -1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	seq_base += nr_seq;
	return 0;
}

static int fire_plugin(const char *path)
{
	void (*fire)(int);
	void *h = dlopen(path, RTLD_NOW);

	if (!h) {
		fprintf(stderr, "rec-app: %s\n", dlerror());
		return -1;
	}
	*(void **)&fire = dlsym(h, "te_plugin_fire");
	if (!fire)
		return -1;
	for (int v = 0; v < 3; v++)
		fire(v);
	return 0;
}

#ifdef REC_APP_STATIC
static void write_markers(void)
{
	struct trace_array *tr = trace_record_instance();
	unsigned char raw[8] = { 0x2a, 0, 0, 0, 1, 2, 3, 4 };

	trace_array_marker_write(tr, "hello from rec-app", 18);
	trace_array_marker_write_raw(tr, raw, sizeof(raw));
}

/* The instance's trace file, event lines only. */
static int write_text(const char *path)
{
	struct trace_iterator *iter;
	struct trace_seq *s = malloc(sizeof(*s));
	FILE *fp = fopen(path, "w");
	int ret;

	iter = trace_array_iterator_open(trace_record_instance(), 0, RING_BUFFER_ALL_CPUS);
	if (!fp || !s || !iter)
		return -1;
	trace_seq_init(s);
	while ((ret = trace_iterator_print_line(iter, s)) != 0) {
		if (ret == 1 && s->len < sizeof(s->buffer) / 2)
			continue;
		fwrite(s->buffer, 1, s->len, fp);
		trace_seq_init(s);
	}
	fwrite(s->buffer, 1, s->len, fp);
	trace_iterator_close(iter);
	free(s);
	return fclose(fp);
}
#else
static void write_markers(void)
{
	fprintf(stderr, "rec-app: -M needs rec-app-static\n");
	exit(2);
}

static int write_text(const char *path)
{
	(void)path;
	fprintf(stderr, "rec-app: -t needs rec-app-static\n");
	return -1;
}
#endif

static int parse_mode(const char *s)
{
	return !strcmp(s, "overwrite") ? USTRACE_RECORD_OVERWRITE :
	       USTRACE_RECORD_PRODUCER_CONSUMER;
}

/* The program's own handler, which the library's must hand the signal to. */
static void own_handler(int sig)
{
	static const char msg[] = "rec-app: own handler\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(43);
	_exit(42);
}

#if defined(__x86_64__)
#define REC_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define REC_AUDIT_ARCH	AUDIT_ARCH_AARCH64
#endif

#ifdef REC_AUDIT_ARCH
/*
 * A filter's first instructions: another architecture's calls pass; the
 * accumulator then holds the system call's number.
 */
#define REC_SECCOMP_SYSCALL_NR \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, REC_AUDIT_ARCH, 1, 0), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))

/* Install the @n instructions at @prog as this thread's seccomp filter. */
static int install_filter(struct sock_filter *prog, size_t n)
{
	struct sock_fprog fprog = { .len = (unsigned short)n, .filter = prog };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0)) {
		perror("rec-app: seccomp");
		return -1;
	}
	return 0;
}
#endif

/*
 * -Z: close_range() and unshare() fail with EPERM, as some sandboxes have
 * it; -Y (@old_kernel): close_range() fails with ENOSYS.
 */
static int refuse_unshare(bool old_kernel)
{
#ifdef REC_AUDIT_ARCH
	struct sock_filter prog[] = {
		REC_SECCOMP_SYSCALL_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_close_range, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, old_kernel ? ~0u : SYS_unshare, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (old_kernel ? ENOSYS : EPERM)),
	};

	return install_filter(prog, sizeof(prog) / sizeof(prog[0]));
#else
	fprintf(stderr, "rec-app: -Z: no seccomp filter for this architecture\n");
	return -1;
#endif
}

/* -U: no unnamed files (openat() with O_TMPFILE fails with EOPNOTSUPP). */
static int refuse_tmpfile(void)
{
#ifdef REC_AUDIT_ARCH
	struct sock_filter prog[] = {
		REC_SECCOMP_SYSCALL_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* The flags' low word (the ABI is little-endian on both). */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_TMPFILE & ~O_DIRECTORY, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EOPNOTSUPP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install_filter(prog, sizeof(prog) / sizeof(prog[0]));
#else
	fprintf(stderr, "rec-app: -U: no seccomp filter for this architecture\n");
	return -1;
#endif
}

/* -F: what is open besides the standard descriptors. */
static void print_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[64], target[4096];
		int fd = atoi(de->d_name);
		ssize_t n;

		if (de->d_name[0] == '.' || fd <= 2 || fd == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		printf("fd %d -> %s\n", fd, target);
	}
	closedir(d);
	fflush(stdout);
}

/* -c: what a daemon does, then files of its own under the freed numbers. */
static int close_and_reopen(int nr_files)
{
	static const char data[] = "VICTIM-DATA\n";

	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	for (int i = 0; i < nr_files; i++) {
		char name[32];
		int fd;

		snprintf(name, sizeof(name), "victim-%d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, data, sizeof(data) - 1) != sizeof(data) - 1) {
			perror(name);
			return -1;
		}
		/* Kept open to the end, as a daemon keeps its log. */
	}
	return 0;
}

/* -W, -O, -A, -S: wait for the signal that ends us. */
static void wait_for_end(int how)
{
	switch (how) {
	case 'W':
		printf("ready\n");
		fflush(stdout);
		break;
	case 'O':
		for (;;)
			if (printf("line\n") < 0 || fflush(stdout))
				return;
	case 'A':
		alarm(1);
		break;
	case 'S':
		/*
		 * ThreadSanitizer runs a handler at a call it intercepts: a
		 * zero nanosleep() now and then (the CPU time still adds up).
		 */
		for (;;) {
			for (volatile unsigned long spin = 0; spin < 1000000; spin++)
				;
			nanosleep(&(struct timespec){ 0 }, NULL);
		}
	}
	for (;;)
		pause();
}

/* -X: end, or fork, spawn or fail to exec and go on.  Return: 0 to go on. */
static int end_by(const char *how)
{
	char *const argv[] = { "true", NULL };
	pid_t pid;
	int status;

	fflush(NULL);
	if (!strcmp(how, "_exit"))
		_exit(0);
	if (!strcmp(how, "_Exit"))
		_Exit(0);
	if (!strcmp(how, "quick_exit"))
		quick_exit(0);
	if (!strcmp(how, "exec"))
		execl("/bin/true", "true", (char *)NULL);
	if (!strcmp(how, "execvp"))
		execvp("true", argv);
	if (!strcmp(how, "reexec")) {
		char w[16], n[24];

		snprintf(w, sizeof(w), "%d", nr_workers);
		snprintf(n, sizeof(n), "%lu", nr_seq);
		execl("/proc/self/exe", "rec-app", "-w", w, "-n", n, (char *)NULL);
		return -1;
	}
	if (!strcmp(how, "execfail")) {
		execl("/nonexistent/rec-app", "rec-app", (char *)NULL);
		return errno == ENOENT ? 0 : -1;
	}
	if (!strcmp(how, "daemon"))
		return daemon(0, 0) ? -1 : 0;
	if (!strcmp(how, "spawn")) {
		if (posix_spawn(&pid, "/bin/true", NULL, NULL, argv, NULL))
			return -1;
	} else if (!strcmp(how, "vfork") || !strcmp(how, "vfork-exec")) {
		pid = vfork();
		if (!pid && !strcmp(how, "vfork-exec"))
			execv("/bin/true", argv);
		if (!pid)
			_exit(0);
	} else if (!strcmp(how, "fork")) {
		pid = fork();
		if (!pid)
			_exit(0);
	} else if (!strcmp(how, "fork-fire")) {
		pid = fork();
		if (!pid) {
			trace_rec_seq(-1, 7777);
			exit(0);
		}
	} else {
		fprintf(stderr, "rec-app: -X %s: no such way\n", how);
		return -1;
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

/* SIGSEGV by a real fault: a write to a page that allows none. */
static void end_by_signal(int sig)
{
	if (sig == SIGSEGV) {
		volatile char *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
					   -1, 0);

		if (page != MAP_FAILED)
			*page = 1;
	}
	raise(sig);
}

int main(int argc, char **argv)
{
	struct ustrace_record_attr attr = {
		.size = sizeof(attr),
		.events = "sample_trace,rec_test,te_plugin",
	};
	const char *text = NULL, *plugin = NULL, *end = NULL;
	int c, sig = 0, markers = 0, dump = 0, usr2 = 0, ret = 0, fds = 0, victims = -1;
	int wait_how = 0, sandbox = 0, no_tmpfile = 0;
	int from_main = getenv("USTRACE_EVENTS") != NULL;

	while ((c = getopt(argc, argv, "o:e:m:C:V:b:w:n:P:sMp:dut:k:H:xFc:WOASX:ZYU")) != -1) {
		switch (c) {
		case 'o': attr.output = optarg; break;
		case 'e': attr.events = optarg; break;
		case 'm': attr.mode = parse_mode(optarg); break;
		case 'C': attr.clock = optarg; break;
		case 'V': attr.file_version = atoi(optarg); break;
		case 'b': attr.buffer_kb = strtoul(optarg, NULL, 0); break;
		case 'w': nr_workers = atoi(optarg); break;
		case 'n': nr_seq = strtoul(optarg, NULL, 0); break;
		case 'P': pace_us = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 's': sample_rounds = 11; break;
		case 'M': markers = 1; break;
		case 'p': plugin = optarg; break;
		case 'd': dump = 1; break;
		case 'u': usr2 = 1; break;
		case 't': text = optarg; break;
		case 'k': sig = atoi(optarg); break;
		case 'H': signal(atoi(optarg), own_handler); break;
		case 'x': from_main = 1; break;
		case 'F': fds = 1; break;
		case 'c': victims = atoi(optarg); break;
		case 'W': case 'O': case 'A': case 'S': wait_how = c; break;
		case 'X': end = optarg; break;
		case 'Z': case 'Y': sandbox = c; break;
		case 'U': no_tmpfile = 1; break;
		default: return 2;
		}
	}
	if (sandbox && refuse_unshare(sandbox == 'Y'))
		return 1;
	if (no_tmpfile && refuse_tmpfile())
		return 1;
	if (attr.output && (ret = ustrace_record_start(&attr))) {
		fprintf(stderr, "rec-app: ustrace_record_start: %s\n", strerror(-ret));
		return 1;
	}
	if (fds)
		print_fds();
	if (markers)
		write_markers();
	if (run_workers() || (plugin && fire_plugin(plugin)))
		return 1;
	if (victims >= 0 && (close_and_reopen(victims) || run_workers()))
		return 1;
	if (wait_how)
		wait_for_end(wait_how);
	if (end && (end_by(end) || run_workers()))
		return 1;
	if (dump || usr2) {
		if (dump && (ret = ustrace_record_dump(NULL)))
			fprintf(stderr, "rec-app: ustrace_record_dump: %s\n", strerror(-ret));
		if (usr2)
			raise(SIGUSR2);
		/* The dump signal's file is written by the library's thread. */
		usleep(200 * 1000);
		if (run_workers())
			return 1;
	}
	if (text && write_text(text))
		return 1;
	if (sig)
		end_by_signal(sig);
	if (!from_main && (ret = ustrace_record_stop()))
		fprintf(stderr, "rec-app: ustrace_record_stop: %s\n", strerror(-ret));
	return ret ? 1 : 0;
}
