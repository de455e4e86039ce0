/* SPDX-License-Identifier: MIT */
/*
 * Small compiler helpers shared by the public ustrace headers.
 *
 * Everything here is expanded inside the user's program, so every name
 * either matches the kernel's (where a kernel developer would expect it)
 * or carries the __ustrace prefix.
 */
#ifndef _USTRACE_LINUX_COMPILER_H
#define _USTRACE_LINUX_COMPILER_H

#ifndef __always_inline
# define __always_inline	inline __attribute__((__always_inline__))
#endif

#ifndef likely
# define likely(x)		__builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
# define unlikely(x)		__builtin_expect(!!(x), 0)
#endif

#ifndef __stringify
# define __stringify_1(...)	#__VA_ARGS__
# define __stringify(...)	__stringify_1(__VA_ARGS__)
#endif

#ifndef PARAMS
# define PARAMS(...)		__VA_ARGS__
#endif

#ifndef IS_ENABLED
/*
 * IS_ENABLED(CONFIG_FOO) is 1 when the generated header defines
 * CONFIG_FOO to 1 and 0 otherwise, usable in both #if and C expressions.
 */
# define __USTRACE_ARG_PLACEHOLDER_1		0,
# define __ustrace_take_second(ignored, val, ...)	val
# define __ustrace_is_defined(x)		___ustrace_is_defined(x)
# define ___ustrace_is_defined(val)		____ustrace_is_defined(__USTRACE_ARG_PLACEHOLDER_##val)
# define ____ustrace_is_defined(arg1_or_junk)	__ustrace_take_second(arg1_or_junk 1, 0, 0)
# define IS_ENABLED(option)			__ustrace_is_defined(option)
#endif

#ifdef __cplusplus
# define __USTRACE_BEGIN_DECLS	extern "C" {
# define __USTRACE_END_DECLS	}
#else
# define __USTRACE_BEGIN_DECLS
# define __USTRACE_END_DECLS
#endif

/* Symbols the library exports to programs and that programs export to us. */
#define __ustrace_visible	__attribute__((__visibility__("default")))

#endif /* _USTRACE_LINUX_COMPILER_H */
