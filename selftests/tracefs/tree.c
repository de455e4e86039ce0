// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The shape of the tree: names, modes, lookups, readdir, instances made
 * and removed, events that come and go with their objects.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#include "../../kernel/trace/trace_array.h"

#include "tfs_test.h"

static const char *const top_names[] = {
	"README", "available_events", "available_tracers", "buffer_percent",
	"buffer_size_kb", "buffer_total_size_kb", "current_tracer", "dynamic_events",
	"error_log", "events", "instances", "options", "per_cpu", "printk_formats",
	"saved_cmdlines", "saved_cmdlines_size", "saved_tgids", "set_event",
	"set_event_notrace_pid", "set_event_pid", "snapshot", "synthetic_events", "trace",
	"trace_clock", "trace_marker", "trace_marker_raw", "trace_options", "trace_pipe",
	"tracing_cpumask", "tracing_on", NULL
};

/* What the kernel's instances have not. */
static const char *const top_only[] = {
	"README", "available_events", "dynamic_events", "instances", "printk_formats",
	"saved_cmdlines", "saved_cmdlines_size", "saved_tgids", "synthetic_events", NULL
};

static int name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

static void test_root_names(void)
{
	for (const char *const *n = top_names; *n; n++)
		EXPECT_TRUE(tfs_dir_has("", *n));
	EXPECT_FALSE(tfs_dir_has("", "set_ftrace_filter"));
}

/* A CPU's directory: the kernel's files but its snapshot ones (events.rst). */
static void test_per_cpu_names(void)
{
	static const char *const have[] = {
		"buffer_size_kb", "stats", "trace", "trace_pipe", "trace_pipe_raw",
	};

	for (size_t i = 0; i < ARRAY_LEN(have); i++)
		EXPECT_TRUE(tfs_dir_has("per_cpu/cpu0", have[i]));
	EXPECT_FALSE(tfs_dir_has("per_cpu/cpu0", "snapshot"));
	EXPECT_FALSE(tfs_dir_has("per_cpu/cpu0", "snapshot_raw"));
	EXPECT_EQ(-ENOENT, tfs_path("per_cpu/cpu0/snapshot"));
}

/* Modes as tracefs's: no bits for others. */
static const struct {
	const char	*path;
	mode_t		mode;
} modes[] = {
	{ "",					S_IFDIR | 0750 },
	{ "events",				S_IFDIR | 0750 },
	{ "per_cpu/cpu0",			S_IFDIR | 0750 },
	{ "README",				S_IFREG | 0440 },
	{ "trace_pipe",				S_IFREG | 0440 },
	{ "per_cpu/cpu0/trace_pipe_raw",	S_IFREG | 0440 },
	{ "events/tfs_test/tfs_one/format",	S_IFREG | 0440 },
	{ "events/tfs_test/tfs_one/hist",	S_IFREG | 0440 },
	{ "events/tfs_test/tfs_one/trigger",	S_IFREG | 0640 },
	{ "snapshot",				S_IFREG | 0640 },
	{ "trace",				S_IFREG | 0640 },
	{ "events/tfs_test/tfs_one/enable",	S_IFREG | 0640 },
	{ "options/overwrite",			S_IFREG | 0640 },
	{ "trace_marker",			S_IFREG | 0220 },
	{ "trace_marker_raw",			S_IFREG | 0220 },
};

static void test_modes(void)
{
	for (size_t i = 0; i < ARRAY_LEN(modes); i++)
		if (tfs_mode(modes[i].path) != modes[i].mode) {
			ksft_print_msg("%s: mode %o\n", modes[i].path, tfs_mode(modes[i].path));
			EXPECT_EQ(modes[i].mode, tfs_mode(modes[i].path));
		}
}

static void test_lookup_errors(void)
{
	struct tfs_stat st;
	int64_t readme = tfs_path("README");

	EXPECT_EQ(-ENOENT, tfs_path("nonexistent"));
	EXPECT_EQ(-ENOENT, tfs_path("events/nosys"));
	EXPECT_EQ(-ENOTDIR, tfs_path("README/x"));
	ASSERT_GT(readme, 0);
	EXPECT_EQ(-ENOTDIR, tfs_readdir((uint64_t)readme, 0, NULL, NULL));
	EXPECT_EQ(-ENOENT, tfs_getattr(1ull << 40, &st));
	EXPECT_EQ(-ENOENT, tfs_getattr(0, &st));
	EXPECT_EQ(0, tfs_getattr(TFS_ROOT_INO, &st));
	EXPECT_EQ(S_IFDIR | 0750, st.mode);
	EXPECT_EQ(0, st.size);
}

/* Access beyond the mode: EACCES at open, as a user who is not root. */
static void test_open_access(void)
{
	EXPECT_EQ(-EACCES, tfs_open_err("README", O_WRONLY));
	EXPECT_EQ(-EACCES, tfs_open_err("available_events", O_RDWR));
	EXPECT_EQ(-EACCES, tfs_open_err("trace_pipe", O_WRONLY));
	EXPECT_EQ(-EACCES, tfs_open_err("per_cpu/cpu0/stats", O_WRONLY));
	EXPECT_EQ(-EACCES, tfs_open_err("events/header_page", O_WRONLY));
	EXPECT_EQ(-EACCES, tfs_open_err("trace_marker", O_RDONLY));
	EXPECT_EQ(-EISDIR, tfs_open_err("events", O_WRONLY));
	EXPECT_EQ(0, tfs_open_err("trace_marker", O_WRONLY));
	EXPECT_EQ(0, tfs_open_err("trace", O_RDWR));
}

struct collect {
	char	names[64][32];
	off_t	next[64];
	int	n, stop_after;
};

static int collect_fill(void *ctx, const char *name, const struct tfs_stat *st, off_t next)
{
	struct collect *c = ctx;

	(void)st;
	if (c->n == c->stop_after || c->n == 64)
		return 1;
	snprintf(c->names[c->n], sizeof(c->names[0]), "%s", name);
	c->next[c->n++] = next;
	return 0;
}

/* A listing read in two parts gives each entry once. */
static void test_readdir_offsets(void)
{
	struct collect all = { .stop_after = 64 }, part = { .stop_after = 5 };
	int64_t root = tfs_path("");

	ASSERT_EQ(0, tfs_readdir((uint64_t)root, 0, collect_fill, &all));
	ASSERT_EQ(0, tfs_readdir((uint64_t)root, 0, collect_fill, &part));
	ASSERT_EQ(5, part.n);
	part.stop_after = 64;
	ASSERT_EQ(0, tfs_readdir((uint64_t)root, part.next[4], collect_fill, &part));
	ASSERT_EQ(all.n, part.n);
	for (int i = 0; i < all.n; i++)
		EXPECT_STREQ(all.names[i], part.names[i]);
	EXPECT_EQ(30, all.n);
}

static void test_per_cpu_dirs(void)
{
	int cpus = ring_buffer_nr_cpus(trace_get_global_buffer());
	char path[64];

	for (int cpu = 0; cpu < cpus; cpu++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		EXPECT_GT(tfs_path(path), 0);
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		EXPECT_GT(tfs_path(path), 0);
	}
	snprintf(path, sizeof(path), "per_cpu/cpu%d", cpus);
	EXPECT_EQ(-ENOENT, tfs_path(path));
}

static int mkdir_path(const char *parent, const char *name)
{
	struct tfs_stat st;
	int64_t ino = tfs_path(parent);

	return ino < 0 ? (int)ino : tfs_mkdir((uint64_t)ino, name, &st);
}

static int rmdir_path(const char *parent, const char *name)
{
	int64_t ino = tfs_path(parent);

	return ino < 0 ? (int)ino : tfs_rmdir((uint64_t)ino, name);
}

static void test_instance_tree(void)
{
	ASSERT_EQ(0, mkdir_path("instances", "shape"));
	for (const char *const *n = top_names; *n; n++)
		EXPECT_EQ(!name_in(*n, top_only), tfs_dir_has("instances/shape", *n));
	EXPECT_TRUE(tfs_dir_has("instances/shape/events/tfs_test", "tfs_one"));
	EXPECT_TRUE(tfs_dir_has("instances/shape/options", "overwrite"));
	/* As the kernel's: the top-level-only options have no file there. */
	EXPECT_FALSE(tfs_dir_has("instances/shape/options", "record-cmd"));
	EXPECT_TRUE(tfs_dir_has("options", "record-cmd"));
	EXPECT_STREQ("1408\n", tfs_cat("instances/shape/buffer_size_kb"));
	EXPECT_EQ(0, rmdir_path("instances", "shape"));
}

static void test_instance_errors(void)
{
	ASSERT_EQ(0, mkdir_path("instances", "errs"));
	EXPECT_EQ(-EEXIST, mkdir_path("instances", "errs"));
	EXPECT_EQ(-EPERM, mkdir_path("", "newdir"));
	EXPECT_EQ(-EEXIST, mkdir_path("", "events"));
	EXPECT_EQ(-EPERM, mkdir_path("events", "newsys"));
	EXPECT_EQ(-EPERM, mkdir_path("instances/errs", "instances"));
	EXPECT_EQ(-EPERM, rmdir_path("", "events"));
	EXPECT_EQ(-EPERM, rmdir_path("", "per_cpu"));
	EXPECT_EQ(-ENOTDIR, rmdir_path("", "trace"));
	EXPECT_EQ(-ENOENT, rmdir_path("instances", "nonexistent"));
	EXPECT_EQ(0, rmdir_path("instances", "errs"));
	EXPECT_EQ(-ENOENT, rmdir_path("instances", "errs"));
}

/* Names of up to NAME_MAX bytes, as the kernel's VFS: ENAMETOOLONG beyond. */
static void test_name_max(void)
{
	char name[300], path[sizeof(name) + 32];
	struct tfs_stat st;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	name[255] = '\0';
	EXPECT_EQ(0, mkdir_path("instances", name));
	snprintf(path, sizeof(path), "instances/%s/tracing_on", name);
	EXPECT_STREQ("1\n", tfs_cat(path));
	EXPECT_EQ(0, rmdir_path("instances", name));
	name[255] = 'n';
	name[256] = '\0';
	EXPECT_EQ(-ENAMETOOLONG, mkdir_path("instances", name));
	EXPECT_EQ(-ENAMETOOLONG, rmdir_path("instances", name));
	EXPECT_EQ(-ENAMETOOLONG, tfs_lookup(TFS_ROOT_INO, name, &st));
	name[256] = 'n';
	EXPECT_EQ(-ENAMETOOLONG, mkdir_path("instances", name));
	EXPECT_EQ(-ENAMETOOLONG, tfs_lookup(TFS_ROOT_INO, name, &st));
}

/* rmdir is EBUSY while a file of the instance is open; its inodes die with it. */
static void test_instance_busy(void)
{
	struct tfs_file *file;
	struct tfs_stat st;
	int64_t ino;

	ASSERT_EQ(0, mkdir_path("instances", "busy"));
	ino = tfs_path("instances/busy/events/tfs_test/tfs_one/enable");
	ASSERT_GT(ino, 0);
	ASSERT_EQ(0, tfs_open((uint64_t)ino, O_RDONLY, &file));
	EXPECT_EQ(-EBUSY, rmdir_path("instances", "busy"));
	tfs_release(file);
	EXPECT_EQ(0, rmdir_path("instances", "busy"));
	EXPECT_EQ(-ENOENT, tfs_getattr((uint64_t)ino, &st));
	EXPECT_EQ(-ENOENT, tfs_open((uint64_t)ino, O_RDONLY, &file));
	EXPECT_FALSE(tfs_dir_has("instances", "busy"));
}

/* Instances the program makes itself show up, and go. */
static void test_engine_instances(void)
{
	struct trace_array *tr = trace_array_create("engine-made");

	ASSERT_TRUE(tr != NULL);
	EXPECT_TRUE(tfs_dir_has("instances", "engine-made"));
	EXPECT_STREQ("1\n", tfs_cat("instances/engine-made/tracing_on"));
	EXPECT_EQ(0, trace_array_destroy(tr));
	EXPECT_FALSE(tfs_dir_has("instances", "engine-made"));
	EXPECT_EQ(-ENOENT, tfs_path("instances/engine-made"));
}

static struct trace_event_call *two_call(void)
{
	return trace_find_event_call("tfs_test", "tfs_two");
}

/*
 * An event unregistered (its object unloaded) leaves events/ and its
 * inode numbers die; an open file of it (enable, filter, trigger)
 * answers ENODEV; registered again
 * it comes back with new numbers.  The others keep theirs.
 */
static void test_events_follow_registry(void)
{
	struct trace_event_call *call = two_call();
	int64_t dir = tfs_path("events/tfs_test/tfs_two");
	int64_t enable = tfs_path("events/tfs_test/tfs_two/enable");
	int64_t one = tfs_path("events/tfs_test/tfs_one/enable");
	int64_t filter = tfs_path("events/tfs_test/tfs_two/filter");
	int64_t trigger = tfs_path("events/tfs_test/tfs_two/trigger");
	struct tfs_file *file, *ffile, *tfile;
	struct tfs_stat st;
	char buf[64];

	ASSERT_TRUE(call != NULL);
	ASSERT_GT(enable, 0);
	ASSERT_EQ(0, tfs_open((uint64_t)enable, O_RDWR, &file));
	ASSERT_EQ(0, tfs_open((uint64_t)filter, O_RDWR, &ffile));
	ASSERT_EQ(0, tfs_open((uint64_t)trigger, O_WRONLY, &tfile));
	ASSERT_EQ(0, trace_remove_event_call(call));
	EXPECT_EQ(-ENOENT, tfs_path("events/tfs_test/tfs_two"));
	EXPECT_EQ(-ENOENT, tfs_getattr((uint64_t)dir, &st));
	EXPECT_EQ(-ENOENT, tfs_getattr((uint64_t)enable, &st));
	EXPECT_FALSE(tfs_dir_has("events/tfs_test", "tfs_two"));
	EXPECT_EQ(0, tfs_count(tfs_cat("available_events"), "tfs_test:tfs_two\n"));
	/* The kernel's errno for a file whose event is gone. */
	EXPECT_EQ(-ENODEV, tfs_write(file, "1", 1, 0, 0));
	EXPECT_EQ(-ENODEV, tfs_write(ffile, "v > 1", 5, 0, 0));
	EXPECT_EQ(-ENODEV, tfs_write(tfile, "traceoff", 8, 0, 0));
	/* What was read at open stays readable. */
	EXPECT_EQ(5, tfs_read(ffile, buf, sizeof(buf), 0));
	tfs_release(file);
	tfs_release(ffile);
	tfs_release(tfile);
	ASSERT_EQ(0, trace_add_event_call(call));
	EXPECT_GT(tfs_path("events/tfs_test/tfs_two"), enable);
	EXPECT_EQ(-ENOENT, tfs_getattr((uint64_t)enable, &st));
	EXPECT_EQ(one, tfs_path("events/tfs_test/tfs_one/enable"));
	EXPECT_EQ(1, tfs_count(tfs_cat("available_events"), "tfs_test:tfs_two\n"));
}

/* A system whose last event goes goes too. */
static void test_system_follows_registry(void)
{
	struct trace_event_call *one = trace_find_event_call("tfs_test", "tfs_one");
	struct trace_event_call *two = two_call();

	ASSERT_TRUE(one && two);
	ASSERT_EQ(0, trace_remove_event_call(one));
	ASSERT_EQ(0, trace_remove_event_call(two));
	EXPECT_EQ(-ENOENT, tfs_path("events/tfs_test"));
	EXPECT_EQ(0, trace_add_event_call(one));
	EXPECT_EQ(0, trace_add_event_call(two));
	EXPECT_GT(tfs_path("events/tfs_test/tfs_one/enable"), 0);
	EXPECT_GT(tfs_path("instances"), 0);
}

/* ------------------------------------------------------------------
 * Everything at once: the locking (run it under TSan too)
 */

static int conc_stop;

static bool conc_running(void)
{
	return !__atomic_load_n(&conc_stop, __ATOMIC_RELAXED);
}

static void *conc_registry(void *arg)
{
	struct trace_event_call *call = two_call();

	(void)arg;
	while (conc_running()) {
		trace_remove_event_call(call);
		trace_add_event_call(call);
	}
	return NULL;
}

static void *conc_reader(void *arg)
{
	(void)arg;
	while (conc_running()) {
		tfs_cat("events/tfs_test/tfs_two/enable");
		tfs_echo("events/tfs_test/tfs_two/enable", "1");
		tfs_dir_has("events/tfs_test", "tfs_two");
		tfs_cat("events/enable");
		tfs_cat("available_events");
	}
	tfs_forget_texts();
	return NULL;
}

static void *conc_instances(void *arg)
{
	int64_t dir = tfs_path("instances");
	struct tfs_stat st;

	(void)arg;
	while (conc_running()) {
		if (tfs_mkdir((uint64_t)dir, "conc", &st))
			continue;
		tfs_echo("instances/conc/events/tfs_test/enable", "1");
		tfs_cat("instances/conc/events/tfs_test/tfs_two/format");
		tfs_rmdir((uint64_t)dir, "conc");
	}
	tfs_forget_texts();
	return NULL;
}

static void *conc_pipe(void *arg)
{
	struct tfs_file *file;
	char buf[512];

	(void)arg;
	if (tfs_open((uint64_t)tfs_path("trace_pipe"), O_RDONLY, &file))
		return NULL;
	while (conc_running()) {
		tfs_fire_one(0, 10);
		while (tfs_readable(file) && tfs_read(file, buf, sizeof(buf), 0) > 0)
			;
	}
	tfs_release(file);
	return NULL;
}

static void test_concurrent(void)
{
	void *(*fns[])(void *) = { conc_registry, conc_reader, conc_reader, conc_instances,
				   conc_pipe };
	pthread_t threads[5];
	int64_t dir;

	tfs_echo("events/tfs_test/tfs_one/enable", "1");
	__atomic_store_n(&conc_stop, 0, __ATOMIC_RELAXED);
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, fns[i], NULL));
	usleep(500000);
	__atomic_store_n(&conc_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 5; i++)
		pthread_join(threads[i], NULL);
	tfs_echo("events/enable", "0");
	tfs_echo("trace", "");
	/* Whatever the interleaving, the tree ends consistent. */
	EXPECT_GT(tfs_path("events/tfs_test/tfs_two/enable"), 0);
	dir = tfs_path("instances");
	if (tfs_path("instances/conc") > 0)
		EXPECT_EQ(0, tfs_rmdir((uint64_t)dir, "conc"));
	EXPECT_FALSE(tfs_dir_has("instances", "conc"));
}

const struct tfs_test tfs_tree_tests[] = {
	TFS_TEST(test_root_names),
	TFS_TEST(test_per_cpu_names),
	TFS_TEST(test_modes),
	TFS_TEST(test_lookup_errors),
	TFS_TEST(test_open_access),
	TFS_TEST(test_readdir_offsets),
	TFS_TEST(test_per_cpu_dirs),
	TFS_TEST(test_instance_tree),
	TFS_TEST(test_instance_errors),
	TFS_TEST(test_name_max),
	TFS_TEST(test_instance_busy),
	TFS_TEST(test_engine_instances),
	TFS_TEST(test_events_follow_registry),
	TFS_TEST(test_system_follows_registry),
	TFS_TEST(test_concurrent),
	{ NULL, NULL }
};
