// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace trace-cmd [-m DIR] [--] ARGS...: the stock trace-cmd on a
 * ustrace tracefs mount.
 *
 * Runs "trace-cmd ARGS..." with ustrace-trace-cmd.so preloaded and the
 * mount in USTRACE_TRACEFS_MOUNT (tools/tracing/shim/trace-cmd-shim.c
 * says what the shim changes and why).  The mount is -m DIR, or
 * $USTRACE_TRACEFS (where an instrumented program serves its tracefs),
 * or the collector's (system mode: RUNDIR/tracing, ustrace-daemon(1)),
 * which is first told of the events of every program named by a path in
 * ARGS (read from its ELF object), so that `trace-cmd record -e SYSTEM
 * ./app` finds SYSTEM before ./app runs.
 * The shim is $USTRACE_TRACE_CMD_SHIM, or ustrace-trace-cmd.so next to
 * this program (an uninstalled build), or the installed one: in
 * $libdir/ustrace, found from this program's directory as make install
 * laid them out (../lib/ustrace by default), so that a staged (DESTDIR)
 * or moved installation works, and then at $libdir/ustrace itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ustrace/collector.h>

#include "ustrace.h"

#define SHIM_NAME	"ustrace-trace-cmd.so"

/*
 * Where make install puts the shim, linked into the installed program
 * only (install-bin/ustrace-paths.c): $libdir/ustrace relative to
 * $bindir, and as it is.  The build tree's program has neither.
 */
extern const char ustrace_install_shim_rel[] __attribute__((__weak__));
extern const char ustrace_install_pkglibdir[] __attribute__((__weak__));

#define SHIM_REL_DEFAULT	"../lib/ustrace"

static void trace_cmd_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace trace-cmd [-m DIR] [--] TRACE-CMD-ARGS...\n"
		"\n"
		"Runs the stock trace-cmd on the ustrace tracefs mounted at DIR\n"
		"(default: $USTRACE_TRACEFS, else the collector's, ustrace daemon).\n"
		"\n"
		"  -m, --mount DIR  the ustrace tracefs mount\n"
		"  -h, --help       show this help\n");
}

static int readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* @dir/@sub/SHIM_NAME (@sub may be NULL) into @out, if it is readable. */
static int shim_at(char *out, size_t size, const char *dir, const char *sub)
{
	return (size_t)snprintf(out, size, "%s%s%s/%s", dir, sub ? "/" : "", sub ? sub : "",
				SHIM_NAME) < size && readable(out) ? 0 : -ENOENT;
}

/*
 * The shim: the override, next to us (the build tree), where make install
 * put it relative to us, or at the installed path.  Return: 0 or -ENOENT.
 */
static int find_shim(char *out, size_t size)
{
	const char *env = secure_getenv("USTRACE_TRACE_CMD_SHIM");
	const char *rel = ustrace_install_shim_rel && *ustrace_install_shim_rel ?
			  ustrace_install_shim_rel : SHIM_REL_DEFAULT;
	char self[PATH_MAX];
	ssize_t len;
	char *slash;

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return readable(out) ? 0 : -ENOENT;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len > 0) {
		self[len] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if (!shim_at(out, size, self, NULL) || !shim_at(out, size, self, rel))
				return 0;
		}
	}
	if (ustrace_install_pkglibdir && *ustrace_install_pkglibdir)
		return shim_at(out, size, ustrace_install_pkglibdir, NULL);
	return -ENOENT;
}

/* Is @dir a ustrace (or any) tracefs: does it have events/header_page? */
static int is_tracefs(const char *dir)
{
	char path[PATH_MAX];

	return (size_t)snprintf(path, sizeof(path), "%s/events/header_page", dir) <
	       sizeof(path) && readable(path);
}

int cmd_trace_cmd(int argc, char **argv)
{
	const char *mount = secure_getenv("USTRACE_TRACEFS"), *old;
	char shim[PATH_MAX], real[PATH_MAX], rundir[PATH_MAX], coll[PATH_MAX + 16], *preload;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			trace_cmd_usage(stdout);
			return 0;
		}
		if ((!strcmp(argv[i], "-m") || !strcmp(argv[i], "--mount")) && i + 1 < argc) {
			mount = argv[++i];
			continue;
		}
		/* The first option that is not ours is trace-cmd's. */
		break;
	}
	if (i >= argc) {
		trace_cmd_usage(stderr);
		return 2;
	}
	if ((!mount || !*mount) && !ustrace_collector_rundir(rundir, sizeof(rundir))) {
		/* System mode: the collector's tree, if one serves it. */
		snprintf(coll, sizeof(coll), "%s/tracing", rundir);
		if (is_tracefs(coll)) {
			mount = coll;
			/*
			 * trace-cmd refuses -e of a system it cannot find: the
			 * collector learns the events of the programs named by a
			 * path on the command line (trace-cmd record ./app).
			 */
			for (int j = i; j < argc; j++)
				if (strchr(argv[j], '/') && !access(argv[j], X_OK))
					learn_object(rundir, argv[j]);
		}
	}
	if (!mount || !*mount) {
		ustrace_err("trace-cmd: no tracefs: give -m DIR, set USTRACE_TRACEFS, or run "
			    "ustrace daemon");
		return 2;
	}
	if (!realpath(mount, real) || !is_tracefs(real)) {
		ustrace_err("trace-cmd: %s is not a tracefs mount (no events/header_page)",
			    mount);
		return 1;
	}
	if (find_shim(shim, sizeof(shim))) {
		ustrace_err("trace-cmd: %s not found (install ustrace, or set "
			    "USTRACE_TRACE_CMD_SHIM)", SHIM_NAME);
		return 1;
	}
	old = getenv("LD_PRELOAD");
	if (asprintf(&preload, "%s%s%s", shim, old && *old ? ":" : "", old ? old : "") < 0)
		return 1;
	if (setenv("LD_PRELOAD", preload, 1) || setenv("USTRACE_TRACEFS_MOUNT", real, 1)) {
		ustrace_err("trace-cmd: %s", strerror(errno));
		return 1;
	}
	argv[i - 1] = "trace-cmd";
	execvp("trace-cmd", &argv[i - 1]);
	ustrace_err("trace-cmd: cannot run trace-cmd: %s (Debian: apt-get install trace-cmd)",
		    strerror(errno));
	return 127;
}
