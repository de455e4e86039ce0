// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace daemon - the collector: one tracefs, $USTRACE_RUNDIR/tracing,
 * for every traced program of this user (ustrace_collector_run(3),
 * ustrace-daemon(1), Documentation/trace/system-mode.rst).
 *
 * In the foreground by default (systemd's Type=notify-less simple units
 * and shells alike); --daemonize detaches once the tree is mounted, so
 * that `ustrace daemon --daemonize && ./app` finds it.  SIGINT, SIGTERM
 * and SIGHUP stop it: the tree is unmounted and the socket removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <ustrace/collector.h>

#include "ustrace.h"

static int ready_fd = -1;
static const char *run_dir;
static char **learn;
static int nr_learn;

struct learn_ctx {
	const char	*rundir;
	int		nr;
};

static int learn_one(const char *system, const char *text, void *arg)
{
	struct learn_ctx *c = arg;
	int err = ustrace_collector_learn(c->rundir, system, text);

	c->nr += !err;
	return err;
}

int learn_object(const char *rundir, const char *path)
{
	struct learn_ctx c = { .rundir = rundir };
	int err = object_formats(path, learn_one, &c);

	return err ? err : c.nr;
}

static void daemon_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace daemon [--rundir DIR] [-o OPTIONS] [--group GROUP]\n"
		"                      [--learn OBJECT]... [--daemonize]\n"
		"Be the collector: serve one tracefs at RUNDIR/tracing for every\n"
		"traced program of this user, which programs join when they start.\n"
		"  --rundir DIR   the run directory (default $USTRACE_RUNDIR, else\n"
		"                 /run/ustrace as root, $XDG_RUNTIME_DIR/ustrace)\n"
		"  -o OPTIONS     the tracefs mount's options: gid=N, allow_other\n"
		"  --group GROUP  take the programs of this group's members too\n"
		"  --learn OBJECT list the events the ELF OBJECT defines before it runs\n"
		"  --daemonize    go to the background once the tree is mounted\n");
}

static void on_stop(int sig)
{
	(void)sig;
	ustrace_collector_stop();
}

static void on_ready(void)
{
	char dir[4096];

	if (!run_dir && !ustrace_collector_rundir(dir, sizeof(dir)))
		run_dir = strdup(dir);
	fprintf(stderr, "ustrace daemon: serving %s/tracing\n", run_dir ? run_dir : "?");
	/* In our own tree at once (ustrace_collector_learn(3) in the collector). */
	for (int i = 0; i < nr_learn; i++) {
		int n = learn_object(run_dir, learn[i]);

		if (n < 0)
			ustrace_err("daemon: --learn %s: %s", learn[i],
				    n == -ENOEXEC ? "not a 64-bit ELF object" : strerror(-n));
		else
			fprintf(stderr, "ustrace daemon: %s: %d event%s\n", learn[i], n,
				n == 1 ? "" : "s");
	}
	if (ready_fd >= 0) {
		if (write(ready_fd, "", 1) < 0)
			ready_fd = -1;
		close(ready_fd);
		ready_fd = -1;
	}
}

/*
 * --group NAME or GID: the collector's option group=GID, added to the
 * mount's options.  Return: the options, or NULL (said why).
 */
static char *group_option(const char *options, const char *group)
{
	struct group *gr = getgrnam(group);
	unsigned long gid;
	char *end, *s;

	if (gr) {
		gid = gr->gr_gid;
	} else {
		errno = 0;
		gid = strtoul(group, &end, 10);
		if (errno || end == group || *end || *group == '-' || gid >= (gid_t)-1) {
			ustrace_err("daemon: --group %s: no such group", group);
			return NULL;
		}
	}
	if (asprintf(&s, "%s%sgroup=%lu", options ? options : "", options ? "," : "", gid) < 0)
		return NULL;
	return s;
}

/* Fork; the parent waits for the child's word that the tree is mounted. */
static int daemonize(void)
{
	int p[2], null;
	char c;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid) {
		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 ? 0 : 1);
	}
	close(p[0]);
	ready_fd = p[1];
	if (setsid() < 0)
		return -errno;
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	return 0;
}

int cmd_daemon(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rundir",	required_argument, NULL, 'r' },
		{ "daemonize",	no_argument,	   NULL, 'd' },
		{ "learn",	required_argument, NULL, 'l' },
		{ "group",	required_argument, NULL, 'g' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sigaction sa = { .sa_handler = on_stop };
	const char *options = NULL, *group = NULL;
	char *all_options = NULL;
	bool detach = false;
	int c, err;

	while ((c = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			run_dir = optarg;
			break;
		case 'o':
			options = optarg;
			break;
		case 'd':
			detach = true;
			break;
		case 'g':
			group = optarg;
			break;
		case 'l': {
			char **v = realloc(learn, (size_t)(nr_learn + 1) * sizeof(*v));

			if (!v)
				return 1;
			learn = v;
			learn[nr_learn++] = optarg;
			break;
		}
		case 'h':
			daemon_usage(stdout);
			return 0;
		default:
			daemon_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		daemon_usage(stderr);
		return 2;
	}
	if (group) {
		all_options = group_option(options, group);
		if (!all_options)
			return 2;
		options = all_options;
	}
	if (detach && (err = daemonize())) {
		ustrace_err("daemon: %s", strerror(-err));
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	err = ustrace_collector_run(run_dir, options, on_ready);
	free(all_options);
	if (err) {
		ustrace_err("daemon: %s: %s", run_dir ? run_dir : "the run directory",
			    err == -EBUSY ? "another collector serves it" : strerror(-err));
		return 1;
	}
	return 0;
}
