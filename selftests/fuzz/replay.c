// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replays fuzz inputs of one target without libFuzzer, in "make check":
 * the target's seeds (fuzz_seed()) and every file of
 * selftests/fuzz/regress/ named FUZZ_TARGET-*.in (inputs that once
 * failed, kept by "make fuzz").  "REPLAY --seeds DIR" writes the seeds
 * into DIR for "make fuzz" to start from; "REPLAY FILE..." replays files.
 *
 * Included by replay-TARGET.c, which defines FUZZ_TARGET; linked with the
 * target's LLVMFuzzerTestOneInput() and its seeds.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kselftest.h"

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

static int write_seeds(const char *dir)
{
	static uint8_t buf[8192];
	char path[4096];
	unsigned int i;

	for (i = 0; i < fuzz_nr_seeds; i++) {
		size_t n = fuzz_seed(i, buf, sizeof(buf));
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

	for (i = 0; i < fuzz_nr_seeds; i++)
		LLVMFuzzerTestOneInput(buf, fuzz_seed(i, buf, sizeof(buf)));
	ksft_test_result_pass("%u %s seeds\n", fuzz_nr_seeds, FUZZ_TARGET);
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

		if (len < 3 || strcmp(de->d_name + len - 3, ".in") ||
		    strncmp(de->d_name, FUZZ_TARGET "-", strlen(FUZZ_TARGET) + 1))
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
	ksft_test_result_pass("%u %s inputs of %s\n", n, FUZZ_TARGET, dir);
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
