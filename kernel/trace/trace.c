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
#include <sys/prctl.h>

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>

#include "rb_internal.h"
#include "trace_array.h"
#include "trace_events_internal.h"

/* ------------------------------------------------------------------
 * Saved cmdlines
 *
 * Direct-mapped by pid: a thread whose slot is taken by a newer thread
 * loses its name and prints as "<...>", as an evicted pid does in the
 * kernel's table.  Written once per thread, read once per line.
 */
#define SAVED_CMDLINES		TRACE_SAVED_CMDLINES

struct saved_cmdline {
	int	pid;
	int	tgid;
	char	comm[TRACE_COMM_LEN];
};

static struct saved_cmdline saved_cmdlines[SAVED_CMDLINES];
static pthread_mutex_t cmdline_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * trace_save_cmdline - remember the calling thread's name for @pid
 * @pid: the calling thread's id
 *
 * Context: any thread, for itself; the first record of each thread.
 */
void trace_save_cmdline(int pid)
{
	char comm[TRACE_COMM_LEN] = "";
	struct saved_cmdline *sc;

	if (pid <= 0)
		return;
	if (prctl(PR_GET_NAME, comm, 0, 0, 0) < 0)
		return;
	comm[TRACE_COMM_LEN - 1] = '\0';
	sc = &saved_cmdlines[(unsigned int)pid % SAVED_CMDLINES];
	pthread_mutex_lock(&cmdline_lock);
	sc->pid = pid;
	sc->tgid = (int)getpid();
	memcpy(sc->comm, comm, sizeof(comm));
	pthread_mutex_unlock(&cmdline_lock);
}

/*
 * The saved_cmdlines file: "PID COMM" per saved thread (by slot, as the
 * kernel walks its map), and saved_tgids: "PID TGID".
 */
static void print_saved(struct trace_seq *s, bool tgids)
{
	unsigned int i;

	pthread_mutex_lock(&cmdline_lock);
	for (i = 0; i < SAVED_CMDLINES; i++) {
		const struct saved_cmdline *sc = &saved_cmdlines[i];

		if (!sc->pid)
			continue;
		if (tgids)
			trace_seq_printf(s, "%d %d\n", sc->pid, sc->tgid);
		else
			trace_seq_printf(s, "%d %s\n", sc->pid, sc->comm);
	}
	pthread_mutex_unlock(&cmdline_lock);
}

void trace_print_saved_cmdlines(struct trace_seq *s)
{
	print_saved(s, false);
}

void trace_print_saved_tgids(struct trace_seq *s)
{
	print_saved(s, true);
}

/**
 * trace_saved_cmdline_get - one slot of the saved-cmdlines table
 * @slot:   0 .. TRACE_SAVED_CMDLINES - 1
 * @comm:   receives the name when the slot is used
 * @nolock: read without the lock: for a fatal-signal handler, which must
 *	    not wait for a lock its own thread may hold; a slot being
 *	    written meanwhile may come out torn
 *
 * Return: the slot's pid, 0 for an empty slot, -1 past the table.
 * Context: async-signal-safe with @nolock.
 */
int trace_saved_cmdline_get(unsigned int slot, char comm[TRACE_COMM_LEN], bool nolock)
{
	const struct saved_cmdline *sc;
	int pid;

	if (slot >= SAVED_CMDLINES)
		return -1;
	sc = &saved_cmdlines[slot];
	if (nolock) {
		pid = __atomic_load_n(&sc->pid, __ATOMIC_RELAXED);
		memcpy(comm, sc->comm, TRACE_COMM_LEN);
	} else {
		pthread_mutex_lock(&cmdline_lock);
		pid = sc->pid;
		memcpy(comm, sc->comm, TRACE_COMM_LEN);
		pthread_mutex_unlock(&cmdline_lock);
	}
	comm[TRACE_COMM_LEN - 1] = '\0';
	return pid;
}

/**
 * trace_find_cmdline - the saved name of @pid
 * @pid:  a thread id
 * @comm: receives the name; "<idle>" for pid 0 and "<...>" for a pid not
 *	  in the table, as the kernel prints them
 */
void trace_find_cmdline(int pid, char comm[TRACE_COMM_LEN])
{
	struct saved_cmdline *sc;

	if (!pid) {
		strcpy(comm, "<idle>");
		return;
	}
	if (pid < 0) {
		strcpy(comm, "<XXX>");
		return;
	}
	sc = &saved_cmdlines[(unsigned int)pid % SAVED_CMDLINES];
	pthread_mutex_lock(&cmdline_lock);
	if (sc->pid == pid)
		memcpy(comm, sc->comm, TRACE_COMM_LEN);
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

/*
 * The legend of the irq-info columns, as print_func_help_header_irq()
 * prints it without record-tgid.
 */
static const char trace_legend[] =
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";

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
	unsigned long entries, total;

	buffer = buffer_or_global(buffer);
	if (!buffer)
		return -ENOMEM;
	total_entries(buffer, &entries, &total);
	trace_seq_puts(s, "# tracer: nop\n#\n");
	trace_seq_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n#\n",
			 entries, total, ring_buffer_nr_cpus(buffer));
	trace_seq_puts(s, trace_legend);
	return trace_seq_has_overflowed(s) ? -ENOSPC : 0;
}

/* ------------------------------------------------------------------
 * Iterators
 */

static struct trace_iterator *iterator_open(struct trace_buffer *buffer, int consume,
					    int only);

/**
 * struct trace_iterator - a reader of trace or trace_pipe
 * @buffer:  the buffer
 * @consume: trace_pipe: consume what is printed
 * @in_ns:   the buffer's clock counts nanoseconds (printed as seconds)
 * @nr_cpus: entries in @iters and @dropped
 * @only_cpu: the one CPU read (per_cpu/cpuN/trace), or RING_BUFFER_ALL_CPUS
 * @iters:   per-CPU ring buffer iterators (trace only)
 * @dropped: per CPU, the iterator lost pages before its next event
 * @last_pid: the pid of the previous line
 * @task:    its "%16s-%-7d " column (@task_len bytes; 0: not made yet)
 */
struct trace_iterator {
	struct trace_buffer	*buffer;
	bool			consume;
	bool			in_ns;
	int			nr_cpus;
	int			only_cpu;
	struct ring_buffer_iter	**iters;
	bool			*dropped;
	int			last_pid;
	unsigned int		task_len;
	char			task[TRACE_COMM_LEN + 32];
};

/*
 * As the kernel's trace_clocks[].in_ns: only the counter clock is not in
 * nanoseconds.
 */
static bool buffer_clock_in_ns(struct trace_buffer *buffer)
{
	uint64_t (*clock)(void);
	const struct trace_clock *tc;
	unsigned int i;

	if (__atomic_load_n(&buffer->clock_local, __ATOMIC_RELAXED))
		return true;
	clock = __atomic_load_n(&buffer->clock, __ATOMIC_RELAXED);
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
	return iterator_open(buffer, consume, RING_BUFFER_ALL_CPUS);
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
	return iterator_open(tr->buffer, consume, cpu);
}

/** trace_array_print_header - trace_print_header() for one instance */
int trace_array_print_header(struct trace_array *tr, struct trace_seq *s)
{
	if (!tr)
		tr = trace_array_top();
	if (!tr)
		return -ENOMEM;
	return trace_print_header(s, tr->buffer);
}

static struct trace_iterator *iterator_open(struct trace_buffer *buffer, int consume, int only)
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
	char col[6];
	bool hard = entry->flags & 0x08, soft = entry->flags & 0x10;

	col[0] = (entry->flags & 0x01) ? 'd' : '.';
	col[1] = (entry->flags & 0x04) ? 'n' : '.';
	col[2] = hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.';
	col[3] = (entry->preempt_count & 0xf) ?
		"0123456789abcdef"[entry->preempt_count & 0xf] : '.';
	col[4] = (entry->preempt_count & 0xf0) ?
		"0123456789abcdef"[entry->preempt_count >> 4] : '.';
	col[5] = ' ';
	trace_seq_putmem(s, col, 5);
}

/*
 * Right-aligns @val in @width digits (more when it needs them) ending at
 * @end, pads with @pad; returns where the text starts.
 */
static char *put_decimal(char *end, uint64_t val, int width, char pad)
{
	char *p = end;

	do {
		*--p = (char)('0' + val % 10);
		val /= 10;
		width--;
	} while (val);
	while (width-- > 0)
		*--p = pad;
	return p;
}

/* " %5lu.%06lu" (or " %12llu"), formatted by hand: it is on every line. */
static void print_time(struct trace_seq *s, bool in_ns, uint64_t ts)
{
	char buf[48], *end = buf + sizeof(buf), *p;
	uint64_t usecs;

	if (!in_ns) {
		p = put_decimal(end, ts, 12, ' ');
	} else {
		/* ns2usecs() rounds to the nearest microsecond. */
		usecs = (ts + 500) / 1000;
		p = put_decimal(end, usecs % 1000000, 6, '0');
		*--p = '.';
		p = put_decimal(p, usecs / 1000000, 5, ' ');
	}
	*--p = ' ';
	trace_seq_putmem(s, p, (unsigned int)(end - p));
}

/* "%16s-%-7d [%03d] ", the task name looked up once per run of a pid. */
static void print_task_cpu(struct trace_iterator *iter, struct trace_seq *s,
			   int pid, int cpu)
{
	char buf[16], *end = buf + sizeof(buf), *p;

	if (pid != iter->last_pid || !iter->task_len) {
		char comm[TRACE_COMM_LEN];
		int len;

		trace_find_cmdline(pid, comm);
		len = snprintf(iter->task, sizeof(iter->task), "%16s-%-7d ", comm, pid);
		iter->task_len = len > 0 && (size_t)len < sizeof(iter->task) ?
				 (unsigned int)len : 0;
		iter->last_pid = pid;
	}
	trace_seq_putmem(s, iter->task, iter->task_len);
	*--end = ' ';
	*--end = ']';
	p = put_decimal(end, (unsigned int)cpu, 3, '0');
	*--p = '[';
	trace_seq_putmem(s, p, (unsigned int)(buf + sizeof(buf) - p));
}

static void print_event_line(struct trace_iterator *iter, struct trace_seq *s,
			     struct ring_buffer_event *event, int cpu, uint64_t ts)
{
	unsigned int len = ring_buffer_event_length(event);
	struct trace_entry entry;
	struct trace_event_call *call;
	void *data = ring_buffer_event_data(event);

	if (len < sizeof(entry)) {
		trace_seq_printf(s, "CPU:%d [BAD RECORD]\n", cpu);
		return;
	}
	memcpy(&entry, data, sizeof(entry));
	print_task_cpu(iter, s, entry.pid, cpu);
	print_lat_fmt(s, &entry);
	print_time(s, iter->in_ns, ts);
	trace_seq_putmem(s, ": ", 2);

	/* Held over both so that the event cannot leave in between. */
	trace_event_lock();
	call = trace_find_event_call_by_id(entry.type);
	if (!call) {
		trace_seq_printf(s, "Unknown type %d\n", entry.type);
	} else if (call->flags & TRACE_EVENT_FL_FTRACE) {
		if (trace_ftrace_print(s, data, len))
			trace_seq_puts(s, "[bad record]\n");
	} else {
		trace_seq_puts(s, call->name);
		trace_seq_putmem(s, ": ", 2);
		if (trace_print_event(s, data, len))
			trace_seq_puts(s, "[bad record]");
		trace_seq_putc(s, '\n');
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

/**
 * trace_iterator_print_line - print the next event
 * @iter: the iterator
 * @s:    where the text goes (appended): a "CPU:N [LOST ...]" line when
 *	  events were lost before it on its CPU, then the event line
 *
 * When the text does not fit in @s, @s is left as it was and the event is
 * not passed; flush @s and call again.  A line that does not fit even in
 * an empty @s is printed truncated.
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

	event = find_next(iter, &cpu, &ts, &lost);
	if (!event)
		return 0;
	if (lost == (unsigned long)-1)
		trace_seq_printf(s, "CPU:%d [LOST EVENTS]\n", cpu);
	else if (lost)
		trace_seq_printf(s, "CPU:%d [LOST %lu EVENTS]\n", cpu, lost);
	print_event_line(iter, s, event, cpu, ts);
	if (trace_seq_has_overflowed(s) && start) {
		s->len = start;
		s->buffer[start] = '\0';
		s->full = 0;
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
