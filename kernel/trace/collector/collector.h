/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The collector part's own header (Documentation/trace/system-mode.rst):
 * the client (coll_client.c, in every traced program), the server
 * (coll_server.c: the socket and the registered processes) and the tree
 * it serves (coll_tree.c) share it.  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_COLLECTOR_H
#define _USTRACE_KERNEL_TRACE_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coll_proto.h"

/* The run directory (coll_client.c): 0 or -ENOENT, -ENAMETOOLONG. */
int coll_rundir(char *buf, size_t size);

/* ------------------------------------------------------------------
 * coll_server.c: registered processes and calls into them
 */

/* How long a call waits for a process's answer before giving up on it. */
#define COLL_CALL_WAIT_MS	2000

struct coll_proc;

/*
 * The live processes, in registration order, each with a reference the
 * caller drops with coll_procs_put().  Return: how many (@procs is NULL
 * for none), or -ENOMEM.
 */
int coll_procs_get(struct coll_proc ***procs);
void coll_procs_put(struct coll_proc **procs, int nr);
pid_t coll_proc_pid(const struct coll_proc *p);
/* The protocol version it said hello with (COLL_VERSION_MIN..COLL_VERSION). */
uint32_t coll_proc_version(const struct coll_proc *p);
/* A number of the process's registration, never reused (> 0). */
uint64_t coll_proc_id(const struct coll_proc *p);
/* Another reference to a listed process, and its drop. */
void coll_procs_ref_one(struct coll_proc *p);
void coll_procs_put_one(struct coll_proc *p);
/* One message without an answer (STATE, WELCOME).  Return: 0 or -errno. */
int coll_proc_send(struct coll_proc *p, const struct coll_msg *msg, const void *payload);
/* List a process that registered (after its WELCOME). */
void coll_proc_list(struct coll_proc *p);
const char *coll_proc_comm(const struct coll_proc *p);

/*
 * A call of the process's tree (tracefs.h's, with the process's own inode
 * numbers and file handles).  @msg's op and arguments are set by the
 * caller; the reply's payload is copied to @out (at most @size bytes).
 * Return: the call's result (negative errno), -ETIMEDOUT when the process
 * did not answer within COLL_CALL_WAIT_MS (it is then named in the
 * collector's error_log and given up on), -ECONNRESET when it is gone.
 */
int64_t coll_proc_call(struct coll_proc *p, struct coll_msg *msg, const void *payload,
		       void *out, size_t size, uint32_t *outlen);
/* The same, and the descriptors the answer carries in @fdp[0], @fdp[1] (-1: none). */
int64_t coll_proc_call_fd(struct coll_proc *p, struct coll_msg *msg, const void *payload,
			  void *out, size_t size, uint32_t *outlen, int *fdp);

/* Send a remembered control write to every live process (no answer). */
void coll_procs_state(const struct coll_msg *msg, const void *payload);

/* A line on the collector's stderr; an @error goes into its error_log too. */
void coll_log(bool error, const char *fmt, ...) __attribute__((__format__(printf, 2, 3)));

/* ------------------------------------------------------------------
 * coll_tree.c: the tree of all processes
 */

extern const struct tfs_backend coll_tree_backend;

/*
 * A process registered: send it the remembered control writes (STATE),
 * then WELCOME, and list it (coll_proc_list()), with no write in between.
 * Return: 0 or -errno (the process is then dropped, not listed).
 */
int coll_tree_welcome(struct coll_proc *p);

/* Remember an event's directory from its format text (the format log). */
void coll_tree_learn_format(const char *system, const char *text, size_t len);

/* Remember the event directories of a process that registered (no lock held). */
void coll_tree_learn(struct coll_proc *p);

/* The text of the collector's own error_log lines. */
void coll_tree_log(const char *line);

/* ------------------------------------------------------------------
 * coll_record.c: the processes' buffers, kept after them
 */

/* Keep a registering process's buffer: its BUFFER message's descriptors. */
struct ustrace_clock_scale;
void coll_record_buffer(struct coll_proc *p, int *fds, const struct ustrace_clock_scale *scale);
/* Read its texts for a trace.dat, once listed (no lock held). */
void coll_record_texts(struct coll_proc *p);
/* Wait for the BUFFER message of a process that got WELCOME, and keep it. */
void coll_proc_take_buffer(struct coll_proc *p);
/* The process is gone: its record stays. */
void coll_record_gone(struct coll_proc *p);
/* Answer ustrace dump on @sock. */
void coll_record_dump(int sock);

/* > trace: the records of programs gone are dropped. */
void coll_records_clear(void);

/* The running programs' buffers' wake words and values (coll_wait.c); -1: over @max. */
int coll_records_wake_words(const uint32_t **words, uint32_t *vals, int max);
/* Watch the wake word of another buffer of a running program too (its memfd, taken over). */
bool coll_record_watch(struct coll_proc *p, int fd);

/*
 * coll_wait.c: the tree's blocked readers sleep on coll_wait_word() (NULL:
 * they look every COLL_POLL_MS); a watcher thread wakes them when a
 * running program's writers wake its buffer's readers.
 */
void coll_wait_start(void);
void coll_wait_stop(void);
uint32_t *coll_wait_word(void);
void coll_wait_wake(void);
void coll_wait_changed(void);

/* ustrace_collector_learn() in the collector that serves @rundir; -ENOENT elsewhere. */
int coll_learn_local(const char *rundir, const char *system, const char *format);

/* The saved_cmdlines of every kept record, one text (malloc()ed). */
char *coll_records_cmdlines(size_t *len);

/*
 * The tree's event ids (coll_record.c): one per format, whichever program
 * it comes from; for a format text (0: none, or an ftrace event), in a
 * format or id file's text, in pages of a process's trace_pipe_raw.
 */
uint32_t coll_id_of(const char *system, const char *text, size_t len);
void coll_ids_text(const char *path, char **text, size_t *len);
void coll_ids_pages(struct coll_proc *p, void *buf, size_t len);

/* trace: the lines of the events of the programs gone, in time order (malloc()ed). */
char *coll_records_trace(size_t *len);

/*
 * coll_print.c: a record's text from its format alone ("name: text", no
 * newline), with libtraceevent; coll_printer_new() fails with ENOSYS
 * where libtraceevent is not to be had.
 */
struct coll_printer;
struct coll_printer *coll_printer_new(unsigned long marker_ip);
void coll_printer_format(struct coll_printer *p, const char *system, const char *text, size_t len);
int coll_printer_event(struct coll_printer *p, const void *data, uint32_t len, int cpu,
		       uint64_t ts, char *buf, size_t size);
void coll_printer_free(struct coll_printer *p);

/* per_cpu/cpuN/trace_pipe_raw: the kept buffers' pages, not consumed. */
struct coll_raw;
struct coll_raw *coll_raw_open(int cpu);
ssize_t coll_raw_read(struct coll_raw *raw, void *buf, size_t size);
/*
 * A blocked read (system-mode.rst, "Waiting"): to be done now, and the
 * programs armed for it (0 read now, -1 sleep until coll_wait_word() is
 * woken, > 0 look again after that many ms); @full is buffer_percent.
 */
int coll_raw_readable(struct coll_raw *raw, int full, bool stopped);
int coll_raw_wait(struct coll_raw *raw, int full, bool stopped);
void coll_raw_close(struct coll_raw *raw);

#endif /* _USTRACE_KERNEL_TRACE_COLLECTOR_H */
