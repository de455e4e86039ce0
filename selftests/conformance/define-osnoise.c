// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The events of the corpus's trace/events/osnoise.h, defined as a kernel
 * file defines them: its kernel headers (kstubs.h) first.  The kernel
 * defines them in kernel/trace/trace_osnoise.c, after including
 * trace/events/irq.h, whose show_softirq_name() softirq_noise prints
 * with: irq.h is included first here too (its events are define-irq.c's).
 */
#include "kstubs.h"
#include <trace/events/irq.h>

#define CREATE_TRACE_POINTS
#include <trace/events/osnoise.h>
