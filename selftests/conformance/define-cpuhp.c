// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The events of the corpus's trace/events/cpuhp.h, defined as a kernel file
 * defines them: its kernel headers (kstubs.h) first.
 */
#include "kstubs.h"

#define CREATE_TRACE_POINTS
#include <trace/events/cpuhp.h>
