// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace_marker and trace_marker_raw: text and binary records a reader of
 * the trace writes into it, as the kernel's ftrace:print (id 5) and
 * ftrace:raw_data (id 19) events, with the kernel's formats.
 *
 *	ftrace:print     struct { trace_entry; unsigned long ip; char buf[]; }
 *	ftrace:raw_data  struct { trace_entry; unsigned int id; char buf[]; }
 *
 * The two events are registered by the library itself, cannot be enabled
 * (they are recorded when written) and print as the kernel prints them:
 * "tracing_mark_write: TEXT" and "# ID buf: XX XX ...".
 */
#define __USTRACE_CORE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "trace_array.h"
#include "trace.h"

/*
 * The kernel's TRACE_PRINT and TRACE_RAW_DATA entry types, as Linux 6.18
 * numbers them (6.1 gave raw_data 18).
 */
#define TRACE_PRINT_ID		5
#define TRACE_RAW_DATA_ID	19

struct print_entry {
	struct trace_entry	ent;
	unsigned long		ip;
	char			buf[];
};

struct raw_data_entry {
	struct trace_entry	ent;
	unsigned int		id;
	char			buf[];
};

static const struct trace_event_fields print_fields[] = {
	{ .type = "unsigned long", .name = "ip", .size = 8, .align = 8 },
	{ .type = "char[]", .name = "buf", .size = 0, .align = 1 },
	{ 0 }
};

static const struct trace_event_fields raw_data_fields[] = {
	{ .type = "unsigned int", .name = "id", .size = 4, .align = 4 },
	{ .type = "char[]", .name = "buf", .size = 0, .align = 1 },
	{ 0 }
};

static const struct trace_event_class ftrace_print_class = {
	.system		= "ftrace",
	.fields_array	= print_fields,
};

static const struct trace_event_class ftrace_raw_data_class = {
	.system		= "ftrace",
	.fields_array	= raw_data_fields,
};

/* Only for TRACE_EVENT_FL_FTRACE events: trace.c calls trace_ftrace_print(). */
static void no_output(struct trace_seq *s, struct trace_seq *p, const void *entry)
{
	(void)s, (void)p, (void)entry;
}

static struct trace_event_call ftrace_print_call = {
	.event_class	= &ftrace_print_class,
	.name		= "print",
	.print_fmt	= "\"%ps: %s\", (void *)REC->ip, REC->buf",
	.output		= no_output,
	.id		= TRACE_PRINT_ID,
	.flags		= TRACE_EVENT_FL_IGNORE_ENABLE | TRACE_EVENT_FL_FTRACE,
};

static struct trace_event_call ftrace_raw_data_call = {
	.event_class	= &ftrace_raw_data_class,
	.name		= "raw_data",
	.print_fmt	= "\"id:%04x %08x\", REC->id, (int)REC->buf[0]",
	.output		= no_output,
	.id		= TRACE_RAW_DATA_ID,
	.flags		= TRACE_EVENT_FL_IGNORE_ENABLE | TRACE_EVENT_FL_FTRACE,
};

bool trace_marker_is_print(const struct trace_event_call *call)
{
	return call == &ftrace_print_call;
}

__attribute__((__constructor__))
static void trace_marker_init(void)
{
	trace_add_event_call(&ftrace_print_call);
	trace_add_event_call(&ftrace_raw_data_call);
}

/**
 * trace_ftrace_print - the text of an ftrace:print or ftrace:raw_data record
 * @s:   where it goes, with its newline
 * @rec: the record, @len bytes (4-byte aligned by the caller)
 *
 * Return: 0, or -EINVAL for a record too short for its type.
 */
int trace_ftrace_print(struct trace_seq *s, const void *rec, unsigned int len)
{
	const struct trace_entry *ent = rec;
	unsigned int i;

	/*
	 * Records are 4-byte aligned in the ring buffer: the members are
	 * reached by their offsets, not through the (8-byte aligned) structs.
	 */
	const unsigned char *bytes = rec;

	if (ent->type == TRACE_PRINT_ID && len > sizeof(struct print_entry)) {
		const char *text = (const char *)bytes + offsetof(struct print_entry, buf);
		unsigned int n = len - sizeof(struct print_entry);

		trace_seq_puts(s, "tracing_mark_write: ");
		trace_seq_putmem(s, text, (unsigned int)strnlen(text, n));
		return 0;
	}
	if (ent->type == TRACE_STACK_ID)
		return trace_stack_print(s, rec, len);
	if (ent->type == TRACE_RAW_DATA_ID && len >= sizeof(struct raw_data_entry)) {
		unsigned int id;

		memcpy(&id, bytes + offsetof(struct raw_data_entry, id), sizeof(id));
		trace_seq_printf(s, "# %x buf:", id);
		for (i = offsetof(struct raw_data_entry, buf); i < len; i++)
			trace_seq_printf(s, " %02x", bytes[i]);
		trace_seq_putc(s, '\n');
		return 0;
	}
	return -EINVAL;
}

/* The text of an ftrace:print record, and its length, or NULL. */
static const char *print_text(const void *rec, unsigned int len, unsigned int *n)
{
	const char *text = (const char *)rec + offsetof(struct print_entry, buf);

	if (((const struct trace_entry *)rec)->type != TRACE_PRINT_ID ||
	    len <= sizeof(struct print_entry))
		return NULL;
	*n = (unsigned int)strnlen(text, len - sizeof(struct print_entry));
	return text;
}

/**
 * trace_ftrace_print_raw - the raw form of an ftrace record (the raw
 *	option): "# IP TEXT" for ftrace:print, as the text form otherwise
 */
int trace_ftrace_print_raw(struct trace_seq *s, const void *rec, unsigned int len)
{
	unsigned long ip;
	unsigned int n;
	const char *text = print_text(rec, len, &n);

	if (!text)
		return trace_ftrace_print(s, rec, len);
	memcpy(&ip, (const char *)rec + offsetof(struct print_entry, ip), sizeof(ip));
	trace_seq_printf(s, "# %lx ", ip);
	trace_seq_putmem(s, text, n);
	return 0;
}

/**
 * trace_ftrace_print_msg - ftrace:print with the printk-msg-only option:
 *	the text alone
 *
 * Return: 0, or -EINVAL for another record (printed the usual way).
 */
int trace_ftrace_print_msg(struct trace_seq *s, const void *rec, unsigned int len)
{
	unsigned int n;
	const char *text = print_text(rec, len, &n);

	if (!text)
		return -EINVAL;
	trace_seq_putmem(s, text, n);
	return 0;
}

/*
 * Who the record is of.  The kernel records the task that wrote; a write
 * served by the tracefs server is another thread's, whose id FUSE gives
 * (trace_marker_writer()): the record carries that thread's id and, in
 * the saved names, its name, and goes to the ring of the CPU it last ran
 * on, which the server moves to for the record (as near as a program can
 * know where a blocked writer is).  Other writes are the calling thread's.
 */
static __thread pid_t marker_writer_tid;
static __thread char marker_writer_comm[16];	/* while recording: its name */

void trace_marker_writer(pid_t tid)
{
	marker_writer_tid = tid;
}

void trace_current_comm(char comm[16])
{
	if (marker_writer_comm[0]) {
		memcpy(comm, marker_writer_comm, 16);
		return;
	}
	memset(comm, 0, 16);
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	comm[15] = '\0';
}

/* @tid's name, process and last CPU from /proc; false when it is gone. */
static bool writer_of(pid_t tid, char comm[16], pid_t *tgid, int *cpu)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "tid (comm) state ppid ...": the name may hold spaces and parens. */
	p = strrchr(buf, ')');
	if (!p || !strchr(buf, '('))
		return false;
	n = p - strchr(buf, '(') - 1;
	if (n > 15)
		n = 15;
	memcpy(comm, strchr(buf, '(') + 1, (size_t)n);
	comm[n] = '\0';
	/* Field 39 is the CPU; fields 3.. follow the ')'. */
	*cpu = -1;
	for (int field = 3; (p = strchr(p + 1, ' ')); field++)
		if (field == 39) {
			*cpu = atoi(p + 1);
			break;
		}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	*tgid = tid;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			p = strstr(buf, "\nTgid:");
			if (p)
				*tgid = (pid_t)atoi(p + 6);
		}
	}
	return true;
}

struct marker_ctx {
	pid_t		pid;
	bool		moved;
	cpu_set_t	saved;
};

/* Before the record: its pid, and the writer's CPU to record on. */
static void marker_begin(struct marker_ctx *c)
{
	char comm[16];
	pid_t tgid;
	int cpu;

	c->moved = false;
	c->pid = (pid_t)trace_current_tid();
	if (!marker_writer_tid || !writer_of(marker_writer_tid, comm, &tgid, &cpu))
		return;
	c->pid = marker_writer_tid;
	trace_save_cmdline_of(c->pid, tgid, comm);
	memcpy(marker_writer_comm, comm, sizeof(marker_writer_comm));
	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getcpu() == cpu ||
	    sched_getaffinity(0, sizeof(c->saved), &c->saved))
		return;
	{
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		c->moved = !sched_setaffinity(0, sizeof(one), &one);
	}
}

static void marker_end(struct marker_ctx *c)
{
	marker_writer_comm[0] = '\0';
	if (c->moved)
		sched_setaffinity(0, sizeof(c->saved), &c->saved);
}

/* Reserve a record of @type in @tr's buffer; errno as the kernel's write. */
static void *marker_reserve(struct trace_array *tr, struct ring_buffer_event **event,
			    unsigned short type, size_t len, pid_t pid)
{
	struct trace_entry *ent;

	*event = ring_buffer_lock_reserve(tr->buffer, len);
	if (!*event)
		return NULL;
	ent = ring_buffer_event_data(*event);
	memset(ent, 0, len);
	ent->type = type;
	ent->pid = pid;
	return ent;
}

/* Room for text in an ftrace:print record, its newline and NUL. */
#define MARKER_MAX_TEXT	(RB_MAX_DATA_SIZE - sizeof(struct print_entry) - 2)

/**
 * trace_array_marker_write - a write to trace_marker
 *
 * Text longer than a record holds (4054 bytes) is cut, as the kernel
 * cuts it, and the return says how much was kept; a newline is added
 * when the text does not end with one.
 * Return: @len, or the bytes kept; 0 for an empty write (nothing
 * recorded); -EINVAL (the markers option is off); -EBADF (not recorded:
 * tracing off, full).
 */
/*
 * ftrace:print's triggers (Linux 6.18 takes them), at the probe's three
 * points: those that need no record before it is reserved, the others on
 * the record before its newline is added (as the kernel's
 * tracing_mark_write()), the post triggers after the commit.  The file
 * and its trigger list are read as the probe reads an event's.
 */
static unsigned long marker_trigger_flags(struct trace_array *tr,
					  struct trace_event_file **file)
{
	*file = __atomic_load_n(&tr->marker_file, __ATOMIC_ACQUIRE);
	return *file ? __atomic_load_n(&(*file)->flags, __ATOMIC_RELAXED) &
		       (EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_TRIGGER_COND) : 0;
}

ssize_t trace_array_marker_write(struct trace_array *tr, const char *buf, size_t len)
{
	struct ring_buffer_event *event;
	struct trace_event_file *file;
	struct marker_ctx mc;
	const unsigned long ip = TRACE_MARKER_IP;
	unsigned long trig;
	unsigned int tt = 0;
	size_t n = len < MARKER_MAX_TEXT ? len : MARKER_MAX_TEXT, size;
	char *p;
	bool nl;

	if (!tr)
		tr = trace_array_top();
	if (!tr)
		return -ENOMEM;
	if (!TRACE_OPT_ON(tr, MARKERS))
		return -EINVAL;
	if (!len)
		return 0;
	nl = buf[n - 1] != '\n';
	size = sizeof(struct print_entry) + n + nl + 1;
	marker_begin(&mc);
	__ustrace_tp_read_lock();	/* the triggers' lifetime, as in a probe */
	trig = marker_trigger_flags(tr, &file);
	if (trig & EVENT_FILE_FL_TRIGGER_MODE)
		trace_triggers_pre(file);
	p = marker_reserve(tr, &event, TRACE_PRINT_ID, size, mc.pid);
	if (!p) {
		__ustrace_tp_read_unlock();
		marker_end(&mc);
		return -EBADF;
	}
	memcpy(p + offsetof(struct print_entry, ip), &ip, sizeof(ip));
	memcpy(p + offsetof(struct print_entry, buf), buf, n);
	if (trig & EVENT_FILE_FL_TRIGGER_COND)
		tt = trace_triggers_post(file, p, (unsigned int)size);
	if (nl)
		p[offsetof(struct print_entry, buf) + n] = '\n';
	ring_buffer_unlock_commit(tr->buffer, event);
	if (tt)
		trace_triggers_post_commit(file, tt);
	__ustrace_tp_read_unlock();
	marker_end(&mc);
	return (ssize_t)n;
}

/**
 * trace_array_marker_write_raw - a write to trace_marker_raw
 *
 * The first 4 bytes are the id (host order), the rest the data.
 * Return: @len; -EINVAL (fewer than 4 bytes, too large, markers off);
 * -EBADF (not recorded).
 */
ssize_t trace_array_marker_write_raw(struct trace_array *tr, const void *buf, size_t len)
{
	struct ring_buffer_event *event;
	struct marker_ctx mc;
	char *r;

	if (!tr)
		tr = trace_array_top();
	if (!tr)
		return -ENOMEM;
	if (!TRACE_OPT_ON(tr, MARKERS))
		return -EINVAL;
	if (len < sizeof(unsigned int) ||
	    len > RB_MAX_DATA_SIZE - sizeof(struct trace_entry))
		return -EINVAL;
	marker_begin(&mc);
	r = marker_reserve(tr, &event, TRACE_RAW_DATA_ID,
			   sizeof(struct trace_entry) + len, mc.pid);
	if (r) {
		memcpy(r + offsetof(struct raw_data_entry, id), buf, len);
		ring_buffer_unlock_commit(tr->buffer, event);
	}
	marker_end(&mc);
	return r ? (ssize_t)len : -EBADF;
}
