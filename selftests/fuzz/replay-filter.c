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

/* The target's events, in the order of its selector byte (filter_fuzz.c). */
static const char *const event_names[NR_EVENTS] = {
	"sched_switch", "sched_wakeup", "signal_generate", "flt_all", "flt_small",
};

/* Input = event byte, expression, NUL, record bytes. */
static size_t make_input(uint8_t sel, const char *expr, uint8_t *buf, size_t size)
{
	size_t len = strlen(expr);

	if (len + 10 > size)
		return 0;
	buf[0] = sel;
	memcpy(buf + 1, expr, len + 1);
	memcpy(buf + len + 2, "\x01\x00\x00\x00seed", 8);
	return len + 10;
}

size_t fuzz_seed(unsigned int i, uint8_t *buf, size_t size)
{
	return make_input((uint8_t)(i % NR_EVENTS), kernel_texts[i / NR_EVENTS].expr, buf, size);
}

/* "EVENT" or "raw:EVENT" (compiled only: the selector's top bit). */
size_t fuzz_corpus_input(const char *event, const char *text, uint8_t *buf, size_t size)
{
	uint8_t raw = strncmp(event, "raw:", 4) ? 0 : 0x80;

	for (unsigned int e = 0; e < NR_EVENTS; e++)
		if (!strcmp(event + (raw ? 4 : 0), event_names[e]))
			return make_input((uint8_t)(e | raw), text, buf, size);
	return 0;
}

#include "replay.c"
