/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef _SELFTESTS_TEP_GLUE_H
#define _SELFTESTS_TEP_GLUE_H

#include <stddef.h>

int tep_glue_init(void);
int tep_glue_warnings(void);
/* Returns libtraceevent's enum tep_errno (0 for success). */
int tep_glue_parse(const char *format, const char *system);
int tep_glue_render(const void *data, int size, char *out, size_t out_size);

#endif
