// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stress-long: stress.c for "make stress", 60 seconds unless
 * USTRACE_STRESS_SECS says otherwise.
 */
#define STRESS_DEFAULT_SECS	60
#include "stress.c"
