// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Zero-setup recording: a program writes its own trace.dat.
 *
 * USTRACE_EVENTS (and the variables of ustrace_record_start(3)), or
 * ustrace_record_start(), create an instance of their own (instances/
 * ustrace-record in a tracefs mount), enable the matching events in it as
 * they register, and write the instance's pages into a trace-cmd data file
 * (trace_dat.c) at the end: at exit (the library's destructor, which runs
 * after those of the objects that use the library), on a signal that ends
 * the process, at _exit() and before exec; on ustrace_record_stop(); and
 * on request, into numbered files.
 *
 * Pages go through one temporary file per CPU, the spill, in the output's
 * directory (unnamed):
 *
 *	ring buffer ──read_page──▶ cpuN spill ──trace_dat_write()──▶ trace.dat
 *
 * In producer/consumer mode a thread of ours moves the full pages of a
 * CPU whose buffer is buffer_percent full (the instance's file, 50 by
 * default; 0 counts as one whole page), as trace-cmd record's readers do
 * when their splice wakes, so that a recording longer than the buffer
 * loses nothing while the disk keeps up.  It sleeps in between: the
 * writer whose page switch reaches the mark wakes it (ring buffer
 * "Waiting"); an idle program wakes it never.  In overwrite mode (the
 * flight recorder) pages stay in the buffer until a file is written, and
 * the thread only waits for requests.
 *
 * The program's descriptors are its own.  A daemon closes every one it
 * did not open and opens its files under the same numbers; a descriptor
 * of ours in its table could be one of its files by the time we wrote to
 * it.  So the recording keeps its files in a descriptor table of the
 * thread's own (see "The thread"), where the program cannot reach them
 * and its children do not inherit them, and the thread does all the file
 * work: it moves pages, and writes every file, those asked for by the
 * other paths too (ustrace_record_dump(), the final write at exit, from a
 * signal handler, at _exit() and before exec), which wait for it.  Each
 * file is an unnamed file linked under a random name and renamed over
 * the target: a planted symbolic link is replaced, never followed.
 *
 * The paths that may not resume (a signal handler, _exit(), exec) only
 * ask and wait, a bounded time, with what a signal handler may use; the
 * thread writes with ring_buffer_read_page() into a static page,
 * pwrite(), open(), linkat(), rename(), and texts rendered beforehand
 * (header pages, event formats as they register, the clock list) or with
 * trace_dat.c's allocation-free helpers (stats, saved cmdlines), so that
 * a fault of the thread's own can write from its handler too.  One lock,
 * an atomic word holding its owner's thread id, orders the askers; those
 * that may not resume take it over when their own thread held it.
 */
#define __USTRACE_CORE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <linux/close_range.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>

#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/trace.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>
#include <ustrace/record.h>

#include "../../internal.h"
#include "../trace_array.h"
#include "trace_dat.h"
#include "trace_record.h"

#define RECORD_DEFAULT_KB	1408ul
#define RECORD_POLL_MS		10
/* How long a path that may not resume waits for another writer. */
#define RECORD_FATAL_WAIT_MS	30000
#define RECORD_STATS_MAX	320
#define RECORD_CMDLINE_MAX	(TRACE_COMM_LEN + 16)

enum { REC_OFF, REC_STARTING, REC_ON, REC_FINISHING };

/* rec_write_locked()'s flags. */
enum {
	REC_W_NOLOCK	= 1 << 0,	/* may not resume: cmdlines without their lock */
	REC_W_SKIP_BUF	= 1 << 1,	/* this thread was stopped inside the reader */
	REC_W_KEEP	= 1 << 2,	/* the next file starts from the same place */
	REC_W_NUMBERED	= 1 << 3,	/* the next numbered file, OUTPUT.N */
};

/* One "SYSTEM[:EVENT]" of the events list, globs both. */
struct rec_pattern {
	char	*system;
	char	*event;		/* NULL: every event of the system */
	bool	matched;
};

struct rec_config {
	struct rec_pattern	*pats;
	unsigned int		nr_pats;
	char			*output;	/* absolute, %p expanded */
	char			*dump_base;	/* numbered files: NULL, the output */
	bool			part;		/* a part of ustrace record's */
	unsigned long		buffer_kb;
	unsigned int		clock_idx;
	int			mode;
	int			version;
	int			dump_signal;
};

/**
 * struct rec_cpu - one CPU's pages on their way to the file
 * @fd:       the spill, open in the thread's table (-1: none)
 * @size:     bytes of whole pages in it; a page counts once it is written
 *            (by the writer, "Staging")
 * @queued:   bytes of pages handed to the writer for it (the thread's)
 * @base:     the counters when the last file was written: each file's
 *            stats count what happened since the previous one
 * @stats:    its CPUSTAT text, rendered when a file is written
 */
struct rec_cpu {
	int		fd;
	uint64_t	size;
	uint64_t	queued;
	unsigned long	base_overrun, base_commit_overrun, base_dropped, base_read;
	char		stats[RECORD_STATS_MAX];
	size_t		stats_len;
};

/*
 * A file another path asks the thread for: @path (NULL: the output) with
 * rec_write_locked()'s @flags.  The asker, under the lock, sets them and
 * then @kind to REQ_WRITE; the thread sets it to REQ_BUSY as it starts,
 * sets @result, then @kind back to REQ_NONE and bumps @done, a futex the
 * asker sleeps on.
 */
enum { REQ_NONE, REQ_WRITE, REQ_BUSY };

struct rec_req {
	int		kind;
	const char	*path;
	unsigned int	flags;
	int		result;
	unsigned int	done;
};

/*
 * The recorder: one per process.  The configuration is set before the
 * state becomes REC_ON and read-only after; @state, @lock_tid,
 * @reading_tid, @stop, @dump_req, @wake_seq, @writer_tid, @written,
 * @init, @req.kind and the error words are atomic.
 */
static struct recorder {
	int			state;
	pid_t			pid;
	struct rec_config	cfg;
	struct trace_array	*tr;
	struct trace_buffer	*buffer;
	int			nr_cpus;
	bool			in_ns;
	struct rec_cpu		*cpus;
	pthread_t		thread;
	bool			have_thread;
	int			thread_tid;
	bool			own_table;
	int			init;
	unsigned int		wake_seq;
	struct rec_req		req;
	int			stop;
	int			dump_req;
	unsigned int		dump_seq;
	int			lock_tid;
	int			reading_tid;
	int			writer_tid;
	int			written;
	int			last_err;
	int			dump_err;
	unsigned int		dump_err_seq;
	char			spill_dir[PATH_MAX];
	char			header_page[512];
	char			header_event[512];
	char			clock_list[128];
	char			kallsyms[64];
	char			uname[sizeof(struct utsname)];
	bool			clock_scale;
	bool			from_env;	/* USTRACE_EVENTS started it */
	int			claim_fd;	/* the thread's; -1: no claim */
	pid_t			claim_other;	/* who had the output; -1: unknown */
	char			claim_path[PATH_MAX + 8];
} rec = { .claim_fd = -1 };

#define REC_INIT_PENDING	1

/* Every event's format, in registration order; only grows (trace_dat.h). */
static struct trace_dat_format *formats;
static struct trace_dat_format **formats_tail = &formats;
static bool notifier_registered;

/* Used by the thread only (or a handler of its own): no allocation there. */
/* The one slot of a thread that could not map its slots ("Staging"). */
#define REC_BATCH	16
static char page_buf[REC_BATCH * RB_PAGE_SIZE] __attribute__((__aligned__(RB_PAGE_SIZE)));
static char cmdlines_buf[TRACE_SAVED_CMDLINES * RECORD_CMDLINE_MAX];
static char path_buf[PATH_MAX + 32];
static char dir_buf[PATH_MAX + 32];
static char link_buf[PATH_MAX + 64];

static void rec_warn(const char *fmt, ...) __attribute__((__format__(printf, 1, 2)));

static void rec_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("ustrace: record: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "ustrace: record: PATH: ERROR" with write(2): async-signal-safe. */
static void rec_warn_safe(const char *path, int err)
{
	static char line[PATH_MAX + 128];
	const char *desc = strerrordesc_np(err);
	struct seq_buf t;

	seq_buf_init(&t, line, sizeof(line));
	seq_buf_puts(&t, "ustrace: record: ");
	seq_buf_puts(&t, path);
	seq_buf_puts(&t, ": ");
	seq_buf_puts(&t, desc ? desc : "error");
	seq_buf_puts(&t, "\n");
	if (write(STDERR_FILENO, line, seq_buf_used(&t)) < 0) {
		/* Nowhere left to say it. */
	}
}

static int rec_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

/*
 * Whether this process records.  Async-signal-safe, and safe in the child
 * of a vfork(): a child has a pid of its own, and only reads here.
 */
static bool rec_owner(void)
{
	return __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) != REC_OFF &&
	       rec.pid == getpid();
}

static long rec_futex(unsigned int *word, int op, unsigned int val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

/*
 * The thread's descriptors, by system call.  Its table is its own, which
 * sanitizers that model a process's descriptors (ThreadSanitizer's) know
 * nothing of: through libc's wrappers, our descriptor 4 and the
 * program's would be one descriptor to them, and the program's close()
 * of its own a race with our pwrite().
 */
static int rec_sys_open(const char *path, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static int rec_sys_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

/* ------------------------------------------------------------------
 * The lock: the owner's thread id, 0 when free.  Taken by those who ask
 * the thread for a file, one at a time.
 */

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool rec_trylock(int tid)
{
	int free_ = 0;

	return __atomic_compare_exchange_n(&rec.lock_tid, &free_, tid, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void rec_lock(void)
{
	int tid = rec_gettid();

	while (!rec_trylock(tid))
		sleep_ms(1);
}

static void rec_unlock(void)
{
	__atomic_store_n(&rec.lock_tid, 0, __ATOMIC_RELEASE);
}

/*
 * From a path that may not resume (a signal handler, _exit(), exec): wait
 * for the holder (another asker: ustrace_record_dump(), exit) a bounded
 * time; take the lock over when this very thread held it (it was
 * interrupted) or the wait ends.  Async-signal-safe.
 * Return: whether this thread held it already.
 */
static bool rec_lock_fatal(int tid)
{
	for (int ms = 0; ms < RECORD_FATAL_WAIT_MS; ms++) {
		if (rec_trylock(tid))
			return false;
		if (__atomic_load_n(&rec.lock_tid, __ATOMIC_ACQUIRE) == tid)
			return true;
		sleep_ms(1);
	}
	__atomic_store_n(&rec.lock_tid, tid, __ATOMIC_SEQ_CST);
	return false;
}

/* ------------------------------------------------------------------
 * Names
 */

/* dst = a followed by b, cut to @size. */
static void path_join(char *dst, size_t size, const char *a, const char *b)
{
	struct seq_buf t;

	seq_buf_init(&t, dst, size);
	seq_buf_puts(&t, a);
	seq_buf_puts(&t, b);
}

/* @path's directory ("." for a bare name). */
static void path_dirname(char *dir, size_t size, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);

	if (!len) {
		path_join(dir, size, ".", "");
		return;
	}
	if (len >= size)
		len = size - 1;
	memcpy(dir, path, len);
	dir[len] = '\0';
}

/* link_buf = PATH.part- and 16 random hex digits. */
static void rec_part_name(const char *path)
{
	static const char hex[] = "0123456789abcdef";
	char digits[17];
	struct seq_buf t;
	uint64_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		r = ((uint64_t)ts.tv_nsec << 20 ^ (uint64_t)ts.tv_sec ^
		     (uint64_t)rec_gettid() << 44) * 0x9e3779b97f4a7c15ull;
	}
	for (int i = 0; i < 16; i++, r >>= 4)
		digits[i] = hex[r & 15];
	digits[16] = '\0';
	/* Not path_join() into link_buf from link_buf: its start clears it. */
	seq_buf_init(&t, link_buf, sizeof(link_buf));
	seq_buf_puts(&t, path);
	seq_buf_puts(&t, ".part-");
	seq_buf_puts(&t, digits);
}

/* ------------------------------------------------------------------
 * The spills (the thread's)
 *
 * Each is an unnamed file of the output's directory (O_TMPFILE, else a
 * unique name unlinked at once), written with pwrite() and read back when
 * a file is written, open in the thread's own table, where nothing else
 * can close or reuse its descriptor.  Where the thread shares the
 * program's table, a descriptor of ours could be one of the program's by
 * the next look: the spills are then opened only while a file is
 * written, nothing is moved meanwhile, and a recording keeps what the
 * buffer holds.
 */

/* An unnamed file in @dir, for reading and writing.  Return: fd or -errno. */
static int rec_spill_tmpfile(const char *dir)
{
	int fd = rec_sys_open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	/* Else a name of its own, unlinked at once. */
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		char name[PATH_MAX + 16];

		path_join(name, sizeof(name), dir, "/.ustrace-record");
		rec_part_name(name);
		fd = rec_sys_open(link_buf, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				  0600);
		if (fd >= 0)
			unlink(link_buf);
		else if (errno != EEXIST)
			break;
	}
	if (fd < 0)
		return -errno;
	/* Past the page cache where the file system allows it ("Staging"). */
	syscall(SYS_fcntl, fd, F_SETFL, O_DIRECT);
	return fd;
}

/* Each CPU's spill.  Return: 0 or -errno (the others stay open). */
static int rec_spills_open(void)
{
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		struct rec_cpu *c = &rec.cpus[cpu];

		if (c->fd >= 0)
			continue;
		c->fd = rec_spill_tmpfile(rec.spill_dir);
		c->size = 0;
		if (c->fd < 0) {
			int err = c->fd;

			c->fd = -1;
			return err;
		}
	}
	return 0;
}

static void rec_spills_close(void)
{
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		struct rec_cpu *c = &rec.cpus[cpu];

		if (c->fd >= 0)
			rec_sys_close(c->fd);
		c->fd = -1;
		c->size = 0;
	}
}

/* ------------------------------------------------------------------
 * Staging (the thread's and its writer's)
 *
 * A move copies pages out of the ring into a slot, up to REC_SLOT_PAGES
 * (256 KiB) of one CPU, and hands the slot to the writer, a second
 * thread of ours, which writes it to the CPU's spill while the thread
 * goes on moving: the slots handed to it in a row for one CPU, up to
 * REC_WRITE_SLOTS (4 MiB), with one pwritev().  The thread waits only
 * when every slot waits to be written (REC_SLOTS, 32 MiB): a disk that
 * stalls for some milliseconds (a 1 MiB direct write here takes 0.4 to
 * 1.6 ms, one in thirty longer, up to 13 ms; with other work writing
 * too, one write in a 10 s recording took 66 ms) is absorbed there
 * instead of filling the ring (32 MiB is 76 ms at 10 M events/s).  The
 * slots are used in turn, from the first again whenever the writer has
 * caught up, so that a recording that never lags uses a few; the writer
 * faults in the pages of the four after the last one used before the
 * thread gets there (a page touched for the first time costs some
 * microseconds here, a slot about a millisecond, while the ring fills).
 * The mapping is address space only until then.
 *
 * The spills are opened with O_DIRECT where the file system takes it:
 * the pages go from the slots to the disk, not into the page cache, so
 * neither the copy into it (on the test machine, into memory the host
 * has to fault in first: ~350 MB/s a thread) nor the dirty limits'
 * throttling costs the recorder anything (recording.rst, "Sustained
 * rate").
 *
 * The writer is the only one to write the spills and to advance ->size;
 * the thread hands it slots in order (io.head) and waits for it to be
 * done (io.tail) before it reads, resets or closes a spill.  It blocks
 * every signal, as the thread does.  Without slots (their mapping
 * failed) or without the writer (it could not start), the thread writes
 * each slot itself as soon as it is full.
 */
#define REC_SLOT_PAGES	64
#define REC_SLOTS	128
#define REC_WRITE_SLOTS	16

struct rec_slot_desc {
	int		cpu;
	unsigned int	slot;
	size_t		len;
};

static struct {
	char			*stage;		/* nr_slots * slot_pages pages */
	unsigned int		nr_slots;
	unsigned int		slot_pages;
	struct rec_slot_desc	desc[REC_SLOTS];
	unsigned int		last;		/* the slot handed out last */
	unsigned int		used;		/* slots handed out at least once */
	unsigned int		head;		/* slots handed to the writer */
	unsigned int		tail;		/* slots written */
	unsigned int		bell;		/* the writer sleeps on it */
	int			stop;
	int			err;		/* the first since the last flush */
	bool			have_writer;
	pthread_t		writer;
} io;

static char *rec_slot_addr(unsigned int slot)
{
	return io.stage + (size_t)slot * io.slot_pages * RB_PAGE_SIZE;
}

/* pwritev(2) as the system call takes it: the offset's low and high halves. */
static ssize_t rec_pwritev(int fd, const struct iovec *iov, int n, uint64_t off)
{
	return syscall(SYS_pwritev, fd, iov, n, (unsigned long)off,
		       (unsigned long)(off >> 32));
}

/*
 * pwritev() into a spill; a file system that refuses a direct write
 * (EINVAL) has the spill's O_DIRECT dropped, and the write done again.
 */
static ssize_t rec_spill_write(int fd, const struct iovec *iov, int n, uint64_t off)
{
	ssize_t ret = rec_pwritev(fd, iov, n, off);
	long fl;

	if (ret >= 0 || errno != EINVAL)
		return ret;
	fl = syscall(SYS_fcntl, fd, F_GETFL);
	if (fl < 0 || !(fl & O_DIRECT) || syscall(SYS_fcntl, fd, F_SETFL, fl & ~O_DIRECT))
		return ret;
	return rec_pwritev(fd, iov, n, off);
}

/*
 * Write the slots handed over from @tail on, @head excluded: those of
 * the first one's CPU in a row, up to REC_WRITE_SLOTS, to the end of its
 * spill.  Return: how many.
 */
static unsigned int rec_io_write(unsigned int tail, unsigned int head)
{
	int cpu = io.desc[tail % REC_SLOTS].cpu;
	struct rec_cpu *c = &rec.cpus[cpu];
	struct iovec iov[REC_WRITE_SLOTS];
	unsigned int n = 0;
	size_t len = 0;
	ssize_t ret;
	int err;

	for (; tail + n != head && n < REC_WRITE_SLOTS; n++) {
		const struct rec_slot_desc *d = &io.desc[(tail + n) % REC_SLOTS];

		if (d->cpu != cpu)
			break;
		iov[n].iov_base = rec_slot_addr(d->slot);
		iov[n].iov_len = d->len;
		len += d->len;
	}
	ret = c->fd >= 0 ? rec_spill_write(c->fd, iov, (int)n, c->size) : -1;
	if (ret == (ssize_t)len) {
		c->size += len;
		return n;
	}
	/* The pages are gone from the buffer: "pages were lost" at the end. */
	err = c->fd < 0 ? -EBADF : ret < 0 && errno ? -errno : -ENOSPC;
	__atomic_store_n(&rec.last_err, err, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&io.err, __ATOMIC_RELAXED))
		__atomic_store_n(&io.err, err, __ATOMIC_RELAXED);
	return n;
}

static void *rec_writer_fn(void *arg)
{
	unsigned int tail = __atomic_load_n(&io.tail, __ATOMIC_RELAXED), ready = 0;

	(void)arg;
	for (;;) {
		unsigned int bell = __atomic_load_n(&io.bell, __ATOMIC_ACQUIRE);
		unsigned int head = __atomic_load_n(&io.head, __ATOMIC_ACQUIRE);
		unsigned int want = __atomic_load_n(&io.used, __ATOMIC_RELAXED) + 4;

		/* Four slots ready past the last one used; their contents stay as they are. */
		if (want > io.nr_slots)
			want = io.nr_slots;
		if (ready < want) {
			madvise(rec_slot_addr(ready), (size_t)(want - ready) * io.slot_pages *
				RB_PAGE_SIZE, MADV_POPULATE_WRITE);
			ready = want;
		}
		if (tail == head) {
			if (__atomic_load_n(&io.stop, __ATOMIC_ACQUIRE))
				break;
			rec_futex(&io.bell, FUTEX_WAIT_PRIVATE, bell, NULL);
			continue;
		}
		tail += rec_io_write(tail, head);
		__atomic_store_n(&io.tail, tail, __ATOMIC_RELEASE);
		rec_futex(&io.tail, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
	}
	return NULL;
}

/* The slots, and the writer; with neither, page_buf and no writer. */
static void rec_io_start(void)
{
	size_t size = (size_t)REC_SLOTS * REC_SLOT_PAGES * RB_PAGE_SIZE;
	void *stage = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pthread_attr_t attr;

	io.head = io.tail = io.last = io.used = 0;
	io.stop = io.err = 0;
	io.have_writer = false;
	if (stage == MAP_FAILED) {
		io.stage = page_buf;
		io.nr_slots = 1;
		io.slot_pages = REC_BATCH;
		return;
	}
	io.stage = stage;
	io.nr_slots = REC_SLOTS;
	io.slot_pages = REC_SLOT_PAGES;
	/* It calls pwritev(), madvise() and futex(): a small stack does. */
	if (pthread_attr_init(&attr))
		return;
	pthread_attr_setstacksize(&attr, 64 * 1024);
	io.have_writer = !pthread_create(&io.writer, &attr, rec_writer_fn, NULL);
	pthread_attr_destroy(&attr);
}

/*
 * Until the writer has written every slot handed to it.  Return: the
 * first error it met since the last flush (0: none).
 */
static int rec_io_flush(void)
{
	unsigned int tail;

	while ((tail = __atomic_load_n(&io.tail, __ATOMIC_ACQUIRE)) != io.head)
		rec_futex(&io.tail, FUTEX_WAIT_PRIVATE, tail, NULL);
	return __atomic_exchange_n(&io.err, 0, __ATOMIC_RELAXED);
}

static void rec_io_stop(void)
{
	rec_io_flush();
	if (io.have_writer) {
		__atomic_store_n(&io.stop, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&io.bell, 1, __ATOMIC_RELEASE);
		rec_futex(&io.bell, FUTEX_WAKE_PRIVATE, 1, NULL);
		pthread_join(io.writer, NULL);
		io.have_writer = false;
	}
	if (io.stage && io.stage != page_buf)
		munmap(io.stage, (size_t)io.nr_slots * io.slot_pages * RB_PAGE_SIZE);
	io.stage = NULL;
}

/*
 * A slot to fill: the one after the last handed out, or the first when
 * the writer has caught up (those written are free; the ones it has
 * yet to write follow each other).  Waits while every slot is taken.
 */
static unsigned int rec_slot_get(void)
{
	unsigned int tail;

	while (io.head - (tail = __atomic_load_n(&io.tail, __ATOMIC_ACQUIRE)) >= io.nr_slots)
		rec_futex(&io.tail, FUTEX_WAIT_PRIVATE, tail, NULL);
	return tail == io.head ? 0 : (io.last + 1) % io.nr_slots;
}

/* Hand slot @slot, @len bytes of @cpu's pages, to the writer. */
static void rec_slot_put(int cpu, unsigned int slot, size_t len)
{
	struct rec_slot_desc *d = &io.desc[io.head % REC_SLOTS];

	d->cpu = cpu;
	d->slot = slot;
	d->len = len;
	io.last = slot;
	if (slot >= io.used)
		__atomic_store_n(&io.used, slot + 1, __ATOMIC_RELAXED);
	rec.cpus[cpu].queued += len;
	if (!io.have_writer) {
		rec_io_write(io.head, io.head + 1);
		io.head++;
		__atomic_store_n(&io.tail, io.head, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&io.head, io.head + 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&io.bell, 1, __ATOMIC_RELEASE);
	rec_futex(&io.bell, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* ------------------------------------------------------------------
 * Moving pages and writing files (the thread's; async-signal-safe)
 */

/*
 * Move @cpu's pages from the buffer towards its spill: only complete
 * pages with @full (the thread's moves), everything without (a file is
 * being written, after which the caller flushes).  Return: 0, or
 * -EBADF without a spill (write errors are the writer's: rec_io_flush()).
 */
static int rec_move_pages(int cpu, bool full)
{
	int tid = rec_gettid(), ret = 0;

	if (rec.cpus[cpu].fd < 0)
		return -EBADF;
	while (!ret) {
		unsigned int slot = rec_slot_get();
		char *buf = rec_slot_addr(slot);
		size_t n = 0;

		while (n < io.slot_pages) {
			void *page = buf + n * RB_PAGE_SIZE;

			__atomic_store_n(&rec.reading_tid, tid, __ATOMIC_RELAXED);
			ret = ring_buffer_read_page(rec.buffer, &page, RB_PAGE_SIZE, cpu, full);
			__atomic_store_n(&rec.reading_tid, 0, __ATOMIC_RELAXED);
			if (ret)
				break;
			n++;
		}
		if (!n)
			break;
		rec_slot_put(cpu, slot, n * RB_PAGE_SIZE);
	}
	return 0;
}

/* buffer_percent as the thread honours it: 0 is one whole page. */
static int rec_percent(void)
{
	int pct = (int)trace_array_buffer_percent(rec.tr);

	return pct ? pct : 1;
}

/*
 * The thread's pass: CPUs whose buffer is buffer_percent full, and with
 * @drain (the last pass moved pages: the writers are busy) every full
 * page of every CPU, so that a ring that fills fast is kept near empty
 * rather than at buffer_percent, and a stall of the thread (waiting for
 * a CPU) has the whole ring to fill before events are lost, not what is
 * left above the mark.  Arms the others, so that their writers wake the
 * thread when they get there.
 * Return: whether it moved pages (look again soon); *ms, how long the
 * thread may sleep after (-1: until woken).
 */
static bool rec_move_half_full(int *ms, bool drain)
{
	int pct = rec_percent();
	bool moved = false;

	*ms = -1;
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		uint64_t before = rec.cpus[cpu].queued;
		int armed;

		if (drain) {
			int err = rec_move_pages(cpu, true);

			if (err)
				__atomic_store_n(&rec.last_err, err, __ATOMIC_RELAXED);
		}
		armed = ring_buffer_wait_arm(rec.buffer, cpu, pct);

		if (armed == RING_BUFFER_WAIT_INFLIGHT)
			*ms = RING_BUFFER_WAIT_INFLIGHT_MS;
		if (armed == RING_BUFFER_WAIT_READY) {
			int err = rec_move_pages(cpu, true);

			if (err)
				__atomic_store_n(&rec.last_err, err, __ATOMIC_RELAXED);
		}
		moved |= rec.cpus[cpu].queued != before;
	}
	return moved;
}

/* A stats time: "%5llu.%06llu" of a clock in ns, else "%llu". */
static void put_ts(struct seq_buf *t, uint64_t ts)
{
	if (rec.in_ns)
		seq_buf_put_usecs(t, ts);
	else
		seq_buf_put_decimal(t, ts, 0, ' ');
}

/* per_cpu/cpuN/stats, with "CPU: N" first as trace-cmd stores it. */
static void rec_render_stats(int cpu)
{
	struct rec_cpu *c = &rec.cpus[cpu];
	struct trace_buffer *b = rec.buffer;
	struct seq_buf t;

	seq_buf_init(&t, c->stats, sizeof(c->stats));
	seq_buf_puts(&t, "CPU: ");
	seq_buf_put_decimal(&t, (uint64_t)cpu, 0, ' ');
	seq_buf_puts(&t, "\nentries: ");
	seq_buf_put_decimal(&t, ring_buffer_entries_cpu(b, cpu), 0, ' ');
	seq_buf_puts(&t, "\noverrun: ");
	seq_buf_put_decimal(&t, ring_buffer_overrun_cpu(b, cpu) - c->base_overrun, 0, ' ');
	seq_buf_puts(&t, "\ncommit overrun: ");
	seq_buf_put_decimal(&t, ring_buffer_commit_overrun_cpu(b, cpu) - c->base_commit_overrun, 0, ' ');
	seq_buf_puts(&t, "\nbytes: ");
	seq_buf_put_decimal(&t, ring_buffer_bytes_cpu(b, cpu), 0, ' ');
	seq_buf_puts(&t, "\noldest event ts: ");
	put_ts(&t, ring_buffer_oldest_event_ts(b, cpu));
	seq_buf_puts(&t, "\nnow ts: ");
	put_ts(&t, ring_buffer_time_stamp(b));
	seq_buf_puts(&t, "\ndropped events: ");
	seq_buf_put_decimal(&t, ring_buffer_dropped_events_cpu(b, cpu) - c->base_dropped, 0, ' ');
	seq_buf_puts(&t, "\nread events: ");
	seq_buf_put_decimal(&t, ring_buffer_read_events_cpu(b, cpu) - c->base_read, 0, ' ');
	seq_buf_puts(&t, "\n");
	c->stats_len = seq_buf_used(&t);
}

/* The next file starts counting from here. */
static void rec_reset_cpu(int cpu)
{
	struct rec_cpu *c = &rec.cpus[cpu];
	struct trace_buffer *b = rec.buffer;

	if (c->fd >= 0 && syscall(SYS_ftruncate, c->fd, 0) == 0)
		c->size = 0;
	c->base_overrun = ring_buffer_overrun_cpu(b, cpu);
	c->base_commit_overrun = ring_buffer_commit_overrun_cpu(b, cpu);
	c->base_dropped = ring_buffer_dropped_events_cpu(b, cpu);
	c->base_read = ring_buffer_read_events_cpu(b, cpu);
}

/* saved_cmdlines: "PID COMM" per saved thread. */
static size_t rec_render_cmdlines(bool nolock)
{
	struct seq_buf t;
	char comm[TRACE_COMM_LEN];
	int pid;

	seq_buf_init(&t, cmdlines_buf, sizeof(cmdlines_buf));
	for (unsigned int i = 0; (pid = trace_saved_cmdline_get(i, comm, nolock)) >= 0; i++) {
		if (!pid)
			continue;
		seq_buf_put_decimal(&t, (uint64_t)pid, 0, ' ');
		seq_buf_puts(&t, " ");
		seq_buf_puts(&t, comm);
		seq_buf_puts(&t, "\n");
	}
	return seq_buf_used(&t);
}

static int rec_write_dat(int fd, bool nolock)
{
	struct trace_dat_cpu cpus[rec.nr_cpus];
	struct trace_dat_info info = {
		.version	= rec.cfg.version,
		.header_page	= rec.header_page,
		.header_event	= rec.header_event,
		.formats	= __atomic_load_n(&formats, __ATOMIC_ACQUIRE),
		.kallsyms	= trace_syms_kallsyms() ? trace_syms_kallsyms() : rec.kallsyms,
		.printk		= trace_syms_printk(),
		.cmdlines	= cmdlines_buf,
		.cmdlines_len	= rec_render_cmdlines(nolock),
		.clock_list	= rec.clock_list,
		.clock		= trace_clock_get(rec.cfg.clock_idx)->name,
		.uname		= rec.uname[0] ? rec.uname : NULL,
		.nr_cpus	= rec.nr_cpus,
		.cpus		= cpus,
		/* The slots are free: the writer is done with them. */
		.copy_buf	= io.stage,
		.copy_size	= (size_t)io.nr_slots * io.slot_pages * RB_PAGE_SIZE,
	};

	/* For ustrace record -K: how our local clock derives from the TSC. */
	if (rec.clock_scale) {
		struct ustrace_clock_scale cs;

		ustrace_clock_local_scale(&cs);
		info.clock_scale = true;
		info.scale_mode = cs.mode;
		info.scale_mult = cs.mult;
		info.scale_offset = cs.offset;
	}
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		struct rec_cpu *c = &rec.cpus[cpu];

		cpus[cpu].fd = c->fd;
		cpus[cpu].size = c->fd >= 0 ? c->size : 0;
		cpus[cpu].stats = c->stats;
		cpus[cpu].stats_len = c->stats_len;
	}
	return trace_dat_write(fd, &info);
}

/* ------------------------------------------------------------------
 * Output files
 *
 * A file is written into an unnamed file of its directory (O_TMPFILE),
 * which is then linked under a random name, PATH.part-XXXXXXXXXXXXXXXX,
 * and renamed to PATH: PATH is always a whole file, and whatever another
 * user planted under any of these names is never followed: linkat()
 * refuses a name that exists, rename() replaces a symbolic link itself.
 * Where O_TMPFILE (or linking it through /proc) is not available, the
 * file is created under the random name with O_EXCL | O_NOFOLLOW.
 * Async-signal-safe: the names are built in static buffers, by the
 * thread.
 */

/* The unnamed file @fd under a new random name next to @path. */
static int rec_link_unnamed(int fd, const char *path)
{
	struct seq_buf t;
	char proc[48];

	/* The thread's table may be its own: thread-self, not self. */
	seq_buf_init(&t, proc, sizeof(proc));
	seq_buf_puts(&t, "/proc/thread-self/fd/");
	seq_buf_put_decimal(&t, (uint64_t)fd, 0, ' ');
	for (int tries = 0; tries < 16; tries++) {
		rec_part_name(path);
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, link_buf, AT_SYMLINK_FOLLOW))
			return 0;
		/* Without /proc, the privileged way. */
		if (errno == ENOENT &&
		    !syscall(SYS_linkat, fd, "", AT_FDCWD, link_buf, AT_EMPTY_PATH))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* A new file under a random name next to @path (link_buf).  Return: fd or -errno. */
static int rec_create_named(const char *path)
{
	for (int tries = 0; tries < 16; tries++) {
		int fd;

		rec_part_name(path);
		fd = rec_sys_open(link_buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				  0666);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

/*
 * Write the file @path, replacing what is there at once.  @unnamed: try
 * O_TMPFILE first.  Return: 0, -ENOLINK (the unnamed file could not be
 * linked: try without), or -errno.
 */
static int rec_write_file_as(const char *path, bool nolock, bool unnamed)
{
	int fd = -1, err;
	bool named = false;

	if (unnamed) {
		path_dirname(dir_buf, sizeof(dir_buf), path);
		fd = rec_sys_open(dir_buf, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	}
	if (fd < 0) {
		fd = rec_create_named(path);
		if (fd < 0)
			return fd;
		named = true;
	}
	err = rec_write_dat(fd, nolock);
	if (!err && !named) {
		err = rec_link_unnamed(fd, path);
		named = !err;
		if (err && err != -EEXIST)
			err = -ENOLINK;
	}
	if (rec_sys_close(fd) && !err)
		err = -errno;
	if (!err && rename(link_buf, path))
		err = -errno;
	if (err && named)
		unlink(link_buf);
	return err;
}

static int rec_write_file(const char *path, bool nolock)
{
	/* Learnt once: linking an unnamed file does not work here. */
	static int no_unnamed;
	int err = -ENOLINK;

	if (!__atomic_load_n(&no_unnamed, __ATOMIC_RELAXED))
		err = rec_write_file_as(path, nolock, true);
	if (err == -ENOLINK) {
		__atomic_store_n(&no_unnamed, 1, __ATOMIC_RELAXED);
		err = rec_write_file_as(path, nolock, false);
	}
	return err;
}

/*
 * Write everything recorded since the last file into @path: the pages
 * still in the buffer join those in the spills.  On success the next file
 * starts empty, unless REC_W_KEEP.  REC_W_NOLOCK: for a path that may
 * not resume, with REC_W_SKIP_BUF when this thread was interrupted inside
 * the ring buffer's reader.
 * Return: 0 or a negative errno.
 */
static int rec_write_locked(const char *path, unsigned int flags)
{
	int err = rec.own_table ? 0 : rec_spills_open(), cpu;

	if (err) {
		rec_spills_close();
		return err;
	}
	for (cpu = 0; cpu < rec.nr_cpus && !(flags & REC_W_SKIP_BUF); cpu++) {
		int e = rec_move_pages(cpu, false);

		if (e && !err)
			err = e;
	}
	/* The writer's last slots: the spills are whole from here. */
	err = rec_io_flush() ?: err;
	for (cpu = 0; cpu < rec.nr_cpus; cpu++)
		rec_render_stats(cpu);
	err = rec_write_file(path, flags & REC_W_NOLOCK) ?: err;
	if (!err && !(flags & REC_W_KEEP))
		for (cpu = 0; cpu < rec.nr_cpus; cpu++)
			rec_reset_cpu(cpu);
	/* In the program's table, what was moved goes with the file written. */
	if (!rec.own_table)
		rec_spills_close();
	return err;
}

/* OUTPUT.N, the next numbered file. */
static const char *rec_numbered_path(void)
{
	struct seq_buf t;

	seq_buf_init(&t, path_buf, sizeof(path_buf));
	seq_buf_puts(&t, rec.cfg.dump_base ? rec.cfg.dump_base : rec.cfg.output);
	seq_buf_puts(&t, ".");
	seq_buf_put_decimal(&t, ++rec.dump_seq, 0, ' ');
	return path_buf;
}

/* ------------------------------------------------------------------
 * The claim on the output
 *
 * Two processes given one output (USTRACE_OUTPUT set by hand for both)
 * would each replace the other's file.  The first claims it: OUTPUT.lock,
 * locked (flock()) by a descriptor of the thread's own table, which holds
 * the lock until the process (or the recording) ends, and holds its pid.
 * A process that finds the lock held writes OUTPUT.PID instead and says
 * so.  The lock is taken over when its holder died without removing the
 * file (SIGKILL); the file is removed after the final write, and one that
 * was removed between our open and our lock is not taken (its inode is no
 * longer the name's).  Without a table of the thread's own (seccomp), a
 * descriptor kept would be the program's: no claim is taken.  A part of
 * ustrace record's has a name of its own; it claims the output's name for
 * its numbered files (the dump signal), and says nothing.
 *
 * @path: the output, or the parts' numbered files' name (PATH_MAX bytes).
 */
static void rec_claim_output(char *path)
{
	char buf[24];
	size_t len = strlen(path);
	struct seq_buf t;

	if (len + 6 > sizeof(rec.claim_path))
		return;
	memcpy(rec.claim_path, path, len);
	memcpy(rec.claim_path + len, ".lock", 6);
	for (int tries = 0; tries < 8; tries++) {
		int fd = rec_sys_open(rec.claim_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
				      0644);
		struct stat a, b;
		long n;

		if (fd < 0)
			return;		/* the file will say why, if it fails too */
		if (!syscall(SYS_flock, fd, LOCK_EX | LOCK_NB)) {
			if (syscall(SYS_fstat, fd, &a) || stat(rec.claim_path, &b) ||
			    a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
				rec_sys_close(fd);	/* removed meanwhile: again */
				continue;
			}
			seq_buf_init(&t, buf, sizeof(buf));
			seq_buf_put_decimal(&t, (uint64_t)getpid(), 0, ' ');
			seq_buf_puts(&t, "\n");
			syscall(SYS_ftruncate, fd, 0);
			syscall(SYS_pwrite64, fd, buf, seq_buf_used(&t), 0);
			rec.claim_fd = fd;
			return;
		}
		if (errno != EWOULDBLOCK) {
			rec_sys_close(fd);	/* no locks here: no claim */
			break;
		}
		/* Held: the holder writes its pid right after it locks. */
		for (int i = 0; i < 20; i++) {
			n = syscall(SYS_pread64, fd, buf, sizeof(buf) - 1, 0);
			if (n > 0)
				break;
			sleep_ms(1);
		}
		rec_sys_close(fd);
		buf[n > 0 ? n : 0] = '\0';
		rec.claim_other = atoi(buf) > 0 ? atoi(buf) : -1;
		seq_buf_init(&t, buf, sizeof(buf));
		seq_buf_puts(&t, ".");
		seq_buf_put_decimal(&t, (uint64_t)getpid(), 0, ' ');
		if (len + seq_buf_used(&t) + 1 > PATH_MAX)
			return;
		memcpy(path + len, buf, seq_buf_used(&t));
		path[len + seq_buf_used(&t)] = '\0';
		rec.claim_path[0] = '\0';
		return;
	}
	rec.claim_path[0] = '\0';
}

/* After the final write, while the lock is held.  Async-signal-safe. */
static void rec_drop_claim(void)
{
	if (rec.claim_fd >= 0 && rec.claim_path[0])
		unlink(rec.claim_path);
	rec.claim_path[0] = '\0';
}

/* ------------------------------------------------------------------
 * The thread
 *
 * Its first act is a descriptor table of its own,
 * close_range(CLOSE_RANGE_UNSHARE) of every descriptor (or unshare() and
 * a close of each: no copy of the program's files outlives its start),
 * with /dev/null as 0, 1 and 2, so that nothing of ours ever prints into
 * a file.  Where both are refused (a seccomp filter), it works in the
 * program's table, and opens the spills only to write a file.  Then it
 * opens the spills (or tries) and says how that went.
 *
 * It sleeps on @rec.wake_seq, a futex: a counter bumped by whoever has
 * something for it (a request, the dump signal's handler, the stop), so
 * that a wake between its look and its sleep is not lost.
 */

/*
 * Async-signal-safe.  In producer/consumer mode the thread may sleep on
 * the buffer's wake word instead: that one is woken too.
 */
static void rec_wake(void)
{
	struct trace_buffer *buffer = __atomic_load_n(&rec.buffer, __ATOMIC_ACQUIRE);

	__atomic_add_fetch(&rec.wake_seq, 1, __ATOMIC_RELEASE);
	rec_futex(&rec.wake_seq, FUTEX_WAKE_PRIVATE, 1, NULL);
	if (buffer)
		ring_buffer_wake_waiters(buffer, RING_BUFFER_ALL_CPUS);
}

/* Until woken after @seen was read, or @ms (-1: no limit). */
static void rec_sleep(unsigned int seen, int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	rec_futex(&rec.wake_seq, FUTEX_WAIT_PRIVATE, seen, ms < 0 ? NULL : &ts);
}

/* Every descriptor of a table just unshared, without close_range(). */
static void rec_close_all(void)
{
	char ents[4096];
	long n;

	/* Closing while reading the directory may skip entries: again until none. */
	for (bool closed = true; closed; ) {
		int dir = rec_sys_open("/proc/thread-self/fd", O_RDONLY | O_DIRECTORY, 0);

		/* No /proc: every number the table can hold. */
		if (dir < 0) {
			long max = sysconf(_SC_OPEN_MAX);

			for (long fd = 0; fd < (max > 0 && max < (1l << 20) ? max : 1l << 20); fd++)
				rec_sys_close((int)fd);
			return;
		}
		closed = false;
		while ((n = syscall(SYS_getdents64, dir, ents, sizeof(ents))) > 0) {
			for (long off = 0; off < n; ) {
				struct { uint64_t ino; int64_t off; unsigned short reclen;
					 unsigned char type; char name[]; } *de = (void *)(ents + off);
				int fd = atoi(de->name);

				if (de->name[0] != '.' && fd != dir) {
					rec_sys_close(fd);
					closed = true;
				}
				off += de->reclen;
			}
		}
		rec_sys_close(dir);
	}
}

/* A table of the thread's own, with /dev/null as 0, 1 and 2. */
static bool rec_own_table(void)
{
	if (syscall(SYS_close_range, 0u, ~0u, CLOSE_RANGE_UNSHARE)) {
		if (unshare(CLONE_FILES))
			return false;
		if (syscall(SYS_close_range, 0u, ~0u, 0))
			rec_close_all();
	}
	for (int i = 0; i < 3; i++)
		if (rec_sys_open("/dev/null", O_RDWR, 0) != i)
			break;
	return true;
}

/* Return: 0, or why the spills cannot be (then no file could be either). */
static int rec_thread_init(void)
{
	int err;

	rec.thread_tid = rec_gettid();
	rec.own_table = rec_own_table();
	if (rec.own_table)
		rec_claim_output(rec.cfg.part ? rec.cfg.dump_base : rec.cfg.output);
	err = rec_spills_open();
	if (err || !rec.own_table)
		rec_spills_close();
	if (!err)
		rec_io_start();
	return err;
}

/* What another path asked for. */
static void rec_serve(void)
{
	unsigned int flags = rec.req.flags;
	const char *path = flags & REC_W_NUMBERED ? rec_numbered_path() :
			   rec.req.path ? rec.req.path : rec.cfg.output;

	__atomic_store_n(&rec.req.kind, REQ_BUSY, __ATOMIC_RELAXED);
	rec.req.result = rec_write_locked(path, flags);
	__atomic_store_n(&rec.req.kind, REQ_NONE, __ATOMIC_RELEASE);
	__atomic_add_fetch(&rec.req.done, 1, __ATOMIC_RELEASE);
	rec_futex(&rec.req.done, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

/* The dump signal's file; an error is said by the next to write (the thread prints nothing). */
static void rec_dump_now(void)
{
	int err = rec_write_locked(rec_numbered_path(), 0);

	if (err) {
		rec.dump_err_seq = rec.dump_seq;
		__atomic_store_n(&rec.dump_err, err, __ATOMIC_RELEASE);
	}
}

static bool rec_has_work(void)
{
	return __atomic_load_n(&rec.stop, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&rec.dump_req, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&rec.req.kind, __ATOMIC_ACQUIRE) == REQ_WRITE;
}

/*
 * Producer/consumer, recording: sleep on the buffer's wake word, armed by
 * the last pass (rec_move_half_full()), which a writer reaching
 * buffer_percent and rec_wake() both wake.
 */
static void rec_sleep_on_buffer(void)
{
	uint32_t seq = ring_buffer_wait_seq(rec.buffer);
	int ms;

	/* Armed again after the load, so that no wake falls in between. */
	if (!rec_move_half_full(&ms, false) && !rec_has_work())
		ring_buffer_wait_sleep(rec.buffer, seq, ms);
}

static void *rec_thread_fn(void *arg)
{
	bool busy = false;
	int err = rec_thread_init(), ms;

	(void)arg;
	__atomic_store_n(&rec.init, err, __ATOMIC_RELEASE);
	rec_futex((unsigned int *)&rec.init, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
	while (!err) {
		unsigned int seen = __atomic_load_n(&rec.wake_seq, __ATOMIC_ACQUIRE);
		bool consuming = rec.cfg.mode == USTRACE_RECORD_PRODUCER_CONSUMER &&
				 rec.own_table &&
				 __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) == REC_ON;

		if (rec_has_work())
			;
		else if (busy)
			rec_sleep(seen, 1);
		else if (consuming)
			rec_sleep_on_buffer();
		else
			rec_sleep(seen, rec.cfg.mode != USTRACE_RECORD_PRODUCER_CONSUMER ? -1 :
					RECORD_POLL_MS);
		if (__atomic_load_n(&rec.req.kind, __ATOMIC_ACQUIRE) == REQ_WRITE)
			rec_serve();
		if (__atomic_load_n(&rec.stop, __ATOMIC_ACQUIRE))
			break;
		trace_syms_update();	/* objects loaded since */
		if (__atomic_exchange_n(&rec.dump_req, 0, __ATOMIC_ACQ_REL))
			rec_dump_now();
		busy = rec.cfg.mode == USTRACE_RECORD_PRODUCER_CONSUMER && rec.own_table &&
		       __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) == REC_ON &&
		       rec_move_half_full(&ms, busy);
	}
	if (!err)
		rec_io_stop();
	rec_spills_close();
	return NULL;
}

/*
 * The thread takes no signal meant for the program.  Return: 0, or the
 * error of its start (the spills cannot be created next to the output).
 */
static int rec_thread_start(void)
{
	sigset_t all, old;
	int err;

	__atomic_store_n(&rec.init, REC_INIT_PENDING, __ATOMIC_RELAXED);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&rec.thread, NULL, rec_thread_fn, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	rec.have_thread = true;
	while ((err = __atomic_load_n(&rec.init, __ATOMIC_ACQUIRE)) == REC_INIT_PENDING)
		rec_futex((unsigned int *)&rec.init, FUTEX_WAIT_PRIVATE, REC_INIT_PENDING, NULL);
	return err;
}

static void rec_thread_stop(void)
{
	__atomic_store_n(&rec.stop, 1, __ATOMIC_RELEASE);
	if (!rec.have_thread)
		return;
	rec_wake();
	pthread_join(rec.thread, NULL);
	rec.have_thread = false;
}

/* ------------------------------------------------------------------
 * Asking the thread for a file
 */

/*
 * Until the request posted (if any) is served.  The thread has @ms (-1:
 * no limit) to take it up; then it writes as long as the file takes, as
 * the asker would have.  Return: false if it did not take it up.
 */
static bool rec_wait_served(int ms)
{
	static const struct timespec slice = { .tv_nsec = 1000000 };

	for (int waited = 0; ; waited++) {
		unsigned int done = __atomic_load_n(&rec.req.done, __ATOMIC_ACQUIRE);
		int kind = __atomic_load_n(&rec.req.kind, __ATOMIC_ACQUIRE);

		if (kind == REQ_NONE)
			return true;
		if (kind == REQ_WRITE && ms >= 0 && waited >= ms)
			return false;
		rec_futex(&rec.req.done, FUTEX_WAIT_PRIVATE, done, &slice);
	}
}

/*
 * Have the thread write @path (NULL: the output) with @flags, and wait
 * for it, @ms at most (-1: no limit).  Under the lock.  On the thread
 * itself (its own fault's handler), write at once.  Async-signal-safe.
 * Return: its result, or -ETIMEDOUT.
 */
static int rec_ask(const char *path, unsigned int flags, int ms)
{
	int tid = rec_gettid();

	if (tid == rec.thread_tid) {
		if (__atomic_load_n(&rec.reading_tid, __ATOMIC_RELAXED) == tid)
			flags |= REC_W_SKIP_BUF;
		return rec_write_locked(flags & REC_W_NUMBERED ? rec_numbered_path() :
					path ? path : rec.cfg.output, flags);
	}
	/* A request of this very thread, which a handler interrupted: let it end. */
	if (!rec_wait_served(ms))
		return -ETIMEDOUT;
	rec.req.path = path;
	rec.req.flags = flags;
	__atomic_store_n(&rec.req.kind, REQ_WRITE, __ATOMIC_RELEASE);
	rec_wake();
	return rec_wait_served(ms) ? rec.req.result : -ETIMEDOUT;
}

/* ------------------------------------------------------------------
 * The paths that may not resume: the final write
 */

/* Wait a bounded time for another thread's final write. */
static void rec_wait_written(int tid)
{
	for (int ms = 0; ms < RECORD_FATAL_WAIT_MS; ms++) {
		int writer = __atomic_load_n(&rec.writer_tid, __ATOMIC_ACQUIRE);

		if (__atomic_load_n(&rec.written, __ATOMIC_ACQUIRE) || !writer || writer == tid)
			return;
		sleep_ms(1);
	}
}

/*
 * The final write from a signal handler, _exit() or quick_exit(): the
 * process ends right after.  A second thread that gets here while the
 * first writes waits for the file.  Async-signal-safe; does nothing in a
 * process that does not record (a child).
 */
void trace_record_finish_now(void)
{
	int tid, on = REC_ON, err;
	bool held;

	if (!rec_owner())
		return;
	tid = rec_gettid();
	if (!__atomic_compare_exchange_n(&rec.state, &on, REC_FINISHING, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		rec_wait_written(tid);
		return;
	}
	__atomic_store_n(&rec.writer_tid, tid, __ATOMIC_RELEASE);
	ring_buffer_record_off(rec.buffer);
	held = rec_lock_fatal(tid);
	/*
	 * The thread goes on waiting (an exiting thread nobody joins is a
	 * leak to ThreadSanitizer); with the buffer off it has nothing left
	 * to move.
	 */
	err = rec_ask(NULL, REC_W_NOLOCK, RECORD_FATAL_WAIT_MS);
	if (!held)
		rec_unlock();
	rec_drop_claim();
	__atomic_store_n(&rec.written, 1, __ATOMIC_RELEASE);
	if (err)
		rec_warn_safe(rec.cfg.output, -err);
}

/*
 * Before exec replaces the program: the file with everything so far.
 * Recording goes on, and the next file (the final one, should the exec
 * fail) holds all of it again.  Async-signal-safe (exec may come from a
 * handler).
 */
void trace_record_before_exec(void)
{
	int tid, err, saved_errno = errno;
	bool held;

	if (!rec_owner() || __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) != REC_ON)
		return;
	tid = rec_gettid();
	held = rec_lock_fatal(tid);
	err = rec_ask(NULL, REC_W_NOLOCK | REC_W_KEEP, RECORD_FATAL_WAIT_MS);
	if (!held)
		rec_unlock();
	if (err)
		rec_warn_safe(rec.cfg.output, -err);
	errno = saved_errno;
}

/* ------------------------------------------------------------------
 * Signals
 *
 * The signals whose default action ends the process write the file
 * first.  Faults and abort() (crash_signals) are caught whoever handles
 * them, and handed on after the write: to a sanitizer's or a crash
 * reporter's handler, or to the default action.  The others (end_signals,
 * the real-time signals among them) are caught only while the program
 * leaves them at their default action: a program that handles SIGHUP or
 * SIGUSR1 goes on running, and one that handles SIGTERM ends through
 * exit(), which writes the file.  A handler the program installs later
 * replaces ours.  SIGTRAP is the jump label code's, which resolves the
 * traps of sites being rewritten; the dump signal writes a numbered file
 * and ends nothing.
 *
 * Handing a signal on to its default action sends it again with its
 * siginfo (rt_tgsigqueueinfo() to this thread, blocked until the handler
 * returns): the process ends by that signal, with its core dump, as it
 * would have.
 */
static const int crash_signals[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };
static const int end_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
	SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS,
};
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static struct sigaction old_actions[NSIG];
static bool handler_installed[NSIG];

static bool rec_sig_default(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL;
}

/* The signal again, with its siginfo, once the handler returns. */
static void rec_resend(int sig, siginfo_t *si)
{
	if (!si || syscall(SYS_rt_tgsigqueueinfo, getpid(), rec_gettid(), sig, si))
		raise(sig);
}

/*
 * Hand the signal to what the program had: the default action, or its
 * handler, run as the kernel would have run it (its mask, SA_RESETHAND),
 * or nothing.  The program's disposition is back in place for good.
 */
static void rec_chain(int sig, siginfo_t *si, void *ucv)
{
	const struct sigaction *old = &old_actions[sig];
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	const ucontext_t *uc = ucv;
	sigset_t mask;

	if (rec_sig_default(old)) {
		sigaction(sig, &dfl, NULL);
		rec_resend(sig, si);
		return;
	}
	sigaction(sig, old->sa_flags & SA_RESETHAND ? &dfl : old, NULL);
	if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_IGN)
		return;
	mask = uc->uc_sigmask;
	sigorset(&mask, &mask, &old->sa_mask);
	if (!(old->sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (old->sa_flags & SA_SIGINFO)
		old->sa_sigaction(sig, si, ucv);
	else
		old->sa_handler(sig);
}

static void rec_end_handler(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno;

	trace_record_finish_now();
	rec_chain(sig, si, uc);
	errno = saved_errno;
}

static void rec_dump_handler(int sig)
{
	int saved_errno = errno;

	(void)sig;
	if (rec_owner() && __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) == REC_ON) {
		__atomic_store_n(&rec.dump_req, 1, __ATOMIC_RELEASE);
		rec_wake();
	}
	errno = saved_errno;
}

enum rec_sig_kind { REC_SIG_CRASH, REC_SIG_END, REC_SIG_DUMP };

static void rec_install(int sig, enum rec_sig_kind kind)
{
	struct sigaction sa = { .sa_flags = SA_ONSTACK };

	if (sig == rec.cfg.dump_signal && kind != REC_SIG_DUMP)
		return;
	if (sigaction(sig, NULL, &old_actions[sig]))
		return;
	if (kind == REC_SIG_END && !rec_sig_default(&old_actions[sig]))
		return;
	/* Nothing else runs in the middle of the write. */
	sigfillset(&sa.sa_mask);
	if (kind == REC_SIG_DUMP) {
		sa.sa_flags |= SA_RESTART;
		sa.sa_handler = rec_dump_handler;
	} else {
		/* A program's handler that returns restarts what it restarted. */
		sa.sa_flags |= SA_SIGINFO | (old_actions[sig].sa_flags & SA_RESTART);
		sa.sa_sigaction = rec_end_handler;
	}
	if (!sigaction(sig, &sa, NULL))
		handler_installed[sig] = true;
}

static void rec_install_handlers(void)
{
	for (unsigned int i = 0; i < ARRAY_LEN(crash_signals); i++)
		rec_install(crash_signals[i], REC_SIG_CRASH);
	for (unsigned int i = 0; i < ARRAY_LEN(end_signals); i++)
		rec_install(end_signals[i], REC_SIG_END);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		rec_install(sig, REC_SIG_END);
	if (rec.cfg.dump_signal)
		rec_install(rec.cfg.dump_signal, REC_SIG_DUMP);
}

/* Put back what the program had, where our handler is still in place. */
static void rec_uninstall_handlers(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction cur;

		if (!handler_installed[sig] || sigaction(sig, NULL, &cur))
			continue;
		if (cur.sa_sigaction == rec_end_handler ||
		    cur.sa_handler == rec_dump_handler)
			sigaction(sig, &old_actions[sig], NULL);
		handler_installed[sig] = false;
	}
}

/* ------------------------------------------------------------------
 * Events
 */

static bool rec_matches(struct trace_event_call *call)
{
	bool any = false;

	for (unsigned int i = 0; i < rec.cfg.nr_pats; i++) {
		struct rec_pattern *p = &rec.cfg.pats[i];

		if (fnmatch(p->system, call->event_class->system, 0) ||
		    (p->event && fnmatch(p->event, call->name, 0)))
			continue;
		p->matched = true;
		any = true;
	}
	return any;
}

/* Under the event mutex. */
static void rec_enable(struct trace_event_call *call)
{
	int err;

	if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE || !rec_matches(call))
		return;
	err = trace_array_set_clr_event(rec.tr, call->event_class->system, call->name, 1);
	if (err)
		rec_warn("enabling %s:%s: %s", call->event_class->system, call->name,
			 strerror(-err));
}

/* Under the event mutex: keep @call's format for every file to come. */
static void rec_add_format(struct trace_event_call *call)
{
	struct trace_dat_format *f;
	const char *system = call->event_class->system;
	size_t slen = strlen(system) + 1;
	int len = trace_event_format(call, NULL, 0);

	if (len < 0)
		return;
	f = calloc(1, sizeof(*f) + (size_t)len + 1 + slen);
	if (!f) {
		rec_warn("no memory for the format of %s:%s", system, call->name);
		return;
	}
	trace_event_format(call, f->text, (size_t)len + 1);
	f->len = (size_t)len;
	f->ftrace = call->flags & TRACE_EVENT_FL_FTRACE;
	memcpy(f->text + len + 1, system, slen);
	f->system = f->text + len + 1;
	/* An object loaded again brings the same event back: keep one. */
	for (struct trace_dat_format *g = formats; g; g = g->next) {
		if (g->len == f->len && !memcmp(g->text, f->text, f->len)) {
			free(f);
			return;
		}
	}
	/* Release: a signal handler walking the list sees the whole node. */
	__atomic_store_n(formats_tail, f, __ATOMIC_RELEASE);
	formats_tail = &f->next;
}

static void rec_event_notify(struct trace_event_call *call, int added)
{
	int state = __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE);

	if (!added)
		return;
	rec_add_format(call);
	if (state == REC_ON && rec.pid == getpid())
		rec_enable(call);
}

static void rec_enable_each(struct trace_event_call *call, void *priv)
{
	(void)priv;
	rec_enable(call);
}

static void rec_enable_events(void)
{
	trace_event_lock();
	if (!notifier_registered) {
		/* Called at once for the events already registered. */
		if (trace_event_notifier_register(rec_event_notify))
			rec_warn("events registered later will not be recorded");
		else
			notifier_registered = true;
	} else {
		trace_for_each_event_call(rec_enable_each, NULL);
	}
	trace_event_unlock();
}

/* ------------------------------------------------------------------
 * Configuration
 */

static void rec_free_config(struct rec_config *cfg)
{
	for (unsigned int i = 0; i < cfg->nr_pats; i++) {
		free(cfg->pats[i].system);
		free(cfg->pats[i].event);
	}
	free(cfg->pats);
	free(cfg->output);
	free(cfg->dump_base);
	memset(cfg, 0, sizeof(*cfg));
}

static int rec_add_pattern(struct rec_config *cfg, const char *spec, size_t len)
{
	struct rec_pattern *pats, *p;
	const char *colon = memchr(spec, ':', len);

	if (!len || colon == spec || (colon && colon + 1 == spec + len))
		return -EINVAL;
	pats = realloc(cfg->pats, (cfg->nr_pats + 1) * sizeof(*pats));
	if (!pats)
		return -ENOMEM;
	cfg->pats = pats;
	p = &pats[cfg->nr_pats];
	memset(p, 0, sizeof(*p));
	if (len == 3 && !memcmp(spec, "all", 3))
		p->system = strdup("*");
	else
		p->system = strndup(spec, colon ? (size_t)(colon - spec) : len);
	if (colon)
		p->event = strndup(colon + 1, len - (size_t)(colon + 1 - spec));
	cfg->nr_pats++;
	if (!p->system || (colon && !p->event))
		return -ENOMEM;
	return 0;
}

/* "SYSTEM[:EVENT][,...]" */
static int rec_parse_events(struct rec_config *cfg, const char *events)
{
	while (events && *events) {
		const char *comma = strchr(events, ',');
		size_t len = comma ? (size_t)(comma - events) : strlen(events);
		int err = rec_add_pattern(cfg, events, len);

		if (err)
			return err;
		events = comma ? comma + 1 : NULL;
		if (comma && !*events)
			return -EINVAL;
	}
	return 0;
}

/* @output made absolute (the program may chdir), "%p" as the pid. */
static int rec_parse_output(struct rec_config *cfg, const char *output)
{
	char cwd[PATH_MAX], pid[16];
	struct seq_buf t;
	size_t size = PATH_MAX;

	cfg->output = malloc(size);
	if (!cfg->output)
		return -ENOMEM;
	seq_buf_init(&t, cfg->output, size);
	if (output[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		seq_buf_puts(&t, cwd);
		seq_buf_puts(&t, "/");
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	for (const char *s = output; *s; s++) {
		char c[2] = { *s, '\0' };

		if (s[0] == '%' && s[1] == 'p') {
			seq_buf_puts(&t, pid);
			s++;
		} else if (s[0] == '%' && s[1] == '%') {
			seq_buf_puts(&t, "%");
			s++;
		} else {
			seq_buf_puts(&t, c);
		}
	}
	return seq_buf_has_overflowed(&t) ? -ENAMETOOLONG : 0;
}

/*
 * Not a dump signal: those that stop or kill for good, the faults, and
 * SIGTERM and SIGINT, which a program is asked to end by.
 */
static bool rec_bad_dump_signal(int sig)
{
	static const int refused[] = {
		SIGKILL, SIGSTOP, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT,
	};

	if (sig < 0 || sig >= NSIG)
		return true;
	for (unsigned int i = 0; sig && i < sizeof(refused) / sizeof(refused[0]); i++)
		if (sig == refused[i])
			return true;
	return false;
}

/*
 * The configuration @attr asks for.  Return: 0, -ENOMEM, -ENAMETOOLONG,
 * the errno of getcwd(), or -EINVAL with @what naming the bad member.
 */
static int rec_config_from_attr(struct rec_config *cfg, const struct ustrace_record_attr *attr,
				const char **what)
{
	struct ustrace_record_attr a = { 0 };
	const struct trace_clock *clock;
	int err;

	memset(cfg, 0, sizeof(*cfg));
	*what = "size";
	if (!attr || attr->size < offsetof(struct ustrace_record_attr, dump_signal) + sizeof(int))
		return -EINVAL;
	memcpy(&a, attr, attr->size < sizeof(a) ? attr->size : sizeof(a));
	*what = "mode";
	if (a.mode != USTRACE_RECORD_PRODUCER_CONSUMER && a.mode != USTRACE_RECORD_OVERWRITE)
		return -EINVAL;
	*what = "file_version";
	if (a.file_version && a.file_version != 6 && a.file_version != 7)
		return -EINVAL;
	*what = "dump_signal";
	if (rec_bad_dump_signal(a.dump_signal))
		return -EINVAL;
	*what = "buffer_kb";
	if (a.buffer_kb > (1ul << 30))
		return -EINVAL;
	*what = "clock";
	clock = trace_clock_find(a.clock ? a.clock : "local");
	if (!clock)
		return -EINVAL;
	for (cfg->clock_idx = 0; trace_clock_get(cfg->clock_idx) != clock; cfg->clock_idx++)
		;
	cfg->buffer_kb = a.buffer_kb ? a.buffer_kb : RECORD_DEFAULT_KB;
	cfg->mode = a.mode;
	cfg->version = a.file_version ? a.file_version : 7;
	cfg->dump_signal = a.dump_signal;
	*what = "events";
	err = rec_parse_events(cfg, a.events);
	if (!err) {
		*what = "output";
		err = rec_parse_output(cfg, a.output ? a.output : "trace.dat");
	}
	if (err)
		rec_free_config(cfg);
	return err;
}

/* ------------------------------------------------------------------
 * Starting and finishing
 */

/* What a file needs that can be rendered once, in normal context. */
static void rec_render_static(void)
{
	const struct trace_clock *tc;
	struct seq_buf t;
	struct utsname u;

	ring_buffer_print_page_header(rec.header_page, sizeof(rec.header_page));
	ring_buffer_print_entry_header(rec.header_event, sizeof(rec.header_event));
	seq_buf_init(&t, rec.clock_list, sizeof(rec.clock_list));
	for (unsigned int i = 0; (tc = trace_clock_get(i)); i++) {
		seq_buf_puts(&t, i ? " " : "");
		seq_buf_puts(&t, i == rec.cfg.clock_idx ? "[" : "");
		seq_buf_puts(&t, tc->name);
		seq_buf_puts(&t, i == rec.cfg.clock_idx ? "]" : "");
	}
	seq_buf_puts(&t, "\n");
	/* trace-cmd prints the ip of ftrace:print as the kernel's function. */
	snprintf(rec.kallsyms, sizeof(rec.kallsyms), "%0*lx T tracing_mark_write\n",
		 (int)(2 * sizeof(long)), TRACE_MARKER_IP);
	/* The program's symbols and tracepoint strings (trace_syms.c). */
	trace_syms_update();
	rec.uname[0] = '\0';
	if (!uname(&u))
		snprintf(rec.uname, sizeof(rec.uname), "%s %s %s %s", u.sysname, u.nodename,
			 u.release, u.machine);
	rec.in_ns = trace_clock_get(rec.cfg.clock_idx)->in_ns;
	rec.clock_scale = ustrace_getenv("USTRACE_CLOCK_SCALE") != NULL;
	/* The scale is measured once, before the first event (trace_clock.c). */
	if (rec.clock_scale)
		trace_clock_local();
}

/* The instance, as the configuration says. */
static int rec_setup_instance(void)
{
	const char *clock = trace_clock_get(rec.cfg.clock_idx)->name;
	int err;

	rec.tr = trace_array_create(TRACE_RECORD_INSTANCE);
	if (!rec.tr)
		return -errno;
	err = trace_array_set_clock(rec.tr, clock);
	if (!err)
		err = trace_array_resize_kb(rec.tr, rec.cfg.buffer_kb, RING_BUFFER_ALL_CPUS);
	if (!err)
		err = trace_array_set_option(rec.tr, "overwrite",
					     rec.cfg.mode == USTRACE_RECORD_OVERWRITE);
	rec.buffer = trace_array_buffer(rec.tr);
	rec.nr_cpus = ring_buffer_nr_cpus(rec.buffer);
	return err;
}

/* Undo a start, as far as it went; the state goes back to REC_OFF. */
static void rec_teardown(bool destroy)
{
	rec_uninstall_handlers();
	/* The thread closes the spills as it goes. */
	rec_thread_stop();
	rec.claim_fd = -1;		/* its table went with the thread */
	free(rec.cpus);
	rec.cpus = NULL;
	if (destroy && rec.tr)
		trace_array_destroy(rec.tr);
	rec.tr = NULL;
	rec.buffer = NULL;
	rec_free_config(&rec.cfg);
	__atomic_store_n(&rec.state, REC_OFF, __ATOMIC_RELEASE);
}

static int rec_start(struct rec_config *cfg)
{
	int off = REC_OFF, err;

	if (!__atomic_compare_exchange_n(&rec.state, &off, REC_STARTING, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		rec_free_config(cfg);
		return -EBUSY;
	}
	rec.cfg = *cfg;
	rec.pid = getpid();
	rec.stop = rec.dump_req = rec.written = rec.writer_tid = 0;
	rec.dump_seq = 0;
	rec.last_err = rec.dump_err = 0;
	rec.thread_tid = 0;
	rec.claim_fd = -1;
	rec.claim_other = 0;
	err = rec_setup_instance();
	if (err)
		goto fail;
	err = -ENOMEM;
	rec.cpus = calloc((size_t)rec.nr_cpus, sizeof(*rec.cpus));
	if (!rec.cpus)
		goto fail;
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++)
		rec.cpus[cpu].fd = -1;
	path_dirname(rec.spill_dir, sizeof(rec.spill_dir), rec.cfg.output);
	rec_render_static();
	/* It opens the spills: an output directory we cannot write fails here. */
	err = rec_thread_start();
	if (err)
		goto fail;
	if (rec.claim_other && !rec.cfg.part) {
		const char *dot = strrchr(rec.cfg.output, '.');

		if (rec.claim_other > 0)
			rec_warn("%.*s: pid %d records into it; pid %d writes %s instead",
				 (int)(dot - rec.cfg.output), rec.cfg.output,
				 (int)rec.claim_other, (int)getpid(), rec.cfg.output);
		else
			rec_warn("%.*s: another process records into it; pid %d writes %s instead",
				 (int)(dot - rec.cfg.output), rec.cfg.output, (int)getpid(),
				 rec.cfg.output);
	}
	rec_install_handlers();
	/* The notifier enables events from now on, under the event mutex. */
	__atomic_store_n(&rec.state, REC_ON, __ATOMIC_RELEASE);
	rec_enable_events();
	return 0;
fail:
	rec_teardown(true);
	return err;
}

/* What went wrong on the way, said at the end (the thread prints nothing). */
static void rec_report_errors(int err)
{
	int dump_err = __atomic_load_n(&rec.dump_err, __ATOMIC_ACQUIRE);
	int last = __atomic_load_n(&rec.last_err, __ATOMIC_RELAXED);

	if (dump_err)
		rec_warn("%s.%u: %s", rec.cfg.output, rec.dump_err_seq, strerror(-dump_err));
	if (err)
		rec_warn("%s: %s", rec.cfg.output, strerror(-err));
	else if (last)
		rec_warn("%s: pages were lost: %s", rec.cfg.output, strerror(-last));
}

/* Patterns that never matched are most likely typos: say so at the end. */
static void rec_report_unmatched(void)
{
	for (unsigned int i = 0; i < rec.cfg.nr_pats; i++) {
		const struct rec_pattern *p = &rec.cfg.pats[i];

		if (!p->matched)
			rec_warn("no event matched %s%s%s", p->system, p->event ? ":" : "",
				 p->event ? p->event : "");
	}
}

/*
 * Stop recording and write the file.  At exit the instance stays (other
 * threads may still be inside a probe); ustrace_record_stop() frees it.
 */
static int rec_finish(bool exiting)
{
	int on = REC_ON, err;

	if (rec.pid != getpid() ||
	    !__atomic_compare_exchange_n(&rec.state, &on, REC_FINISHING, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return -EINVAL;
	__atomic_store_n(&rec.writer_tid, rec_gettid(), __ATOMIC_RELEASE);
	ring_buffer_record_off(rec.buffer);
	trace_syms_update();
	rec_lock();
	err = rec_ask(NULL, 0, -1);
	rec_unlock();
	rec_drop_claim();
	__atomic_store_n(&rec.written, 1, __ATOMIC_RELEASE);
	rec_report_errors(err);
	trace_event_lock();
	rec_report_unmatched();
	trace_event_unlock();
	rec_teardown(!exiting);
	return err;
}

/* ------------------------------------------------------------------
 * The environment
 */

static int rec_parse_ulong(const char *s, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(s, &end, 10);
	return errno || end == s || *end || s[0] == '-' ? -EINVAL : 0;
}

/* "USR2", "SIGUSR2", a number, or "0" / "none". */
static int rec_parse_signal(const char *s, int *sig)
{
	unsigned long n;

	if (!strcmp(s, "none") || !rec_parse_ulong(s, &n)) {
		*sig = strcmp(s, "none") ? (int)n : 0;
		return *sig < NSIG ? 0 : -EINVAL;
	}
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *name = sigabbrev_np(i);

		if (name && !strcmp(name, s)) {
			*sig = i;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * The attributes the variables ask for.  Return: 0, or -EINVAL with @bad
 * naming the variable.
 */
static int rec_attr_from_env(struct ustrace_record_attr *attr, const char **bad)
{
	unsigned long n;
	const char *v;

	attr->size = sizeof(*attr);
	attr->events = ustrace_getenv_path("USTRACE_EVENTS");
	attr->output = ustrace_getenv_path("USTRACE_OUTPUT");
	attr->clock = ustrace_getenv("USTRACE_CLOCK");
	v = ustrace_getenv(*bad = "USTRACE_MODE");
	if (v && !strcmp(v, "overwrite"))
		attr->mode = USTRACE_RECORD_OVERWRITE;
	else if (v && strcmp(v, "producer-consumer"))
		return -EINVAL;
	v = ustrace_getenv(*bad = "USTRACE_BUFFER_KB");
	if (v && (rec_parse_ulong(v, &attr->buffer_kb) || !attr->buffer_kb))
		return -EINVAL;
	v = ustrace_getenv(*bad = "USTRACE_FLIGHT_RECORDER");
	if (v) {
		if (rec_parse_ulong(v, &n) || !n || n > (1ul << 20))
			return -EINVAL;
		attr->mode = USTRACE_RECORD_OVERWRITE;
		attr->buffer_kb = n << 10;
	}
	v = ustrace_getenv(*bad = "USTRACE_FILE_VERSION");
	if (v && (rec_parse_ulong(v, &n) || (n != 6 && n != 7)))
		return -EINVAL;
	attr->file_version = v ? (int)n : 0;
	/* The flight recorder writes a numbered file on SIGUSR2 unless told. */
	attr->dump_signal = attr->mode == USTRACE_RECORD_OVERWRITE ? SIGUSR2 : 0;
	v = ustrace_getenv(*bad = "USTRACE_DUMP_SIGNAL");
	if (v && (rec_parse_signal(v, &attr->dump_signal) ||
		  rec_bad_dump_signal(attr->dump_signal)))
		return -EINVAL;
	return 0;
}

/*
 * USTRACE_PARTS=DIR (set by ustrace record): this process records into a
 * part of its own, DIR/PID.N.dat, N the first number free (a program
 * exec'd in the same process is a new part), which the command merges
 * with the others into its output once every process ended.  The part is
 * the file a process alone would write; its clock's scale, which the merge
 * needs, goes beside it now, in DIR/PID.N.dat.scale, whose creation
 * (O_EXCL) reserves the number.  Numbered files (the dump signal) keep the
 * output's name, OUTPUT.1, OUTPUT.2, ...
 */
static int rec_use_parts(struct rec_config *cfg, const char *dir)
{
	struct ustrace_clock_scale cs = { .mode = 2, .mult = 1 };
	char *path = malloc(PATH_MAX), line[80];
	int len, fd = -1;

	if (!path)
		return -ENOMEM;
	if (!strcmp(trace_clock_get(cfg->clock_idx)->name, "local"))
		ustrace_clock_local_scale(&cs);
	len = snprintf(line, sizeof(line), "%u %llu %llu\n", (unsigned int)cs.mode,
		       (unsigned long long)cs.mult, (unsigned long long)cs.offset);
	for (unsigned int n = 0; n < 10000; n++) {
		if (snprintf(path, PATH_MAX, "%s/%d.%u.dat.scale", dir, (int)getpid(), n) >=
		    PATH_MAX) {
			free(path);
			return -ENAMETOOLONG;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int err = -errno;

		free(path);
		return err;
	}
	if (write(fd, line, (size_t)len) != len) {
		int err = errno ? -errno : -ENOSPC;

		close(fd);
		unlink(path);
		free(path);
		return err;
	}
	close(fd);
	path[strlen(path) - strlen(".scale")] = '\0';
	cfg->dump_base = cfg->output;
	cfg->output = path;
	cfg->part = true;
	return 0;
}

/* The variable of an attribute: "file_version" -> "USTRACE_FILE_VERSION". */
static void rec_env_name(char *buf, size_t size, const char *what)
{
	size_t i = (size_t)snprintf(buf, size, "USTRACE_");

	for (; *what && i + 1 < size; what++)
		buf[i++] = (char)(*what >= 'a' && *what <= 'z' ? *what - 'a' + 'A' : *what);
	buf[i] = '\0';
}

__attribute__((__constructor__))
static void trace_record_env_init(void)
{
	struct ustrace_record_attr attr = { 0 };
	struct rec_config cfg;
	const char *events, *parts, *what = NULL;
	char var[64];
	int err;

	if (ustrace_is_tool())
		return;
	/*
	 * Recording writes a file where the environment says (or into the
	 * working directory): a privileged process refuses the variable.
	 */
	events = ustrace_getenv_path("USTRACE_EVENTS");
	if (!events || !*events)
		return;
	err = rec_attr_from_env(&attr, &what);
	if (!err) {
		err = rec_config_from_attr(&cfg, &attr, &what);
		rec_env_name(var, sizeof(var), what);
		what = var;
	}
	if (err == -EINVAL) {
		rec_warn("%s=%s: bad value; not recording", what,
			 ustrace_getenv(what) ? ustrace_getenv(what) : "");
		return;
	}
	parts = ustrace_getenv_path("USTRACE_PARTS");
	if (!err && parts && *parts) {
		err = rec_use_parts(&cfg, parts);
		if (err) {
			rec_warn("USTRACE_PARTS=%s: %s; not recording", parts, strerror(-err));
			rec_free_config(&cfg);
			return;
		}
	}
	if (!err)
		err = rec_start(&cfg);
	if (err)
		rec_warn("%s: %s; not recording", attr.output ? attr.output : "trace.dat",
			 strerror(-err));
	else
		rec.from_env = true;
}

int trace_record_before_daemon(void)
{
	int was = !rec_owner() ? TRACE_RECORD_NONE :
		  rec.from_env ? TRACE_RECORD_ENV : TRACE_RECORD_API;

	trace_record_finish_now();
	return was;
}

void trace_record_daemon_child(int was)
{
	/* A child of a recording process forks as any child does. */
	if (was == TRACE_RECORD_NONE || __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) == REC_OFF)
		return;
	/*
	 * The parent's: its thread is not ours (nothing to stop or join:
	 * rec_teardown() then only frees), nor are the descriptors of that
	 * thread's table; we are the only thread, so no probe is inside the
	 * instance it frees.
	 */
	rec.have_thread = false;
	rec.thread_tid = 0;
	rec.lock_tid = rec.reading_tid = rec.writer_tid = 0;
	rec.req.kind = REQ_NONE;
	rec_teardown(true);
	rec.from_env = false;
	if (was == TRACE_RECORD_ENV)
		trace_record_env_init();
}

/* After the destructors of every object that uses the library. */
__attribute__((__destructor__))
static void trace_record_exit(void)
{
	if (rec_owner())
		rec_finish(true);
}

/* ------------------------------------------------------------------
 * The API of <ustrace/record.h>
 */

/**
 * ustrace_record_start - start recording into a trace-cmd data file
 * @attr: what and how (struct ustrace_record_attr)
 *
 * Return: 0; -EBUSY (already recording: USTRACE_EVENTS started it, or an
 * earlier call); -EINVAL (a bad attribute); -EEXIST (an instance named
 * ustrace-record exists); -ENOMEM; the errno of creating the temporary
 * files next to the output.
 * Context: any thread; not from a signal handler.
 */
int ustrace_record_start(const struct ustrace_record_attr *attr)
{
	struct rec_config cfg;
	const char *what;
	int err = rec_config_from_attr(&cfg, attr, &what);

	return err ? err : rec_start(&cfg);
}

/**
 * ustrace_record_dump - write what was recorded so far, and go on
 * @path: the file; NULL: the next numbered file, OUTPUT.1, OUTPUT.2, ...
 *
 * The file holds what was recorded since the previous one; the next file
 * (and the final one) starts from there.
 *
 * Return: 0, -EINVAL (not recording), or the errno of writing the file.
 * Context: any thread; not from a signal handler (the dump signal does
 * it from the library's thread).
 */
int ustrace_record_dump(const char *path)
{
	int err;

	if (!rec_owner() || __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) != REC_ON)
		return -EINVAL;
	rec_lock();
	err = rec_ask(path, path ? 0 : REC_W_NUMBERED, -1);
	rec_unlock();
	return err;
}

/**
 * ustrace_record_stop - stop recording and write the file
 *
 * Disables the events in the recorder's instance, writes the output file
 * and frees what the recording held.
 *
 * Return: 0, -EINVAL (not recording), or the errno of writing the file.
 * Context: any thread; not from a signal handler.
 */
int ustrace_record_stop(void)
{
	return rec_finish(false);
}

/* For the tests: the instance being recorded into. */
struct trace_array *trace_record_instance(void)
{
	return rec_owner() ? rec.tr : NULL;
}
