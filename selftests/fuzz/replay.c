// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replays fuzz inputs of one target without libFuzzer, in "make check":
 * the target's seeds (fuzz_seed()), its corpus (selftests/fuzz/corpus/
 * FUZZ_TARGET.txt: the documented examples of its parser, one a line,
 * made into inputs by fuzz_corpus_input()) and every file of
 * selftests/fuzz/regress/ named FUZZ_TARGET-*.in (inputs that once
 * failed, kept by "make fuzz").  A missing or empty corpus, an unreadable
 * line or file, or no input read from the tree at all is a failure: a
 * replay of nothing proves nothing.  "REPLAY --seeds DIR" writes all of
 * them into DIR for "make fuzz" to start from; "REPLAY FILE..." replays
 * files.
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

#define INPUT_MAX	(1 << 16)

/* An input, as replayed or written as a seed. */
typedef void (*input_fn)(const uint8_t *data, size_t size, void *arg);

static const char *srctree(void)
{
	const char *src = getenv("USTRACE_SRCTREE");

	return src ? src : ".";
}

static int read_file(const char *path, uint8_t *buf, size_t *n)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return -errno;
	*n = fread(buf, 1, INPUT_MAX, f);
	fclose(f);
	return 0;
}

static int replay_file(const char *path)
{
	static uint8_t buf[INPUT_MAX];
	size_t n = 0;
	int err = read_file(path, buf, &n);

	return err ? err : LLVMFuzzerTestOneInput(buf, n);
}

/*
 * Each input of the corpus to @fn.  Return: how many, or -1 (the file is
 * missing, or a line names what the target does not know: @why says).
 */
static int for_each_corpus_input(input_fn fn, void *arg, char *why, size_t whysize)
{
	static uint8_t buf[INPUT_MAX];
	char path[4096], line[8192];
	int n = 0, lineno = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/selftests/fuzz/corpus/%s.txt", srctree(), FUZZ_TARGET);
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, whysize, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
		size_t len;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (nl)
			*nl = '\0';
		if (tab)
			*tab = '\0';
		len = tab ? fuzz_corpus_input(line, tab + 1, buf, sizeof(buf)) : 0;
		if (!len) {
			snprintf(why, whysize, "%s:%d: not EVENT<tab>TEXT of a known event",
				 path, lineno);
			fclose(f);
			return -1;
		}
		fn(buf, len, arg);
		n++;
	}
	fclose(f);
	return n;
}

/* Each regress/FUZZ_TARGET-*.in to @fn.  Return: how many, or -1. */
static int for_each_regress_input(input_fn fn, void *arg, char *why, size_t whysize)
{
	static uint8_t buf[INPUT_MAX];
	char dir[4096], path[8192];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/selftests/fuzz/regress", srctree());
	d = opendir(dir);
	if (!d) {
		snprintf(why, whysize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), size = 0;

		if (len < 3 || strcmp(de->d_name + len - 3, ".in") ||
		    strncmp(de->d_name, FUZZ_TARGET "-", strlen(FUZZ_TARGET) + 1))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (read_file(path, buf, &size)) {
			snprintf(why, whysize, "%s: cannot read", path);
			closedir(d);
			return -1;
		}
		fn(buf, size, arg);
		n++;
	}
	closedir(d);
	return n;
}

static void replay_input(const uint8_t *data, size_t size, void *arg)
{
	(void)arg;
	LLVMFuzzerTestOneInput(data, size);
}

struct seed_dir {
	const char	*dir;
	unsigned int	n;
	int		err;
};

static void write_input(const uint8_t *data, size_t size, void *arg)
{
	struct seed_dir *sd = arg;
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%04u", sd->dir, sd->n++);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size) {
		perror(path);
		sd->err = 1;
	}
	if (f)
		fclose(f);
}

static int write_seeds(const char *dir)
{
	static uint8_t buf[8192];
	struct seed_dir sd = { .dir = dir };
	char why[16384];

	for (unsigned int i = 0; i < fuzz_nr_seeds; i++)
		write_input(buf, fuzz_seed(i, buf, sizeof(buf)), &sd);
	if (for_each_corpus_input(write_input, &sd, why, sizeof(why)) < 0 ||
	    for_each_regress_input(write_input, &sd, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	return sd.err;
}

static void replay_seeds(void)
{
	static uint8_t buf[8192];
	unsigned int i;

	for (i = 0; i < fuzz_nr_seeds; i++)
		LLVMFuzzerTestOneInput(buf, fuzz_seed(i, buf, sizeof(buf)));
	ksft_test_result(fuzz_nr_seeds > 0, "%u %s seeds\n", fuzz_nr_seeds, FUZZ_TARGET);
}

int main(int argc, char **argv)
{
	char why[16384];
	int corpus, regress, i;

	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		return write_seeds(argv[2]);
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			if (replay_file(argv[i]) < 0)
				perror(argv[i]);
		return 0;
	}
	ksft_print_header();
	ksft_set_plan(4);
	replay_seeds();
	corpus = for_each_corpus_input(replay_input, NULL, why, sizeof(why));
	if (corpus < 0)
		ksft_test_result_fail("the %s corpus: %s\n", FUZZ_TARGET, why);
	else
		ksft_test_result(corpus > 0, "%d inputs of the %s corpus\n", corpus, FUZZ_TARGET);
	regress = for_each_regress_input(replay_input, NULL, why, sizeof(why));
	if (regress < 0)
		ksft_test_result_fail("the %s regressions: %s\n", FUZZ_TARGET, why);
	else
		ksft_test_result_pass("%d %s regressions\n", regress, FUZZ_TARGET);
	ksft_test_result((corpus > 0 ? corpus : 0) + (regress > 0 ? regress : 0) > 0,
			 "inputs from %s/selftests/fuzz\n", srctree());
	ksft_finished();
	return 0;
}
