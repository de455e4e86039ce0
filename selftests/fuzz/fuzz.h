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

#endif /* _USTRACE_SELFTESTS_FUZZ_H */
