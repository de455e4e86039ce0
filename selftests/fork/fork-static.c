// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork-safety-static: fork.c linked with libustrace.a, whose objects
 * register their fork handlers from their own constructors; only the
 * cases whose children are forked.
 */
#define FORK_STATIC 1
#include "fork.c"
