// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program that does not link libustrace (a plugin host) loads a plugin
 * that uses tracepoints, tp-hostless.so, with dlopen(): libustrace comes
 * in with the plugin, and glibc must find room for its thread-local
 * storage in the static TLS block's small reserve ("cannot allocate memory
 * in static TLS block" otherwise).  Then the plugin's threads fire, the
 * plugin is closed, and threads still come and go (the library's
 * thread-exit hooks must not outlive it).
 *
 * Linked without libustrace (Build.mk): only libc, libdl, libpthread.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include "tp_test.h"
#include "self_path.h"

static char plugin_path[PATH_MAX];
static void *plugin;
static long (*run)(int nr_threads, long per_thread);

static void test_dlopen(void)
{
	if (self_path(plugin_path, sizeof(plugin_path), "tp-hostless.so")) {
		tp_fail("tp-hostless.so beside /proc/self/exe: %s", strerror(errno));
		return;
	}
	if (dlsym(RTLD_DEFAULT, "tracepoint_probe_register")) {
		tp_fail("libustrace is already loaded: the test needs a program without it");
		return;
	}
	plugin = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
	if (!plugin) {
		tp_fail("dlopen: %s", dlerror());
		return;
	}
	*(void **)&run = dlsym(plugin, "hostless_run");
	if (!run)
		tp_fail("dlsym(hostless_run): %s", dlerror());
}

static void test_fire(void)
{
	long got;

	if (!run) {
		tp_fail("no plugin");
		return;
	}
	got = run(4, 100000);
	if (got != 400000)
		tp_fail("the probe counted %ld firings of 400000", got);
}

static void *nothing(void *arg)
{
	return arg;
}

/* A thread that fired (it has a reader record) and outlives the library. */
static long (*run_here)(long n);
static int fired_here, closed;
static long fired_count;

static void *fire_then_wait(void *arg)
{
	(void)arg;
	fired_count = run_here(1000);
	__atomic_store_n(&fired_here, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&closed, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

static void test_close(void)
{
	pthread_t t, survivor;
	int i;

	if (!plugin) {
		tp_fail("no plugin");
		return;
	}
	*(void **)&run_here = dlsym(plugin, "hostless_run_here");
	if (!run_here) {
		tp_fail("dlsym(hostless_run_here): %s", dlerror());
		return;
	}
	pthread_create(&survivor, NULL, fire_then_wait, NULL);
	while (!__atomic_load_n(&fired_here, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (fired_count != 1000)
		tp_fail("the probe counted %ld firings of 1000", fired_count);
	if (dlclose(plugin))
		tp_fail("dlclose: %s", dlerror());
	/* It exits after the library is gone: no hook of it may run. */
	__atomic_store_n(&closed, 1, __ATOMIC_RELEASE);
	pthread_join(survivor, NULL);
	for (i = 0; i < 8; i++) {
		if (pthread_create(&t, NULL, nothing, NULL)) {
			tp_fail("pthread_create");
			return;
		}
		pthread_join(t, NULL);
	}
}

/*
 * In sanitized builds (make check's asan variant), UBSan's runtime
 * allocates for each library it sees initialised; once the library is
 * unloaded, LeakSanitizer finds nobody pointing at that memory.  It is the
 * runtime's, not ours.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libubsan.so\n";
}

int main(void)
{
	tp_plan(3, 60);
	tp_run("a program without libustrace dlopen()s a plugin that uses tracepoints",
	       test_dlopen);
	tp_run("the plugin's threads fire: every firing reaches the probe", test_fire);
	tp_run("the plugin is closed; a thread that fired exits after it, others come and go",
	       test_close);
	return tp_exit();
}
