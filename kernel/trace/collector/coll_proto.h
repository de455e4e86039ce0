/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The collector's wire protocol (Documentation/trace/system-mode.rst):
 * what a traced program and the collector say to each other over the
 * collector's socket, $USTRACE_RUNDIR/collector.sock, a SOCK_SEQPACKET
 * socket (one message per send, never split or merged).  Not installed;
 * both ends are this library, so a version mismatch is refused at hello.
 *
 * Every message is a struct coll_msg and @len bytes of payload.
 *
 *   program -> collector   HELLO   b: pid, c: protocol version; payload:
 *                                  the program's name (comm), then NUL,
 *                                  then its executable's path
 *   collector -> program   STATE   one remembered control write (below),
 *                                  any number, then
 *                          WELCOME registration done; payload: the
 *                                  collector's struct ustrace_clock_scale
 *   program -> collector   BUFFER  its top-level buffer's memfd and its
 *                                  format log (SCM_RIGHTS), payload its
 *                                  struct ustrace_clock_scale; before
 *                                  anything else (the collector waits for
 *                                  it before it lists the process)
 *   collector -> program   WARN    a line the program prints on its stderr
 *   program -> collector   EVENTS  it registered events after WELCOME (the
 *                                  collector walks its tree again)
 *   collector -> program   a call of the tracefs tree (tracefs.h), which
 *                          the program answers with REPLY, same @seq:
 *                          @ret the call's return (negative errno), the
 *                          payload what it returns (a stat, text read,
 *                          directory entries)
 *
 * A tool that knows a program's events before it runs (from its ELF
 * object: ustrace trace-cmd, ustrace daemon --learn) sends LEARN messages
 * instead of HELLO, one per event; the collector lists those events as it
 * lists the ones of programs gone.
 *
 * ustrace dump says DUMP instead of HELLO; the collector answers with one
 * DUMPED per process it holds the buffer of, alive or dead, each with a
 * memfd of a trace.dat of that process, then END.
 *
 * A remembered control write (STATE): @c the open flags (O_TRUNC,
 * O_APPEND), @d COLL_STATE_*; payload: the path from the tree's root,
 * NUL, the data written.  The program keeps them in order and applies
 * them to events that register later (a dlopen()ed object's, or the
 * program's own, whose constructors run after the library's).
 */
#ifndef _USTRACE_KERNEL_TRACE_COLLECTOR_PROTO_H
#define _USTRACE_KERNEL_TRACE_COLLECTOR_PROTO_H

#include <stdint.h>

#define COLL_VERSION		4	/* 2: COLL_WAIT_ARM; 3: the names at the log's start;
					   4: COLL_RAW_ARM */
/* The oldest a collector takes: without COLL_RAW_ARM, its raw readers poll it. */
#define COLL_VERSION_MIN	3
#define COLL_VERSION_RAW_ARM	4
#define COLL_SOCK_NAME		"collector.sock"
#define COLL_TREE_NAME		"tracing"
/* How long ustrace_collector_learn() waits for the collector to take an event in. */
#define COLL_LEARN_WAIT_MS	2000
/* A blocked reader that cannot sleep until woken looks again this often. */
#define COLL_POLL_MS		20
/* Largest payload: a read or write is cut to this much per call. */
#define COLL_MAX_PAYLOAD	(64 * 1024)

enum coll_op {
	COLL_HELLO = 1,
	COLL_WELCOME,
	COLL_STATE,
	COLL_REPLY,
	COLL_BUFFER,
	/* The tree's calls: a = ino or file handle, b = offset, c = flags. */
	COLL_LOOKUP,		/* a parent, payload name -> struct coll_stat */
	COLL_GETATTR,		/* a ino -> struct coll_stat */
	COLL_READDIR,		/* a ino, b offset -> entries (struct coll_dirent) */
	COLL_MKDIR,		/* a parent, payload name -> struct coll_stat */
	COLL_RMDIR,		/* a parent, payload name */
	COLL_OPEN,		/* a ino, c flags -> ret handle */
	COLL_READ,		/* a handle, b offset, d size -> data */
	COLL_WRITE,		/* a handle, b offset, c flags, d writer tid; data */
	COLL_FLUSH,		/* a handle */
	COLL_READABLE,		/* a handle -> ret 0/1 */
	COLL_RELEASE,		/* a handle */
	COLL_TRUNCATE,		/* a ino */
	COLL_GETBUF,		/* -> ret 0, the top buffer's memfd (SCM_RIGHTS),
				   payload struct ustrace_clock_scale */
	COLL_WARN,		/* payload: a line for the program's stderr (no answer) */
	COLL_EVENTS,		/* program -> collector: I registered more events */
	/*
	 * A blocked reader of the collector's tree waits for the programs'
	 * writers to wake it: the program arms the file as its own blocked
	 * readers do (tfs_wait_arm()) and says whether to sleep.  a handle
	 * -> ret 0: readable now, -1: armed, sleep until the wake word of
	 * the buffer the collector keeps changes, > 0: look again after that
	 * many ms; protocol 4: COLL_WAIT_ARMED_FD, armed on another buffer
	 * (an instance's, the top level's after a snapshot swap) whose memfd
	 * the answer carries (SCM_RIGHTS): the collector watches that
	 * buffer's wake word too, and sleeps.
	 */
	COLL_WAIT_ARM,
	/*
	 * A blocked read of the collector's per_cpu/cpuN/trace_pipe_raw,
	 * which reads the buffer the collector keeps where no reader of the
	 * program's is (system-mode.rst, "Waiting"): the program arms that
	 * buffer for it (the collector's mapping is read-only), as
	 * ring_buffer_wait_arm_at() does.  a CPU, b the seq of the tail page
	 * at which to wake (the collector's watermark), or
	 * RING_BUFFER_WAIT_BELL for the next event -> ret 0: armed, 1: the
	 * tail is there already, COLL_RAW_SWAPPED: a snapshot swapped those
	 * pages out of the top level (nothing is written there; a swap back
	 * wakes their word), -ESTALE: the program cannot tell (its memfd
	 * closed: the collector polls).  Protocol 4.
	 */
	COLL_RAW_ARM,
	COLL_NR_OPS,
	/* ustrace dump -> collector, instead of HELLO */
	COLL_DUMP = 100,
	/* a tool -> collector, instead of HELLO: an event's format, payload
	   "SYSTEM\0FORMAT"; any number, no answer */
	COLL_LEARN = 110,
	COLL_DUMPED,		/* collector -> dump: one process's trace.dat (SCM_RIGHTS),
				   b: its pid, payload: its name */
	COLL_END,		/* collector -> dump: that was all; ret: 0 or -errno */
};

#define COLL_WAIT_ARMED_FD	(-2)
#define COLL_RAW_SWAPPED	2

/*
 * The format log's system name of a record that holds the program's
 * saved_cmdlines (written as it exits), not a format.
 */
#define COLL_LOG_CMDLINES	"/cmdlines"

/*
 * The format log starts with the program's thread names, a table it maps
 * shared and keeps as its saved_cmdlines (one slot per pid modulo
 * COLL_NAMES, as trace.c's table): so that the collector names the
 * threads of a program killed before it could log its saved_cmdlines.
 * Written by the program: every field is checked by the reader.  The
 * records of the log follow, from COLL_NAMES_SIZE.
 */
struct coll_name {
	int32_t		pid;		/* 0: free */
	int32_t		tgid;
	char		comm[16];	/* NUL-terminated when sane */
};

#define COLL_NAMES		1024
#define COLL_NAMES_SIZE		(COLL_NAMES * sizeof(struct coll_name))

/* STATE kinds: a file's write, an instance made or removed. */
enum { COLL_STATE_WRITE = 0, COLL_STATE_MKDIR, COLL_STATE_RMDIR };

struct coll_msg {
	uint32_t	op;
	uint32_t	seq;
	int64_t		ret;
	uint64_t	a;
	uint64_t	b;
	uint32_t	c;
	uint32_t	d;
	uint32_t	len;
	uint32_t	__pad;
};

struct coll_stat {
	uint64_t	ino;
	uint32_t	mode;
	uint32_t	nlink;
	int64_t		size;
};

/* A directory entry: this, then @namelen bytes of name (no NUL), padded to 8. */
struct coll_dirent {
	struct coll_stat st;
	int64_t		next;
	uint32_t	namelen;
	uint32_t	__pad;
};

#endif /* _USTRACE_KERNEL_TRACE_COLLECTOR_PROTO_H */
