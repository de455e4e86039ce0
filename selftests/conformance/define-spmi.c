// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The events of the corpus's trace/events/spmi.h, defined as a kernel file
 * defines them: its kernel headers (kstubs.h) first.  Its spmi_cmd prints
 * the output function's own "ret" (TRACE_TYPE_HANDLED) where it means the
 * record's.
 */
#include "kstubs.h"

#define CREATE_TRACE_POINTS
#include <trace/events/spmi.h>
