/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU ring buffers in the kernel's binary format, as the kernel's
 * <linux/ring_buffer.h>.
 *
 * A buffer is a set of per-CPU rings of 4 KiB sub-buffer pages laid out
 * exactly as the kernel's events/header_page and events/header_event
 * describe, so that a page can be handed to libtraceevent's kbuffer or
 * written into a trace.dat unchanged.  Any thread writes without locks or
 * system calls into the ring of the CPU it runs on:
 *
 *	struct ring_buffer_event *event;
 *	struct my_entry *entry;
 *
 *	event = ring_buffer_lock_reserve(buffer, sizeof(*entry));
 *	if (!event)
 *		return;			// dropped and counted, or recording off
 *	entry = ring_buffer_event_data(event);
 *	entry->value = value;
 *	ring_buffer_unlock_commit(buffer, event);
 *
 * Readers consume events one by one (ring_buffer_consume(), as trace_pipe),
 * whole pages (ring_buffer_read_page(), as trace_pipe_raw), or walk a CPU
 * without consuming (ring_buffer_read_start(), as the trace file).
 *
 * Errors: functions return 0 or a negative errno; functions that return a
 * pointer return NULL and set errno.  Functions that take a cpu accept
 * 0 .. ring_buffer_nr_cpus() - 1 and, where the kernel does,
 * RING_BUFFER_ALL_CPUS.
 *
 * Documentation/trace/ring-buffer-design.rst describes the implementation.
 */
#ifndef _USTRACE_LINUX_RING_BUFFER_H
#define _USTRACE_LINUX_RING_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

struct trace_buffer;
struct ring_buffer_iter;

/*
 * An event header, as the kernel's.  Don't refer to the fields directly,
 * use the functions below.  type_len is the low 5 bits of the first
 * little-endian 32-bit word, time_delta the high 27.
 */
struct ring_buffer_event {
	uint32_t	type_len:5, time_delta:27;
	uint32_t	array[];
};

/**
 * enum ring_buffer_type - what an event header's type_len means
 * @RINGBUF_TYPE_DATA_TYPE_LEN_MAX: 1..28: a data record of type_len * 4
 *	bytes; 0: a data record whose length + 4 is in array[0], data from
 *	array[1]
 * @RINGBUF_TYPE_PADDING: padding to the end of the page (time_delta 0), or
 *	a discarded event of array[0] + 4 bytes (time_delta non-zero)
 * @RINGBUF_TYPE_TIME_EXTEND: 8 bytes; adds (array[0] << 27) + time_delta
 *	to the time
 * @RINGBUF_TYPE_TIME_STAMP: 8 bytes; the time is (array[0] << 27) +
 *	time_delta (the low 59 bits of an absolute time stamp)
 */
enum ring_buffer_type {
	RINGBUF_TYPE_DATA_TYPE_LEN_MAX = 28,
	RINGBUF_TYPE_PADDING,
	RINGBUF_TYPE_TIME_EXTEND,
	RINGBUF_TYPE_TIME_STAMP,
};

/* The sub-buffer page: u64 time_stamp, u64 commit, then the data. */
#define RB_PAGE_SIZE		4096
#define RB_PAGE_HDR_SIZE	16
#define RB_PAGE_DATA_SIZE	(RB_PAGE_SIZE - RB_PAGE_HDR_SIZE)
/* The largest payload ring_buffer_lock_reserve() accepts (the kernel's). */
#define RB_MAX_DATA_SIZE	(RB_PAGE_DATA_SIZE - 8)

/* Flags in the commit word of a page returned by ring_buffer_read_page(). */
#define RB_MISSED_EVENTS	(1ul << 31)	/* events were lost before this page */
#define RB_MISSED_STORED	(1ul << 30)	/* their count follows the data */

#define RING_BUFFER_ALL_CPUS	-1

enum ring_buffer_flags {
	RB_FL_OVERWRITE		= 1 << 0,
};

/* Events */
__ustrace_visible unsigned ring_buffer_event_length(struct ring_buffer_event *event);
__ustrace_visible void *ring_buffer_event_data(struct ring_buffer_event *event);

/* Buffers */
__ustrace_visible struct trace_buffer *ring_buffer_alloc(unsigned long size, unsigned flags);
__ustrace_visible void ring_buffer_free(struct trace_buffer *buffer);
__ustrace_visible int ring_buffer_resize(struct trace_buffer *buffer, unsigned long size,
					 int cpu);
__ustrace_visible void ring_buffer_change_overwrite(struct trace_buffer *buffer, int val);
__ustrace_visible unsigned int ring_buffer_get_flags(struct trace_buffer *buffer);
__ustrace_visible int ring_buffer_nr_cpus(struct trace_buffer *buffer);
__ustrace_visible unsigned long ring_buffer_size(struct trace_buffer *buffer, int cpu);
__ustrace_visible size_t ring_buffer_nr_pages(struct trace_buffer *buffer, int cpu);

/* Writing */
__ustrace_visible struct ring_buffer_event *
ring_buffer_lock_reserve(struct trace_buffer *buffer, unsigned long length);
__ustrace_visible int ring_buffer_unlock_commit(struct trace_buffer *buffer,
						struct ring_buffer_event *event);
__ustrace_visible void ring_buffer_discard_commit(struct trace_buffer *buffer,
						  struct ring_buffer_event *event);
__ustrace_visible int ring_buffer_write(struct trace_buffer *buffer,
					unsigned long length, void *data);

/* Consuming reads (trace_pipe, trace_pipe_raw) */
__ustrace_visible struct ring_buffer_event *
ring_buffer_peek(struct trace_buffer *buffer, int cpu, uint64_t *ts,
		 unsigned long *lost_events);
__ustrace_visible struct ring_buffer_event *
ring_buffer_consume(struct trace_buffer *buffer, int cpu, uint64_t *ts,
		    unsigned long *lost_events);
__ustrace_visible void *ring_buffer_alloc_read_page(struct trace_buffer *buffer, int cpu);
__ustrace_visible void ring_buffer_free_read_page(struct trace_buffer *buffer, int cpu,
						  void *data);
__ustrace_visible int ring_buffer_read_page(struct trace_buffer *buffer, void **data_page,
					    size_t len, int cpu, int full);

/*
 * Waiting for data without polling (Documentation/trace/ring-buffer-design.rst,
 * "Waiting").  A reader loads ring_buffer_wait_seq(), arms the CPUs it
 * waits for with ring_buffer_wait_arm(), and sleeps with
 * ring_buffer_wait_sleep() on the value it loaded, unless an arm said
 * READY (look now) or INFLIGHT (an event is being written: sleep at most
 * RING_BUFFER_WAIT_INFLIGHT_MS).  @full is the kernel's buffer_percent:
 * 0 wakes on any data, 1..100 when that part of the CPU's pages is
 * written (and a whole page can be taken).
 */
#define RING_BUFFER_WAIT_ARMED		0
#define RING_BUFFER_WAIT_READY		1
#define RING_BUFFER_WAIT_INFLIGHT	2
#define RING_BUFFER_WAIT_INFLIGHT_MS	1
__ustrace_visible uint32_t ring_buffer_wait_seq(struct trace_buffer *buffer);
__ustrace_visible uint32_t *ring_buffer_wait_word(struct trace_buffer *buffer);
__ustrace_visible int ring_buffer_wait_arm(struct trace_buffer *buffer, int cpu, int full);
__ustrace_visible int ring_buffer_wait_sleep(struct trace_buffer *buffer, uint32_t seq,
					     int timeout_ms);
__ustrace_visible int ring_buffer_wait(struct trace_buffer *buffer, int cpu, int full,
				       int timeout_ms);
__ustrace_visible void ring_buffer_wake_waiters(struct trace_buffer *buffer, int cpu);

/* Non-consuming reads (the trace file) */
__ustrace_visible struct ring_buffer_iter *
ring_buffer_read_start(struct trace_buffer *buffer, int cpu);
__ustrace_visible void ring_buffer_read_finish(struct ring_buffer_iter *iter);
__ustrace_visible struct ring_buffer_event *
ring_buffer_iter_peek(struct ring_buffer_iter *iter, uint64_t *ts);
__ustrace_visible void ring_buffer_iter_advance(struct ring_buffer_iter *iter);
__ustrace_visible void ring_buffer_iter_reset(struct ring_buffer_iter *iter);
__ustrace_visible int ring_buffer_iter_empty(struct ring_buffer_iter *iter);
__ustrace_visible bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter);

/* Control */
__ustrace_visible void ring_buffer_reset_cpu(struct trace_buffer *buffer, int cpu);
__ustrace_visible void ring_buffer_reset(struct trace_buffer *buffer);
__ustrace_visible bool ring_buffer_empty(struct trace_buffer *buffer);
__ustrace_visible bool ring_buffer_empty_cpu(struct trace_buffer *buffer, int cpu);

__ustrace_visible void ring_buffer_record_disable(struct trace_buffer *buffer);
__ustrace_visible void ring_buffer_record_enable(struct trace_buffer *buffer);
__ustrace_visible void ring_buffer_record_off(struct trace_buffer *buffer);
__ustrace_visible void ring_buffer_record_on(struct trace_buffer *buffer);
__ustrace_visible bool ring_buffer_record_is_on(struct trace_buffer *buffer);
__ustrace_visible bool ring_buffer_record_is_set_on(struct trace_buffer *buffer);
__ustrace_visible void ring_buffer_record_disable_cpu(struct trace_buffer *buffer, int cpu);
__ustrace_visible void ring_buffer_record_enable_cpu(struct trace_buffer *buffer, int cpu);

/* Accounting, as per_cpu/cpuN/stats */
__ustrace_visible uint64_t ring_buffer_oldest_event_ts(struct trace_buffer *buffer, int cpu);
__ustrace_visible unsigned long ring_buffer_bytes_cpu(struct trace_buffer *buffer, int cpu);
__ustrace_visible unsigned long ring_buffer_entries(struct trace_buffer *buffer);
__ustrace_visible unsigned long ring_buffer_overruns(struct trace_buffer *buffer);
__ustrace_visible unsigned long ring_buffer_entries_cpu(struct trace_buffer *buffer, int cpu);
__ustrace_visible unsigned long ring_buffer_overrun_cpu(struct trace_buffer *buffer, int cpu);
__ustrace_visible unsigned long ring_buffer_commit_overrun_cpu(struct trace_buffer *buffer,
							       int cpu);
__ustrace_visible unsigned long ring_buffer_dropped_events_cpu(struct trace_buffer *buffer,
							       int cpu);
__ustrace_visible unsigned long ring_buffer_read_events_cpu(struct trace_buffer *buffer,
							    int cpu);
__ustrace_visible unsigned long ring_buffer_killed_events_cpu(struct trace_buffer *buffer,
							      int cpu);

/* Snapshots: trade all pages of two buffers (the kernel's ring_buffer_swap_cpu()) */
__ustrace_visible int ring_buffer_swap(struct trace_buffer *a, struct trace_buffer *b,
				       bool wait, bool (*cond)(void *cond_arg),
				       void *cond_arg);
__ustrace_visible void ring_buffer_call_locked(struct trace_buffer *buffer,
					       void (*fn)(void *arg), void *arg);

/* Time */
__ustrace_visible uint64_t ring_buffer_time_stamp(struct trace_buffer *buffer);
__ustrace_visible void ring_buffer_set_clock(struct trace_buffer *buffer,
					     uint64_t (*clock)(void));
__ustrace_visible uint64_t (*ring_buffer_get_clock(struct trace_buffer *buffer))(void);
__ustrace_visible void ring_buffer_set_time_stamp_abs(struct trace_buffer *buffer, bool abs);
__ustrace_visible bool ring_buffer_time_stamp_abs(struct trace_buffer *buffer);

/* The text of tracefs's events/header_page and events/header_event. */
__ustrace_visible int ring_buffer_print_page_header(char *buf, size_t size);
__ustrace_visible int ring_buffer_print_entry_header(char *buf, size_t size);

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_RING_BUFFER_H */
