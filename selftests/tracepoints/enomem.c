// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Allocation failures in the tracepoint core.
 *
 * This program defines malloc(), calloc() and realloc() itself; the
 * dynamic linker binds libustrace's calls to them, and they forward to
 * glibc's allocator unless told to fail.  What is checked:
 *   - register under -ENOMEM returns -ENOMEM and leaves the probe array as
 *     it was (the same array, the same probes in the same order, regfunc
 *     not called);
 *   - unregister never fails for lack of memory: it returns 0 and the probe
 *     stops running;
 *   - the same at every allocation a call makes, not just the first.
 * Sanitizer runtimes own malloc; under ASan or TSan the program skips.
 */
#include <errno.h>
#include <stdint.h>
#include <linux/tracepoint.h>

#include "tp_test.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define TP_SANITIZER_OWNS_MALLOC 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
     __has_feature(memory_sanitizer)
#  define TP_SANITIZER_OWNS_MALLOC 1
# endif
#endif

#define NR_TESTS 7

#ifdef TP_SANITIZER_OWNS_MALLOC
int main(void)
{
	tp_plan(NR_TESTS, 0);
	ksft_exit_skip("the sanitizer runtime owns malloc\n");
}
#else

/* ---- the failing allocator ------------------------------------------ */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

/*
 * Let alloc_skip allocations through, then fail the next alloc_fail ones.
 * alloc_failed counts the failures actually injected.
 */
static int alloc_skip, alloc_fail, alloc_failed;

static bool alloc_should_fail(void)
{
	if (__atomic_load_n(&alloc_fail, __ATOMIC_RELAXED) <= 0)
		return false;
	if (__atomic_load_n(&alloc_skip, __ATOMIC_RELAXED) > 0) {
		__atomic_sub_fetch(&alloc_skip, 1, __ATOMIC_RELAXED);
		return false;
	}
	__atomic_sub_fetch(&alloc_fail, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&alloc_failed, 1, __ATOMIC_RELAXED);
	return true;
}

static void fail_allocs(int skip, int fail)
{
	alloc_failed = 0;
	alloc_skip = skip;
	alloc_fail = fail;
}

static void stop_failing(void)
{
	alloc_fail = 0;
	alloc_skip = 0;
}

void *malloc(size_t size)
{
	if (alloc_should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (alloc_should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	if (alloc_should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, size);
}

/* ---- tracepoints ---------------------------------------------------- */

DECLARE_TRACE(nomem_tp,
	TP_PROTO(int v),
	TP_ARGS(v));

DECLARE_TRACE(nomem_fn,
	TP_PROTO(int v),
	TP_ARGS(v));

static int regfunc_calls, unregfunc_calls;

static int nomem_regfunc(void)
{
	regfunc_calls++;
	return 0;
}

static void nomem_unregfunc(void)
{
	unregfunc_calls++;
}

DEFINE_TRACE(nomem_tp);
DEFINE_TRACE_FN(nomem_fn, nomem_regfunc, nomem_unregfunc);

#define LOG_MAX 32
static int call_log[LOG_MAX];
static int call_n;

static void probe_log(void *data, int v)
{
	(void)v;
	if (call_n < LOG_MAX)
		call_log[call_n++] = (int)(intptr_t)data;
}

#define D(n)	((void *)(intptr_t)(n))

/* Fire nomem_tp once and compare the order of the probes that ran. */
#define EXPECT_FIRES(...) do {						\
	static const int __want[] = { __VA_ARGS__ };			\
	call_n = 0;							\
	trace_nomem_tp_tp(0);						\
	EXPECT_SEQ(__want, (int)(sizeof(__want) / sizeof(__want[0])),	\
		   call_log, call_n);					\
} while (0)

static void detach_all(void)
{
	int i;

	stop_failing();
	for (i = 0; i <= 10; i++)
		unregister_trace_nomem_tp(probe_log, D(i));
	tracepoint_synchronize_unregister();
}

/* ---- tests ---------------------------------------------------------- */

static void test_injection_works(void)
{
	/*
	 * Called through volatile pointers: the compiler knows what malloc
	 * does and would otherwise assume it leaves alloc_failed alone, or
	 * drop the allocation altogether.
	 */
	void *(*volatile m)(size_t) = malloc;
	void *(*volatile c)(size_t, size_t) = calloc;
	void *(*volatile r)(void *, size_t) = realloc;
	void *p;

	fail_allocs(0, 1);
	p = m(16);
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(1, __atomic_load_n(&alloc_failed, __ATOMIC_RELAXED));
	p = m(16);		/* only one was asked for */
	EXPECT_NE(NULL, p);
	fail_allocs(0, 1);
	EXPECT_EQ(NULL, r(p, 32));	/* p is left alone */
	free(p);
	fail_allocs(1, 1);
	p = c(1, 16);		/* skipped */
	EXPECT_NE(NULL, p);
	free(p);
	EXPECT_EQ(NULL, c(1, 16));
	EXPECT_EQ(0, __atomic_load_n(&alloc_fail, __ATOMIC_RELAXED));
	stop_failing();
}

static void test_register_enomem(void)
{
	struct tracepoint_func *before;

	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(1), 20));
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(2), 10));
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(3), 10));
	tracepoint_synchronize_unregister();
	before = __tracepoint_nomem_tp.funcs;

	fail_allocs(0, 1);
	/* Would go between 1 and 2. */
	EXPECT_EQ(-ENOMEM, register_trace_prio_nomem_tp(probe_log, D(4), 15));
	stop_failing();
	EXPECT_EQ(1, alloc_failed);
	EXPECT_EQ(before, __tracepoint_nomem_tp.funcs);
	EXPECT_TRUE(trace_nomem_tp_enabled());
	EXPECT_FIRES(1, 2, 3);
	/* It is not half-attached either. */
	EXPECT_EQ(-ENOENT, unregister_trace_nomem_tp(probe_log, D(4)));

	/* With memory it works, in its place. */
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(4), 15));
	EXPECT_FIRES(1, 4, 2, 3);
	detach_all();
	EXPECT_FALSE(trace_nomem_tp_enabled());
}

static void test_first_register_enomem(void)
{
	regfunc_calls = unregfunc_calls = 0;
	fail_allocs(0, 1);
	EXPECT_EQ(-ENOMEM, register_trace_nomem_fn(probe_log, D(1)));
	stop_failing();
	EXPECT_EQ(0, regfunc_calls);
	EXPECT_EQ(0, unregfunc_calls);
	EXPECT_FALSE(trace_nomem_fn_enabled());
	EXPECT_EQ(NULL, __tracepoint_nomem_fn.funcs);
	EXPECT_EQ(0, static_key_count(&__tracepoint_nomem_fn.key));

	EXPECT_EQ(0, register_trace_nomem_fn(probe_log, D(1)));
	EXPECT_EQ(1, regfunc_calls);
	EXPECT_TRUE(trace_nomem_fn_enabled());
	EXPECT_EQ(0, unregister_trace_nomem_fn(probe_log, D(1)));
	EXPECT_EQ(1, unregfunc_calls);
}

/*
 * Fail the k-th allocation of one register call, for every k the call
 * reaches: each outcome is all or nothing.
 */
static void test_register_every_failure_point(void)
{
	int k, nomem = 0, ret;

	for (k = 0; k < 64; k++) {
		EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(1), 20));
		EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(2), 10));
		tracepoint_synchronize_unregister();

		fail_allocs(k, 1);
		ret = register_trace_prio_nomem_tp(probe_log, D(3), 15);
		stop_failing();
		if (ret == -ENOMEM) {
			nomem++;
			EXPECT_FIRES(1, 2);
		} else {
			EXPECT_EQ(0, ret);
			EXPECT_FIRES(1, 3, 2);
		}
		detach_all();
		if (!alloc_failed) {
			/* The call made fewer than k + 1 allocations. */
			break;
		}
	}
	ksft_print_msg("register: %d allocation points, %d gave -ENOMEM\n",
		       k, nomem);
	EXPECT_TRUE(nomem >= 1);
	EXPECT_TRUE(k < 64);
}

static void test_unregister_enomem(void)
{
	regfunc_calls = unregfunc_calls = 0;
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(1), 30));
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(2), 20));
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(3), 10));
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(4), 0));

	fail_allocs(0, 1 << 30);	/* no memory at all from here */
	EXPECT_EQ(0, unregister_trace_nomem_tp(probe_log, D(2)));
	EXPECT_FIRES(1, 3, 4);
	/* It is gone, not merely hidden. */
	EXPECT_EQ(-ENOENT, unregister_trace_nomem_tp(probe_log, D(2)));
	EXPECT_EQ(0, unregister_trace_nomem_tp(probe_log, D(4)));
	EXPECT_FIRES(1, 3);
	EXPECT_TRUE(trace_nomem_tp_enabled());
	EXPECT_EQ(-ENOMEM, register_trace_nomem_tp(probe_log, D(5)));
	EXPECT_FIRES(1, 3);
	stop_failing();

	/* Memory is back: registering again works and keeps the order. */
	EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(2), 20));
	EXPECT_FIRES(1, 2, 3);

	/* Detach everything without memory: the key goes off at the last. */
	fail_allocs(0, 1 << 30);
	EXPECT_EQ(0, unregister_trace_nomem_tp(probe_log, D(1)));
	EXPECT_EQ(0, unregister_trace_nomem_tp(probe_log, D(3)));
	EXPECT_TRUE(trace_nomem_tp_enabled());
	EXPECT_FIRES(2);
	EXPECT_EQ(0, unregister_trace_nomem_tp(probe_log, D(2)));
	EXPECT_FALSE(trace_nomem_tp_enabled());
	EXPECT_EQ(NULL, __tracepoint_nomem_tp.funcs);
	EXPECT_EQ(0, static_key_count(&__tracepoint_nomem_tp.key));
	call_n = 0;
	trace_nomem_tp_tp(0);
	EXPECT_EQ(0, call_n);
	stop_failing();
	tracepoint_synchronize_unregister();
}

static void test_unregister_regfunc_enomem(void)
{
	regfunc_calls = unregfunc_calls = 0;
	EXPECT_EQ(0, register_trace_nomem_fn(probe_log, D(1)));
	EXPECT_EQ(0, register_trace_nomem_fn(probe_log, D(2)));
	fail_allocs(0, 1 << 30);
	EXPECT_EQ(0, unregister_trace_nomem_fn(probe_log, D(1)));
	EXPECT_EQ(0, unregfunc_calls);
	EXPECT_EQ(0, unregister_trace_nomem_fn(probe_log, D(2)));
	stop_failing();
	EXPECT_EQ(1, unregfunc_calls);
	EXPECT_EQ(1, regfunc_calls);
	EXPECT_FALSE(trace_nomem_fn_enabled());
	tracepoint_synchronize_unregister();
}

static void test_unregister_every_failure_point(void)
{
	int k, ret;

	for (k = 0; k < 64; k++) {
		EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(1), 20));
		EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(2), 10));
		EXPECT_EQ(0, register_trace_prio_nomem_tp(probe_log, D(3), 0));
		tracepoint_synchronize_unregister();

		fail_allocs(k, 1);
		ret = unregister_trace_nomem_tp(probe_log, D(2));
		stop_failing();
		EXPECT_EQ(0, ret);
		EXPECT_FIRES(1, 3);
		detach_all();
		EXPECT_FALSE(trace_nomem_tp_enabled());
		if (!alloc_failed)
			break;
	}
	ksft_print_msg("unregister: %d allocation points\n", k);
	EXPECT_TRUE(k < 64);
}

int main(void)
{
	tp_plan(NR_TESTS, 30);
	/* Warm up: the first register/fire allocate RCU and registry state. */
	EXPECT_EQ(0, register_trace_nomem_tp(probe_log, D(0)));
	trace_nomem_tp_tp(0);
	detach_all();

	tp_run("the allocator fails on request", test_injection_works);
	tp_run("register under -ENOMEM keeps the old probe set",
	       test_register_enomem);
	tp_run("first register under -ENOMEM: no regfunc, key off",
	       test_first_register_enomem);
	tp_run("register: every allocation failure point",
	       test_register_every_failure_point);
	tp_run("unregister without memory succeeds", test_unregister_enomem);
	tp_run("unregister without memory calls unregfunc at the last",
	       test_unregister_regfunc_enomem);
	tp_run("unregister: every allocation failure point",
	       test_unregister_every_failure_point);
	return tp_exit();
}
#endif /* TP_SANITIZER_OWNS_MALLOC */
