// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The USTRACE_* variables, read one way everywhere.
 *
 * A set-user-ID or set-group-ID program (or one that gained capabilities
 * at exec: the kernel's AT_SECURE) runs with privileges its caller does
 * not have, in an environment the caller wrote.  A variable that names a
 * path would let the caller make it create, replace or mount over files
 * the caller cannot touch; others (mount options, buffer sizes) are no
 * better.  So every variable is read with secure_getenv(), which sees
 * nothing in such a process, and the variables that name a path are also
 * refused in a process whose real and effective user or group ids differ
 * by the time they are read (a daemon that switched its effective ids).
 * A variable that is set but refused is named once on standard error, so
 * that the user learns why nothing happened.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>

#include "internal.h"

/* The variables already named on stderr: a few, each warned once. */
#define ENV_WARNED_MAX	16
static const char *env_warned[ENV_WARNED_MAX];

static bool env_ids_differ(void)
{
	return getuid() != geteuid() || getgid() != getegid();
}

/* Name @name once (the names are string literals of the callers). */
static void env_refused(const char *name, const char *why)
{
	for (unsigned int i = 0; i < ENV_WARNED_MAX; i++) {
		const char *seen = __atomic_load_n(&env_warned[i], __ATOMIC_ACQUIRE);

		if (seen && !strcmp(seen, name))
			return;
		if (!seen && __atomic_compare_exchange_n(&env_warned[i], &seen, name, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
		if (seen && !strcmp(seen, name))
			return;
	}
	fprintf(stderr, "ustrace: %s ignored: %s\n", name, why);
}

/**
 * ustrace_getenv - a USTRACE_* variable, as secure_getenv() sees it
 * @name: the variable
 *
 * Return: its value, or NULL when it is unset or the process runs with
 * privileges its caller does not have (then, if it is set, it is named
 * once on stderr).
 * Context: any thread.
 */
const char *ustrace_getenv(const char *name)
{
	const char *val = secure_getenv(name);

	if (!val && getauxval(AT_SECURE) && getenv(name))
		env_refused(name, "the program runs set-user-ID or set-group-ID");
	return val;
}

/**
 * ustrace_getenv_path - a USTRACE_* variable that names a file or directory
 * @name: the variable
 *
 * As ustrace_getenv(), and refused too while the real and effective user
 * or group ids differ.
 *
 * Return: its value, or NULL.
 * Context: any thread.
 */
const char *ustrace_getenv_path(const char *name)
{
	const char *val = ustrace_getenv(name);

	if (val && env_ids_differ()) {
		env_refused(name, "the real and effective user or group ids differ");
		return NULL;
	}
	return val;
}

/** ustrace_env_untrusted - whether the environment may not name paths */
bool ustrace_env_untrusted(void)
{
	return getauxval(AT_SECURE) || env_ids_differ();
}
