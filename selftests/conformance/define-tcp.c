// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The events of the corpus's trace/events/tcp.h, defined as a kernel file
 * defines them: its kernel headers (kstubs.h) first.  The kernel defines
 * them in net/core/net-traces.c, after trace/events/sock.h, whose
 * show_family_name() and show_tcp_state_name() tcp.h's print fmts use:
 * sock.h is included first here too (its events are define-sock.c's).
 */
#include "kstubs.h"
#include <trace/events/sock.h>

#define CREATE_TRACE_POINTS
#include <trace/events/tcp.h>
