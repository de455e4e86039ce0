/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Interface between the generic jump label code and the architecture's
 * text patching.  Internal to libustrace.
 */
#ifndef _USTRACE_KERNEL_JUMP_LABEL_H
#define _USTRACE_KERNEL_JUMP_LABEL_H

#include <stdbool.h>
#include <linux/jump_label.h>

/*
 * arch_jump_label_init - may this process rewrite its own text?
 *
 * Called once, with jump_label_mutex held.  Returns false where patching is
 * refused (USTRACE_JUMP_LABEL=0 in the environment, no membarrier
 * SYNC_CORE, an architecture without support); sites then keep their
 * fallback form for the life of the process.
 */
bool arch_jump_label_init(void);

/*
 * arch_jump_label_transform_queue - plan to turn @entry's site into a JMP
 * to its target (@enable) or a NOP.  The queue has a fixed size; when it
 * is full it is applied first.  Returns 0, or the error of that apply.
 */
int arch_jump_label_transform_queue(struct jump_entry *entry, bool enable);

/*
 * arch_jump_label_transform_apply - rewrite every queued site, safely
 * against threads that execute them meanwhile.  Returns 0, or -errno when
 * the text could not be made writable; nothing was modified then.  The
 * queue is empty afterwards either way.
 */
int arch_jump_label_transform_apply(void);

#endif /* _USTRACE_KERNEL_JUMP_LABEL_H */
