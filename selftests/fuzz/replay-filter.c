// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz-replay: the filter target's replay (replay.c), with its seeds:
 * each filter of selftests/filter/kernel-texts.h on each event.
 */
#include <string.h>

#include "fuzz.h"
#include "kernel-texts.h"

#define FUZZ_TARGET	"filter"
#define NR_EVENTS	5

const unsigned int fuzz_nr_seeds = NR_EVENTS * sizeof(kernel_texts) / sizeof(kernel_texts[0]);

/* Input = event byte, expression, NUL, record bytes. */
size_t fuzz_seed(unsigned int i, uint8_t *buf, size_t size)
{
	const char *expr = kernel_texts[i / NR_EVENTS].expr;
	size_t len = strlen(expr);

	if (len + 10 > size)
		return 0;
	buf[0] = (uint8_t)(i % NR_EVENTS);
	memcpy(buf + 1, expr, len + 1);
	memcpy(buf + len + 2, "\x01\x00\x00\x00seed", 8);
	return len + 10;
}

#include "replay.c"
