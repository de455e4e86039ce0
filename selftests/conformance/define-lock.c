// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The events of the corpus's trace/events/lock.h, defined as a kernel file
 * defines them: its kernel headers (kstubs.h) first. Without
 * CONFIG_LOCKDEP (as the reference kernel): contention_begin and
 * contention_end.
 */
#include "kstubs.h"

#define CREATE_TRACE_POINTS
#include <trace/events/lock.h>
