/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the tracepoint selftests add to kselftest.h: named tests, a time
 * limit per program, int sequence and substring checks, and a way to
 * capture what the library writes to stderr.
 *
 * tp_run(name, fn) runs a void test function like KSFT_RUN() but reports
 * it under a sentence rather than the function's name.  tp_plan() arms an
 * alarm as well as printing the plan, so that a deadlock fails one program
 * quickly, whatever the runner's timeout.
 */
#ifndef _TP_TEST_H
#define _TP_TEST_H

#include <unistd.h>
#include "kselftest.h"

static inline void tp_plan(unsigned int n, unsigned int timeout_sec)
{
	ksft_print_header();
	ksft_set_plan(n);
	if (timeout_sec)
		alarm(timeout_sec);
}

static inline void tp_run(const char *name, void (*fn)(void))
{
	ksft_run_test(fn, name);
}

static inline int tp_exit(void)
{
	ksft_finished();
}

/* Fail the current test with a message (a newline is added). */
#define tp_fail(fmt, ...) do {						\
	ksft_print_msg("%s:%d: " fmt "\n", __FILE__, __LINE__,		\
		       ##__VA_ARGS__);					\
	ksft_state.current = KSFT_FAIL;					\
} while (0)

/* Has the current test failed so far? */
static inline bool tp_failed(void)
{
	return ksft_state.current == KSFT_FAIL;
}

#define EXPECT_STR_CONTAINS(hay, needle) do {				\
	const char *__h = (hay), *__n = (needle);			\
	if (!__h || !strstr(__h, __n))					\
		tp_fail("%s should contain \"%s\"; it is:\n%s",		\
			#hay, __n, __h ? __h : "(null)");		\
} while (0)

#define EXPECT_STR_LACKS(hay, needle) do {				\
	const char *__h = (hay), *__n = (needle);			\
	if (__h && strstr(__h, __n))					\
		tp_fail("%s should not contain \"%s\"; it is:\n%s",	\
			#hay, __n, __h);				\
} while (0)

static inline void tp_print_seq(const char *label, const int *a, int n)
{
	int i;

	printf("#   %s:", label);
	for (i = 0; i < n; i++)
		printf(" %d", a[i]);
	printf(" (%d)\n", n);
}

/* Compare int arrays: the expected one first, as EXPECT_EQ(). */
#define EXPECT_SEQ(want, nwant, got, ngot) \
	tp_expect_seq(__FILE__, __LINE__, #got, want, nwant, got, ngot)

static inline void tp_expect_seq(const char *file, int line, const char *what,
				 const int *want, int nwant,
				 const int *got, int ngot)
{
	if (ngot == nwant && !memcmp(got, want, ngot * sizeof(*got)))
		return;
	ksft_print_msg("%s:%d: sequence %s differs\n", file, line, what);
	tp_print_seq("expected", want, nwant);
	tp_print_seq("seen    ", got, ngot);
	ksft_state.current = KSFT_FAIL;
}

/*
 * Capture what this process writes to stderr between tp_stderr_begin() and
 * tp_stderr_end(), which returns it malloc'ed and NUL-terminated.
 */
struct tp_stderr_capture {
	int saved_fd;
	FILE *tmp;
};

static inline void tp_stderr_begin(struct tp_stderr_capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	c->saved_fd = dup(2);
	if (c->tmp)
		dup2(fileno(c->tmp), 2);
}

static inline char *tp_stderr_end(struct tp_stderr_capture *c)
{
	char *buf;
	long len;

	fflush(stderr);
	dup2(c->saved_fd, 2);
	close(c->saved_fd);
	if (!c->tmp)
		return strdup("(tmpfile failed)");
	len = ftell(c->tmp);
	buf = calloc(1, len > 0 ? len + 1 : 1);
	if (buf && len > 0) {
		rewind(c->tmp);
		if (fread(buf, 1, len, c->tmp) != (size_t)len)
			buf[0] = '\0';
	}
	fclose(c->tmp);
	return buf;
}

#endif /* _TP_TEST_H */
