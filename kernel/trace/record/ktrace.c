// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Recording the machine's kernel events (<ustrace/kernel.h>).
 *
 * The kernel's tracefs is driven directly, as trace-cmd record drives it,
 * but in an instance of our own (instances/ustrace-kernel-PID), so that
 * whatever else traces the machine keeps its settings:
 *
 *	mkdir instances/NAME; trace_clock, buffer_size_kb; events/.../enable
 *	a thread: per_cpu/cpuN/trace_pipe_raw ──read──▶ cpuN spill (memfd)
 *	stop: tracing_on 0, drain, per_cpu/cpuN/stats; rmdir instances/NAME
 *
 * The stock trace-cmd record cannot do this on every machine: it writes
 * /proc/sys/kernel/ftrace_enabled and opens set_ftrace_* whatever is
 * asked, and stops where those are refused (some virtual machines, a
 * lockdown).  Reading trace_pipe_raw gives the ring buffer's pages whole,
 * in the format of events/header_page, which is also ours; the merge
 * (ktrace_merge.c) puts them with a program's pages.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "ktrace.h"

#define KT_DEFAULT_KB	4096
#define KT_DEFAULT_ROOT	"/sys/kernel/tracing"

static __thread char kt_msg[512];

int kt_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kt_msg, sizeof(kt_msg), fmt, ap);
	va_end(ap);
	return err;
}

/**
 * ustrace_kernel_errmsg - what the last failing call of this thread said
 *
 * Return: a sentence naming the file and what is missing, or "".
 * Context: the thread that made the call.
 */
const char *ustrace_kernel_errmsg(void)
{
	return kt_msg;
}

/* ------------------------------------------------------------------
 * Files of the tracefs
 */

/* The whole of @path, NUL-terminated; NULL with errno. */
static char *kt_read_file(const char *path, size_t *lenp)
{
	size_t len = 0, size = 4096;
	char *buf = malloc(size);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		int err = errno;

		free(buf);
		if (fd >= 0)
			close(fd);
		errno = err;
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= size) {
			char *p = realloc(buf, size * 2);

			if (!p)
				break;
			buf = p;
			size *= 2;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

/* @text into @path (an instance's control file); -errno. */
static int kt_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* @dir/@name; a path too long for @buf becomes "" (ENOENT to its user). */
static void kt_path(char *buf, size_t size, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, size, "%s/%s", dir, name) >= size)
		buf[0] = '\0';
}

static int kt_inst_write(struct ustrace_kernel *k, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	int err;

	kt_path(path, sizeof(path), k->inst, name);
	err = kt_write_file(path, text);
	if (err)
		return kt_fail(err, "%s: %s", path, strerror(-err));
	return 0;
}

static char *kt_inst_read(struct ustrace_kernel *k, const char *name)
{
	char path[PATH_MAX + 64];
	char *text;

	kt_path(path, sizeof(path), k->inst, name);
	text = kt_read_file(path, NULL);
	if (!text)
		kt_fail(-errno, "%s: %s", path, strerror(errno));
	return text;
}

/* ------------------------------------------------------------------
 * Finding (or mounting) the tracefs
 */

static bool kt_find_mount(char *root, size_t size)
{
	char dev[256], dir[PATH_MAX], type[64];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return false;
	while (!found && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (strcmp(type, "tracefs"))
			continue;
		snprintf(root, size, "%s", dir);
		found = true;
	}
	fclose(f);
	return found;
}

static int kt_find_root(struct ustrace_kernel *k, const char *given)
{
	struct stat st;

	if (given) {
		snprintf(k->root, sizeof(k->root), "%s", given);
	} else if (!kt_find_mount(k->root, sizeof(k->root))) {
		snprintf(k->root, sizeof(k->root), "%s", KT_DEFAULT_ROOT);
		if (mount("nodev", k->root, "tracefs", 0, NULL))
			return kt_fail(-errno, "the kernel's tracefs is not mounted, and mounting "
				       "it on %s failed: %s (it needs root, CAP_SYS_ADMIN)",
				       k->root, strerror(errno));
	}
	if (stat(k->root, &st) || !S_ISDIR(st.st_mode))
		return kt_fail(-ENOENT, "%s: the kernel's tracefs is not there", k->root);
	return 0;
}

/* ------------------------------------------------------------------
 * The instance
 */

static int kt_make_instance(struct ustrace_kernel *k)
{
	char events[PATH_MAX + 16];

	if ((size_t)snprintf(k->inst, sizeof(k->inst), "%s/instances/ustrace-kernel-%d",
			     k->root, (int)getpid()) >= sizeof(k->inst))
		k->inst[0] = '\0';
	/* One of our pid is a stale one (its recorder was killed): ours now. */
	if (k->inst[0] && mkdir(k->inst, 0700) && errno == EEXIST)
		rmdir(k->inst);
	if (!k->inst[0] || (access(k->inst, F_OK) && mkdir(k->inst, 0700))) {
		int err = errno;

		k->inst[0] = '\0';
		if (err == EACCES || err == EPERM)
			return kt_fail(-err, "%s/instances: %s: recording kernel events needs "
				       "root, or write access to the kernel's tracefs (a "
				       "tracing group)", k->root, strerror(err));
		return kt_fail(-err, "%s/instances: cannot create an instance: %s", k->root,
			       strerror(err));
	}
	kt_path(events, sizeof(events), k->inst, "events");
	if (access(events, F_OK))
		return kt_fail(-ENOENT, "%s: no events in the kernel's instance", events);
	return 0;
}

static void kt_remove_instance(struct ustrace_kernel *k)
{
	char path[PATH_MAX + 64];

	if (!k->inst[0])
		return;
	kt_path(path, sizeof(path), k->inst, "tracing_on");
	kt_write_file(path, "0");
	kt_path(path, sizeof(path), k->inst, "events/enable");
	kt_write_file(path, "0");
	/* The kernel refuses while a reader holds a file: they are closed. */
	for (int tries = 0; rmdir(k->inst) && errno == EBUSY && tries < 100; tries++)
		usleep(10000);
	k->inst[0] = '\0';
}

/* The clock: the one asked for, else x86-tsc where the TSC is invariant. */
static bool kt_tsc_invariant(void)
{
	char *info = kt_read_file("/proc/cpuinfo", NULL);
	char *flags = info ? strstr(info, "\nflags") : NULL;
	char *eol = flags ? strchr(flags + 1, '\n') : NULL;
	bool ok = false;

	if (eol) {
		*eol = '\0';
		ok = strstr(flags, " constant_tsc") && strstr(flags, " nonstop_tsc");
	}
	free(info);
	return ok;
}

static bool kt_clock_listed(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += len) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '[';
		char end = p[len];

		if (start && (end == ' ' || end == ']' || end == '\n' || !end))
			return true;
	}
	return false;
}

static int kt_set_clock(struct ustrace_kernel *k, const char *want)
{
	char *list = kt_inst_read(k, "trace_clock");
	int err;

	if (!list)
		return -errno;
	if (!want)
		want = kt_tsc_invariant() && kt_clock_listed(list, "x86-tsc") ? "x86-tsc" : "mono";
	if (strcmp(want, "x86-tsc") && strcmp(want, "mono") && strcmp(want, "mono_raw") &&
	    strcmp(want, "boot")) {
		free(list);
		return kt_fail(-EINVAL, "kernel clock %s: x86-tsc, mono, mono_raw or boot (the "
			       "clocks a program can read as the kernel does)", want);
	}
	if (!kt_clock_listed(list, want)) {
		free(list);
		return kt_fail(-EINVAL, "%s/trace_clock: the kernel has no clock %s", k->inst,
			       want);
	}
	free(list);
	snprintf(k->clock, sizeof(k->clock), "%s", want);
	err = kt_inst_write(k, "trace_clock", want);
	if (!err) {
		k->clock_list = kt_inst_read(k, "trace_clock");
		if (!k->clock_list)
			err = -errno;
	}
	return err;
}

/*
 * 4 KiB pages: the size of ours, and the kernel's default.  Written only
 * when the instance has another size: some kernels refuse the write
 * (EPERM) even of the size it has.
 */
static int kt_set_buffer(struct ustrace_kernel *k, unsigned long kb)
{
	char path[PATH_MAX + 64], num[32];
	int err;

	kt_path(path, sizeof(path), k->inst, "buffer_subbuf_size_kb");
	if (!access(path, F_OK)) {
		char *cur = kt_read_file(path, NULL);
		bool four = cur && strtoul(cur, NULL, 10) == 4;

		free(cur);
		if (!four && (err = kt_inst_write(k, "buffer_subbuf_size_kb", "4")))
			return err;
	}
	snprintf(num, sizeof(num), "%lu", kb ? kb : KT_DEFAULT_KB);
	return kt_inst_write(k, "buffer_size_kb", num);
}

/* ------------------------------------------------------------------
 * Events and their formats
 */

static int kt_add_format(struct ustrace_kernel *k, const char *system, const char *event)
{
	char name[PATH_MAX], path[PATH_MAX + 64];
	struct trace_dat_format *f, **tail;
	size_t len;
	char *text;

	snprintf(name, sizeof(name), "events/%s/%s/format", system, event);
	kt_path(path, sizeof(path), k->inst, name);
	text = kt_read_file(path, &len);
	if (!text)
		return kt_fail(-errno, "%s: %s", path, strerror(errno));
	f = trace_dat_format_new(system, text, len, false);
	free(text);
	if (!f)
		return kt_fail(-ENOMEM, "out of memory");
	for (tail = &k->formats; *tail; tail = &(*tail)->next)
		if (!strcmp((*tail)->text, f->text)) {
			kt_formats_free(f);
			return 0;
		}
	*tail = f;
	return 0;
}

/* Every event of @system, for its formats. */
static int kt_add_system(struct ustrace_kernel *k, const char *system)
{
	char name[PATH_MAX], path[PATH_MAX + 64];
	struct dirent *de;
	int err = 0;
	DIR *dir;

	snprintf(name, sizeof(name), "events/%s", system);
	kt_path(path, sizeof(path), k->inst, name);
	dir = opendir(path);
	if (!dir)
		return kt_fail(-errno, "%s: %s", path, strerror(errno));
	while (!err && (de = readdir(dir))) {
		char fmt[PATH_MAX + 300];

		if (de->d_name[0] == '.')
			continue;
		snprintf(fmt, sizeof(fmt), "%s/%s/format", path, de->d_name);
		if (!access(fmt, F_OK))
			err = kt_add_format(k, system, de->d_name);
	}
	closedir(dir);
	return err;
}

/* "SYSTEM[:EVENT]", as trace-cmd's -e takes it (no globs: names). */
static int kt_enable(struct ustrace_kernel *k, const char *spec)
{
	char system[256], name[PATH_MAX];
	const char *colon = strchr(spec, ':');
	const char *event = colon ? colon + 1 : NULL;
	size_t slen = colon ? (size_t)(colon - spec) : strlen(spec);
	int err;

	if (!slen || slen >= sizeof(system) || (event && !*event) || strchr(spec, '/'))
		return kt_fail(-EINVAL, "kernel event %s: SYSTEM or SYSTEM:EVENT", spec);
	memcpy(system, spec, slen);
	system[slen] = '\0';
	if ((size_t)(event ? snprintf(name, sizeof(name), "events/%s/%s/enable", system, event) :
			     snprintf(name, sizeof(name), "events/%s/enable", system)) >= sizeof(name))
		return kt_fail(-ENAMETOOLONG, "kernel event %s: too long", spec);
	err = kt_inst_write(k, name, "1");
	if (err == -ENOENT)
		return kt_fail(err, "kernel event %s: the kernel has no such event "
			       "(%s/available_events)", spec, k->root);
	if (err)
		return err;
	return event ? kt_add_format(k, system, event) : kt_add_system(k, system);
}

static int kt_read_headers(struct ustrace_kernel *k)
{
	k->header_page = kt_inst_read(k, "events/header_page");
	k->header_event = k->header_page ? kt_inst_read(k, "events/header_event") : NULL;
	if (!k->header_event)
		return -errno;
	/* Our pages are 4 KiB: a kernel with other sub-buffers is refused. */
	if (!strstr(k->header_page, "size:4080;"))
		return kt_fail(-EINVAL, "%s/events/header_page: pages other than 4 KiB",
			       k->inst);
	return 0;
}

/* ------------------------------------------------------------------
 * The reader
 */

static int kt_nr_cpus(struct ustrace_kernel *k)
{
	char path[PATH_MAX + 64];
	int n = 0;

	for (;; n++) {
		char name[64];

		snprintf(name, sizeof(name), "per_cpu/cpu%d", n);
		kt_path(path, sizeof(path), k->inst, name);
		if (access(path, F_OK))
			break;
	}
	return n;
}

static int kt_open_cpus(struct ustrace_kernel *k)
{
	k->nr_cpus = kt_nr_cpus(k);
	if (!k->nr_cpus)
		return kt_fail(-ENOENT, "%s/per_cpu: no CPUs", k->inst);
	k->cpus = calloc((size_t)k->nr_cpus, sizeof(*k->cpus));
	if (!k->cpus)
		return kt_fail(-ENOMEM, "out of memory");
	for (int cpu = 0; cpu < k->nr_cpus; cpu++)
		k->cpus[cpu].pipe = k->cpus[cpu].spill = -1;
	for (int cpu = 0; cpu < k->nr_cpus; cpu++) {
		struct kt_cpu *c = &k->cpus[cpu];
		char name[64], path[PATH_MAX + 64];

		snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		kt_path(path, sizeof(path), k->inst, name);
		c->pipe = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->pipe < 0)
			return kt_fail(-errno, "%s: %s", path, strerror(errno));
		c->spill = memfd_create("ustrace-kernel", MFD_CLOEXEC);
		if (c->spill < 0)
			return kt_fail(-errno, "memfd_create: %s", strerror(errno));
	}
	return 0;
}

/* The pages CPU @c has now; 0, or -errno of the spill. */
static int kt_drain_cpu(struct kt_cpu *c)
{
	/*
	 * On the reader thread's stack: the library's thread-local storage
	 * must stay small enough for glibc's static TLS reserve, which a
	 * program that dlopen()s a plugin linked with libustrace loads it
	 * into (selftests/tracepoints/hostless).
	 */
	char page[KT_PAGE_SIZE];

	for (;;) {
		ssize_t n = read(c->pipe, page, sizeof(page));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;	/* EAGAIN: nothing more for now */
		if (n != KT_PAGE_SIZE)
			continue;
		if (pwrite(c->spill, page, KT_PAGE_SIZE, (off_t)c->size) != KT_PAGE_SIZE)
			return -(errno ? errno : ENOSPC);
		c->size += KT_PAGE_SIZE;
	}
}

/*
 * The kernel wakes a poller when a CPU's buffer is buffer_percent full;
 * every 100 ms we take what there is anyway, so that a quiet CPU's pages
 * are not all left to the end.
 */
static void *kt_reader(void *arg)
{
	struct ustrace_kernel *k = arg;
	struct pollfd fds[k->nr_cpus];

	for (int cpu = 0; cpu < k->nr_cpus; cpu++)
		fds[cpu] = (struct pollfd){ .fd = k->cpus[cpu].pipe, .events = POLLIN };
	while (!__atomic_load_n(&k->stop_req, __ATOMIC_ACQUIRE)) {
		poll(fds, (nfds_t)k->nr_cpus, 100);
		for (int cpu = 0; cpu < k->nr_cpus; cpu++) {
			int err = kt_drain_cpu(&k->cpus[cpu]);

			if (err) {
				__atomic_store_n(&k->read_err, err, __ATOMIC_RELEASE);
				return NULL;
			}
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------
 * The calls
 */

static int kt_setup(struct ustrace_kernel *k, const struct ustrace_kernel_attr *attr)
{
	int err = kt_find_root(k, attr->tracefs);

	if (!err)
		err = kt_make_instance(k);
	if (!err)
		err = kt_set_clock(k, attr->clock);
	if (!err)
		err = kt_set_buffer(k, attr->buffer_kb);
	if (!err)
		err = kt_read_headers(k);
	for (const char *const *e = attr->events; !err && *e; e++)
		err = kt_enable(k, *e);
	if (!err)
		err = kt_open_cpus(k);
	if (!err)
		err = kt_inst_write(k, "tracing_on", "1");
	if (!err) {
		err = -pthread_create(&k->reader, NULL, kt_reader, k);
		if (err)
			kt_fail(err, "pthread_create: %s", strerror(-err));
		k->reader_started = !err;
	}
	return err;
}

/**
 * ustrace_kernel_start - record kernel events in an instance of our own
 * @attr: what to record (struct ustrace_kernel_attr)
 *
 * Return: the recording, or NULL with errno set and
 * ustrace_kernel_errmsg() saying what is missing (EACCES: no write access
 * to the kernel's tracefs; ENOENT: no such event; EINVAL: a bad name or
 * clock).  Nothing is left behind on failure.
 * Context: a thread of the caller's is started, which reads the pages.
 */
struct ustrace_kernel *ustrace_kernel_start(const struct ustrace_kernel_attr *attr)
{
	struct ustrace_kernel *k;
	int err;

	kt_msg[0] = '\0';
	if (!attr || attr->size < sizeof(*attr) || !attr->events || !attr->events[0]) {
		errno = -kt_fail(-EINVAL, "no kernel events to record");
		return NULL;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		errno = ENOMEM;
		return NULL;
	}
	err = kt_setup(k, attr);
	if (err) {
		ustrace_kernel_free(k);
		errno = -err;
		return NULL;
	}
	return k;
}

static char *kt_cpu_stats(struct ustrace_kernel *k, int cpu)
{
	char name[64];

	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	return kt_inst_read(k, name);
}

/**
 * ustrace_kernel_stop - stop recording and take the last pages
 * @k: the recording
 *
 * Return: 0, or the negative errno of a failed read or spill (the pages
 * read before it are kept).
 */
int ustrace_kernel_stop(struct ustrace_kernel *k)
{
	char *cmdlines, path[PATH_MAX + 32];
	int err = 0;

	if (!k || k->stopped)
		return 0;
	k->stopped = true;
	kt_inst_write(k, "tracing_on", "0");
	if (k->reader_started) {
		__atomic_store_n(&k->stop_req, 1, __ATOMIC_RELEASE);
		pthread_join(k->reader, NULL);
		k->reader_started = false;
	}
	err = __atomic_load_n(&k->read_err, __ATOMIC_ACQUIRE);
	for (int cpu = 0; cpu < k->nr_cpus; cpu++) {
		int e = kt_drain_cpu(&k->cpus[cpu]);

		err = err ? err : e;
		k->cpus[cpu].stats = kt_cpu_stats(k, cpu);
	}
	/* Task names are the machine's, not an instance's. */
	kt_path(path, sizeof(path), k->root, "saved_cmdlines");
	cmdlines = kt_read_file(path, NULL);
	k->cmdlines = cmdlines ? cmdlines : strdup("");
	for (int cpu = 0; cpu < k->nr_cpus; cpu++) {
		if (k->cpus[cpu].pipe >= 0)
			close(k->cpus[cpu].pipe);
		k->cpus[cpu].pipe = -1;
	}
	kt_remove_instance(k);
	if (err)
		kt_fail(err, "reading the kernel's pages: %s", strerror(-err));
	return err;
}

/**
 * ustrace_kernel_clock - the kernel clock in use
 * @k: the recording
 *
 * Return: "x86-tsc", "mono", "mono_raw" or "boot".
 */
const char *ustrace_kernel_clock(const struct ustrace_kernel *k)
{
	return k ? k->clock : "";
}

/**
 * ustrace_kernel_free - stop, remove the instance, free
 * @k: the recording, or NULL
 */
void ustrace_kernel_free(struct ustrace_kernel *k)
{
	if (!k)
		return;
	if (k->reader_started) {
		__atomic_store_n(&k->stop_req, 1, __ATOMIC_RELEASE);
		pthread_join(k->reader, NULL);
	}
	for (int cpu = 0; k->cpus && cpu < k->nr_cpus; cpu++) {
		if (k->cpus[cpu].pipe >= 0)
			close(k->cpus[cpu].pipe);
		if (k->cpus[cpu].spill >= 0)
			close(k->cpus[cpu].spill);
		free(k->cpus[cpu].stats);
	}
	kt_remove_instance(k);
	free(k->cpus);
	kt_formats_free(k->formats);
	free(k->header_page);
	free(k->header_event);
	free(k->cmdlines);
	free(k->clock_list);
	free(k);
}
