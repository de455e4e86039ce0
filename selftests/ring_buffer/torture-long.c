// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rb-torture-long: torture.c for "make stress", 20 seconds a phase unless
 * RB_TORTURE_SECONDS says otherwise.
 */
#define RB_TORTURE_DEFAULT_SECONDS	20.0
#include "torture.c"
