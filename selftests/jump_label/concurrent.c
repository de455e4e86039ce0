// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * concurrent: rewriting a site while other threads run through it.
 *
 * Runner threads execute one tracepoint site in a tight loop while the main
 * thread attaches and detaches a probe thousands of times; with text
 * patching on, every toggle rewrites the site under the runners' feet
 * (int3, tail, head; kernel/arch/x86/jump_label.c).  Checked:
 *
 *   - every register/unregister succeeds;
 *   - the toggling thread sees each change at once (its own call fires the
 *     probe exactly when it is attached);
 *   - the other threads do see the enabled site (sampled toggles wait for
 *     every runner to hit the probe);
 *   - once unregister and tracepoint_synchronize_unregister() have
 *     returned, the probe runs no more while every runner goes round again
 *     (sampled toggles, and the final one);
 *   - the probe always gets its argument and data intact;
 *   - the sites end as NOPs (or untouched, in fallback mode), no int3 left;
 *   - SIGTRAP still belongs to the program: its handler, installed before
 *     the first site was patched, gets raise(SIGTRAP) and int3s executed
 *     elsewhere, also while the storm is on;
 *   - a program handler installed after the library's, which forwards the
 *     traps it does not own to the handler it replaced, does not end up in
 *     a loop with the library's handler: an int3 nobody owns kills the
 *     process with SIGTRAP, as it would without ustrace.
 *
 * No SIGTRAP may kill the process; a trap the program did not expect ends
 * it with exit status 5 and a message naming the address.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <linux/tracepoint.h>
#include "kselftest.h"
#include "jl_sites.h"

DECLARE_TRACE(jl_conc, TP_PROTO(int v), TP_ARGS(v));
DEFINE_TRACE(jl_conc);

#define MAGIC		0x5eed
#define MAX_RUNNERS	7

#if defined(__SANITIZE_THREAD__)
# define SLOW_BUILD 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define SLOW_BUILD 1
# endif
#endif

#ifdef SLOW_BUILD
# define TOGGLES	3000
# define SAMPLE_EVERY	200
#else
# define TOGGLES	10000
# define SAMPLE_EVERY	100
#endif

struct runner {
	pthread_t thread;
	unsigned long iters;	/* loops done; atomic */
	unsigned long hits;	/* probe calls in this thread; atomic */
};

static struct runner runners[MAX_RUNNERS];
static int nr_runners;
static int stop;
static int cookie;
static unsigned long total_hits;	/* every probe call; atomic */
static unsigned long bad_calls;		/* wrong data or argument; atomic */
static __thread struct runner *self;
static __thread unsigned long my_hits;

static void probe(void *data, int v)
{
	if (data != &cookie || v != MAGIC)
		__atomic_add_fetch(&bad_calls, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&total_hits, 1, __ATOMIC_RELAXED);
	my_hits++;
	if (self)
		__atomic_add_fetch(&self->hits, 1, __ATOMIC_RELAXED);
}

static __attribute__((__noinline__)) void fire(int v)
{
	trace_jl_conc_tp(v);
}

static void *runner_fn(void *arg)
{
	self = arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		fire(MAGIC);
		__atomic_add_fetch(&self->iters, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the program's own SIGTRAP handler -------------------------------- */

enum { EXPECT_NONE, EXPECT_RAISE, EXPECT_INT3 };

static __thread volatile int trap_expect;
static __thread volatile unsigned long trap_ip;
static __thread volatile int trap_code;
static unsigned long traps_handled;	/* atomic */
static struct sigaction prog_prev;
static volatile int forwarding_test;	/* set in the child of the last test */

static void put_str(const char *s)
{
	ssize_t r = write(2, s, strlen(s));

	(void)r;
}

static void put_hex(unsigned long v)
{
	char buf[19] = "0x";
	int i;

	for (i = 0; i < 16; i++)
		buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
	buf[18] = 0;
	put_str(buf);
}

/* Say where a trap nobody expected came from (async-signal-safe). */
static void report_stray_trap(unsigned long ip)
{
	struct jump_entry *es[JL_MAX_SITES];
	int i, n = jl_entries_of(&__tracepoint_jl_conc.key, es, JL_MAX_SITES);

	put_str("concurrent: unexpected SIGTRAP, ip ");
	put_hex(ip);
	for (i = 0; i < n; i++) {
		if (es[i]->code != ip - 1)
			continue;
		put_str(": int3 at a jump label site, whose first byte is now ");
		put_hex(*(volatile unsigned char *)(ip - 1));
		put_str(" (the library's handler passed the trap on)");
	}
	put_str("\n");
}

static void prog_sigtrap(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;

	(void)sig;
	if ((trap_expect == EXPECT_RAISE && si->si_code == SI_TKILL) ||
	    (trap_expect == EXPECT_INT3 && si->si_code == SI_KERNEL)) {
		trap_ip = uc->uc_mcontext.gregs[REG_RIP];
		trap_code = si->si_code;
		trap_expect = EXPECT_NONE;
		__atomic_add_fetch(&traps_handled, 1, __ATOMIC_RELAXED);
		return;
	}
	if (forwarding_test) {
		/* Not ours: what would happen without any handler. */
		signal(SIGTRAP, SIG_DFL);
		raise(SIGTRAP);
		return;
	}
	/* A trap at a site leaked out of the library, or worse. */
	report_stray_trap(uc->uc_mcontext.gregs[REG_RIP]);
	_exit(5);
}

/*
 * Installed before the executable's jump table is handed to the library
 * (default-priority constructor), so before any site is patched.
 */
__attribute__((__constructor__(101)))
static void install_prog_sigtrap(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prog_sigtrap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, &prog_prev);
}

/* Executes one int3 and returns the address right after it. */
static __attribute__((__noinline__)) unsigned long do_int3(void)
{
	unsigned long after;

	trap_expect = EXPECT_INT3;
	__asm__ __volatile__("lea 1f(%%rip), %0\n\tint3\n1:"
			     : "=r" (after) : : "memory");
	return after;
}

/* ---- the storm ---------------------------------------------------------- */

struct storm_result {
	int reg_failures;
	int first_reg_error;
	int self_misses;	/* the toggling thread saw the old state */
	int runner_misses;	/* a runner never hit the enabled site */
	int late_calls;		/* probe ran after unregister+synchronize */
	int samples;
	unsigned long final_drift;
	double secs;
	unsigned long int3_done;
	unsigned long int3_bad_ip;
	bool ran;
};

static struct storm_result storm;

struct int3_thread_arg {
	unsigned long done;
	unsigned long bad_ip;
};

static void *int3_thread(void *p)
{
	struct int3_thread_arg *a = p;
	struct timespec ms = { 0, 200000 };

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		unsigned long after = do_int3();

		if (trap_ip != after || trap_expect != EXPECT_NONE)
			a->bad_ip++;
		a->done++;
		nanosleep(&ms, NULL);
	}
	return NULL;
}

/* Wait until @ok(i) holds for every runner; false after a few seconds. */
static bool wait_runners(bool (*ok)(int i, const unsigned long *snap),
			 const unsigned long *snap)
{
	double deadline = now() + 5;
	struct timespec tick = { 0, 50000 };
	int i;

	for (;;) {
		for (i = 0; i < nr_runners && ok(i, snap); i++)
			;
		if (i == nr_runners)
			return true;
		if (now() > deadline)
			return false;
		nanosleep(&tick, NULL);
	}
}

static bool runner_hit_since(int i, const unsigned long *snap)
{
	return __atomic_load_n(&runners[i].hits, __ATOMIC_RELAXED) > snap[i];
}

static bool runner_went_round(int i, const unsigned long *snap)
{
	return __atomic_load_n(&runners[i].iters, __ATOMIC_RELAXED) >= snap[i] + 2;
}

static void snapshot(unsigned long *snap, bool hits)
{
	int i;

	for (i = 0; i < nr_runners; i++)
		snap[i] = __atomic_load_n(hits ? &runners[i].hits :
					  &runners[i].iters, __ATOMIC_RELAXED);
}

/* After unregister: does the probe stay quiet while every runner loops? */
static bool quiet_after_sync(void)
{
	unsigned long snap[MAX_RUNNERS], before;

	tracepoint_synchronize_unregister();
	before = __atomic_load_n(&total_hits, __ATOMIC_RELAXED);
	snapshot(snap, false);
	if (!wait_runners(runner_went_round, snap))
		return false;
	return __atomic_load_n(&total_hits, __ATOMIC_RELAXED) == before;
}

static void run_storm(void)
{
	struct int3_thread_arg i3 = { 0, 0 };
	pthread_t i3t;
	double t0;
	int i, ret;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	nr_runners = cpus < 2 ? 2 : cpus > MAX_RUNNERS ? MAX_RUNNERS : (int)cpus;
	ksft_print_msg("%d runner threads, %d toggles, text patching %s\n",
		       nr_runners, TOGGLES,
		       jump_label_text_patching() ? "on" : "off");
	for (i = 0; i < nr_runners; i++)
		if (pthread_create(&runners[i].thread, NULL, runner_fn,
				   &runners[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	if (pthread_create(&i3t, NULL, int3_thread, &i3))
		ksft_exit_fail_msg("pthread_create failed\n");

	t0 = now();
	for (i = 0; i < TOGGLES; i++) {
		bool sample = i % SAMPLE_EVERY == 0;
		unsigned long snap[MAX_RUNNERS], mine;

		ret = register_trace_jl_conc(probe, &cookie);
		if (ret) {
			if (!storm.reg_failures++)
				storm.first_reg_error = ret;
			continue;
		}
		mine = my_hits;
		fire(MAGIC);
		if (my_hits != mine + 1)
			storm.self_misses++;
		if (sample) {
			snapshot(snap, true);
			if (!wait_runners(runner_hit_since, snap))
				storm.runner_misses++;
		}
		ret = unregister_trace_jl_conc(probe, &cookie);
		if (ret) {
			if (!storm.reg_failures++)
				storm.first_reg_error = ret;
			continue;
		}
		mine = my_hits;
		fire(MAGIC);
		if (my_hits != mine)
			storm.self_misses++;
		if (sample) {
			storm.samples++;
			if (!quiet_after_sync())
				storm.late_calls++;
		}
	}
	storm.secs = now() - t0;

	/* The final unregister: nothing may run from here on. */
	tracepoint_synchronize_unregister();
	{
		unsigned long before = __atomic_load_n(&total_hits, __ATOMIC_RELAXED);
		unsigned long snap[MAX_RUNNERS];
		struct timespec pause = { 0, 50 * 1000 * 1000 };

		nanosleep(&pause, NULL);
		snapshot(snap, false);
		wait_runners(runner_went_round, snap);
		storm.final_drift = __atomic_load_n(&total_hits, __ATOMIC_RELAXED) -
				    before;
	}

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nr_runners; i++)
		pthread_join(runners[i].thread, NULL);
	pthread_join(i3t, NULL);
	storm.int3_done = i3.done;
	storm.int3_bad_ip = i3.bad_ip;
	storm.ran = true;
	for (i = 0; i < nr_runners; i++)
		ksft_print_msg("runner %d: %lu loops, %lu probe calls\n", i,
			       runners[i].iters, runners[i].hits);
	ksft_print_msg("%d toggles in %.2f s; %lu probe calls in all\n",
		       TOGGLES, storm.secs, total_hits);
}

static void test_toggles_succeed(void)
{
	run_storm();
	EXPECT_EQ(0, storm.reg_failures);
	EXPECT_EQ(0, storm.first_reg_error);
}

static void test_toggler_sees_each_change(void)
{
	EXPECT_EQ(0, storm.self_misses);
}

static void test_runners_see_enabled_site(void)
{
	int i;

	EXPECT_EQ(0, storm.runner_misses);
	for (i = 0; i < nr_runners; i++)
		EXPECT_GT(runners[i].hits, 0);
}

static void test_quiet_after_synchronize(void)
{
	ksft_print_msg("%d sampled unregisters\n", storm.samples);
	EXPECT_EQ(0, storm.late_calls);
	EXPECT_EQ(0, storm.final_drift);
}

static void test_probe_arguments(void)
{
	EXPECT_EQ(0, bad_calls);
	EXPECT_GT(total_hits, 0);
}

static void test_sites_end_clean(void)
{
	struct jump_entry *es[JL_MAX_SITES];
	int n = jl_entries_of(&__tracepoint_jl_conc.key, es, JL_MAX_SITES), i;

	if (!jl_have_sites())
		SKIP("no jump label sites in this build");
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++) {
		unsigned char live[JL_SITE_SIZE], file[JL_SITE_SIZE];
		char line[96];

		jl_read_live(es[i], live);
		ksft_print_msg("site %#lx: %s (state %u)\n", es[i]->code,
			       jl_decode(es[i]->code, live, line, sizeof(line)),
			       jl_state(es[i]));
		EXPECT_EQ(0, jl_state(es[i]));
		if (jump_label_text_patching()) {
			EXPECT_EQ(0, memcmp(live, jl_nop5, JL_SITE_SIZE));
		} else {
			ASSERT_EQ(0, jl_read_file(es[i]->code, file, sizeof(file)));
			EXPECT_EQ(0, memcmp(live, file, JL_SITE_SIZE));
		}
	}
}

static void test_raise_reaches_program(void)
{
	struct sigaction cur;

	/* The library has claimed SIGTRAP by now if it patches. */
	ASSERT_EQ(0, sigaction(SIGTRAP, NULL, &cur));
	ksft_print_msg("SIGTRAP handler now: %s\n",
		       (cur.sa_flags & SA_SIGINFO) &&
		       cur.sa_sigaction == prog_sigtrap ? "the program's" :
		       "another (the library's)");
	trap_expect = EXPECT_RAISE;
	ASSERT_EQ(0, raise(SIGTRAP));
	EXPECT_EQ(EXPECT_NONE, trap_expect);
	EXPECT_EQ(SI_TKILL, trap_code);
}

static void test_int3_reaches_program(void)
{
	unsigned long after = do_int3();

	EXPECT_EQ(EXPECT_NONE, trap_expect);
	EXPECT_EQ(SI_KERNEL, trap_code);
	EXPECT_EQ(after, trap_ip);
}

static void test_int3_during_storm(void)
{
	ksft_print_msg("%lu int3 executed during the storm\n", storm.int3_done);
	EXPECT_GT(storm.int3_done, 0);
	EXPECT_EQ(0, storm.int3_bad_ip);
}

/* ---- a program handler that forwards what it does not own ------------- */

static struct sigaction fwd_prev;
static volatile int fwd_depth;

static void fwd_sigtrap(int sig, siginfo_t *si, void *uctx)
{
	if (++fwd_depth > 8) {
		put_str("concurrent: SIGTRAP handlers call each other in a loop\n");
		_exit(3);
	}
	if (fwd_prev.sa_flags & SA_SIGINFO) {
		fwd_prev.sa_sigaction(sig, si, uctx);
	} else if (fwd_prev.sa_handler == SIG_DFL) {
		signal(SIGTRAP, SIG_DFL);
		raise(SIGTRAP);
	} else if (fwd_prev.sa_handler != SIG_IGN) {
		fwd_prev.sa_handler(sig);
	}
	fwd_depth--;
}

static void forwarding_child(void)
{
	struct sigaction sa;

	forwarding_test = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fwd_sigtrap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, &fwd_prev);
	/* A patch batch: the library looks at SIGTRAP again. */
	if (register_trace_jl_conc(probe, &cookie) ||
	    unregister_trace_jl_conc(probe, &cookie))
		_exit(6);
	tracepoint_synchronize_unregister();
	/* Nobody owns this one. */
	__asm__ __volatile__("int3" : : : "memory");
	_exit(0);
}

static void test_forwarding_handler(void)
{
	pid_t pid;
	int status, killed_by;

	fflush(stdout);
	pid = fork();
	ASSERT_NE(-1, pid);
	if (pid == 0)
		forwarding_child();
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (WIFEXITED(status))
		ksft_print_msg("child exited with status %d (3: handler loop)\n",
			       WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		ksft_print_msg("child killed by signal %d\n", WTERMSIG(status));
	killed_by = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	EXPECT_EQ(SIGTRAP, killed_by);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(10);
	alarm(300);
	KSFT_RUN(test_toggles_succeed);
	KSFT_RUN(test_toggler_sees_each_change);
	KSFT_RUN(test_runners_see_enabled_site);
	KSFT_RUN(test_quiet_after_synchronize);
	KSFT_RUN(test_probe_arguments);
	KSFT_RUN(test_sites_end_clean);
	KSFT_RUN(test_raise_reaches_program);
	KSFT_RUN(test_int3_reaches_program);
	KSFT_RUN(test_int3_during_storm);
	KSFT_RUN(test_forwarding_handler);
	ksft_finished();
}
