/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fuzz targets, for libFuzzer and for the replay of their inputs. */
#ifndef _USTRACE_SELFTESTS_FUZZ_H
#define _USTRACE_SELFTESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* _USTRACE_SELFTESTS_FUZZ_H */
