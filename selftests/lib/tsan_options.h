/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A test program's ThreadSanitizer options, built in: TEST_TSAN_OPTIONS
 * ("a=1:b=0") defines __tsan_default_options() in a ThreadSanitizer
 * build and nothing otherwise.  The variant's TSAN_OPTIONS still apply on
 * top of them.  TEST_TSAN is defined in such a build.
 */
#ifndef _USTRACE_SELFTESTS_TSAN_OPTIONS_H
#define _USTRACE_SELFTESTS_TSAN_OPTIONS_H

#if defined(__SANITIZE_THREAD__)
# define TEST_TSAN 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define TEST_TSAN 1
# endif
#endif

#ifdef TEST_TSAN
# define TEST_TSAN_OPTIONS(opts)					\
	const char *__tsan_default_options(void);			\
	const char *__tsan_default_options(void)			\
	{								\
		return opts;						\
	}
#else
# define TEST_TSAN_OPTIONS(opts)
#endif

#endif /* _USTRACE_SELFTESTS_TSAN_OPTIONS_H */
