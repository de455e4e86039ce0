// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Two shared objects that define the same tracepoint name.
 *
 *   tp-dup-a.so  dup_tp (int *a, long b)
 *   tp-dup-b.so  dup_tp (long a)               a different prototype
 *   tp-dup-c.so  dup_tp (int * a,long   b)     a's, other white space
 *
 * Different prototypes must be reported on stderr, naming both objects,
 * and the later definition left out of the name space; the same
 * prototype, however spaced, is accepted silently.
 */
#include <dlfcn.h>
#include <limits.h>
#include <linux/tracepoint.h>

#include "tp_test.h"
#include "self_path.h"

static char path_a[PATH_MAX], path_b[PATH_MAX], path_c[PATH_MAX];

/*
 * The RTLD_GLOBAL cases bind two definitions of __tracepoint_dup_tp to one
 * symbol on purpose; AddressSanitizer's ODR check would stop the program
 * before the library could say so.  (The environment can still override.)
 */
__attribute__((__used__, __visibility__("default")))
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_odr_violation=0";
}

static void find_objects(void)
{
	if (self_path(path_a, sizeof(path_a), "tp-dup-a.so") ||
	    self_path(path_b, sizeof(path_b), "tp-dup-b.so") ||
	    self_path(path_c, sizeof(path_c), "tp-dup-c.so"))
		ksft_exit_fail_msg("the objects beside /proc/self/exe: %s\n",
				   strerror(errno));
}

static void *open_or_fail(const char *path, int flags)
{
	void *h = dlopen(path, flags);

	if (!h)
		tp_fail("dlopen(%s): %s", path, dlerror());
	return h;
}

/* The struct the object's own code uses (its dup_self()). */
static struct tracepoint *self_of(void *h)
{
	struct tracepoint *(*self)(void);

	self = (struct tracepoint *(*)(void))dlsym(h, "dup_self");
	if (!self) {
		tp_fail("dlsym(dup_self): %s", dlerror());
		return NULL;
	}
	return self();
}

static void count_dup(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "dup_tp"))
		(*(int *)priv)++;
}

static int listed(void)
{
	int n = 0;

	for_each_kernel_tracepoint(count_dup, &n);
	return n;
}

static int occurrences(const char *hay, const char *needle)
{
	int n = 0;

	while (hay && (hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static const char msg_head[] =
	"ustrace: tracepoint \"dup_tp\" is defined twice with different "
	"prototypes:";

/* The message, with @last as its closing line. */
static void expect_conflict_report(const char *err, const char *last)
{
	char line[PATH_MAX + 64];

	EXPECT_EQ(1, occurrences(err, msg_head));
	snprintf(line, sizeof(line), "ustrace:   (int *a, long b) in %s\n",
		 path_a);
	EXPECT_STR_CONTAINS(err, line);
	snprintf(line, sizeof(line), "ustrace:   (long a) in %s\n", path_b);
	EXPECT_STR_CONTAINS(err, line);
	EXPECT_STR_CONTAINS(err, last);
}

static void test_different_prototypes(void)
{
	struct tp_stderr_capture cap;
	void *ha, *hb;
	char *err;

	EXPECT_EQ(NULL, tracepoint_lookup("dup_tp"));
	tp_stderr_begin(&cap);
	ha = open_or_fail(path_a, RTLD_NOW | RTLD_LOCAL);
	hb = open_or_fail(path_b, RTLD_NOW | RTLD_LOCAL);
	err = tp_stderr_end(&cap);
	if (!ha || !hb)
		goto out;

	expect_conflict_report(err, "ustrace: the definition in tp-dup-b.so "
			       "is ignored\n");
	/* Two structs; the first one owns the name. */
	EXPECT_NE(self_of(hb), self_of(ha));
	EXPECT_EQ(self_of(ha), tracepoint_lookup("dup_tp"));
	EXPECT_EQ(1, listed());

	/* Unloading the ignored one changes nothing. */
	EXPECT_EQ(0, dlclose(hb));
	hb = NULL;
	EXPECT_EQ(self_of(ha), tracepoint_lookup("dup_tp"));
	EXPECT_EQ(1, listed());
out:
	if (hb)
		dlclose(hb);
	if (ha)
		dlclose(ha);
	EXPECT_EQ(NULL, tracepoint_lookup("dup_tp"));
	EXPECT_EQ(0, listed());
	free(err);
}

/* b bound to a's struct: the dynamic linker merged the two symbols. */
static void test_different_prototypes_global(void)
{
	struct tp_stderr_capture cap;
	void *ha, *hb;
	char *err;

	EXPECT_EQ(NULL, tracepoint_lookup("dup_tp"));
	tp_stderr_begin(&cap);
	ha = open_or_fail(path_a, RTLD_NOW | RTLD_GLOBAL);
	hb = open_or_fail(path_b, RTLD_NOW | RTLD_LOCAL);
	err = tp_stderr_end(&cap);
	if (ha && hb) {
		EXPECT_EQ(self_of(ha), self_of(hb));
		/* Nothing can be ignored: both objects use one struct. */
		expect_conflict_report(err, "ustrace: the dynamic linker bound "
				       "both to the definition in tp-dup-a.so");
		EXPECT_STR_LACKS(err, "is ignored");
		EXPECT_EQ(self_of(ha), tracepoint_lookup("dup_tp"));
		EXPECT_EQ(1, listed());
		EXPECT_EQ(0, dlclose(hb));
		hb = NULL;
		/* a's definition survives b's destructor. */
		EXPECT_EQ(self_of(ha), tracepoint_lookup("dup_tp"));
	}
	if (hb)
		dlclose(hb);
	if (ha)
		dlclose(ha);
	EXPECT_EQ(NULL, tracepoint_lookup("dup_tp"));
	free(err);
}

static void test_same_prototype(void)
{
	struct tp_stderr_capture cap;
	void *ha, *hc;
	char *err;

	EXPECT_EQ(NULL, tracepoint_lookup("dup_tp"));
	tp_stderr_begin(&cap);
	ha = open_or_fail(path_a, RTLD_NOW | RTLD_LOCAL);
	hc = open_or_fail(path_c, RTLD_NOW | RTLD_LOCAL);
	err = tp_stderr_end(&cap);
	if (ha && hc) {
		EXPECT_STR_LACKS(err, "ustrace:");
		EXPECT_EQ(self_of(ha), tracepoint_lookup("dup_tp"));
		EXPECT_NE(self_of(hc), self_of(ha));
		/* Each definition is in the name space. */
		EXPECT_EQ(2, listed());
		/* Once a is gone, c's definition answers for the name. */
		EXPECT_EQ(0, dlclose(ha));
		ha = NULL;
		EXPECT_EQ(self_of(hc), tracepoint_lookup("dup_tp"));
		EXPECT_EQ(1, listed());
	}
	if (hc)
		dlclose(hc);
	if (ha)
		dlclose(ha);
	EXPECT_EQ(NULL, tracepoint_lookup("dup_tp"));
	free(err);
}

static void test_same_prototype_global(void)
{
	struct tp_stderr_capture cap;
	void *ha, *hc;
	char *err;

	tp_stderr_begin(&cap);
	ha = open_or_fail(path_a, RTLD_NOW | RTLD_GLOBAL);
	hc = open_or_fail(path_c, RTLD_NOW | RTLD_LOCAL);
	err = tp_stderr_end(&cap);
	if (ha && hc) {
		EXPECT_STR_LACKS(err, "ustrace:");
		EXPECT_EQ(self_of(ha), self_of(hc));
		EXPECT_EQ(self_of(ha), tracepoint_lookup("dup_tp"));
		EXPECT_EQ(1, listed());
	}
	if (hc)
		dlclose(hc);
	if (ha)
		dlclose(ha);
	EXPECT_EQ(NULL, tracepoint_lookup("dup_tp"));
	free(err);
}

int main(void)
{
	find_objects();
	tp_plan(4, 20);
	tp_run("different prototypes, RTLD_LOCAL: reported, first one owns",
	       test_different_prototypes);
	tp_run("different prototypes, one symbol: reported",
	       test_different_prototypes_global);
	tp_run("same prototype, other white space: no message",
	       test_same_prototype);
	tp_run("same prototype, one symbol: no message",
	       test_same_prototype_global);
	return tp_exit();
}
