// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace record - run a program and leave a trace.dat of its events.
 *
 * The program records itself: libustrace, which it is linked with, reads
 * the USTRACE_* variables set here (ustrace_record_start(3)) before main() and
 * writes the file when the program ends: by exit(), _exit() or exec, or
 * by a signal that ends it (all but SIGKILL).
 * This command runs it, waits for it, and reads the file back to say what
 * each CPU recorded and lost.
 *
 * Every process of the command's tree records: each one that runs a
 * program linked with libustrace (children, grandchildren, programs
 * exec'd) writes a part of its own into a private directory made here
 * (mkdtemp(), 0700, in the output's directory: the parts' spills are on
 * the output's file system, and the last rename is there too), named by
 * its pid (USTRACE_PARTS).  We are the tree's subreaper
 * (PR_SET_CHILD_SUBREAPER), so that orphans come back to us: the wait is
 * for the whole tree, and for --tree-wait seconds at most once the
 * command itself ended (a daemon it started would be waited for forever).
 * One part becomes the output as it is (a rename); several are merged
 * like the kernel's pages with a program's file (ustrace_kernel_write(3),
 * with no kernel): each CPU's events in time order, each process's stamps
 * through its clock's scale, each program's event ids moved where they
 * would collide.
 *
 * With -K, the kernel's events are recorded too (ustrace_kernel_start(3)):
 * from before the program starts to after it ended, in an instance of the
 * kernel's tracefs that is removed at the end, whatever the end (the
 * program's exit or death, our SIGINT, SIGTERM or SIGHUP, an error).  The
 * program writes its file under a name of ours, with its clock's scale
 * (USTRACE_CLOCK_SCALE), and the two become the output
 * (ustrace_kernel_write(3)).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/trace_clock.h>
#include <ustrace/kernel.h>

#include "ustrace.h"

static void record_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace record [-e SYSTEM[:EVENT]]... [-K SYSTEM[:EVENT]]... [-o FILE]\n"
		"                      [-b KB] [-C CLOCK] [-m MODE] [-v 6|7] [--tree-wait SEC]\n"
		"                      [--] PROGRAM [ARGS...]\n"
		"Run PROGRAM (linked with libustrace), record its events, and those of\n"
		"every process it starts, into one trace-cmd data file, then say what\n"
		"each CPU recorded and lost.\n"
		"  -e, --event SYSTEM[:EVENT]  events to record (globs; repeatable;\n"
		"                              default: all)\n"
		"  -K, --kernel-event SYSTEM[:EVENT]  the kernel's events to record with\n"
		"                              them, into the same file (repeatable)\n"
		"      --kernel-buffer-size KB each CPU's kernel buffer (default: 4096)\n"
		"      --kernel-only           with -K: the kernel's events alone; PROGRAM\n"
		"                              runs with its environment untouched\n"
		"  -o, --output FILE           the file (default: trace.dat)\n"
		"  -b, --buffer-size KB        each CPU's buffer (default: 1408)\n"
		"  -C, --clock CLOCK           local (default), global, counter, mono,\n"
		"                              mono_raw, boot, x86-tsc\n"
		"  -m, --mode MODE             producer-consumer (default: written to\n"
		"                              disk as it fills) or overwrite (the last\n"
		"                              KB of each CPU)\n"
		"  -v, --file-version 6|7      trace.dat version (default: 7)\n"
		"      --tree-wait SEC         once PROGRAM ended, wait SEC seconds at most\n"
		"                              for the processes it started (default: 10)\n"
		"  -h, --help                  this help\n");
}

struct record_opts {
	char		*events;
	const char	**kevents;
	int		nr_kevents;
	char		*parts;		/* the private directory of the parts */
	long		tree_wait;	/* seconds */
	const char	*kernel_kb;
	bool		kernel_only;
	const char	*output;
	const char	*buffer_kb;
	const char	*clock;
	const char	*mode;
	const char	*version;
};

/* -e values joined with commas, as USTRACE_EVENTS takes them. */
static int add_kevent(struct record_opts *o, const char *spec)
{
	const char **ev = realloc(o->kevents, sizeof(*ev) * (size_t)(o->nr_kevents + 2));

	if (!ev)
		return -ENOMEM;
	ev[o->nr_kevents++] = spec;
	ev[o->nr_kevents] = NULL;
	o->kevents = ev;
	return 0;
}

static int add_event(struct record_opts *o, const char *spec)
{
	size_t len = o->events ? strlen(o->events) + 1 : 0;
	char *events = realloc(o->events, len + strlen(spec) + 1);

	if (!events)
		return -ENOMEM;
	if (len)
		events[len - 1] = ',';
	strcpy(events + len, spec);
	o->events = events;
	return 0;
}

static bool valid_kb(const char *s)
{
	char *end;
	unsigned long kb;

	errno = 0;
	kb = strtoul(s, &end, 10);
	return !errno && end != s && !*end && s[0] != '-' && kb && kb <= (1ul << 30);
}

static int check_opts(const struct record_opts *o)
{
	if (o->buffer_kb && !valid_kb(o->buffer_kb)) {
		ustrace_err("record: -b %s: a size in KiB, 1 or more", o->buffer_kb);
		return -1;
	}
	if (o->clock && !trace_clock_find(o->clock)) {
		ustrace_err("record: -C %s: no such clock", o->clock);
		return -1;
	}
	if (o->mode && strcmp(o->mode, "producer-consumer") && strcmp(o->mode, "overwrite")) {
		ustrace_err("record: -m %s: producer-consumer or overwrite", o->mode);
		return -1;
	}
	if (o->kernel_kb && !valid_kb(o->kernel_kb)) {
		ustrace_err("record: --kernel-buffer-size %s: a size in KiB, 1 or more",
			    o->kernel_kb);
		return -1;
	}
	if (strchr(o->output, '%')) {
		ustrace_err("record: -o %s: no %% patterns (every process goes into one file)",
			    o->output);
		return -1;
	}
	if ((o->kernel_kb || o->kernel_only) && !o->kevents) {
		ustrace_err("record: --kernel-buffer-size and --kernel-only go with -K");
		return -1;
	}
	if (o->version && strcmp(o->version, "6") && strcmp(o->version, "7")) {
		ustrace_err("record: -v %s: 6 or 7", o->version);
		return -1;
	}
	if (o->tree_wait < 0) {
		ustrace_err("record: --tree-wait: seconds, 0 or more");
		return -1;
	}
	return 0;
}

/* The variables the library reads; those without an option are unset. */
static void set_env(const struct record_opts *o)
{
	static const char *const ours[] = {
		"USTRACE_BUFFER_KB", "USTRACE_CLOCK", "USTRACE_MODE",
		"USTRACE_FILE_VERSION", "USTRACE_FLIGHT_RECORDER",
	};

	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		unsetenv(ours[i]);
	setenv("USTRACE_EVENTS", o->events ? o->events : "all", 1);
	/* The parts' names; the output's for numbered files (the dump signal). */
	setenv("USTRACE_OUTPUT", o->output, 1);
	setenv("USTRACE_PARTS", o->parts, 1);
	/* What the merge reads: version 7; with -K the clock's scale inside. */
	setenv("USTRACE_FILE_VERSION", "7", 1);
	if (o->kevents)
		setenv("USTRACE_CLOCK_SCALE", "1", 1);
	else
		unsetenv("USTRACE_CLOCK_SCALE");
	if (o->buffer_kb)
		setenv("USTRACE_BUFFER_KB", o->buffer_kb, 1);
	if (o->clock)
		setenv("USTRACE_CLOCK", o->clock, 1);
	if (o->mode)
		setenv("USTRACE_MODE", o->mode, 1);
}

static volatile pid_t child_pid;
static pid_t first_pid;		/* the program's: its parts come first */

/*
 * SIGTERM, SIGHUP, or a SIGINT sent to us alone (kill, not the terminal,
 * which sends it to the program too): the program is told, ends and
 * writes its file, and we go on to the end, where the kernel's instance
 * is removed.
 */
static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (child_pid > 0 && (sig != SIGINT || si->si_code <= 0))
		kill(child_pid, sig);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The rest of the tree, once the program ended: its orphans are ours
 * (the subreaper), and none is left when waitpid() says ECHILD.  At most
 * --tree-wait seconds.
 */
static void wait_tree(const struct record_opts *o)
{
	long end = now_ms() + o->tree_wait * 1000;
	int status;

	for (;;) {
		pid_t p = waitpid(-1, &status, WNOHANG);

		if (p > 0)
			continue;
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			return;
		if (now_ms() >= end) {
			fprintf(stderr, "ustrace record: processes the program started still "
				"run after %ld s (--tree-wait): what they record is not in %s\n",
				o->tree_wait, o->output);
			return;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
}

/*
 * Run the program and wait for it, and for the processes it started.
 * While it runs, the terminal's ^C and ^\ are its business (they reach
 * the whole foreground group): it writes its file and ends by them; we
 * report after.
 * Return: its wait status, or -1.
 */
static int run(const struct record_opts *o, char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	struct sigaction fwd = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO };
	int status = -1, st;
	pid_t pid, p;

	fflush(NULL);
	/* Orphans of the tree come back to us, so that we wait for them. */
	if (!o->kernel_only)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid = fork();
	if (pid < 0) {
		ustrace_err("record: fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		if (!o->kernel_only)
			set_env(o);
		execvp(argv[0], argv);
		ustrace_err("record: %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	child_pid = first_pid = pid;
	sigaction(SIGINT, o->kevents ? &fwd : &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	/* Every child (the program, orphans given to us) until the program ends. */
	for (;;) {
		p = waitpid(-1, &st, 0);
		if (p == pid) {
			status = st;
			break;
		}
		if (p < 0 && errno != EINTR)
			break;
	}
	child_pid = 0;
	if (!o->kernel_only)
		wait_tree(o);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return status;
}

static void say_status(const char *prog, int status)
{
	if (WIFEXITED(status))
		fprintf(stderr, "ustrace record: %s exited with status %d\n", prog,
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "ustrace record: %s was killed by SIG%s\n", prog,
			sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
}

/* What the file says, per CPU: recorded, lost, bytes. */
static int summarize(const char *path)
{
	struct dat_summary d;
	int err = dat_read_summary(path, &d);

	if (err == -ENOENT) {
		ustrace_err("record: %s was not written: is the program linked with "
			    "libustrace, and did it end other than by SIGKILL?", path);
		return 1;
	}
	if (err) {
		ustrace_err("record: %s: %s", path, err == -ENOEXEC ?
			    "not a trace-cmd data file" : strerror(-err));
		return 1;
	}
	fprintf(stderr, "ustrace record: %s: version %d, clock %s, %d CPUs\n", path,
		d.version, d.clock[0] ? d.clock : "?", d.nr_cpus);
	for (int cpu = 0; cpu < d.nr_cpus; cpu++) {
		const struct dat_cpu *c = &d.cpus[cpu];
		unsigned long long over = dat_stat(c, "overrun");
		unsigned long long dropped = dat_stat(c, "dropped events") +
					     dat_stat(c, "commit overrun");

		fprintf(stderr, "  CPU%d: %llu events, %llu lost (%llu overwritten, "
			"%llu dropped), %llu bytes\n", cpu, dat_stat(c, "read events"),
			over + dropped, over, dropped, (unsigned long long)c->size);
		if (!c->stats || !strstr(c->stats, "\nkernel entries:"))
			continue;
		over = dat_stat(c, "kernel overrun");
		dropped = dat_stat(c, "kernel dropped events") + dat_stat(c, "kernel commit overrun");
		fprintf(stderr, "        kernel: %llu events, %llu lost (%llu overwritten, "
			"%llu dropped)\n", dat_stat(c, "kernel read events"), over + dropped,
			over, dropped);
	}
	dat_free_summary(&d);
	return 0;
}

/* ------------------------------------------------------------------
 * The parts
 */

struct part {
	char			*path;
	pid_t			pid;
	unsigned int		image;		/* 0, then one more per exec */
	unsigned long long	events, lost;
};

/*
 * The private directory of the parts, next to the output, by an absolute
 * name: the program may run elsewhere (sh -c 'cd DIR && ./app'), or
 * change its directory (daemon()) before it writes its part.
 */
static int make_parts_dir(struct record_opts *o)
{
	const char *slash = strrchr(o->output, '/');
	size_t dlen = slash ? (size_t)(slash - o->output) + 1 : 0, clen = 0;
	char cwd[PATH_MAX];

	if (o->output[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd))) {
			ustrace_err("record: the working directory: %s", strerror(errno));
			return -1;
		}
		clen = strlen(cwd) + 1;
	}
	o->parts = malloc(clen + dlen + 32);
	if (!o->parts)
		return -1;
	if (clen) {
		memcpy(o->parts, cwd, clen - 1);
		o->parts[clen - 1] = '/';
	}
	memcpy(o->parts + clen, o->output, dlen);
	strcpy(o->parts + clen + dlen, ".ustrace-record-XXXXXX");
	if (!mkdtemp(o->parts)) {
		ustrace_err("record: a directory for the parts next to %s: %s", o->output,
			    strerror(errno));
		free(o->parts);
		o->parts = NULL;
		return -1;
	}
	return 0;
}

/* Everything in it, then itself. */
static void remove_parts_dir(struct record_opts *o)
{
	DIR *d = o->parts ? opendir(o->parts) : NULL;
	struct dirent *de;

	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	if (o->parts)
		rmdir(o->parts);
	free(o->parts);
	o->parts = NULL;
}

static int part_cmp(const void *a, const void *b)
{
	const struct part *x = a, *y = b;

	if ((x->pid == first_pid) != (y->pid == first_pid))
		return x->pid == first_pid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->image < y->image ? -1 : x->image > y->image;
}

/* What each process counted, from its part. */
static void part_counts(struct part *p)
{
	struct dat_summary d;

	if (dat_read_summary(p->path, &d))
		return;
	for (int cpu = 0; cpu < d.nr_cpus; cpu++) {
		p->events += dat_stat(&d.cpus[cpu], "read events");
		p->lost += dat_stat(&d.cpus[cpu], "overrun") +
			   dat_stat(&d.cpus[cpu], "dropped events") +
			   dat_stat(&d.cpus[cpu], "commit overrun");
	}
	dat_free_summary(&d);
}

/*
 * The parts written, the program's first: PID.N.dat.  A process that
 * reserved a part (PID.N.dat.scale) and wrote none is named.
 */
static int collect_parts(const struct record_opts *o, struct part **parts)
{
	DIR *d = opendir(o->parts);
	struct dirent *de;
	struct part *v = NULL;
	int nr = 0;

	*parts = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned int pid, image;
		int end = 0;
		char dat[NAME_MAX + 1];
		struct stat st;

		if (sscanf(de->d_name, "%u.%u.dat.scale%n", &pid, &image, &end) != 2 ||
		    de->d_name[end])
			continue;
		snprintf(dat, sizeof(dat), "%u.%u.dat", pid, image);
		if (fstatat(dirfd(d), dat, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "ustrace record: pid %u wrote no file (it ended by "
				"SIGKILL, or still runs)\n", pid);
			continue;
		}
		struct part *n = realloc(v, sizeof(*v) * (size_t)(nr + 1));

		if (!n)
			break;
		v = n;
		v[nr] = (struct part){ .pid = (pid_t)pid, .image = image };
		if (asprintf(&v[nr].path, "%s/%s", o->parts, dat) < 0)
			break;
		part_counts(&v[nr]);
		nr++;
	}
	closedir(d);
	if (nr)
		qsort(v, (size_t)nr, sizeof(*v), part_cmp);
	*parts = v;
	return nr;
}

static void free_parts(struct part *parts, int nr)
{
	for (int i = 0; i < nr; i++)
		free(parts[i].path);
	free(parts);
}

/*
 * The output from the parts (and the kernel's pages, @k): one part alone
 * is renamed, as the program would have written it; several are merged.
 * Return: 0, 1 (nothing written), or -1 (the merge failed, said).
 */
static int write_output(const struct record_opts *o, struct ustrace_kernel *k,
			struct part *parts, int nr)
{
	const char **inputs;
	int version = o->version ? atoi(o->version) : 7, err;

	if (nr == 1 && !k && version == 7) {
		if (!rename(parts[0].path, o->output))
			return 0;
		ustrace_err("record: %s: %s", o->output, strerror(errno));
		return -1;
	}
	if (!nr && !k)
		return 1;
	inputs = calloc((size_t)nr + 1, sizeof(*inputs));
	if (!inputs)
		return -1;
	for (int i = 0; i < nr; i++)
		inputs[i] = parts[i].path;
	err = ustrace_kernel_write(k, inputs, o->output, version);
	if (err)
		ustrace_err("record: %s", ustrace_kernel_errmsg());
	free(inputs);
	return err ? -1 : 0;
}

/* Per process, when there were several. */
static void summarize_parts(const struct part *parts, int nr)
{
	if (nr < 2)
		return;
	fprintf(stderr, "  %d processes:\n", nr);
	for (int i = 0; i < nr; i++) {
		fprintf(stderr, "    pid %d", (int)parts[i].pid);
		if (parts[i].image)
			fprintf(stderr, " (exec %u)", parts[i].image);
		fprintf(stderr, ": %llu events, %llu lost\n", parts[i].events, parts[i].lost);
	}
}

/*
 * The kernel's clock for the program's: our local clock is the TSC scaled,
 * which the merge maps the kernel's x86-tsc onto (NULL: the library picks
 * x86-tsc, or mono where the TSC is not invariant and local is
 * CLOCK_MONOTONIC); mono, mono_raw, boot and x86-tsc are the same clock on
 * both sides.
 */
static int kernel_clock(const char *clock, const char **kclock)
{
	static const char *const same[] = { "x86-tsc", "mono", "mono_raw", "boot" };

	*kclock = NULL;
	if (!clock || !strcmp(clock, "local"))
		return 0;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (!strcmp(clock, same[i])) {
			*kclock = same[i];
			return 0;
		}
	ustrace_err("record: -C %s with -K: the kernel cannot read that clock; use local "
		    "(the default), x86-tsc, mono, mono_raw or boot", clock);
	return -1;
}

/* After the run: the parts into the output, the summary, the directory gone. */
static int finish(struct record_opts *o, struct ustrace_kernel *k)
{
	struct part *parts;
	int nr = o->parts ? collect_parts(o, &parts) : 0, ret;

	if (!nr && k && !o->kernel_only)
		ustrace_err("record: the program wrote no file (is it linked with "
			    "libustrace, and did it end other than by SIGKILL?): the kernel's "
			    "events alone");
	ret = write_output(o, k, nr ? parts : NULL, nr);
	if (ret >= 0) {
		ret = summarize(o->output) || (k && !nr && !o->kernel_only);
		summarize_parts(nr ? parts : NULL, nr);
	} else {
		ret = 1;
	}
	if (nr)
		free_parts(parts, nr);
	remove_parts_dir(o);
	return ret;
}

/* -K: the kernel's events around the program's run, merged into one file. */
static int record_with_kernel(struct record_opts *o, char **argv)
{
	struct ustrace_kernel_attr attr = { .size = sizeof(attr), .events = o->kevents };
	struct sigaction fwd = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO };
	struct sigaction old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct ustrace_kernel *k;
	int status, ret = 1, err;

	if (kernel_clock(o->clock, &attr.clock))
		return 2;
	/* Alone, no program clock to map onto: nanoseconds, CLOCK_MONOTONIC. */
	if (o->kernel_only && !attr.clock)
		attr.clock = "mono";
	attr.buffer_kb = o->kernel_kb ? strtoul(o->kernel_kb, NULL, 10) : 0;
	/* From here to the end, these signals do not leave the instance behind. */
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &fwd, &old[i]);
	if (!o->kernel_only && make_parts_dir(o))
		goto out_sig;
	k = ustrace_kernel_start(&attr);
	if (!k) {
		ustrace_err("record: -K: %s", ustrace_kernel_errmsg());
		remove_parts_dir(o);
		goto out_sig;
	}
	status = run(o, argv);
	err = ustrace_kernel_stop(k);
	if (err)
		ustrace_err("record: -K: %s", ustrace_kernel_errmsg());
	if (status != -1)
		say_status(argv[0], status);
	ret = finish(o, k) || err;
	ustrace_kernel_free(k);
out_sig:
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "kernel-event", required_argument, NULL, 'K' },
		{ "kernel-buffer-size", required_argument, NULL, 'k' },
		{ "kernel-only", no_argument, NULL, 'N' },
		{ "output", required_argument, NULL, 'o' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "clock", required_argument, NULL, 'C' },
		{ "mode", required_argument, NULL, 'm' },
		{ "file-version", required_argument, NULL, 'v' },
		{ "tree-wait", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct record_opts o = { .output = "trace.dat", .tree_wait = 10 };
	struct sigaction fwd = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO };
	static const int end_sigs[2] = { SIGTERM, SIGHUP };
	struct sigaction old_end[2];
	char *end;
	int c, status, ret = 2;

	while ((c = getopt_long(argc, argv, "+e:K:o:b:C:m:v:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (add_event(&o, optarg))
				goto out;
			break;
		case 'K':
			if (add_kevent(&o, optarg))
				goto out;
			break;
		case 'k': o.kernel_kb = optarg; break;
		case 'N': o.kernel_only = true; break;
		case 'o': o.output = optarg; break;
		case 'b': o.buffer_kb = optarg; break;
		case 'C': o.clock = optarg; break;
		case 'm': o.mode = optarg; break;
		case 'v': o.version = optarg; break;
		case 'W':
			errno = 0;
			o.tree_wait = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o.tree_wait > 86400 * 365)
				o.tree_wait = -1;
			break;
		case 'h':
			record_usage(stdout);
			ret = 0;
			goto out;
		default:
			record_usage(stderr);
			goto out;
		}
	}
	if (optind == argc) {
		record_usage(stderr);
		goto out;
	}
	if (check_opts(&o))
		goto out;
	/* A file left from an earlier run must not pass for this one's. */
	if (unlink(o.output) && errno != ENOENT) {
		ustrace_err("record: %s: %s", o.output, strerror(errno));
		ret = 1;
		goto out;
	}
	if (o.kevents) {
		ret = record_with_kernel(&o, argv + optind);
		goto out;
	}
	ret = 1;
	if (make_parts_dir(&o))
		goto out;
	/* Passed on, so that we live to merge the parts (and remove them). */
	for (int i = 0; i < 2; i++)
		sigaction(end_sigs[i], &fwd, &old_end[i]);
	status = run(&o, argv + optind);
	if (status != -1)
		say_status(argv[optind], status);
	ret = finish(&o, NULL);
	for (int i = 0; i < 2; i++)
		sigaction(end_sigs[i], &old_end[i], NULL);
out:
	free(o.events);
	free(o.kevents);
	return ret;
}
