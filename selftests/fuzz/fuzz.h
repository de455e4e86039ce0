/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fuzz targets, for libFuzzer and for the replay of their inputs. */
#ifndef _USTRACE_SELFTESTS_FUZZ_H
#define _USTRACE_SELFTESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A target's seeds, for replay.c: seed @i into @buf, its length (0: none). */
size_t fuzz_seed(unsigned int i, uint8_t *buf, size_t size);
extern const unsigned int fuzz_nr_seeds;

/*
 * A line of the target's corpus (corpus/TARGET.txt) as an input: @event
 * names what the input's first byte picks, @text is the parser's input.
 * Return: its length, or 0 for an event the target does not know.
 */
size_t fuzz_corpus_input(const char *event, const char *text, uint8_t *buf, size_t size);

#endif /* _USTRACE_SELFTESTS_FUZZ_H */
