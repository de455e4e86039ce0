// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace clocks: the kernel's trace_clock list, as far as userspace can
 * have it.
 *
 * The kernel's "local" clock is sched_clock(): the TSC scaled to ns with a
 * factor measured at boot.  We do the same with a factor measured against
 * CLOCK_MONOTONIC_RAW the first time a clock or a ring buffer is used
 * (about 5 ms, once per process), offset so that it starts out equal to
 * CLOCK_MONOTONIC.  Without an invariant TSC (no constant_tsc and
 * nonstop_tsc, or not x86-64) local is CLOCK_MONOTONIC.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/trace_clock.h>
#include "../../internal.h"
#include "trace_clock.h"

struct tc_scale tc_scale;

static pthread_once_t tc_once = PTHREAD_ONCE_INIT;
static uint64_t tc_global_prev;
static uint64_t tc_counter;

static uint64_t tc_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
/* Both flags say the TSC ticks at one rate in every P- and C-state. */
static bool tc_tsc_invariant(void)
{
	bool constant = false, nonstop = false;
	char line[4096];
	FILE *f;

	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

/*
 * A (TSC, clock) pair: the clock read bracketed by two TSC reads, the
 * narrowest bracket of a few tries, its middle.
 */
static void tc_sample(clockid_t id, uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	*tsc = *ns = 0;
	for (int i = 0; i < 9; i++) {
		uint64_t a = __builtin_ia32_rdtsc();
		uint64_t t = tc_clock_ns(id);
		uint64_t b = __builtin_ia32_rdtsc();

		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = t;
		}
	}
}

static bool tc_calibrate(void)
{
	struct timespec pause = { .tv_nsec = 5 * 1000 * 1000 };
	uint64_t t0, n0, t1, n1, t2, n2;

	if (!tc_tsc_invariant())
		return false;
	tc_sample(CLOCK_MONOTONIC_RAW, &t0, &n0);
	while (nanosleep(&pause, &pause) && errno == EINTR)
		;
	tc_sample(CLOCK_MONOTONIC_RAW, &t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return false;
	tc_scale.mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
	tc_sample(CLOCK_MONOTONIC, &t2, &n2);
	tc_scale.offset = n2 - (uint64_t)(((unsigned __int128)t2 * tc_scale.mult) >> 32);
	return true;
}

static bool tc_tsc_invariant_any(void)
{
	return tc_tsc_invariant();
}
#else
static bool tc_calibrate(void)
{
	return false;
}

static bool tc_tsc_invariant_any(void)
{
	return false;
}
#endif

/* A scale handed in before the first reading (ustrace_clock_local_adopt()). */
static const struct ustrace_clock_scale *tc_adopt;

static void tc_init(void)
{
	const struct ustrace_clock_scale *given = __atomic_load_n(&tc_adopt, __ATOMIC_ACQUIRE);
	int mode;

	if (given && given->mode == 1 && tc_tsc_invariant_any()) {
		tc_scale.mult = given->mult;
		tc_scale.offset = given->offset;
		mode = TC_TSC;
	} else if (given && given->mode == 2) {
		mode = TC_MONO;
	} else {
		mode = tc_calibrate() ? TC_TSC : TC_MONO;
	}

	/* Pairs with the acquire in tc_local(): mult and offset first. */
	__atomic_store_n(&tc_scale.mode, mode, __ATOMIC_RELEASE);
}

uint64_t tc_local_slow(void)
{
	if (__atomic_load_n(&tc_scale.mode, __ATOMIC_ACQUIRE) == TC_UNINIT) {
		pthread_once(&tc_once, tc_init);
		if (__atomic_load_n(&tc_scale.mode, __ATOMIC_ACQUIRE) == TC_TSC)
			return tc_local();
	}
	return tc_clock_ns(CLOCK_MONOTONIC);
}

/**
 * trace_clock_local - the TSC in nanoseconds
 *
 * Return: nanoseconds, comparable with CLOCK_MONOTONIC at the time the
 * clock was calibrated and drifting from it by the calibration error
 * (parts per million) afterwards.
 * Context: any; the first call in a process (or ring_buffer_alloc()) takes
 * about 5 ms.
 */
uint64_t trace_clock_local(void)
{
	return tc_local();
}

/**
 * trace_clock_global - local, monotonic across threads
 *
 * Every call goes through one shared word, so two calls ordered in any way
 * (on any CPUs) return non-decreasing values.
 *
 * Return: nanoseconds.
 */
uint64_t trace_clock_global(void)
{
	uint64_t now = tc_local();
	uint64_t prev = __atomic_load_n(&tc_global_prev, __ATOMIC_RELAXED);

	do {
		if ((int64_t)(now - prev) <= 0)
			return prev;
	} while (!__atomic_compare_exchange_n(&tc_global_prev, &prev, now, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return now;
}

/**
 * trace_clock_counter - an atomic counter
 *
 * Return: one more than the previous call returned, in the whole process.
 */
uint64_t trace_clock_counter(void)
{
	return __atomic_add_fetch(&tc_counter, 1, __ATOMIC_RELAXED);
}

/** trace_clock_mono - CLOCK_MONOTONIC in nanoseconds */
uint64_t trace_clock_mono(void)
{
	return tc_clock_ns(CLOCK_MONOTONIC);
}

/** trace_clock_mono_raw - CLOCK_MONOTONIC_RAW in nanoseconds */
uint64_t trace_clock_mono_raw(void)
{
	return tc_clock_ns(CLOCK_MONOTONIC_RAW);
}

/** trace_clock_boot - CLOCK_BOOTTIME in nanoseconds */
uint64_t trace_clock_boot(void)
{
	return tc_clock_ns(CLOCK_BOOTTIME);
}

#if defined(__x86_64__) || defined(__i386__)
/** trace_clock_x86_tsc - the time stamp counter, in cycles */
uint64_t trace_clock_x86_tsc(void)
{
	return __builtin_ia32_rdtsc();
}
#endif

static const struct trace_clock trace_clocks[] = {
	{ "local",	trace_clock_local,	true },
	{ "global",	trace_clock_global,	true },
	{ "counter",	trace_clock_counter,	false },
	{ "mono",	trace_clock_mono,	true },
	{ "mono_raw",	trace_clock_mono_raw,	true },
	{ "boot",	trace_clock_boot,	true },
#if defined(__x86_64__) || defined(__i386__)
	{ "x86-tsc",	trace_clock_x86_tsc,	false },
#endif
};

/**
 * trace_clock_get - the clocks in the order tracefs lists them
 * @idx: 0 for "local", and so on
 *
 * Return: the clock, or NULL (errno ENOENT) past the last.
 */
const struct trace_clock *trace_clock_get(unsigned int idx)
{
	if (idx >= sizeof(trace_clocks) / sizeof(trace_clocks[0])) {
		errno = ENOENT;
		return NULL;
	}
	return &trace_clocks[idx];
}

/**
 * trace_clock_find - a clock by its tracefs name
 * @name: "local", "global", "counter", "mono", "mono_raw", "boot", "x86-tsc"
 *
 * Return: the clock, or NULL (errno ENOENT, or EINVAL for a NULL name).
 */
const struct trace_clock *trace_clock_find(const char *name)
{
	const struct trace_clock *clock;

	if (!name) {
		errno = EINVAL;
		return NULL;
	}
	for (unsigned int i = 0; (clock = trace_clock_get(i)); i++)
		if (!strcmp(clock->name, name))
			return clock;
	return NULL;
}

/**
 * ustrace_clock_local_scale - how the local clock derives from the TSC
 * @scale: receives the mode (1 the TSC scaled, 2 CLOCK_MONOTONIC), the
 *         multiplier and the offset (kernel/internal.h)
 *
 * The scale is measured before the first reading of the local clock.
 */
void ustrace_clock_local_scale(struct ustrace_clock_scale *scale)
{
	int mode;

	trace_clock_local();
	mode = __atomic_load_n(&tc_scale.mode, __ATOMIC_ACQUIRE);
	scale->mode = mode == TC_TSC ? 1 : 2;
	scale->mult = tc_scale.mult;
	scale->offset = tc_scale.offset;
}

/**
 * ustrace_clock_local_adopt - take another process's local clock
 * @scale: its scale (ustrace_clock_local_scale() there)
 *
 * Before the first reading of the local clock in this process, the local
 * clock becomes @scale's (the TSC is the machine's, so both processes'
 * clocks are then one), instead of a calibration of its own.  The
 * collector hands its scale to each program that registers, so that the
 * events of all programs order on one clock.
 * Return: true if the local clock is @scale's now.
 */
bool ustrace_clock_local_adopt(const struct ustrace_clock_scale *scale)
{
	struct ustrace_clock_scale now;

	__atomic_store_n(&tc_adopt, scale, __ATOMIC_RELEASE);
	ustrace_clock_local_scale(&now);
	__atomic_store_n(&tc_adopt, NULL, __ATOMIC_RELEASE);
	return now.mode == scale->mode && (now.mode == 2 || (now.mult == scale->mult &&
							     now.offset == scale->offset));
}
