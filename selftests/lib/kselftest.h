/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kselftest.h - TAP output and assertions for ustrace's test programs
 *
 * The names follow the kernel's tools/testing/selftests/kselftest.h, so a
 * kernel selftest reads the same here. A test program prints TAP version 13
 * on stdout; scripts/run-tests.sh counts its "ok" and "not ok" lines.
 *
 * Either report results directly:
 *
 *	ksft_print_header();
 *	ksft_set_plan(2);
 *	ksft_test_result(register_probe() == 0, "register\n");
 *	ksft_test_result_skip("text patching: refused here\n");
 *	ksft_finished();
 *
 * or write void test functions that use the ASSERT and EXPECT macros and
 * run them with KSFT_RUN(), which reports one result named after the
 * function:
 *
 *	static void test_register(void)
 *	{
 *		ASSERT_EQ(0, register_trace_foo(probe, NULL));
 *		EXPECT_EQ(1, hits);
 *		if (!jump_labels_patched())
 *			SKIP("text patching refused");
 *	}
 *
 *	int main(void)
 *	{
 *		ksft_print_header();
 *		ksft_set_plan(1);
 *		KSFT_RUN(test_register);
 *		ksft_finished();
 *	}
 *
 * A failed ASSERT_*() prints both values and returns from the test function;
 * a failed EXPECT_*() prints both values and goes on. Values are compared by
 * value whatever their types: ASSERT_EQ(-1, some_unsigned) fails, and mixing
 * signed and unsigned operands draws no -Wsign-compare warning. Operands are
 * integers or pointers; each is evaluated once.
 *
 * stdout is line buffered from ksft_print_header() on, so a test that crashes
 * or hangs keeps the results it printed.
 */
#ifndef _USTRACE_SELFTESTS_KSELFTEST_H
#define _USTRACE_SELFTESTS_KSELFTEST_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit statuses, as the kernel's. */
#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

#define __ksft_printf(a, b)	__attribute__((format(printf, a, b)))
#define __ksft_noreturn		__attribute__((noreturn))

struct ksft_state {
	unsigned int plan;
	unsigned int pass;
	unsigned int fail;
	unsigned int skip;
	int current;		/* KSFT_PASS/FAIL/SKIP of the KSFT_RUN() test */
};

/* Weak, so that the counts are shared by all files of a test program. */
__attribute__((weak)) struct ksft_state ksft_state;

static inline unsigned int ksft_test_num(void)
{
	return ksft_state.pass + ksft_state.fail + ksft_state.skip;
}

static inline void ksft_print_header(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
}

static inline void ksft_set_plan(unsigned int plan)
{
	ksft_state.plan = plan;
	printf("1..%u\n", plan);
}

/* The message of every ksft_* function below ends with a newline. */
static inline __ksft_printf(1, 2) void ksft_print_msg(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static inline void ksft_vresult(const char *result, const char *directive,
				const char *fmt, va_list ap)
{
	printf("%s %u ", result, ksft_test_num());
	if (directive)
		printf("# %s ", directive);
	vprintf(fmt, ap);
}

static inline __ksft_printf(1, 2) void ksft_test_result_pass(const char *fmt, ...)
{
	va_list ap;

	ksft_state.pass++;
	va_start(ap, fmt);
	ksft_vresult("ok", NULL, fmt, ap);
	va_end(ap);
}

static inline __ksft_printf(1, 2) void ksft_test_result_fail(const char *fmt, ...)
{
	va_list ap;

	ksft_state.fail++;
	va_start(ap, fmt);
	ksft_vresult("not ok", NULL, fmt, ap);
	va_end(ap);
}

static inline __ksft_printf(1, 2) void ksft_test_result_skip(const char *fmt, ...)
{
	va_list ap;

	ksft_state.skip++;
	va_start(ap, fmt);
	ksft_vresult("ok", "SKIP", fmt, ap);
	va_end(ap);
}

#define ksft_test_result(cond, ...) do {				\
	if (cond)							\
		ksft_test_result_pass(__VA_ARGS__);			\
	else								\
		ksft_test_result_fail(__VA_ARGS__);			\
} while (0)

static inline __ksft_noreturn void ksft_exit(int status)
{
	printf("# Totals: pass:%u fail:%u skip:%u\n",
	       ksft_state.pass, ksft_state.fail, ksft_state.skip);
	exit(status);
}

/* Exit with success unless a test failed. */
static inline __ksft_noreturn void ksft_exit_pass(void)
{
	ksft_exit(ksft_state.fail ? KSFT_FAIL : KSFT_PASS);
}

static inline __ksft_noreturn void ksft_exit_fail(void)
{
	ksft_exit(KSFT_FAIL);
}

/* ksft_exit_pass(), and a failure if the plan was not run to the end. */
static inline __ksft_noreturn void ksft_finished(void)
{
	if (ksft_state.plan && ksft_test_num() != ksft_state.plan) {
		ksft_print_msg("planned %u tests but ran %u\n",
			       ksft_state.plan, ksft_test_num());
		ksft_exit_fail();
	}
	ksft_exit_pass();
}

/*
 * Skip the rest of the program: the tests of the plan not run yet are
 * reported skipped, with the reason. Before any plan, the whole program is.
 */
static inline __ksft_printf(1, 2) __ksft_noreturn void ksft_exit_skip(const char *fmt, ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (!ksft_state.plan)
		printf("1..0 # SKIP %s", reason);
	while (ksft_test_num() < ksft_state.plan)
		ksft_test_result_skip("%s", reason);
	ksft_exit(ksft_state.fail ? KSFT_FAIL : KSFT_SKIP);
}

/* Give up: the runner counts a bail-out as a failure. */
static inline __ksft_printf(1, 2) __ksft_noreturn void ksft_exit_fail_msg(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	ksft_exit(KSFT_FAIL);
}

/* ----------------------------------------------------------------------
 * Test functions and assertions
 */

static inline void ksft_run_test(void (*fn)(void), const char *name)
{
	ksft_state.current = KSFT_PASS;
	fn();
	switch (ksft_state.current) {
	case KSFT_PASS:
		ksft_test_result_pass("%s\n", name);
		break;
	case KSFT_SKIP:
		ksft_test_result_skip("%s\n", name);
		break;
	default:
		ksft_test_result_fail("%s\n", name);
		break;
	}
}

#define KSFT_RUN(fn)	ksft_run_test(fn, #fn)

/* Skip the current test function: print why (no newline) and return. */
#define SKIP(...) do {							\
	ksft_print_msg(__VA_ARGS__);					\
	putchar('\n');							\
	ksft_state.current = KSFT_SKIP;					\
	return;								\
} while (0)

/* An operand of a comparison, whatever its integer or pointer type. */
struct ksft_val {
	enum { KSFT_VAL_INT, KSFT_VAL_UINT, KSFT_VAL_PTR } kind;
	intmax_t i;
	uintmax_t u;
};

static inline struct ksft_val ksft_val_int(intmax_t v)
{
	return (struct ksft_val){ .kind = KSFT_VAL_INT, .i = v, .u = (uintmax_t)v };
}

static inline struct ksft_val ksft_val_uint(uintmax_t v)
{
	return (struct ksft_val){ .kind = KSFT_VAL_UINT, .i = (intmax_t)v, .u = v };
}

static inline struct ksft_val ksft_val_ptr(const volatile void *p)
{
	uintptr_t v = (uintptr_t)p;

	return (struct ksft_val){ .kind = KSFT_VAL_PTR, .i = (intmax_t)v, .u = v };
}

#define ksft_val(x) _Generic((x),					\
	_Bool: ksft_val_uint,						\
	unsigned char: ksft_val_uint,					\
	unsigned short: ksft_val_uint,					\
	unsigned int: ksft_val_uint,					\
	unsigned long: ksft_val_uint,					\
	unsigned long long: ksft_val_uint,				\
	char: ksft_val_int,						\
	signed char: ksft_val_int,					\
	short: ksft_val_int,						\
	int: ksft_val_int,						\
	long: ksft_val_int,						\
	long long: ksft_val_int,					\
	default: ksft_val_ptr)(x)

static inline bool ksft_val_negative(struct ksft_val v)
{
	return v.kind == KSFT_VAL_INT && v.i < 0;
}

/* <0, 0 or >0 as a is below, equal to or above b, by mathematical value. */
static inline int ksft_val_cmp(struct ksft_val a, struct ksft_val b)
{
	if (ksft_val_negative(a) != ksft_val_negative(b))
		return ksft_val_negative(a) ? -1 : 1;
	if (ksft_val_negative(a))
		return (a.i > b.i) - (a.i < b.i);
	return (a.u > b.u) - (a.u < b.u);
}

static inline void ksft_val_format(char *buf, size_t size, struct ksft_val v)
{
	switch (v.kind) {
	case KSFT_VAL_INT:
		snprintf(buf, size, "%" PRIdMAX, v.i);
		break;
	case KSFT_VAL_UINT:
		snprintf(buf, size, "%" PRIuMAX " (0x%" PRIxMAX ")", v.u, v.u);
		break;
	case KSFT_VAL_PTR:
		snprintf(buf, size, "%p", (void *)(uintptr_t)v.u);
		break;
	}
}

static inline void ksft_check_failed(const char *file, int line, const char *check)
{
	ksft_print_msg("%s:%d: %s failed\n", file, line, check);
	ksft_state.current = KSFT_FAIL;
}

static inline void ksft_cmp_failed(const char *file, int line, const char *check,
				   const char *a_expr, struct ksft_val a,
				   const char *b_expr, struct ksft_val b)
{
	char a_buf[64], b_buf[64];

	ksft_val_format(a_buf, sizeof(a_buf), a);
	ksft_val_format(b_buf, sizeof(b_buf), b);
	ksft_check_failed(file, line, check);
	ksft_print_msg("  %s = %s\n", a_expr, a_buf);
	ksft_print_msg("  %s = %s\n", b_expr, b_buf);
}

#define __KSFT_CMP(name, a, op, b, on_fail) do {			\
	struct ksft_val __ksft_a = ksft_val(a);				\
	struct ksft_val __ksft_b = ksft_val(b);				\
	if (!(ksft_val_cmp(__ksft_a, __ksft_b) op 0)) {			\
		ksft_cmp_failed(__FILE__, __LINE__,			\
				name "(" #a ", " #b ")",		\
				#a, __ksft_a, #b, __ksft_b);		\
		on_fail;						\
	}								\
} while (0)

#define __KSFT_BOOL(name, cond, want, on_fail) do {			\
	if (!(cond) != !(want)) {					\
		ksft_check_failed(__FILE__, __LINE__, name "(" #cond ")"); \
		on_fail;						\
	}								\
} while (0)

#define __KSFT_STR(name, a, op, b, on_fail) do {			\
	const char *__ksft_a = (a), *__ksft_b = (b);			\
	if (!(strcmp(__ksft_a, __ksft_b) op 0)) {			\
		ksft_check_failed(__FILE__, __LINE__,			\
				  name "(" #a ", " #b ")");		\
		ksft_print_msg("  %s = \"%s\"\n", #a, __ksft_a);	\
		ksft_print_msg("  %s = \"%s\"\n", #b, __ksft_b);	\
		on_fail;						\
	}								\
} while (0)

#define ASSERT_EQ(expected, seen)	__KSFT_CMP("ASSERT_EQ", expected, ==, seen, return)
#define ASSERT_NE(expected, seen)	__KSFT_CMP("ASSERT_NE", expected, !=, seen, return)
#define ASSERT_LT(a, b)			__KSFT_CMP("ASSERT_LT", a, <, b, return)
#define ASSERT_LE(a, b)			__KSFT_CMP("ASSERT_LE", a, <=, b, return)
#define ASSERT_GT(a, b)			__KSFT_CMP("ASSERT_GT", a, >, b, return)
#define ASSERT_GE(a, b)			__KSFT_CMP("ASSERT_GE", a, >=, b, return)
#define ASSERT_TRUE(cond)		__KSFT_BOOL("ASSERT_TRUE", cond, 1, return)
#define ASSERT_FALSE(cond)		__KSFT_BOOL("ASSERT_FALSE", cond, 0, return)
#define ASSERT_STREQ(expected, seen)	__KSFT_STR("ASSERT_STREQ", expected, ==, seen, return)

#define EXPECT_EQ(expected, seen)	__KSFT_CMP("EXPECT_EQ", expected, ==, seen, (void)0)
#define EXPECT_NE(expected, seen)	__KSFT_CMP("EXPECT_NE", expected, !=, seen, (void)0)
#define EXPECT_LT(a, b)			__KSFT_CMP("EXPECT_LT", a, <, b, (void)0)
#define EXPECT_LE(a, b)			__KSFT_CMP("EXPECT_LE", a, <=, b, (void)0)
#define EXPECT_GT(a, b)			__KSFT_CMP("EXPECT_GT", a, >, b, (void)0)
#define EXPECT_GE(a, b)			__KSFT_CMP("EXPECT_GE", a, >=, b, (void)0)
#define EXPECT_TRUE(cond)		__KSFT_BOOL("EXPECT_TRUE", cond, 1, (void)0)
#define EXPECT_FALSE(cond)		__KSFT_BOOL("EXPECT_FALSE", cond, 0, (void)0)
#define EXPECT_STREQ(expected, seen)	__KSFT_STR("EXPECT_STREQ", expected, ==, seen, (void)0)

#endif /* _USTRACE_SELFTESTS_KSELFTEST_H */
