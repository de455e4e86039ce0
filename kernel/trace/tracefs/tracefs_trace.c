// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The files that read the buffer, and the ones that write into it:
 *
 *	trace           the header and every event; the events stay.  Opening
 *	                it with O_TRUNC for writing clears the buffer.
 *	snapshot        the same of the snapshot buffer; a write of 0, 1 or
 *	                another number frees, takes or clears the snapshot
 *	trace_pipe      the events, consumed as they are read
 *	trace_pipe_raw  (per CPU) whole pages in the ring buffer's format
 *	stats           (per CPU) the ring buffer's counters
 *	trace_marker, trace_marker_raw
 *	                a write is a record (ftrace:print, ftrace:raw_data)
 *
 * trace and trace_pipe exist at the top and per CPU; node->cpu says which
 * (RING_BUFFER_ALL_CPUS for the top).  The consuming files never wait:
 * with nothing to read they return -EAGAIN and the server waits, asleep
 * on the buffer's wake word until a writer or a stop wakes it
 * (tfs_wait_arm(), see tracefs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace.h>
#include <linux/trace_clock.h>
#include <linux/trace_seq.h>
#include <ustrace/tracefs.h>

#include "../trace_array.h"
#include "tracefs_internal.h"

static bool file_reads(const struct tfs_file *f)
{
	return (f->flags & O_ACCMODE) != O_WRONLY;
}

/* ------------------------------------------------------------------
 * trace and trace_pipe: text made a trace_seq at a time
 */

/**
 * struct text_state - an open trace or trace_pipe
 * @iter:     the engine's iterator
 * @seq:      text made and not yet returned, from @seq_off on
 * @seq_off:  bytes of @seq returned
 * @pos:      trace: the file offset of @seq's byte @seq_off
 * @done:     trace: the iterator reached the end
 * @consumed: trace_pipe: a read returned something
 * @snapshot: the snapshot file: the snapshot buffer, its own header
 */
struct text_state {
	struct trace_iterator	*iter;
	struct trace_seq	seq;
	unsigned int		seq_off;
	off_t			pos;
	bool			done;
	bool			consumed;
	bool			snapshot;
};

static bool seq_pending(const struct text_state *st)
{
	return st->seq_off < st->seq.len;
}

/* Lines into an empty @st->seq until it is full; false at the end. */
static bool seq_fill(struct text_state *st)
{
	int ret;

	trace_seq_init(&st->seq);
	st->seq_off = 0;
	do
		ret = trace_iterator_print_line(st->iter, &st->seq);
	while (ret == 1);
	return st->seq.len > 0;
}

static int text_start(struct tfs_file *f, struct text_state *st, int consume)
{
	struct trace_array *tr = f->inst->tr;

	if (st->snapshot)
		st->iter = trace_array_snapshot_iterator_open(tr);
	else
		st->iter = trace_array_iterator_open(tr, consume, f->node->cpu);
	if (!st->iter)
		return -errno;
	trace_seq_init(&st->seq);
	st->seq_off = 0;
	st->pos = 0;
	st->done = false;
	if (st->snapshot)
		return trace_array_snapshot_print_header(tr, &st->seq);
	return consume ? 0 : trace_array_print_header(tr, &st->seq);
}

/* @consume: trace_pipe; @snapshot: the snapshot file (never consumes). */
static int text_open(struct tfs_file *f, int consume, bool snapshot)
{
	struct text_state *st;
	int err;

	if (!file_reads(f))
		return 0;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->snapshot = snapshot;
	f->priv = st;
	err = text_start(f, st, consume);
	return err == -ENOSPC ? 0 : err;
}

static void text_release(struct tfs_file *f)
{
	struct text_state *st = f->priv;

	if (st)
		trace_iterator_close(st->iter);
	free(st);
}

/* Up to @size pending bytes into @buf; the count. */
static size_t seq_copy(struct text_state *st, char *buf, size_t size)
{
	size_t n = st->seq.len - st->seq_off;

	if (n > size)
		n = size;
	memcpy(buf, st->seq.buffer + st->seq_off, n);
	st->seq_off += (unsigned int)n;
	st->pos += (off_t)n;
	return n;
}

static int trace_open(struct tfs_file *f)
{
	return text_open(f, 0, false);
}

/*
 * Reads are expected in order; a read before what was returned (a seek
 * back) starts the walk over, from the header.
 */
static ssize_t trace_read(struct tfs_file *f, char *buf, size_t size, off_t off)
{
	struct text_state *st = f->priv;
	size_t out = 0;
	int err;

	if (off < st->pos) {
		trace_iterator_close(st->iter);
		err = text_start(f, st, 0);
		if (err && err != -ENOSPC)
			return err;
	}
	while (out < size) {
		if (!seq_pending(st)) {
			if (st->done)
				break;
			if (!seq_fill(st)) {
				st->done = true;
				break;
			}
		}
		if (st->pos < off) {
			char skip[256];

			seq_copy(st, skip, (size_t)(off - st->pos) < sizeof(skip) ?
				 (size_t)(off - st->pos) : sizeof(skip));
			continue;
		}
		out += seq_copy(st, buf + out, size - out);
	}
	return (ssize_t)out;
}

static ssize_t trace_write(struct tfs_file *f, const char *buf, size_t size)
{
	(void)f, (void)buf;
	return (ssize_t)size;
}

static void trace_trunc(struct tfs_node *node)
{
	trace_array_clear(node->inst->tr, node->cpu);
}

const struct tfs_fops tfs_fops_trace = {
	.mode		= 0640,
	.open		= trace_open,
	.read		= trace_read,
	.write		= trace_write,
	.trunc		= trace_trunc,
	.release	= text_release,
};

/* ------------------------------------------------------------------
 * snapshot: the snapshot buffer, read as trace reads the main one
 */

static int snapshot_open(struct tfs_file *f)
{
	return text_open(f, 0, true);
}

/*
 * "0" frees the snapshot buffer, "1" allocates it and takes a snapshot,
 * any other number clears it: kstrtoul()'s decimal, as the kernel's.
 */
static ssize_t snapshot_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned long val;
	int err = tfs_kstrtoul(buf, size, 10, &val);

	if (!err)
		err = trace_array_snapshot_write(f->inst->tr, val);
	return err ? err : (ssize_t)size;
}

/* O_TRUNC does nothing: the kernel's snapshot file has no truncate. */
const struct tfs_fops tfs_fops_snapshot = {
	.mode		= 0640,
	.open		= snapshot_open,
	.read		= trace_read,
	.write		= snapshot_write,
	.release	= text_release,
};

static int trace_pipe_open(struct tfs_file *f)
{
	return text_open(f, 1, false);
}

static bool buffer_empty(struct tfs_file *f)
{
	struct trace_buffer *buffer = trace_array_buffer(f->inst->tr);

	if (f->node->cpu == RING_BUFFER_ALL_CPUS)
		return ring_buffer_empty(buffer);
	return ring_buffer_empty_cpu(buffer, f->node->cpu);
}

/*
 * Once something was read, an empty buffer with tracing off is the end
 * of the file (the kernel's tracing_wait_pipe()): "cat trace_pipe" ends
 * after "echo 0 > tracing_on".
 */
static bool pipe_at_end(struct tfs_file *f, const struct text_state *st)
{
	return st->consumed && !trace_array_tracing_on(f->inst->tr);
}

/*
 * What is there now, up to @size bytes.  The kernel stops at a page; a
 * FUSE round trip costs more than a read(2), so this fills the whole
 * request (bounded: each pass consumes what it prints).
 */
static ssize_t trace_pipe_read(struct tfs_file *f, char *buf, size_t size, off_t off)
{
	struct text_state *st = f->priv;
	size_t out = 0;

	(void)off;
	while (out < size) {
		if (!seq_pending(st) && !seq_fill(st))
			break;
		out += seq_copy(st, buf + out, size - out);
	}
	if (out || !size) {
		st->consumed |= out > 0;
		return (ssize_t)out;
	}
	return pipe_at_end(f, st) ? 0 : -EAGAIN;
}

static int trace_pipe_readable(struct tfs_file *f)
{
	struct text_state *st = f->priv;

	return seq_pending(st) || !buffer_empty(f) || pipe_at_end(f, st);
}

static uint32_t *pipe_wait_word(struct tfs_file *f)
{
	return ring_buffer_wait_word(trace_array_buffer(f->inst->tr));
}

/* tfs_wait_arm()'s answer for a ring_buffer_wait_arm() one. */
static int wait_answer(int armed)
{
	if (armed == RING_BUFFER_WAIT_INFLIGHT)
		return RING_BUFFER_WAIT_INFLIGHT_MS;
	return armed == RING_BUFFER_WAIT_ARMED ? -1 : 0;
}

/* Any data, as the kernel's trace_pipe (wait_on_pipe(iter, 0)). */
static int trace_pipe_wait_arm(struct tfs_file *f)
{
	int armed;

	if (trace_pipe_readable(f))
		return 0;
	armed = ring_buffer_wait_arm(trace_array_buffer(f->inst->tr), f->node->cpu, 0);
	/* Tracing stopped meanwhile (it wakes after it switched). */
	if (armed != RING_BUFFER_WAIT_READY && trace_pipe_readable(f))
		return 0;
	return wait_answer(armed);
}

/*
 * poll(2) of trace_pipe and trace_pipe_raw, as the kernel's trace_poll():
 * readable at once with the "block" option; a CPU's file when the CPU's
 * buffer is buffer_percent full (0: on any data), the top level's
 * trace_pipe on any data (the kernel's poll of all CPUs ignores
 * buffer_percent).  What a read took out of the buffer and has yet to
 * return (@pending) is readable too.  Reads wait for any data all the
 * same: a reader that polls first and reads after gets what the kernel's
 * gets, whole pages at a time (trace-cmd record's readers).  @read_ready
 * and @read_arm are the file's own for reads, used at 0 percent.
 * Return: with @arm as tfs_poll_arm(), else as tfs_poll_readable().
 */
static int pipe_poll(struct tfs_file *f, bool pending, bool arm,
		     int (*read_ready)(struct tfs_file *f), int (*read_arm)(struct tfs_file *f))
{
	struct trace_array *tr = f->inst->tr;
	int pct, armed;

	if (trace_array_get_option(tr, "block") > 0)
		return arm ? 0 : 1;
	pct = f->node->cpu == RING_BUFFER_ALL_CPUS ? 0 : (int)trace_array_buffer_percent(tr);
	if (!pct)
		return arm ? read_arm(f) : read_ready(f);
	if (pending)
		return arm ? 0 : 1;
	armed = ring_buffer_wait_arm(trace_array_buffer(tr), f->node->cpu, pct);
	return arm ? wait_answer(armed) : armed == RING_BUFFER_WAIT_READY;
}

static bool trace_pipe_pending(struct tfs_file *f)
{
	struct text_state *st = f->priv;

	return seq_pending(st) || pipe_at_end(f, st);
}

static int trace_pipe_poll_readable(struct tfs_file *f)
{
	return pipe_poll(f, trace_pipe_pending(f), false, trace_pipe_readable, trace_pipe_wait_arm);
}

static int trace_pipe_poll_arm(struct tfs_file *f)
{
	return pipe_poll(f, trace_pipe_pending(f), true, trace_pipe_readable, trace_pipe_wait_arm);
}

const struct tfs_fops tfs_fops_trace_pipe = {
	.mode		= 0440,
	.open		= trace_pipe_open,
	.read		= trace_pipe_read,
	.readable	= trace_pipe_readable,
	.wait_word	= pipe_wait_word,
	.wait_arm	= trace_pipe_wait_arm,
	.poll_readable	= trace_pipe_poll_readable,
	.poll_arm	= trace_pipe_poll_arm,
	.linger		= true,
	.release	= text_release,
};

/* ------------------------------------------------------------------
 * trace_pipe_raw
 */

/**
 * struct raw_state - an open trace_pipe_raw
 * @buffer: the instance's buffer
 * @page:   the last page taken (ring_buffer_alloc_read_page())
 * @read:   bytes of @page returned; RB_PAGE_SIZE: take the next
 * @pages:  USTRACE_TRACEFS_IOC_RAW_PAGES was set: a read of two pages or
 *          more takes the whole pages after the first too
 */
struct raw_state {
	struct trace_buffer	*buffer;
	void			*page;
	size_t			read;
	bool			pages;
};

static int raw_open(struct tfs_file *f)
{
	struct raw_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->buffer = trace_array_buffer(f->inst->tr);
	st->page = ring_buffer_alloc_read_page(st->buffer, f->node->cpu);
	st->read = RB_PAGE_SIZE;
	f->priv = st;
	return st->page ? 0 : -ENOMEM;
}

static void raw_release(struct tfs_file *f)
{
	struct raw_state *st = f->priv;

	if (st && st->page)
		ring_buffer_free_read_page(st->buffer, f->node->cpu, st->page);
	free(st);
}

/*
 * As the kernel's tracing_buffers_read(): a page is taken with room for
 * what the reader asked (whole 4096-byte pages for a read of 4096), then
 * handed out until it is all returned, the unused end included.  A
 * buffer that has data but no page for a read this small reads as 0.
 */
static ssize_t raw_read(struct tfs_file *f, char *buf, size_t size, off_t off)
{
	struct raw_state *st = f->priv;
	size_t n;
	int err;

	(void)off;
	if (!size)
		return 0;
	if (st->read >= RB_PAGE_SIZE) {
		err = ring_buffer_read_page(st->buffer, &st->page,
					    size < RB_PAGE_SIZE ? size : RB_PAGE_SIZE,
					    f->node->cpu, 0);
		if (err)
			return ring_buffer_empty_cpu(st->buffer, f->node->cpu) ? -EAGAIN : 0;
		st->read = 0;
	}
	n = RB_PAGE_SIZE - st->read;
	if (n > size)
		n = size;
	memcpy(buf, (char *)st->page + st->read, n);
	st->read += n;
	/*
	 * The whole pages after a whole first one, as the kernel's splice,
	 * straight into the reply (the recorder fills its slots so too).
	 */
	while (st->pages && n % RB_PAGE_SIZE == 0 && n + RB_PAGE_SIZE <= size) {
		void *page = buf + n;

		if (ring_buffer_read_page(st->buffer, &page, RB_PAGE_SIZE, f->node->cpu, 1))
			break;
		n += RB_PAGE_SIZE;
	}
	return (ssize_t)n;
}

static int raw_ioctl(struct tfs_file *f, unsigned int cmd)
{
	struct raw_state *st = f->priv;

	if (cmd != USTRACE_TRACEFS_IOC_RAW_PAGES)
		return -ENOTTY;
	st->pages = true;
	return 0;
}

/* Any data, not buffer_percent of it (the kernel's read; its poll waits). */
static int raw_readable(struct tfs_file *f)
{
	struct raw_state *st = f->priv;

	return st->read < RB_PAGE_SIZE || !ring_buffer_empty_cpu(st->buffer, f->node->cpu);
}

static uint32_t *raw_wait_word(struct tfs_file *f)
{
	return ring_buffer_wait_word(((struct raw_state *)f->priv)->buffer);
}

/* A read waits for any data, as the kernel's tracing_buffers_read(). */
static int raw_wait_arm(struct tfs_file *f)
{
	struct raw_state *st = f->priv;

	if (raw_readable(f))
		return 0;
	return wait_answer(ring_buffer_wait_arm(st->buffer, f->node->cpu, 0));
}

/* poll(2) waits for buffer_percent (pipe_poll()). */
static int raw_poll_readable(struct tfs_file *f)
{
	struct raw_state *st = f->priv;

	return pipe_poll(f, st->read < RB_PAGE_SIZE, false, raw_readable, raw_wait_arm);
}

static int raw_poll_arm(struct tfs_file *f)
{
	struct raw_state *st = f->priv;

	return pipe_poll(f, st->read < RB_PAGE_SIZE, true, raw_readable, raw_wait_arm);
}

const struct tfs_fops tfs_fops_trace_pipe_raw = {
	.mode		= 0440,
	.open		= raw_open,
	.read		= raw_read,
	.readable	= raw_readable,
	.wait_word	= raw_wait_word,
	.wait_arm	= raw_wait_arm,
	.poll_readable	= raw_poll_readable,
	.poll_arm	= raw_poll_arm,
	.ioctl		= raw_ioctl,
	.release	= raw_release,
};

/* ------------------------------------------------------------------
 * stats
 */

/* " %5llu.%06lu" of a clock in ns, rounded to the microsecond. */
static void stats_time(struct seq_buf *b, const char *what, uint64_t ts, bool in_ns)
{
	char buf[USTRACE_FMT_USECS_MAX], *end = buf + sizeof(buf), *p;

	if (in_ns) {
		p = ustrace_fmt_usecs(end, ts);
		seq_buf_grow_printf(b, "%s: %.*s\n", what, (int)(end - p), p);
	} else {
		seq_buf_grow_printf(b, "%s: %llu\n", what, (unsigned long long)ts);
	}
}

static int stats_show(struct tfs_file *f, struct seq_buf *b)
{
	struct trace_buffer *buffer = trace_array_buffer(f->inst->tr);
	const struct trace_clock *tc = trace_clock_get(trace_array_clock(f->inst->tr));
	bool in_ns = !tc || tc->in_ns;
	int cpu = f->node->cpu;

	seq_buf_grow_printf(b, "entries: %ld\n", (long)ring_buffer_entries_cpu(buffer, cpu));
	seq_buf_grow_printf(b, "overrun: %ld\n", (long)ring_buffer_overrun_cpu(buffer, cpu));
	seq_buf_grow_printf(b, "commit overrun: %ld\n",
			    (long)ring_buffer_commit_overrun_cpu(buffer, cpu));
	seq_buf_grow_printf(b, "bytes: %ld\n", (long)ring_buffer_bytes_cpu(buffer, cpu));
	stats_time(b, "oldest event ts", ring_buffer_oldest_event_ts(buffer, cpu), in_ns);
	stats_time(b, "now ts", ring_buffer_time_stamp(buffer), in_ns);
	seq_buf_grow_printf(b, "dropped events: %ld\n",
			    (long)ring_buffer_dropped_events_cpu(buffer, cpu));
	seq_buf_grow_printf(b, "read events: %ld\n", (long)ring_buffer_read_events_cpu(buffer, cpu));
	return 0;
}

const struct tfs_fops tfs_fops_stats = {
	.mode	= 0440,
	.show	= stats_show,
};

/* ------------------------------------------------------------------
 * trace_marker, trace_marker_raw
 */

static ssize_t marker_write(struct tfs_file *f, const char *buf, size_t size)
{
	return trace_array_marker_write(f->inst->tr, buf, size);
}

static ssize_t marker_raw_write(struct tfs_file *f, const char *buf, size_t size)
{
	return trace_array_marker_write_raw(f->inst->tr, buf, size);
}

const struct tfs_fops tfs_fops_trace_marker = {
	.mode	= 0220,
	.write	= marker_write,
};

const struct tfs_fops tfs_fops_trace_marker_raw = {
	.mode	= 0220,
	.write	= marker_raw_write,
};
