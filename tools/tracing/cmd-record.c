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
#include <sys/wait.h>

#include <linux/trace_clock.h>
#include <ustrace/kernel.h>

#include "ustrace.h"

static void record_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace record [-e SYSTEM[:EVENT]]... [-K SYSTEM[:EVENT]]... [-o FILE]\n"
		"                      [-b KB] [-C CLOCK] [-m MODE] [-v 6|7] [--] PROGRAM [ARGS...]\n"
		"Run PROGRAM (linked with libustrace), record its events into a\n"
		"trace-cmd data file, then say what each CPU recorded and lost.\n"
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
		"  -h, --help                  this help\n");
}

struct record_opts {
	char		*events;
	const char	**kevents;
	int		nr_kevents;
	char		*prog_output;	/* with -K: the program's own file */
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
	if (o->kevents && strchr(o->output, '%')) {
		ustrace_err("record: -o %s: no %% patterns with -K (one program, one file)",
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
	setenv("USTRACE_OUTPUT", o->prog_output ? o->prog_output : o->output, 1);
	if (o->prog_output) {
		/* What the merge reads: version 7, and the clock's scale. */
		setenv("USTRACE_FILE_VERSION", "7", 1);
		setenv("USTRACE_CLOCK_SCALE", "1", 1);
	}
	if (o->buffer_kb)
		setenv("USTRACE_BUFFER_KB", o->buffer_kb, 1);
	if (o->clock)
		setenv("USTRACE_CLOCK", o->clock, 1);
	if (o->mode)
		setenv("USTRACE_MODE", o->mode, 1);
	if (o->version && !o->prog_output)
		setenv("USTRACE_FILE_VERSION", o->version, 1);
}

static volatile pid_t child_pid;

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

/*
 * Run the program and wait for it.  While it runs, the terminal's ^C and
 * ^\ are its business (they reach the whole foreground group): it writes
 * its file and ends by them; we report after.
 * Return: its wait status, or -1.
 */
static int run(const struct record_opts *o, char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	struct sigaction fwd = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO };
	int status;
	pid_t pid;

	fflush(NULL);
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
	child_pid = pid;
	sigaction(SIGINT, o->kevents ? &fwd : &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	child_pid = 0;
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

/* -K: the kernel's events around the program's run, merged into one file. */
static int record_with_kernel(struct record_opts *o, char **argv)
{
	struct ustrace_kernel_attr attr = { .size = sizeof(attr), .events = o->kevents };
	const char *inputs[2] = { NULL, NULL };
	struct sigaction fwd = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO };
	struct sigaction old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct ustrace_kernel *k;
	int status, ret = 1, err;
	size_t len = strlen(o->output) + 32;

	if (kernel_clock(o->clock, &attr.clock))
		return 2;
	/* Alone, no program clock to map onto: nanoseconds, CLOCK_MONOTONIC. */
	if (o->kernel_only && !attr.clock)
		attr.clock = "mono";
	attr.buffer_kb = o->kernel_kb ? strtoul(o->kernel_kb, NULL, 10) : 0;
	/* From here to the end, these signals do not leave the instance behind. */
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &fwd, &old[i]);
	o->prog_output = malloc(len);
	if (!o->prog_output)
		return 1;
	snprintf(o->prog_output, len, "%s.program-%d", o->output, (int)getpid());
	unlink(o->prog_output);
	k = ustrace_kernel_start(&attr);
	if (!k) {
		ustrace_err("record: -K: %s", ustrace_kernel_errmsg());
		goto out;
	}
	status = run(o, argv);
	err = ustrace_kernel_stop(k);
	if (err)
		ustrace_err("record: -K: %s", ustrace_kernel_errmsg());
	if (status != -1)
		say_status(argv[0], status);
	inputs[0] = access(o->prog_output, F_OK) ? NULL : o->prog_output;
	if (!inputs[0] && !o->kernel_only)
		ustrace_err("record: the program wrote no file (is it linked with "
			    "libustrace, and did it end other than by SIGKILL?): the kernel's "
			    "events alone");
	if (ustrace_kernel_write(k, inputs, o->output, o->version ? atoi(o->version) : 7))
		ustrace_err("record: %s", ustrace_kernel_errmsg());
	else
		ret = summarize(o->output) || (!inputs[0] && !o->kernel_only) || err;
out:
	ustrace_kernel_free(k);
	unlink(o->prog_output);
	free(o->prog_output);
	o->prog_output = NULL;
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct record_opts o = { .output = "trace.dat" };
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
	status = run(&o, argv + optind);
	ret = 1;
	if (status == -1)
		goto out;
	say_status(argv[optind], status);
	ret = summarize(o.output);
out:
	free(o.events);
	free(o.kevents);
	return ret;
}
