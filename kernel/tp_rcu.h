/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracepoints' RCU (tp_rcu.c): the tracepoint core's own, as
 * jump_label.h is.  The read side a site inlines is in <linux/tracepoint.h>.
 */
#ifndef _USTRACE_KERNEL_TP_RCU_H
#define _USTRACE_KERNEL_TP_RCU_H

#include <stdbool.h>

void tp_rcu_init(void);
void tp_rcu_synchronize(void);
void tp_rcu_read_lock(void);
void tp_rcu_read_unlock(void);
bool tp_rcu_read_ongoing(void);

#endif /* _USTRACE_KERNEL_TP_RCU_H */
