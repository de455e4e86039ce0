// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replays fuzz inputs without libFuzzer, in "make check": the seeds (each
 * filter of selftests/filter/kernel-texts.h, on each event) and every
 * file of selftests/fuzz/regress/ (inputs that once crashed, kept by
 * "make fuzz").  "fuzz-replay --seeds DIR" writes the seeds into DIR
 * for "make fuzz" to start from; "fuzz-replay FILE..." replays files.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kernel-texts.h"
#include "kselftest.h"

#define NR_EVENTS	5

static int replay_file(const char *path)
{
	static uint8_t buf[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return LLVMFuzzerTestOneInput(buf, n);
}

/* Each expression on each event: input = event byte, expression, NUL, record bytes. */
static size_t seed(unsigned int i, uint8_t *buf, size_t size)
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

#define NR_SEEDS	(NR_EVENTS * sizeof(kernel_texts) / sizeof(kernel_texts[0]))

static int write_seeds(const char *dir)
{
	static uint8_t buf[8192];
	char path[4096];
	unsigned int i;

	for (i = 0; i < NR_SEEDS; i++) {
		size_t n = seed(i, buf, sizeof(buf));
		FILE *f;

		snprintf(path, sizeof(path), "%s/seed-%04u", dir, i);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, n, f) != n) {
			perror(path);
			return 1;
		}
		fclose(f);
	}
	return 0;
}

static void replay_seeds(void)
{
	static uint8_t buf[8192];
	unsigned int i;

	for (i = 0; i < NR_SEEDS; i++)
		LLVMFuzzerTestOneInput(buf, seed(i, buf, sizeof(buf)));
	ksft_test_result_pass("%u seeds\n", (unsigned int)NR_SEEDS);
}

static void replay_regress(void)
{
	const char *src = getenv("USTRACE_SRCTREE");
	char dir[4096], path[8192];
	unsigned int n = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/selftests/fuzz/regress", src ? src : ".");
	d = opendir(dir);
	if (!d) {
		ksft_test_result_fail("%s: %s\n", dir, strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 3 || strcmp(de->d_name + len - 3, ".in"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (replay_file(path) < 0) {
			ksft_test_result_fail("%s: cannot read\n", path);
			closedir(d);
			return;
		}
		n++;
	}
	closedir(d);
	ksft_test_result_pass("%u inputs of %s\n", n, dir);
}

int main(int argc, char **argv)
{
	int i;

	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		return write_seeds(argv[2]);
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			if (replay_file(argv[i]) < 0)
				perror(argv[i]);
		return 0;
	}
	ksft_print_header();
	ksft_set_plan(2);
	replay_seeds();
	replay_regress();
	ksft_finished();
	return 0;
}
