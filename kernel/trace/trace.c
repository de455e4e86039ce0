// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The text of the kernel's trace and trace_pipe files, without a file
 * system: the header block, one line per event merged across CPUs in time
 * stamp order, and the "CPU:N [LOST ...]" lines.  The columns are the
 * kernel's for the nop tracer and the default trace_options (irq-info on,
 * record-tgid off, the clock's time in seconds when it counts nanoseconds).
 *
 * trace reads with per-CPU ring buffer iterators and leaves the events in
 * place; trace_pipe consumes them.  Both pick, among the CPUs, the event
 * with the smallest time stamp, as __find_next_entry() does.
 *
 * The task names come from a saved-cmdlines table filled the first time a
 * thread records an event (trace_save_cmdline(), from the recording path).
 */
#define __USTRACE_CORE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>

#include "../internal.h"
#include "trace_array.h"
#include "trace.h"

/* ------------------------------------------------------------------
 * Saved cmdlines
 *
 * Direct-mapped by pid: a thread whose slot is taken by a newer thread
 * loses its name and prints as "<...>", as an evicted pid does in the
 * kernel's table.  Written once per thread, read once per line.
 *
 * The table is a shared mapping, as the ring buffer is: a forked child
 * records into its parent's buffer, and saves its threads' names where
 * the parent (which prints and records the buffer) finds them, as every
 * task of the kernel's is in its one table.  cmdline_lock orders the
 * threads of one process; the processes that share the table write a
 * slot under its owner word (a process id, 0 when free), and its
 * sequence (odd while written) lets a reader see a copy torn by a write
 * of another process.  A writer never waits: a slot another live process
 * is writing is left alone (that name is not saved); one whose writer died
 * in the middle is taken over.
 */
#define SAVED_CMDLINES		TRACE_SAVED_CMDLINES

struct saved_cmdline {
	int		owner;		/* the writing process, 0: none */
	unsigned int	seq;		/* odd while written */
	int		pid;
	int		tgid;
	char		comm[TRACE_COMM_LEN];
};

/* Where no shared mapping could be made: the process's own (children's names are lost). */
static struct saved_cmdline saved_cmdlines_own[SAVED_CMDLINES];
static struct saved_cmdline *saved_cmdlines = saved_cmdlines_own;
static pthread_mutex_t cmdline_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*cmdline_mirror)(int pid, int tgid, const char *comm);

void trace_set_cmdline_mirror(void (*fn)(int pid, int tgid, const char *comm))
{
	pthread_mutex_lock(&cmdline_lock);
	__atomic_store_n(&cmdline_mirror, fn, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&cmdline_lock);
}

/*
 * fork(): level USTRACE_FORK_CMDLINES.  A thread's first event takes the
 * lock inside an RCU read-side section, so it comes after the read side's
 * (tp_rcu.c): a grace period under way may be waiting for that thread.
 */
USTRACE_FORK_MUTEX_OPS(cmdline, &cmdline_lock);

__attribute__((__constructor__))
static void cmdline_fork_init(void)
{
	void *t = mmap(NULL, sizeof(saved_cmdlines_own), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	/* The names an earlier constructor's events saved go along. */
	pthread_mutex_lock(&cmdline_lock);
	if (t != MAP_FAILED) {
		memcpy(t, saved_cmdlines_own, sizeof(saved_cmdlines_own));
		__atomic_store_n(&saved_cmdlines, t, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&cmdline_lock);
	ustrace_fork_register(USTRACE_FORK_CMDLINES, &cmdline_fork_ops);
}

/*
 * Take @sc for writing (under cmdline_lock): false if another process
 * that is alive writes it.  Return: the sequence to end with
 * (cmdline_slot_put()).
 */
static bool cmdline_slot_take(struct saved_cmdline *sc, unsigned int *seq)
{
	int me = (int)getpid(), owner = 0;

	if (!__atomic_compare_exchange_n(&sc->owner, &owner, me, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED)) {
		/*
		 * A writer killed in the middle leaves its id: take the slot
		 * over.  The program's errno is its own (a probe comes here).
		 */
		int saved_errno = errno;
		bool gone = owner != me && kill(owner, 0) && errno == ESRCH;

		errno = saved_errno;
		if (!gone || !__atomic_compare_exchange_n(&sc->owner, &owner, me, false,
							  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return false;
	}
	*seq = __atomic_load_n(&sc->seq, __ATOMIC_RELAXED) | 1;
	__atomic_store_n(&sc->seq, *seq, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return true;
}

static void cmdline_slot_put(struct saved_cmdline *sc, unsigned int seq)
{
	__atomic_store_n(&sc->seq, seq + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&sc->owner, 0, __ATOMIC_RELEASE);
}

/*
 * A copy of @sc that no other process's write tore (under cmdline_lock,
 * or with @nolock from a fatal-signal handler).  Return: false if a write
 * went on through every attempt (the slot then reads as empty).
 */
static bool cmdline_slot_get(const struct saved_cmdline *sc, struct saved_cmdline *out)
{
	for (int i = 0; i < 4; i++) {
		unsigned int seq = __atomic_load_n(&sc->seq, __ATOMIC_ACQUIRE);

		if (seq & 1)
			continue;
		out->pid = __atomic_load_n(&sc->pid, __ATOMIC_RELAXED);
		out->tgid = __atomic_load_n(&sc->tgid, __ATOMIC_RELAXED);
		for (size_t c = 0; c < TRACE_COMM_LEN; c++)
			out->comm[c] = __atomic_load_n(&sc->comm[c], __ATOMIC_RELAXED);
		out->comm[TRACE_COMM_LEN - 1] = '\0';
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&sc->seq, __ATOMIC_RELAXED) == seq)
			return true;
	}
	out->pid = 0;
	out->comm[0] = '\0';
	return false;
}

/* The entry of thread @pid (> 0) into @out, under cmdline_lock: false if it has none. */
static bool cmdline_find(int pid, struct saved_cmdline *out)
{
	return cmdline_slot_get(&saved_cmdlines[(unsigned int)pid % SAVED_CMDLINES], out) &&
	       out->pid == pid;
}

/**
 * trace_save_cmdline - remember the calling thread's name for @pid
 * @pid: the calling thread's id
 *
 * Context: any thread, for itself; the first record of each thread.
 */
void trace_save_cmdline(int pid)
{
	char comm[TRACE_COMM_LEN] = "";

	if (pid <= 0)
		return;
	if (prctl(PR_GET_NAME, comm, 0, 0, 0) < 0)
		return;
	trace_save_cmdline_of(pid, (int)getpid(), comm);
}

/* The name @comm of thread @pid of process @tgid (a trace_marker writer's). */
void trace_save_cmdline_of(int pid, int tgid, const char *comm)
{
	size_t n = strnlen(comm, TRACE_COMM_LEN - 1);
	void (*mirror)(int pid, int tgid, const char *comm);
	struct saved_cmdline *sc, cur;
	unsigned int seq;

	if (pid <= 0)
		return;
	sc = &saved_cmdlines[(unsigned int)pid % SAVED_CMDLINES];
	pthread_mutex_lock(&cmdline_lock);
	/*
	 * A thread of ours saves its name once, at its first record; the
	 * kernel's running threads save theirs again at every switch.  So
	 * another process's name (a trace_marker writer's) does not push one
	 * of ours out of the entry their ids share: it would show as <...>
	 * from then on (ftracetest's trace-clock.tc did, once in a CI run).
	 */
	if (tgid != (int)getpid() && cmdline_slot_get(sc, &cur) && cur.pid && cur.pid != pid &&
	    cur.tgid == (int)getpid()) {
		pthread_mutex_unlock(&cmdline_lock);
		return;
	}
	if (!cmdline_slot_take(sc, &seq)) {
		pthread_mutex_unlock(&cmdline_lock);
		return;
	}
	/* The name as the entry keeps it, padded: built once, stored, mirrored. */
	memset(cur.comm, 0, sizeof(cur.comm));
	memcpy(cur.comm, comm, n);
	__atomic_store_n(&sc->pid, pid, __ATOMIC_RELAXED);
	__atomic_store_n(&sc->tgid, tgid, __ATOMIC_RELAXED);
	for (size_t c = 0; c < TRACE_COMM_LEN; c++)
		__atomic_store_n(&sc->comm[c], cur.comm[c], __ATOMIC_RELAXED);
	cmdline_slot_put(sc, seq);
	mirror = __atomic_load_n(&cmdline_mirror, __ATOMIC_RELAXED);
	if (mirror)
		mirror(pid, tgid, cur.comm);
	pthread_mutex_unlock(&cmdline_lock);
}

/**
 * trace_for_each_saved_cmdline - call @fn for every saved thread
 *
 * In table order (as the kernel walks its map).  @fn runs with the table
 * locked: it must not record events.
 */
void trace_for_each_saved_cmdline(void (*fn)(int pid, int tgid, const char *comm, void *priv),
				  void *priv)
{
	struct saved_cmdline sc;
	unsigned int i;

	pthread_mutex_lock(&cmdline_lock);
	for (i = 0; i < SAVED_CMDLINES; i++)
		if (cmdline_slot_get(&saved_cmdlines[i], &sc) && sc.pid)
			fn(sc.pid, sc.tgid, sc.comm, priv);
	pthread_mutex_unlock(&cmdline_lock);
}

/* The number of entries of the saved-cmdlines table (saved_cmdlines_size). */
unsigned int trace_saved_cmdlines_size(void)
{
	return SAVED_CMDLINES;
}

static void print_cmdline(int pid, int tgid, const char *comm, void *priv)
{
	(void)tgid;
	trace_seq_printf(priv, "%d %s\n", pid, comm);
}

static void print_tgid(int pid, int tgid, const char *comm, void *priv)
{
	(void)comm;
	trace_seq_printf(priv, "%d %d\n", pid, tgid);
}

/* saved_cmdlines ("PID COMM") and saved_tgids ("PID TGID"), into @s. */
void trace_print_saved_cmdlines(struct trace_seq *s)
{
	trace_for_each_saved_cmdline(print_cmdline, s);
}

void trace_print_saved_tgids(struct trace_seq *s)
{
	trace_for_each_saved_cmdline(print_tgid, s);
}

/* The saved process id of thread @pid, or 0. */
int trace_find_tgid(int pid)
{
	struct saved_cmdline sc;
	int tgid = 0;

	if (pid <= 0)
		return 0;
	pthread_mutex_lock(&cmdline_lock);
	if (cmdline_find(pid, &sc))
		tgid = sc.tgid;
	pthread_mutex_unlock(&cmdline_lock);
	return tgid;
}

/**
 * trace_saved_cmdline_get - one slot of the saved-cmdlines table
 * @slot:   0 .. TRACE_SAVED_CMDLINES - 1
 * @comm:   receives the name when the slot is used
 * @nolock: read without the lock: for a fatal-signal handler, which must
 *	    not wait for a lock its own thread may hold; a slot being
 *	    written meanwhile reads as empty
 *
 * Return: the slot's pid, 0 for an empty slot, -1 past the table.
 * Context: async-signal-safe with @nolock.
 */
int trace_saved_cmdline_get(unsigned int slot, char comm[TRACE_COMM_LEN], bool nolock)
{
	struct saved_cmdline sc = { 0 };

	if (slot >= SAVED_CMDLINES)
		return -1;
	if (!nolock)
		pthread_mutex_lock(&cmdline_lock);
	cmdline_slot_get(&__atomic_load_n(&saved_cmdlines, __ATOMIC_ACQUIRE)[slot], &sc);
	if (!nolock)
		pthread_mutex_unlock(&cmdline_lock);
	memcpy(comm, sc.comm, TRACE_COMM_LEN);
	return sc.pid;
}

/**
 * trace_find_cmdline - the saved name of @pid
 * @pid:  a thread id
 * @comm: receives the name; "<idle>" for pid 0 and "<...>" for a pid not
 *	  in the table, as the kernel prints them
 */
void trace_find_cmdline(int pid, char comm[TRACE_COMM_LEN])
{
	struct saved_cmdline sc;

	if (!pid) {
		strcpy(comm, "<idle>");
		return;
	}
	if (pid < 0) {
		strcpy(comm, "<XXX>");
		return;
	}
	pthread_mutex_lock(&cmdline_lock);
	if (cmdline_find(pid, &sc))
		memcpy(comm, sc.comm, TRACE_COMM_LEN);
	else
		strcpy(comm, "<...>");
	pthread_mutex_unlock(&cmdline_lock);
}

/* ------------------------------------------------------------------
 * The header
 */

static struct trace_buffer *buffer_or_global(struct trace_buffer *buffer)
{
	return buffer ? buffer : trace_get_global_buffer();
}

/*
 * As get_total_entries(): the entries in the buffer, and those written
 * (the ones still there plus the ones overwritten).
 */
static void total_entries(struct trace_buffer *buffer, unsigned long *entries,
			  unsigned long *total)
{
	int cpu, nr = ring_buffer_nr_cpus(buffer);

	*entries = *total = 0;
	for (cpu = 0; cpu < nr; cpu++) {
		unsigned long count = ring_buffer_entries_cpu(buffer, cpu);

		*entries += count;
		*total += count + ring_buffer_overrun_cpu(buffer, cpu);
	}
}

#define OPT(opts, name)	(((opts) >> TRACE_OPT_##name) & 1)

/*
 * The column legends, as the kernel prints them for each combination of
 * irq-info and record-tgid (the TGID column widens the irq-info legend
 * by ten spaces).
 */
static void print_legend(struct trace_seq *s, unsigned long opts)
{
	static const char *const irq_legend[] = {
		"  _-----=> irqs-off/BH-disabled", " / _----=> need-resched",
		"| / _---=> hardirq/softirq", "|| / _--=> preempt-depth",
		"||| / _-=> migrate-disable", "|||| /     delay",
	};
	bool tgid = OPT(opts, RECORD_TGID);
	int pad = tgid ? 12 : 2, i;

	if (!OPT(opts, IRQ_INFO)) {
		trace_seq_printf(s, "#           TASK-PID    %s CPU#     TIMESTAMP  FUNCTION\n",
				 tgid ? "   TGID   " : "");
		trace_seq_printf(s, "#              | |      %s   |         |         |\n",
				 tgid ? "     |    " : "");
		return;
	}
	for (i = 0; i < 6; i++)
		trace_seq_printf(s, "#                            %*s%s\n", pad, "",
				 irq_legend[i]);
	trace_seq_printf(s, "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  FUNCTION\n",
			 pad, "     TGID   ");
	trace_seq_printf(s, "#              | |    %.*s   |   |||||     |         |\n",
			 pad, "       |    ");
}

static const char lat_legend[] =
	"#                    _------=> CPU#            \n"
	"#                   / _-----=> irqs-off/BH-disabled\n"
	"#                  | / _----=> need-resched    \n"
	"#                  || / _---=> hardirq/softirq \n"
	"#                  ||| / _--=> preempt-depth   \n"
	"#                  |||| / _-=> migrate-disable \n"
	"#                  ||||| /     delay           \n"
	"#  cmd     pid     |||||| time  |   caller     \n"
	"#     \\   /        ||||||  \\    |    /       \n";

/*
 * The latency-format header (print_trace_header()): the nop tracer has no
 * latency, no task and no critical section to show; the preemption model
 * of a program's thread is "preempt".
 */
static void print_lat_header(struct trace_seq *s, struct trace_buffer *buffer,
			     unsigned long opts)
{
	unsigned long entries, total;
	struct utsname uts;
	int nr = ring_buffer_nr_cpus(buffer);

	total_entries(buffer, &entries, &total);
	if (uname(&uts))
		strcpy(uts.release, "unknown");
	trace_seq_printf(s, "# nop latency trace v1.1.5 on %s\n", uts.release);
	trace_seq_puts(s, "# -----------------------------------"
			  "---------------------------------\n");
	trace_seq_printf(s, "# latency: 0 us, #%lu/%lu, CPU#0 | (M:preempt VP:0, KP:0, SP:0 HP:0"
			 " #P:%d)\n", entries, total, nr);
	trace_seq_puts(s, "#    -----------------\n");
	trace_seq_puts(s, "#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)\n");
	trace_seq_puts(s, "#    -----------------\n");
	trace_seq_puts(s, "#\n");
	if (!OPT(opts, VERBOSE))
		trace_seq_puts(s, lat_legend);
}

/* The header block of the trace file (s_show(), trace_default_header()). */
static void print_header(struct trace_seq *s, struct trace_buffer *buffer, unsigned long opts)
{
	unsigned long entries, total;

	trace_seq_puts(s, "# tracer: nop\n#\n");
	if (!OPT(opts, CONTEXT_INFO))
		return;
	if (OPT(opts, LATENCY_FMT)) {
		/* Nothing when the buffer is empty, as the kernel. */
		if (!ring_buffer_empty(buffer))
			print_lat_header(s, buffer, opts);
		return;
	}
	if (OPT(opts, VERBOSE))
		return;
	total_entries(buffer, &entries, &total);
	trace_seq_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n#\n",
			 entries, total, ring_buffer_nr_cpus(buffer));
	print_legend(s, opts);
}

/**
 * trace_print_header - the header block of the trace file
 * @s:      where the text goes (appended)
 * @buffer: the buffer, NULL for the global one
 *
 * Return: 0; -ENOMEM when there is no global buffer; -ENOSPC when @s is
 * full (what fitted stays).
 */
int trace_print_header(struct trace_seq *s, struct trace_buffer *buffer)
{
	buffer = buffer_or_global(buffer);
	if (!buffer)
		return -ENOMEM;
	print_header(s, buffer, TRACE_OPT_DEFAULTS);
	return trace_seq_has_overflowed(s) ? -ENOSPC : 0;
}

/**
 * trace_array_print_header - trace_print_header() for one instance, as
 *	its options shape it (context-info, irq-info, record-tgid,
 *	latency-format, verbose)
 */
int trace_array_print_header(struct trace_array *tr, struct trace_seq *s)
{
	if (!tr)
		tr = trace_array_top();
	if (!tr)
		return -ENOMEM;
	print_header(s, tr->buffer, __atomic_load_n(&tr->options, __ATOMIC_RELAXED));
	return trace_seq_has_overflowed(s) ? -ENOSPC : 0;
}

/* ------------------------------------------------------------------
 * Iterators
 */

static struct trace_iterator *iterator_open(struct trace_buffer *buffer, int consume,
					    int only, unsigned long opts, uint64_t time_start);

/**
 * struct trace_iterator - a reader of trace or trace_pipe
 * @buffer:  the buffer
 * @opts:    the instance's trace_options when opened (TRACE_OPT_*)
 * @time_start: latency-format's zero: when the buffer was last cleared
 * @pending: latency-format: a line rendered (its event passed) that did
 *	     not fit in the caller's trace_seq yet
 * @consume: trace_pipe: consume what is printed
 * @in_ns:   the buffer's clock counts nanoseconds (printed as seconds)
 * @nr_cpus: entries in @iters and @dropped
 * @only_cpu: the one CPU read (per_cpu/cpuN/trace), or RING_BUFFER_ALL_CPUS
 * @iters:   per-CPU ring buffer iterators (trace only)
 * @dropped: per CPU, the iterator lost pages before its next event
 * @idx:     events printed (latency-format's verbose column)
 * @last_pid: the pid of the previous line
 * @task:    its "%16s-%-7d " column (@task_len bytes; 0: not made yet)
 */
struct trace_iterator {
	struct trace_buffer	*buffer;
	unsigned long		opts;
	uint64_t		time_start;
	struct trace_seq	*pending;
	bool			consume;
	bool			in_ns;
	int			nr_cpus;
	int			only_cpu;
	struct ring_buffer_iter	**iters;
	bool			*dropped;
	int			last_pid;
	unsigned long		idx;
	unsigned int		task_len;
	char			task[TRACE_COMM_LEN + 48];
};

/*
 * As the kernel's trace_clocks[].in_ns: only the counter clock is not in
 * nanoseconds.
 */
static bool buffer_clock_in_ns(struct trace_buffer *buffer)
{
	uint64_t (*clock)(void) = ring_buffer_get_clock(buffer);
	const struct trace_clock *tc;
	unsigned int i;

	for (i = 0; (tc = trace_clock_get(i)); i++)
		if (tc->read == clock)
			return tc->in_ns;
	return true;
}

/*
 * A new iterator starts where a reader would, and when writers overwrote
 * the pages there it reports them dropped on its first peek.  The kernel's
 * trace file starts at the oldest event still held and prints no LOST line
 * for what was overwritten before it was opened (trace_pipe does): take
 * the first peek here, so that only pages lost while reading count.
 */
static void settle_start(struct ring_buffer_iter *iter)
{
	uint64_t ts;

	ring_buffer_iter_peek(iter, &ts);
	ring_buffer_iter_dropped(iter);
}

/**
 * trace_iterator_open - start reading @buffer as trace or trace_pipe
 * @buffer:  the buffer, NULL for the global one
 * @consume: 0: as the trace file (the events stay); 1: as trace_pipe
 *
 * Return: the iterator, or NULL with errno set.
 */
struct trace_iterator *trace_iterator_open(struct trace_buffer *buffer, int consume)
{
	return iterator_open(buffer, consume, RING_BUFFER_ALL_CPUS, TRACE_OPT_DEFAULTS, 0);
}

/**
 * trace_array_iterator_open - trace_iterator_open() for one instance
 * @tr:      the instance, NULL for the top level
 * @consume: 1 for trace_pipe
 * @cpu:     RING_BUFFER_ALL_CPUS, or the CPU of per_cpu/cpuN/trace
 *
 * Return: the iterator, or NULL with errno set (EINVAL for a bad CPU).
 */
struct trace_iterator *trace_array_iterator_open(struct trace_array *tr, int consume, int cpu)
{
	if (!tr)
		tr = trace_array_top();
	if (!tr)
		return NULL;
	return iterator_open(tr->buffer, consume, cpu,
			     __atomic_load_n(&tr->options, __ATOMIC_RELAXED),
			     __atomic_load_n(&tr->time_start, __ATOMIC_RELAXED));
}


static struct trace_iterator *iterator_open(struct trace_buffer *buffer, int consume, int only,
					    unsigned long opts, uint64_t time_start)
{
	struct trace_iterator *iter;
	int cpu;

	buffer = buffer_or_global(buffer);
	if (!buffer)
		return NULL;
	iter = calloc(1, sizeof(*iter));
	if (!iter)
		return NULL;
	iter->buffer = buffer;
	iter->opts = opts;
	iter->time_start = time_start;
	iter->consume = !!consume;
	iter->in_ns = buffer_clock_in_ns(buffer);
	iter->nr_cpus = ring_buffer_nr_cpus(buffer);
	if (only != RING_BUFFER_ALL_CPUS && (only < 0 || only >= iter->nr_cpus)) {
		free(iter);
		errno = EINVAL;
		return NULL;
	}
	iter->only_cpu = only;
	if (iter->consume)
		return iter;
	iter->iters = calloc((size_t)iter->nr_cpus, sizeof(*iter->iters));
	iter->dropped = calloc((size_t)iter->nr_cpus, sizeof(*iter->dropped));
	if (!iter->iters || !iter->dropped)
		goto fail;
	for (cpu = 0; cpu < iter->nr_cpus; cpu++) {
		if (only != RING_BUFFER_ALL_CPUS && cpu != only)
			continue;
		iter->iters[cpu] = ring_buffer_read_start(buffer, cpu);
		if (!iter->iters[cpu])
			goto fail;
		settle_start(iter->iters[cpu]);
	}
	return iter;
fail:
	trace_iterator_close(iter);
	errno = ENOMEM;
	return NULL;
}

/** trace_iterator_close - end a read started with trace_iterator_open() */
void trace_iterator_close(struct trace_iterator *iter)
{
	int cpu;

	if (!iter)
		return;
	for (cpu = 0; iter->iters && cpu < iter->nr_cpus; cpu++)
		if (iter->iters[cpu])
			ring_buffer_read_finish(iter->iters[cpu]);
	free(iter->iters);
	free(iter->dropped);
	free(iter->pending);
	free(iter);
}

/*
 * The next event of @cpu, without moving past it.  An iterator's lost
 * pages are remembered until that CPU's event is printed: the flag clears
 * when read, and a CPU that loses the comparison must keep it.
 */
static struct ring_buffer_event *peek_cpu(struct trace_iterator *iter, int cpu,
					  uint64_t *ts, unsigned long *lost)
{
	struct ring_buffer_event *event;

	if (iter->consume)
		return ring_buffer_peek(iter->buffer, cpu, ts, lost);
	event = ring_buffer_iter_peek(iter->iters[cpu], ts);
	if (ring_buffer_iter_dropped(iter->iters[cpu]))
		iter->dropped[cpu] = true;
	*lost = iter->dropped[cpu] ? (unsigned long)-1 : 0;
	return event;
}

static struct ring_buffer_event *find_next(struct trace_iterator *iter, int *next_cpu,
					   uint64_t *next_ts, unsigned long *next_lost)
{
	struct ring_buffer_event *event, *next = NULL;
	unsigned long lost;
	uint64_t ts;
	int cpu;

	/*
	 * No ring_buffer_empty_cpu() first as __find_next_entry() does: the
	 * peek says as much, and counts fewer pages.
	 */
	for (cpu = 0; cpu < iter->nr_cpus; cpu++) {
		if (iter->only_cpu != RING_BUFFER_ALL_CPUS && cpu != iter->only_cpu)
			continue;
		event = peek_cpu(iter, cpu, &ts, &lost);
		if (event && (!next || ts < *next_ts)) {
			next = event;
			*next_cpu = cpu;
			*next_ts = ts;
			*next_lost = lost;
		}
	}
	return next;
}

/* The irq-info columns; the flags bits are the kernel's TRACE_FLAG_*. */
static void print_lat_fmt(struct trace_seq *s, const struct trace_entry *entry)
{
	char col[5];

	ustrace_fmt_irq_info(col, entry->flags, entry->preempt_count);
	trace_seq_putmem(s, col, 5);
}

/* " %5lu.%06lu" (or " %12llu"), formatted by hand: it is on every line. */
static void print_time(struct trace_seq *s, bool in_ns, uint64_t ts)
{
	char buf[48], *end = buf + sizeof(buf), *p;

	if (!in_ns)
		p = ustrace_fmt_decimal(end, ts, 12, ' ');
	else
		p = ustrace_fmt_usecs(end, ts);
	*--p = ' ';
	trace_seq_putmem(s, p, (unsigned int)(end - p));
}

/* "%16s-%-7d [%03d] ", the task name looked up once per run of a pid. */
static void print_task_cpu(struct trace_iterator *iter, struct trace_seq *s,
			   int pid, int cpu)
{
	char buf[16], *end = buf + sizeof(buf), *p;

	if (pid != iter->last_pid || !iter->task_len) {
		char comm[TRACE_COMM_LEN], tgid[16] = "";
		int len, id;

		trace_find_cmdline(pid, comm);
		/* record-tgid: "(%7d) ", or dashes for a thread not seen. */
		if (OPT(iter->opts, RECORD_TGID)) {
			id = trace_find_tgid(pid);
			if (id > 0)
				snprintf(tgid, sizeof(tgid), "(%7d) ", id);
			else
				strcpy(tgid, "(-------) ");
		}
		len = snprintf(iter->task, sizeof(iter->task), "%16s-%-7d %s", comm, pid, tgid);
		iter->task_len = len > 0 && (size_t)len < sizeof(iter->task) ?
				 (unsigned int)len : 0;
		iter->last_pid = pid;
	}
	trace_seq_putmem(s, iter->task, iter->task_len);
	*--end = ' ';
	*--end = ']';
	p = ustrace_fmt_decimal(end, (unsigned int)cpu, 3, '0');
	*--p = '[';
	trace_seq_putmem(s, p, (unsigned int)(buf + sizeof(buf) - p));
}

/* "%d"/"%x"-free hex of a field, as the kernel's SEQ_PUT_HEX_FIELD(). */
static void put_hex_field(struct trace_seq *s, const void *field, unsigned int size)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = field;
	char hex[2 * 8 + 1];
	unsigned int i, j = 0;

	/* Most significant byte first: the value, on a little-endian host. */
	for (i = size; i-- > 0;) {
		hex[j++] = digits[b[i] >> 4];
		hex[j++] = digits[b[i] & 0xf];
	}
	hex[j++] = ' ';
	trace_seq_putmem(s, hex, j);
}

/* The kernel's trace_find_mark(): how long until the next event (ns). */
static char lat_mark(uint64_t d)
{
	static const struct { uint64_t ns; char sym; } marks[] = {
		{ 1000000000ull, '$' }, { 100000000ull, '@' }, { 10000000ull, '*' },
		{ 1000000ull, '#' }, { 100000ull, '!' }, { 10000ull, '+' },
	};

	for (unsigned int i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (d > marks[i].ns)
			return marks[i].sym;
	return ' ';
}

/* latency-format's columns (trace_print_lat_context()). */
static void print_lat_context(struct trace_iterator *iter, struct trace_seq *s,
			      const struct trace_entry *entry, int cpu, uint64_t ts,
			      uint64_t next_ts)
{
	uint64_t abs_ts = ts - iter->time_start, rel_ts = next_ts - ts;
	char comm[TRACE_COMM_LEN];

	trace_find_cmdline(entry->pid, comm);
	if (iter->in_ns) {
		abs_ts = (abs_ts + 500) / 1000;
		rel_ts = (rel_ts + 500) / 1000;
	}
	if (OPT(iter->opts, VERBOSE)) {
		trace_seq_printf(s, "%16s %7d %3d %d %08x %08lx ", comm, entry->pid, cpu,
				 entry->flags, entry->preempt_count & 0xf, iter->idx);
		if (iter->in_ns)
			trace_seq_printf(s, "[%08llx] %llu.%03llums (+%llu.%03llums): ",
					 (unsigned long long)((ts + 500) / 1000),
					 (unsigned long long)(abs_ts / 1000),
					 (unsigned long long)(abs_ts % 1000),
					 (unsigned long long)(rel_ts / 1000),
					 (unsigned long long)(rel_ts % 1000));
		else
			trace_seq_printf(s, "[%016llx] %lld (+%lld): ", (unsigned long long)ts,
					 (long long)abs_ts, (long long)rel_ts);
		return;
	}
	trace_seq_printf(s, "%8.8s-%-7d %3d", comm, entry->pid, cpu);
	print_lat_fmt(s, entry);
	if (iter->in_ns)
		trace_seq_printf(s, " %4lluus%c: ", (unsigned long long)abs_ts,
				 lat_mark(rel_ts * 1000));
	else
		trace_seq_printf(s, " %4llu: ", (unsigned long long)abs_ts);
}

/* The default columns (trace_print_context()). */
static void print_context(struct trace_iterator *iter, struct trace_seq *s,
			  const struct trace_entry *entry, int cpu, uint64_t ts)
{
	print_task_cpu(iter, s, entry->pid, cpu);
	if (OPT(iter->opts, IRQ_INFO))
		print_lat_fmt(s, entry);
	print_time(s, iter->in_ns, ts);
	trace_seq_putmem(s, ": ", 2);
}

/* What the kernel's trace_nop_print() prints for the raw, hex and bin forms. */
static void print_nop(struct trace_seq *s, const struct trace_entry *entry)
{
	trace_seq_printf(s, "type: %d\n", entry->type);
}

/*
 * The event's own text (funcs->trace): "name: TP_printk output\n", or the
 * ftrace events' texts; %p raw with the hash-ptr option off.  With the
 * event mutex held.
 */
static void print_event_text(struct trace_seq *s, struct trace_event_call *call,
			     const struct trace_entry *entry, const void *data,
			     unsigned int len, unsigned long opts)
{
	if (!call) {
		trace_seq_printf(s, "Unknown type %d\n", entry->type);
	} else if (call->flags & TRACE_EVENT_FL_FTRACE) {
		if (trace_ftrace_print(s, data, len))
			trace_seq_puts(s, "[bad record]\n");
	} else {
		trace_seq_puts(s, call->name);
		trace_seq_putmem(s, ": ", 2);
		if (trace_print_event_flags(s, data, len,
					    OPT(opts, HASH_PTR) ? 0 : TRACE_PRINT_RAW_PTR))
			trace_seq_puts(s, "[bad record]");
		trace_seq_putc(s, '\n');
	}
}

/* The raw form (print_raw_fmt()). */
static void print_raw_line(struct trace_iterator *iter, struct trace_seq *s,
			   struct trace_event_call *call, const struct trace_entry *entry,
			   const void *data, unsigned int len, int cpu, uint64_t ts)
{
	if (OPT(iter->opts, CONTEXT_INFO))
		trace_seq_printf(s, "%d %d %llu ", entry->pid, cpu, (unsigned long long)ts);
	if (!call)
		trace_seq_printf(s, "%d ?\n", entry->type);
	else if (call->flags & TRACE_EVENT_FL_FTRACE)
		trace_ftrace_print_raw(s, data, len);
	else
		print_nop(s, entry);
}

/* The hex and bin forms (print_hex_fmt(), print_bin_fmt()). */
static void print_hex_bin_line(struct trace_iterator *iter, struct trace_seq *s,
			       struct trace_event_call *call, const struct trace_entry *entry,
			       int cpu, uint64_t ts, bool hex)
{
	int pid = entry->pid;

	if (OPT(iter->opts, CONTEXT_INFO)) {
		if (hex) {
			put_hex_field(s, &pid, sizeof(pid));
			put_hex_field(s, &cpu, sizeof(cpu));
			put_hex_field(s, &ts, sizeof(ts));
		} else {
			trace_seq_putmem(s, &pid, sizeof(pid));
			trace_seq_putmem(s, &cpu, sizeof(cpu));
			trace_seq_putmem(s, &ts, sizeof(ts));
		}
	}
	if (call)
		print_nop(s, entry);
	if (hex)
		trace_seq_putc(s, '\n');
}

/*
 * One event as print_trace_line() prints it for the iterator's options.
 * @data, @len: the record; @next_ts: the next event's time (latency-format).
 */
static void print_event_line(struct trace_iterator *iter, struct trace_seq *s,
			     const void *data, unsigned int len, int cpu, uint64_t ts,
			     uint64_t next_ts)
{
	unsigned long opts = iter->opts;
	struct trace_event_call *call;
	struct trace_entry entry;

	if (len < sizeof(entry)) {
		trace_seq_printf(s, "CPU:%d [BAD RECORD]\n", cpu);
		return;
	}
	memcpy(&entry, data, sizeof(entry));
	iter->idx++;

	/* Held while printing, so that the event cannot leave in between. */
	trace_event_lock();
	call = trace_find_event_call_by_id(entry.type);
	if (call && (call->flags & TRACE_EVENT_FL_FTRACE) && OPT(opts, TRACE_PRINTK) &&
	    OPT(opts, PRINTK_MSGONLY) && !trace_ftrace_print_msg(s, data, len))
		;
	else if (OPT(opts, BIN))
		print_hex_bin_line(iter, s, call, &entry, cpu, ts, false);
	else if (OPT(opts, HEX))
		print_hex_bin_line(iter, s, call, &entry, cpu, ts, true);
	else if (OPT(opts, RAW))
		print_raw_line(iter, s, call, &entry, data, len, cpu, ts);
	else {
		if (OPT(opts, CONTEXT_INFO) && OPT(opts, LATENCY_FMT))
			print_lat_context(iter, s, &entry, cpu, ts, next_ts);
		else if (OPT(opts, CONTEXT_INFO))
			print_context(iter, s, &entry, cpu, ts);
		print_event_text(s, call, &entry, data, len, iter->opts);
	}
	trace_event_unlock();
}

static void advance(struct trace_iterator *iter, int cpu)
{
	if (iter->consume) {
		ring_buffer_consume(iter->buffer, cpu, NULL, NULL);
	} else {
		ring_buffer_iter_advance(iter->iters[cpu]);
		iter->dropped[cpu] = false;
	}
}

static void print_lost(struct trace_seq *s, int cpu, unsigned long lost)
{
	if (lost == (unsigned long)-1)
		trace_seq_printf(s, "CPU:%d [LOST EVENTS]\n", cpu);
	else if (lost)
		trace_seq_printf(s, "CPU:%d [LOST %lu EVENTS]\n", cpu, lost);
}

/*
 * Move the pending line into @s.  Return: 1 when it went (or there was
 * none), -ENOSPC when @s is too full for it.
 */
static int flush_pending(struct trace_iterator *iter, struct trace_seq *s)
{
	struct trace_seq *p = iter->pending;

	if (!p || !p->len)
		return 1;
	if (s->len && s->len + p->len >= TRACE_SEQ_BUFFER_SIZE)
		return -ENOSPC;
	trace_seq_putmem(s, p->buffer, p->len);
	s->full = 0;
	trace_seq_init(p);
	return 1;
}

/*
 * latency-format needs the time of the event after the one printed: the
 * event is passed first, then the next one peeked, as the kernel's trace
 * file does (its trace_pipe peeks the event itself: no delay mark).  The
 * line waits in @iter->pending when @s has no room for it.
 */
static int print_line_lat(struct trace_iterator *iter, struct trace_seq *s)
{
	union {
		uint64_t	align;
		unsigned char	bytes[RB_PAGE_SIZE];
	} rec;
	struct ring_buffer_event *event;
	unsigned long lost = 0, nlost;
	uint64_t ts = 0, next_ts;
	unsigned int len;
	int cpu = 0, ncpu;

	if (!iter->pending) {
		iter->pending = malloc(sizeof(*iter->pending));
		if (!iter->pending)
			return -ENOMEM;
		trace_seq_init(iter->pending);
	}
	if (iter->pending->len)
		return flush_pending(iter, s);
	event = find_next(iter, &cpu, &ts, &lost);
	if (!event)
		return 0;
	len = ring_buffer_event_length(event);
	if (len > sizeof(rec))
		len = sizeof(rec);
	memcpy(rec.bytes, ring_buffer_event_data(event), len);
	advance(iter, cpu);
	next_ts = ts;
	if (!iter->consume && !find_next(iter, &ncpu, &next_ts, &nlost))
		next_ts = ts;
	print_lost(iter->pending, cpu, lost);
	print_event_line(iter, iter->pending, rec.bytes, len, cpu, ts, next_ts);
	return flush_pending(iter, s);
}

/**
 * trace_iterator_print_line - print the next event
 * @iter: the iterator
 * @s:    where the text goes (appended): a "CPU:N [LOST ...]" line when
 *	  events were lost before it on its CPU, then the event line
 *
 * When the text does not fit in @s, @s is left as it was and the event is
 * not lost; flush @s and call again.  A line that does not fit even in an
 * empty @s is printed truncated.
 *
 * Return: 1 when a line was printed, 0 at the end of the buffer, -ENOSPC
 * when @s is too full.
 * Context: one thread per iterator; writers may run meanwhile.
 */
int trace_iterator_print_line(struct trace_iterator *iter, struct trace_seq *s)
{
	unsigned int start = s->len;
	struct ring_buffer_event *event;
	unsigned long lost = 0;
	uint64_t ts = 0;
	int cpu = 0;

	if (OPT(iter->opts, LATENCY_FMT) && OPT(iter->opts, CONTEXT_INFO))
		return print_line_lat(iter, s);
	event = find_next(iter, &cpu, &ts, &lost);
	if (!event)
		return 0;
	print_lost(s, cpu, lost);
	print_event_line(iter, s, ring_buffer_event_data(event),
			 ring_buffer_event_length(event), cpu, ts, ts);
	if (trace_seq_has_overflowed(s) && start) {
		s->len = start;
		s->buffer[start] = '\0';
		s->full = 0;
		iter->idx--;
		return -ENOSPC;
	}
	advance(iter, cpu);
	return 1;
}

static ssize_t print_all(FILE *fp, struct trace_buffer *buffer, int consume)
{
	struct trace_iterator *iter;
	struct trace_seq *s;
	ssize_t written = 0;
	int ret = 0;

	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	trace_seq_init(s);
	iter = trace_iterator_open(buffer, consume);
	if (!iter) {
		free(s);
		return -errno;
	}
	if (!consume)
		ret = trace_print_header(s, iter->buffer);
	while (ret >= 0) {
		ret = trace_iterator_print_line(iter, s);
		if (ret == 1 && s->len < TRACE_SEQ_BUFFER_SIZE / 2)
			continue;
		if (fwrite(s->buffer, 1, s->len, fp) != s->len) {
			written = -EIO;
			break;
		}
		written += s->len;
		trace_seq_init(s);
		if (!ret)
			break;
		ret = 0;
	}
	trace_iterator_close(iter);
	free(s);
	return written;
}

/**
 * trace_print_file - write what reading the trace file gives
 * @fp:     the stream
 * @buffer: the buffer, NULL for the global one
 *
 * The header and every event in the buffer; the events stay.
 *
 * Return: the bytes written, or a negative errno.
 */
ssize_t trace_print_file(FILE *fp, struct trace_buffer *buffer)
{
	return print_all(fp, buffer, 0);
}

/**
 * trace_print_pipe - write and consume the events in the buffer, as a
 *	read of trace_pipe that does not wait for more
 * @fp:     the stream
 * @buffer: the buffer, NULL for the global one
 *
 * Return: the bytes written, or a negative errno.
 */
ssize_t trace_print_pipe(FILE *fp, struct trace_buffer *buffer)
{
	return print_all(fp, buffer, 1);
}
