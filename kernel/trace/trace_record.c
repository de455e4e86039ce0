// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Zero-setup recording: a program writes its own trace.dat.
 *
 * USTRACE_EVENTS (and the variables of ustrace_record_start(3)), or
 * ustrace_record_start(), create an instance of their own (instances/
 * ustrace-record in a tracefs mount), enable the matching events in it as
 * they register, and write the instance's pages into a trace-cmd data file
 * (trace_dat.c) at the end: at exit (the library's destructor, which runs
 * after those of the objects that use the library), on a fatal signal, on
 * ustrace_record_stop(); and on request, into numbered files.
 *
 * Pages go through one temporary file per CPU, in the output's directory
 * (unlinked from the start):
 *
 *	ring buffer ──read_page──▶ cpuN temp file ──trace_dat_write()──▶ trace.dat
 *
 * In producer/consumer mode a thread of ours moves the full pages of a
 * CPU whose buffer is half full, as trace-cmd record's readers do when
 * buffer_percent (50) is reached, so that a recording longer than the
 * buffer loses nothing while the disk keeps up.  In overwrite mode (the
 * flight recorder) pages stay in the buffer until a file is written, and
 * the thread only waits for requests.
 *
 * The fatal-signal path writes with what a signal handler may use:
 * ring_buffer_read_page() into a static page, pwrite(), open(), rename(),
 * and texts rendered beforehand (header pages, event formats as they
 * register, the clock list) or with trace_dat.c's allocation-free
 * helpers (stats, saved cmdlines).  One lock, an atomic word holding its
 * owner's thread id, orders the thread, ustrace_record_dump() and the
 * final write; the handler waits for it a bounded time and takes it over
 * when its own thread held it.
 */
#define __USTRACE_CORE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>
#include <ustrace/record.h>

#include "trace_array.h"
#include "trace_dat.h"
#include "trace_events_internal.h"
#include "trace_record.h"
#include "trace_syms.h"

#define RECORD_DEFAULT_KB	1408ul
#define RECORD_POLL_MS		10
/* How long a fatal-signal handler waits for another writer. */
#define RECORD_FATAL_WAIT_MS	30000
#define RECORD_STATS_MAX	320
#define RECORD_CMDLINE_MAX	(TRACE_COMM_LEN + 16)

enum { REC_OFF, REC_STARTING, REC_ON, REC_FINISHING };

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
	unsigned long		buffer_kb;
	unsigned int		clock_idx;
	int			mode;
	int			version;
	int			dump_signal;
};

/**
 * struct rec_cpu - one CPU's pages on their way to the file
 * @fd:     the temporary file
 * @size:   bytes of whole pages in it; a page counts once it is written
 * @base:   the counters when the last file was written: each file's
 *          stats count what happened since the previous one
 * @stats:  its CPUSTAT text, rendered when a file is written
 */
struct rec_cpu {
	int		fd;
	uint64_t	size;
	unsigned long	base_overrun, base_commit_overrun, base_dropped, base_read;
	char		stats[RECORD_STATS_MAX];
	size_t		stats_len;
};

/*
 * The recorder: one per process.  The configuration is set before the
 * state becomes REC_ON and read-only after; @state, @lock_tid,
 * @reading_tid, @stop, @dump_req, @writer_tid and @written are atomic.
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
	int			wake_fd;
	pthread_t		thread;
	bool			have_thread;
	int			stop;
	int			dump_req;
	unsigned int		dump_seq;
	int			lock_tid;
	int			reading_tid;
	int			writer_tid;
	int			written;
	int			last_err;
	char			header_page[512];
	char			header_event[512];
	char			clock_list[128];
	char			kallsyms[64];
	char			uname[sizeof(struct utsname)];
} rec = { .wake_fd = -1 };

/* Every event's format, in registration order; only grows (trace_dat.h). */
static struct trace_dat_format *formats;
static struct trace_dat_format **formats_tail = &formats;
static bool notifier_registered;

/* Used under the lock only: a fatal-signal path cannot allocate. */
static char page_buf[RB_PAGE_SIZE] __attribute__((__aligned__(RB_PAGE_SIZE)));
static char cmdlines_buf[TRACE_SAVED_CMDLINES * RECORD_CMDLINE_MAX];
static char path_buf[PATH_MAX + 32];
static char part_buf[PATH_MAX + 48];

/* The signals whose default action ends the process, and their old actions. */
static const int fatal_signals[] = {
	SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT,
};
#define NR_FATAL_SIGNALS	(sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction old_actions[NSIG];
static bool handler_installed[NSIG];

/*
 * Defined by a program that hands USTRACE_* on to the programs it runs and
 * must not record itself: the ustrace command (ustrace record).
 */
extern const char __ustrace_record_env_ignore __attribute__((__weak__)) __ustrace_visible;

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

static int rec_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

static bool rec_owner(void)
{
	return __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) != REC_OFF &&
	       rec.pid == getpid();
}

/* ------------------------------------------------------------------
 * The lock: the owner's thread id, 0 when free
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
 * From a fatal-signal handler: wait for the holder (our thread moving
 * pages, or a ustrace_record_dump() caller) a bounded time; take the lock
 * over when this very thread held it (it will not resume) or the wait
 * ends.  Async-signal-safe.
 */
static void rec_lock_fatal(int tid)
{
	for (int ms = 0; ms < RECORD_FATAL_WAIT_MS; ms++) {
		if (rec_trylock(tid) || __atomic_load_n(&rec.lock_tid, __ATOMIC_ACQUIRE) == tid)
			return;
		sleep_ms(1);
	}
	__atomic_store_n(&rec.lock_tid, tid, __ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------------
 * Moving pages and writing files (under the lock; async-signal-safe)
 */

/*
 * Move @cpu's pages from the buffer to its temporary file: only complete
 * pages with @full (the thread's moves), everything without (a file is
 * being written).  Return: 0 or the errno of pwrite().
 */
static int rec_move_pages(int cpu, bool full)
{
	struct rec_cpu *c = &rec.cpus[cpu];
	int tid = rec_gettid(), err = 0;
	void *page = page_buf;

	for (;;) {
		int ret;

		__atomic_store_n(&rec.reading_tid, tid, __ATOMIC_RELAXED);
		ret = ring_buffer_read_page(rec.buffer, &page, RB_PAGE_SIZE, cpu, full);
		__atomic_store_n(&rec.reading_tid, 0, __ATOMIC_RELAXED);
		if (ret)
			break;
		if (pwrite(c->fd, page_buf, RB_PAGE_SIZE, (off_t)c->size) != RB_PAGE_SIZE) {
			/* The page is gone from the buffer: counted as lost below. */
			err = errno ? errno : EIO;
			break;
		}
		c->size += RB_PAGE_SIZE;
	}
	return err;
}

/*
 * The thread's pass: CPUs whose buffer is at least half full.
 * Return: whether it moved pages (the writers are busy: look again soon).
 */
static bool rec_move_half_full(void)
{
	bool moved = false;

	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		unsigned long size = ring_buffer_size(rec.buffer, cpu);
		uint64_t before = rec.cpus[cpu].size;

		if (ring_buffer_bytes_cpu(rec.buffer, cpu) * 2 >= size) {
			int err = rec_move_pages(cpu, true);

			if (err)
				__atomic_store_n(&rec.last_err, -err, __ATOMIC_RELAXED);
		}
		moved |= rec.cpus[cpu].size != before;
	}
	return moved;
}

/* per_cpu/cpuN/stats, with "CPU: N" first as trace-cmd stores it. */
static void rec_render_stats(int cpu)
{
	struct rec_cpu *c = &rec.cpus[cpu];
	struct trace_buffer *b = rec.buffer;
	struct trace_dat_text t;

	trace_dat_text_init(&t, c->stats, sizeof(c->stats));
	trace_dat_puts(&t, "CPU: ");
	trace_dat_putu(&t, (uint64_t)cpu);
	trace_dat_puts(&t, "\nentries: ");
	trace_dat_putu(&t, ring_buffer_entries_cpu(b, cpu));
	trace_dat_puts(&t, "\noverrun: ");
	trace_dat_putu(&t, ring_buffer_overrun_cpu(b, cpu) - c->base_overrun);
	trace_dat_puts(&t, "\ncommit overrun: ");
	trace_dat_putu(&t, ring_buffer_commit_overrun_cpu(b, cpu) - c->base_commit_overrun);
	trace_dat_puts(&t, "\nbytes: ");
	trace_dat_putu(&t, ring_buffer_bytes_cpu(b, cpu));
	trace_dat_puts(&t, "\noldest event ts: ");
	trace_dat_put_time(&t, ring_buffer_oldest_event_ts(b, cpu), rec.in_ns);
	trace_dat_puts(&t, "\nnow ts: ");
	trace_dat_put_time(&t, ring_buffer_time_stamp(b), rec.in_ns);
	trace_dat_puts(&t, "\ndropped events: ");
	trace_dat_putu(&t, ring_buffer_dropped_events_cpu(b, cpu) - c->base_dropped);
	trace_dat_puts(&t, "\nread events: ");
	trace_dat_putu(&t, ring_buffer_read_events_cpu(b, cpu) - c->base_read);
	trace_dat_puts(&t, "\n");
	c->stats_len = trace_dat_text_cut(&t) ? t.size - 1 : t.len;
}

/* The next file starts counting from here. */
static void rec_reset_cpu(int cpu)
{
	struct rec_cpu *c = &rec.cpus[cpu];
	struct trace_buffer *b = rec.buffer;

	if (ftruncate(c->fd, 0) == 0)
		c->size = 0;
	c->base_overrun = ring_buffer_overrun_cpu(b, cpu);
	c->base_commit_overrun = ring_buffer_commit_overrun_cpu(b, cpu);
	c->base_dropped = ring_buffer_dropped_events_cpu(b, cpu);
	c->base_read = ring_buffer_read_events_cpu(b, cpu);
}

/* saved_cmdlines: "PID COMM" per saved thread. */
static size_t rec_render_cmdlines(bool nolock)
{
	struct trace_dat_text t;
	char comm[TRACE_COMM_LEN];
	int pid;

	trace_dat_text_init(&t, cmdlines_buf, sizeof(cmdlines_buf));
	for (unsigned int i = 0; (pid = trace_saved_cmdline_get(i, comm, nolock)) >= 0; i++) {
		if (!pid)
			continue;
		trace_dat_putu(&t, (uint64_t)pid);
		trace_dat_puts(&t, " ");
		trace_dat_puts(&t, comm);
		trace_dat_puts(&t, "\n");
	}
	return trace_dat_text_cut(&t) ? t.size - 1 : t.len;
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
	};

	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		cpus[cpu].fd = rec.cpus[cpu].fd;
		cpus[cpu].size = rec.cpus[cpu].size;
		cpus[cpu].stats = rec.cpus[cpu].stats;
		cpus[cpu].stats_len = rec.cpus[cpu].stats_len;
	}
	return trace_dat_write(fd, &info);
}

/* dst = a followed by b, cut to @size. */
static void path_join(char *dst, size_t size, const char *a, const char *b)
{
	struct trace_dat_text t;

	trace_dat_text_init(&t, dst, size);
	trace_dat_puts(&t, a);
	trace_dat_puts(&t, b);
}

/*
 * Write everything recorded since the last file into @path: the pages
 * still in the buffer join those already moved; the file is written
 * under PATH.part and renamed, so @path is always a whole file.  On
 * success the next file starts empty.  @nolock: from a signal handler,
 * with @skip_buffer when this thread was interrupted inside the ring
 * buffer's reader.
 * Return: 0 or a negative errno.
 */
static int rec_write_locked(const char *path, bool nolock, bool skip_buffer)
{
	int fd, err = 0, cpu;

	for (cpu = 0; cpu < rec.nr_cpus && !skip_buffer; cpu++) {
		int e = rec_move_pages(cpu, false);

		if (e && !err)
			err = -e;
	}
	for (cpu = 0; cpu < rec.nr_cpus; cpu++)
		rec_render_stats(cpu);
	path_join(part_buf, sizeof(part_buf), path, ".part");
	fd = open(part_buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	err = rec_write_dat(fd, nolock) ?: err;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(part_buf, path))
		err = -errno;
	if (err) {
		unlink(part_buf);
		return err;
	}
	for (cpu = 0; cpu < rec.nr_cpus; cpu++)
		rec_reset_cpu(cpu);
	return 0;
}

/* OUTPUT.N, the next numbered file. */
static const char *rec_numbered_path(void)
{
	struct trace_dat_text t;

	trace_dat_text_init(&t, path_buf, sizeof(path_buf));
	trace_dat_puts(&t, rec.cfg.output);
	trace_dat_puts(&t, ".");
	trace_dat_putu(&t, ++rec.dump_seq);
	return path_buf;
}

/* ------------------------------------------------------------------
 * The thread
 */

static void rec_wake(void)
{
	uint64_t one = 1;

	if (write(rec.wake_fd, &one, sizeof(one)) < 0) {
		/* EAGAIN: a wake-up is pending already. */
	}
}

static void *rec_thread_fn(void *arg)
{
	struct pollfd pfd = { .fd = rec.wake_fd, .events = POLLIN };
	bool busy = false;
	uint64_t val;

	(void)arg;
	for (;;) {
		int timeout = rec.cfg.mode != USTRACE_RECORD_PRODUCER_CONSUMER ? -1 :
			      busy ? 1 : RECORD_POLL_MS;

		if (poll(&pfd, 1, timeout) > 0 && read(rec.wake_fd, &val, sizeof(val)) < 0) {
			/* Nothing to clear: another read got it. */
		}
		if (__atomic_load_n(&rec.stop, __ATOMIC_ACQUIRE))
			break;
		trace_syms_update();	/* objects loaded since */
		rec_lock();
		if (__atomic_exchange_n(&rec.dump_req, 0, __ATOMIC_ACQ_REL)) {
			int err = rec_write_locked(rec_numbered_path(), false, false);

			if (err)
				rec_warn("%s: %s", path_buf, strerror(-err));
		}
		busy = rec.cfg.mode == USTRACE_RECORD_PRODUCER_CONSUMER &&
		       rec_move_half_full();
		rec_unlock();
	}
	return NULL;
}

/* The thread takes no signal meant for the program. */
static int rec_thread_start(void)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&rec.thread, NULL, rec_thread_fn, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	rec.have_thread = true;
	return 0;
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
 * Signals
 */

/*
 * Hand the signal to what the program had: its handler, or the default
 * action (sent again, delivered when this handler returns), or nothing.
 */
static void rec_chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction *old = &old_actions[sig];

	sigaction(sig, old, NULL);
	handler_installed[sig] = false;
	if (old->sa_flags & SA_SIGINFO) {
		if (old->sa_sigaction)
			old->sa_sigaction(sig, si, uc);
	} else if (old->sa_handler == SIG_DFL) {
		raise(sig);
	} else if (old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
	}
}

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

static void rec_fatal_handler(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno, tid = rec_gettid(), on = REC_ON;

	if (rec.pid == getpid() &&
	    __atomic_compare_exchange_n(&rec.state, &on, REC_FINISHING, false,
					__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		__atomic_store_n(&rec.writer_tid, tid, __ATOMIC_RELEASE);
		ring_buffer_record_off(rec.buffer);
		rec_lock_fatal(tid);
		rec_write_locked(rec.cfg.output, true,
				 __atomic_load_n(&rec.reading_tid, __ATOMIC_RELAXED) == tid);
		/*
		 * The thread goes on waiting (an exiting thread nobody joins
		 * is a leak to ThreadSanitizer); with the buffer off it has
		 * nothing left to move.
		 */
		rec_unlock();
		__atomic_store_n(&rec.written, 1, __ATOMIC_RELEASE);
	} else if (rec.pid == getpid()) {
		rec_wait_written(tid);
	}
	rec_chain(sig, si, uc);
	errno = saved_errno;
}

static void rec_dump_handler(int sig)
{
	int saved_errno = errno;

	(void)sig;
	if (rec.pid == getpid() && __atomic_load_n(&rec.state, __ATOMIC_ACQUIRE) == REC_ON) {
		__atomic_store_n(&rec.dump_req, 1, __ATOMIC_RELEASE);
		rec_wake();
	}
	errno = saved_errno;
}

static void rec_install(int sig, bool fatal)
{
	struct sigaction sa = { .sa_flags = SA_ONSTACK };

	if (sigaction(sig, NULL, &old_actions[sig]))
		return;
	/*
	 * A program that handles SIGINT or SIGTERM itself ends through exit(),
	 * which writes the file; the faults are caught even then (a sanitizer's
	 * handler, a crash reporter), and passed on after the write.
	 */
	if (fatal && (sig == SIGINT || sig == SIGTERM) &&
	    (old_actions[sig].sa_flags & SA_SIGINFO || old_actions[sig].sa_handler != SIG_DFL))
		return;
	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaddset(&sa.sa_mask, fatal_signals[i]);
	if (fatal) {
		sa.sa_flags |= SA_SIGINFO;
		sa.sa_sigaction = rec_fatal_handler;
	} else {
		sa.sa_flags |= SA_RESTART;
		sa.sa_handler = rec_dump_handler;
	}
	if (!sigaction(sig, &sa, NULL))
		handler_installed[sig] = true;
}

static void rec_install_handlers(void)
{
	for (unsigned int i = 0; i < NR_FATAL_SIGNALS; i++)
		rec_install(fatal_signals[i], true);
	if (rec.cfg.dump_signal)
		rec_install(rec.cfg.dump_signal, false);
}

/* Put back what the program had, where our handler is still in place. */
static void rec_uninstall_handlers(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction cur;

		if (!handler_installed[sig] || sigaction(sig, NULL, &cur))
			continue;
		if (cur.sa_sigaction == rec_fatal_handler ||
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
	struct trace_dat_text t;
	size_t size = PATH_MAX;

	cfg->output = malloc(size);
	if (!cfg->output)
		return -ENOMEM;
	trace_dat_text_init(&t, cfg->output, size);
	if (output[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		trace_dat_puts(&t, cwd);
		trace_dat_puts(&t, "/");
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	for (const char *s = output; *s; s++) {
		char c[2] = { *s, '\0' };

		if (s[0] == '%' && s[1] == 'p') {
			trace_dat_puts(&t, pid);
			s++;
		} else if (s[0] == '%' && s[1] == '%') {
			trace_dat_puts(&t, "%");
			s++;
		} else {
			trace_dat_puts(&t, c);
		}
	}
	return trace_dat_text_cut(&t) ? -ENAMETOOLONG : 0;
}

static bool rec_bad_dump_signal(int sig)
{
	if (sig < 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP)
		return true;
	for (unsigned int i = 0; sig && i < NR_FATAL_SIGNALS; i++)
		if (sig == fatal_signals[i])
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

/* A temporary file for @cpu in the output's directory, unlinked. */
static int rec_open_temp(const char *dir)
{
	char path[PATH_MAX + 32];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "%s/.ustrace-record-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

static int rec_open_temps(void)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", rec.cfg.output);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		rec.cpus[cpu].fd = rec_open_temp(dir);
		if (rec.cpus[cpu].fd < 0)
			return rec.cpus[cpu].fd;
	}
	return 0;
}

/* What a file needs that can be rendered once, in normal context. */
static void rec_render_static(void)
{
	const struct trace_clock *tc;
	struct trace_dat_text t;
	struct utsname u;

	ring_buffer_print_page_header(rec.header_page, sizeof(rec.header_page));
	ring_buffer_print_entry_header(rec.header_event, sizeof(rec.header_event));
	trace_dat_text_init(&t, rec.clock_list, sizeof(rec.clock_list));
	for (unsigned int i = 0; (tc = trace_clock_get(i)); i++) {
		trace_dat_puts(&t, i ? " " : "");
		trace_dat_puts(&t, i == rec.cfg.clock_idx ? "[" : "");
		trace_dat_puts(&t, tc->name);
		trace_dat_puts(&t, i == rec.cfg.clock_idx ? "]" : "");
	}
	trace_dat_puts(&t, "\n");
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
	rec_thread_stop();
	for (int cpu = 0; rec.cpus && cpu < rec.nr_cpus; cpu++)
		if (rec.cpus[cpu].fd >= 0)
			close(rec.cpus[cpu].fd);
	free(rec.cpus);
	rec.cpus = NULL;
	if (rec.wake_fd >= 0)
		close(rec.wake_fd);
	rec.wake_fd = -1;
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
	rec.last_err = 0;
	err = rec_setup_instance();
	if (err)
		goto fail;
	err = -ENOMEM;
	rec.cpus = calloc((size_t)rec.nr_cpus, sizeof(*rec.cpus));
	if (!rec.cpus)
		goto fail;
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++)
		rec.cpus[cpu].fd = -1;
	err = rec_open_temps();
	if (err)
		goto fail;
	rec_render_static();
	rec.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rec.wake_fd < 0) {
		err = -errno;
		goto fail;
	}
	err = rec_thread_start();
	if (err)
		goto fail;
	rec_install_handlers();
	/* The notifier enables events from now on, under the event mutex. */
	__atomic_store_n(&rec.state, REC_ON, __ATOMIC_RELEASE);
	rec_enable_events();
	return 0;
fail:
	rec_teardown(true);
	return err;
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
	rec_thread_stop();
	ring_buffer_record_off(rec.buffer);
	trace_syms_update();
	rec_lock();
	err = rec_write_locked(rec.cfg.output, false, false);
	rec_unlock();
	__atomic_store_n(&rec.written, 1, __ATOMIC_RELEASE);
	if (err)
		rec_warn("%s: %s", rec.cfg.output, strerror(-err));
	else if (__atomic_load_n(&rec.last_err, __ATOMIC_RELAXED))
		rec_warn("%s: pages were lost: %s", rec.cfg.output,
			 strerror(-__atomic_load_n(&rec.last_err, __ATOMIC_RELAXED)));
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
	attr->events = getenv("USTRACE_EVENTS");
	attr->output = getenv("USTRACE_OUTPUT");
	attr->clock = getenv("USTRACE_CLOCK");
	v = getenv(*bad = "USTRACE_MODE");
	if (v && !strcmp(v, "overwrite"))
		attr->mode = USTRACE_RECORD_OVERWRITE;
	else if (v && strcmp(v, "producer-consumer"))
		return -EINVAL;
	v = getenv(*bad = "USTRACE_BUFFER_KB");
	if (v && (rec_parse_ulong(v, &attr->buffer_kb) || !attr->buffer_kb))
		return -EINVAL;
	v = getenv(*bad = "USTRACE_FLIGHT_RECORDER");
	if (v) {
		if (rec_parse_ulong(v, &n) || !n || n > (1ul << 20))
			return -EINVAL;
		attr->mode = USTRACE_RECORD_OVERWRITE;
		attr->buffer_kb = n << 10;
	}
	v = getenv(*bad = "USTRACE_FILE_VERSION");
	if (v && (rec_parse_ulong(v, &n) || (n != 6 && n != 7)))
		return -EINVAL;
	attr->file_version = v ? (int)n : 0;
	/* The flight recorder writes a numbered file on SIGUSR2 unless told. */
	attr->dump_signal = attr->mode == USTRACE_RECORD_OVERWRITE ? SIGUSR2 : 0;
	v = getenv(*bad = "USTRACE_DUMP_SIGNAL");
	if (v && (rec_parse_signal(v, &attr->dump_signal) ||
		  rec_bad_dump_signal(attr->dump_signal)))
		return -EINVAL;
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
	const char *events = getenv("USTRACE_EVENTS");
	const char *what = NULL;
	char var[64];
	int err;

	if (!events || !*events || &__ustrace_record_env_ignore)
		return;
	err = rec_attr_from_env(&attr, &what);
	if (!err) {
		err = rec_config_from_attr(&cfg, &attr, &what);
		rec_env_name(var, sizeof(var), what);
		what = var;
	}
	if (err == -EINVAL) {
		rec_warn("%s=%s: bad value; not recording", what,
			 getenv(what) ? getenv(what) : "");
		return;
	}
	if (!err)
		err = rec_start(&cfg);
	if (err)
		rec_warn("%s: %s; not recording", attr.output ? attr.output : "trace.dat",
			 strerror(-err));
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
	err = rec_write_locked(path ? path : rec_numbered_path(), false, false);
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
