// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tp_bench: what a tracepoint site costs its caller.
 *
 * A tight loop calls a noinline function whose whole body is one
 * trace_bench_tp() site, and, as the baseline, an empty noinline function;
 * the difference is the site.  The two loops run in turns, so that both
 * see the same machine.  Three forms of the same site:
 *
 *   jump label, patched    the site is a 5-byte NOP (or a JMP when on)
 *   jump label, fallback   the compiled JMP to the stub that tests the
 *                          state byte (this program run again with
 *                          USTRACE_JUMP_LABEL=0)
 *   load and branch        tp_bench_nojl.c, compiled with
 *                          -D__USTRACE_NO_ASM_GOTO: the CONFIG_JUMP_LABEL=n
 *                          form, linked into the same program
 *
 * each disabled, with one empty probe and with three.  Every figure is the
 * best of five runs.  Timings are printed, never asserted.
 *
 * Usage:
 *   tp_bench                 the table
 *   tp_bench --rows          the jump label rows of this process's mode only
 *   tp_bench --callgrind N   run each disabled loop once with N calls, for
 *                            selftests/bench/callgrind.sh
 *
 * USTRACE_BENCH_SCALE (default 1) scales the number of calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tp_bench.h"

DEFINE_TRACE(bench);

BENCH_SITE_FUNCS(jl)

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define SANITIZED_BUILD	1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#  define SANITIZED_BUILD	1
# endif
#endif
#ifndef SANITIZED_BUILD
# define SANITIZED_BUILD	0
#endif

#define REPS		5
#define N_DISABLED	100000000L
#define N_ENABLED	10000000L

BENCH_NOINLINE void bench_empty(int x);
BENCH_NOINLINE void loop_empty(long n);

BENCH_NOINLINE void bench_empty(int x)
{
	__asm__ __volatile__("" : : "r" (x));
}

BENCH_NOINLINE void loop_empty(long n)
{
	long i;

	for (i = 0; i < n; i++)
		bench_empty((int)i);
}

static int probe_data[3];

static void probe_empty(void *data, int x)
{
	(void)data;
	(void)x;
}

static double scale(void)
{
	const char *env = getenv("USTRACE_BENCH_SCALE");
	double s = env ? atof(env) : 1;

	return s > 0 ? s : 1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static long calls(long n)
{
	n = (long)(n * scale());
	return n < 1000 ? 1000 : n;
}

static double run_once(void (*loop)(long), long n)
{
	double t0 = now_ns();

	loop(n);
	return (now_ns() - t0) / n;
}

/*
 * Best of REPS runs of @loop, in ns per call, and in *@base the best of as
 * many runs of the empty loop, interleaved with them so that both see the
 * same machine.
 */
static double ns_per_call(void (*loop)(long), long n, double *base)
{
	double best = 0, best_base = 0;
	int r;

	n = calls(n);
	for (r = 0; r < REPS; r++) {
		double t = run_once(loop, n), b = run_once(loop_empty, n);

		if (r == 0 || t < best)
			best = t;
		if (r == 0 || b < best_base)
			best_base = b;
	}
	*base = best_base;
	return best;
}

static void attach(int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (register_trace_bench(probe_empty, &probe_data[i])) {
			fprintf(stderr, "tp_bench: cannot register a probe\n");
			exit(1);
		}
}

static void detach(int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		unregister_trace_bench(probe_empty, &probe_data[i]);
	tracepoint_synchronize_unregister();
}

static void row(const char *mode, const char *what, void (*loop)(long), long n)
{
	double base, ns = ns_per_call(loop, n, &base);

	printf("%-22s %-20s %9.3f %9.3f %9.3f %9.2fx\n", mode, what, ns, base,
	       ns - base, ns / base);
}

/* The three rows of one site form. */
static void site_rows(const char *mode, void (*loop)(long))
{
	row(mode, "disabled", loop, N_DISABLED);
	attach(1);
	row(mode, "enabled, 1 probe", loop, N_ENABLED);
	detach(1);
	attach(3);
	row(mode, "enabled, 3 probes", loop, N_ENABLED);
	detach(3);
}

static const char *jl_mode(void)
{
#ifdef __USTRACE_HAVE_JUMP_LABEL
	return jump_label_text_patching() ? "jump label, patched" :
					    "jump label, fallback";
#else
	return "load+branch (JL=n)";
#endif
}

#ifdef __USTRACE_HAVE_JUMP_LABEL
/* This program again, with USTRACE_JUMP_LABEL=0: the fallback rows. */
static void fallback_rows(void)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("tp_bench: fork");
		return;
	}
	if (pid == 0) {
		setenv("USTRACE_JUMP_LABEL", "0", 1);
		execl("/proc/self/exe", "tp_bench", "--rows", (char *)NULL);
		perror("tp_bench: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fprintf(stderr, "tp_bench: the fallback run failed\n");
}
#endif

static int table(void)
{
	printf("# ns per call of a noinline function holding one site, and of "
	       "an empty one (baseline); best of %d, scale %.2f\n", REPS,
	       scale());
	if (SANITIZED_BUILD)
		printf("# sanitizer build: these figures say little about "
		       "a production build\n");
	printf("%-22s %-20s %9s %9s %9s %10s\n", "site form", "case",
	       "ns/call", "baseline", "site ns", "x baseline");
	site_rows(jl_mode(), loop_site_jl);
#ifdef __USTRACE_HAVE_JUMP_LABEL
	if (jump_label_text_patching())
		fallback_rows();
	/* Without jump labels the rows above were load+branch already. */
	site_rows("load+branch (JL=n)", loop_site_nojl);
#endif
	return 0;
}

static int rows_only(void)
{
	site_rows(jl_mode(), loop_site_jl);
	return 0;
}

static int callgrind_run(long n)
{
	printf("mode: %s\n", jl_mode());
	printf("text patching: %s\n", jump_label_text_patching() ? "on" : "off");
	printf("calls: %ld\n", n);
	loop_empty(n);
	loop_site_jl(n);
	loop_site_nojl(n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--callgrind"))
		return callgrind_run(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "--rows"))
		return rows_only();
	if (argc != 1) {
		fprintf(stderr, "usage: tp_bench [--rows | --callgrind N]\n");
		return 2;
	}
	return table();
}
