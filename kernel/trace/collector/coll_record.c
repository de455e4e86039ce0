// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The collector's flight recorder (Documentation/trace/system-mode.rst,
 * "Buffers that outlive their program"): for every process that registers,
 * the collector takes a descriptor of its top-level ring buffer's memfd
 * and the texts a trace.dat needs (the formats, header_page, header_event,
 * trace_clock, saved_cmdlines), while the process runs.  When the process
 * dies, however it dies (SIGKILL, OOM, abort, _exit), its buffer is still
 * the collector's, and `ustrace dump` gets a trace.dat of it: one per
 * process, which the command merges into one file.
 *
 * A record is kept while its process runs, and after, up to
 * COLL_MAX_GONE records of processes that are gone (the oldest go first).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "../../internal.h"
#include "../trace_array.h"
#include "../record/trace_dat.h"
#include "../tracefs/tracefs.h"
#include "collector.h"

#define COLL_MAX_GONE	64

struct coll_record {
	struct coll_record	*next;
	uint64_t		id;		/* never reused */
	struct coll_proc	*proc;		/* NULL once gone */
	pid_t			pid;
	char			comm[17];
	int			memfd;
	int			fmt_fd;		/* the process's format log, or -1 */
	void			*map;
	size_t			size;
	struct ustrace_clock_scale scale;
	char			*header_page, *header_event, *clock_list, *cmdlines;
	size_t			cmdlines_len;
	uint32_t		*ids;		/* the program's event id -> the tree's (0: none) */
	uint32_t		nr_ids;
	off_t			ids_log_size;	/* the format log's size when ids was made */
	struct coll_watch	*watch;		/* its other buffers the watcher watches */
	int			nr_watch;
};

/*
 * Another buffer of a running program whose wake word the watcher
 * (coll_wait.c) watches: an instance's, or its top level's after a
 * snapshot swap, for the tree's blocked trace_pipe readers of it
 * (COLL_WAIT_ARMED_FD).  Mapped read-only for the word alone, until the
 * record goes.
 */
struct coll_watch {
	dev_t	dev;
	ino_t	ino;
	void	*map;
	size_t	size;
};

/* Watched buffers per program at most (an instance removed stays mapped). */
#define COLL_MAX_WATCH	16

static struct trace_dat_format *rec_log_formats(int fd, char **cmdlines, size_t *cmdlines_len);

static pthread_mutex_t rec_lock = PTHREAD_MUTEX_INITIALIZER;
static struct coll_record *records;
static int dumping;		/* under rec_lock: no record is freed meanwhile */
static uint64_t next_record_id;

/* ------------------------------------------------------------------
 * Event ids (system-mode.rst, "Event ids")
 *
 * Each program numbers its events itself, from 21 up in the order they
 * register; the kernel's ids are one number space.  The collector's tree
 * gives each format one id: the first program's id for it when no other
 * format has that id yet, else the next free one.  The tree's format and
 * id files say these ids (coll_ids_text()), and the pages of its
 * trace_pipe_raw carry them (coll_ids_page()): what a tool reads from the
 * one tree is consistent.  ftrace's events are the same in every program
 * and keep their ids.
 */

struct coll_id {
	struct coll_id	*next;
	char		*system;
	char		*key;		/* the format without its "ID: " line */
	size_t		key_len;
	uint32_t	id;
};

static pthread_mutex_t id_lock = PTHREAD_MUTEX_INITIALIZER;	/* after rec_lock */
static struct coll_id *coll_ids;
static uint32_t coll_ids_max = 20;

/* Where the "ID: N" line of a format is, its value; false if none. */
static bool fmt_id_line(const char *text, size_t len, size_t *at, size_t *end, uint32_t *id)
{
	const char *nl = memchr(text, '\n', len), *e;
	char *after;
	unsigned long v;

	if (!nl || (size_t)(nl + 1 - text) + 4 > len || strncmp(nl + 1, "ID: ", 4))
		return false;
	e = memchr(nl + 1, '\n', len - (size_t)(nl + 1 - text));
	if (!e)
		return false;
	v = strtoul(nl + 5, &after, 10);
	if (after == nl + 5 || after != e || v > UINT16_MAX)
		return false;
	*at = (size_t)(nl + 1 - text);
	*end = (size_t)(e + 1 - text);
	*id = (uint32_t)v;
	return true;
}

/*
 * The tree's id of the format @text of @system (whose own id is in its
 * "ID: " line), given on first sight.  Return: the id, or 0 for a text
 * that is no format or an ftrace event's (which keeps its own).
 */
uint32_t coll_id_of(const char *system, const char *text, size_t len)
{
	size_t at, end, klen;
	struct coll_id *c, *n = NULL;
	uint32_t own, id = 0;
	bool taken = false;
	char *key;

	if (!strcmp(system, "ftrace") || !fmt_id_line(text, len, &at, &end, &own))
		return 0;
	klen = len - (end - at);
	key = malloc(klen + 1);
	if (!key)
		return 0;
	memcpy(key, text, at);
	memcpy(key + at, text + end, len - end);
	pthread_mutex_lock(&id_lock);
	for (c = coll_ids; c && !id; c = c->next) {
		if (c->key_len == klen && !strcmp(c->system, system) && !memcmp(c->key, key, klen))
			id = c->id;
		taken |= c->id == own;
	}
	if (!id && coll_ids_max < UINT16_MAX && (n = calloc(1, sizeof(*n))) &&
	    (n->system = strdup(system))) {
		n->id = !taken && own > 20 ? own : coll_ids_max + 1;
		n->key = key, n->key_len = klen, key = NULL;
		n->next = coll_ids;
		coll_ids = n;
		coll_ids_max = n->id > coll_ids_max ? n->id : coll_ids_max;
		id = n->id;
	} else if (n) {
		free(n);
	}
	pthread_mutex_unlock(&id_lock);
	free(key);
	return id;
}

/* The tree's id of the first format seen of event @name of @system, or 0. */
static uint32_t coll_id_by_name(const char *system, const char *name)
{
	size_t nl = strlen(name);
	uint32_t id = 0;

	pthread_mutex_lock(&id_lock);
	/* Newest first: the last one found is the first seen. */
	for (struct coll_id *c = coll_ids; c; c = c->next)
		if (!strcmp(c->system, system) && c->key_len > nl + 7 &&
		    !strncmp(c->key, "name: ", 6) && !strncmp(c->key + 6, name, nl) &&
		    c->key[6 + nl] == '\n')
			id = c->id;
	pthread_mutex_unlock(&id_lock);
	return id;
}

/**
 * coll_ids_text - an events/SYS/EVENT/format or id text, with the tree's id
 * @path: the file's path in the tree (instances/NAME/ before events/ too)
 * @text: what a member's file said (malloc()ed), @len bytes; replaced
 *
 * A format says the id of its format; an id file the id of the first
 * format of that name (the one the tree shows: a program whose format
 * differs is refused that event).
 */
void coll_ids_text(const char *path, char **text, size_t *len)
{
	char system[NAME_MAX + 1], name[NAME_MAX + 1], *out;
	const char *p = strstr(path, "events/"), *s, *e, *b;
	size_t at, end;
	uint32_t own, id;
	int n;

	if (!p || (p != path && p[-1] != '/') || !*text)
		return;
	s = p + 7;
	e = strchr(s, '/');
	b = e ? strchr(e + 1, '/') : NULL;
	if (!e || !b || strchr(b + 1, '/') || (size_t)(e - s) > NAME_MAX)
		return;
	memcpy(system, s, (size_t)(e - s));
	system[e - s] = 0;
	if (!strcmp(b + 1, "format")) {
		id = coll_id_of(system, *text, *len);
		if (!id || !fmt_id_line(*text, *len, &at, &end, &own) || own == id)
			return;
		out = malloc(*len + 16);
		if (!out)
			return;
		memcpy(out, *text, at);
		n = sprintf(out + at, "ID: %u\n", id);
		memcpy(out + at + (size_t)n, *text + end, *len - end);
		*len = at + (size_t)n + (*len - end);
		free(*text);
		*text = out;
	} else if (!strcmp(b + 1, "id") && (size_t)(b - e - 1) <= NAME_MAX) {
		memcpy(name, e + 1, (size_t)(b - e - 1));
		name[b - e - 1] = 0;
		id = coll_id_by_name(system, name);
		if (!id || !(out = malloc(16)))
			return;
		*len = (size_t)sprintf(out, "%u\n", id);
		free(*text);
		*text = out;
	}
}

/* Make @r's map of ids from its format log, if the log grew.  Under rec_lock. */
static void rec_ids_locked(struct coll_record *r)
{
	struct trace_dat_format *formats, *f, *next;
	struct stat st;
	uint32_t *v;

	if (r->fmt_fd < 0 || fstat(r->fmt_fd, &st) || st.st_size == r->ids_log_size)
		return;
	formats = rec_log_formats(r->fmt_fd, NULL, NULL);
	for (f = formats; f; f = next) {
		size_t at, end;
		uint32_t own, id;

		next = f->next;
		if (!f->ftrace && fmt_id_line(f->text, f->len, &at, &end, &own) &&
		    (id = coll_id_of(f->system, f->text, f->len))) {
			if (own >= r->nr_ids && (v = realloc(r->ids, (own + 1) * sizeof(*v)))) {
				memset(v + r->nr_ids, 0, (own + 1 - r->nr_ids) * sizeof(*v));
				r->ids = v;
				r->nr_ids = own + 1;
			}
			if (own < r->nr_ids)
				r->ids[own] = id;
		}
		free(f);
	}
	r->ids_log_size = st.st_size;
}

/* The records of a page copy of @r's buffer, with the tree's ids.  Under rec_lock. */
static void rec_ids_page_locked(struct coll_record *r, void *page)
{
	uint32_t at = 0, len;
	uint64_t stamp = 0;
	const void *data;
	bool fresh = false;
	uint16_t type;

	while (ring_buffer_foreign_event(page, &at, &stamp, &data, &len)) {
		if (len < sizeof(type))
			continue;
		memcpy(&type, data, sizeof(type));
		if (type < 21)
			continue;
		if ((type >= r->nr_ids || !r->ids[type]) && !fresh) {
			rec_ids_locked(r);	/* an event registered since */
			fresh = true;
		}
		if (type < r->nr_ids && r->ids[type]) {
			type = (uint16_t)r->ids[type];
			memcpy((void *)data, &type, sizeof(type));
		}
	}
}

/**
 * coll_ids_pages - pages of a process's trace_pipe_raw (an instance's), with the tree's ids
 * @p: the process; @buf, @len: whole pages
 */
void coll_ids_pages(struct coll_proc *p, void *buf, size_t len)
{
	struct coll_record *r;

	pthread_mutex_lock(&rec_lock);
	for (r = records; r && r->proc != p; r = r->next)
		;
	for (size_t off = 0; r && off + RB_PAGE_SIZE <= len; off += RB_PAGE_SIZE)
		rec_ids_page_locked(r, (char *)buf + off);
	pthread_mutex_unlock(&rec_lock);
}

/* ------------------------------------------------------------------
 * Reading a process's files
 */

static int64_t rec_call(struct coll_proc *p, uint32_t op, uint64_t a, uint64_t b, uint32_t c,
			uint32_t d, const void *payload, uint32_t len, void *out, size_t size,
			uint32_t *outlen)
{
	struct coll_msg m = { .op = op, .a = a, .b = b, .c = c, .d = d, .len = len };

	return coll_proc_call(p, &m, payload, out, size, outlen);
}

static int rec_resolve(struct coll_proc *p, const char *path, uint64_t *ino, mode_t *mode)
{
	char name[NAME_MAX + 1];
	struct coll_stat cs;
	const char *s = path, *e;
	uint32_t outlen;
	int64_t ret;

	*ino = TFS_ROOT_INO;
	*mode = S_IFDIR;
	while (*s) {
		e = strchrnul(s, '/');
		if (e - s > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(name, s, (size_t)(e - s));
		name[e - s] = 0;
		ret = rec_call(p, COLL_LOOKUP, *ino, 0, 0, 0, name, (uint32_t)(e - s), &cs,
			       sizeof(cs), &outlen);
		if (ret)
			return (int)ret;
		if (outlen != sizeof(cs))
			return -EPROTO;
		*ino = cs.ino;
		*mode = cs.mode;
		s = *e ? e + 1 : e;
	}
	return 0;
}

/* A whole file of the process's tree, NUL-terminated. */
static char *rec_read_ino(struct coll_proc *p, uint64_t ino, size_t *lenp)
{
	char *buf = NULL, *v;
	size_t len = 0, size = 0;
	uint32_t outlen;
	int64_t h, ret;

	h = rec_call(p, COLL_OPEN, ino, 0, O_RDONLY, 0, NULL, 0, NULL, 0, &outlen);
	if (h < 0)
		return NULL;
	for (;;) {
		if (size - len < COLL_MAX_PAYLOAD + 1) {
			size = size ? 2 * size : COLL_MAX_PAYLOAD + 1;
			v = realloc(buf, size);
			if (!v)
				break;
			buf = v;
		}
		ret = rec_call(p, COLL_READ, (uint64_t)h, len, 0, COLL_MAX_PAYLOAD, NULL, 0,
			       buf + len, COLL_MAX_PAYLOAD, &outlen);
		if (ret <= 0)
			break;
		len += (size_t)ret;
	}
	rec_call(p, COLL_RELEASE, (uint64_t)h, 0, 0, 0, NULL, 0, NULL, 0, &outlen);
	if (!buf)
		return NULL;
	buf[len] = 0;
	if (lenp)
		*lenp = len;
	return buf;
}

static char *rec_read(struct coll_proc *p, const char *path, size_t *lenp)
{
	uint64_t ino;
	mode_t mode;

	if (rec_resolve(p, path, &ino, &mode) || S_ISDIR(mode))
		return NULL;
	return rec_read_ino(p, ino, lenp);
}

static void rec_free(struct coll_record *r)
{
	for (int i = 0; i < r->nr_watch; i++)
		munmap(r->watch[i].map, r->watch[i].size);
	free(r->watch);
	free(r->ids);
	if (r->map)
		munmap(r->map, r->size);
	if (r->memfd >= 0)
		close(r->memfd);
	if (r->fmt_fd >= 0)
		close(r->fmt_fd);
	free(r->header_page);
	free(r->header_event);
	free(r->clock_list);
	free(r->cmdlines);
	free(r);
}

/* Keep at most COLL_MAX_GONE records of processes gone.  Under rec_lock. */
static void rec_trim_locked(void)
{
	struct coll_record **pp, *r;
	int gone = 0;

	if (dumping)
		return;
	for (r = records; r; r = r->next)
		gone += !r->proc;
	/* The list is newest first: drop the oldest gone ones, from the end. */
	while (gone > COLL_MAX_GONE) {
		struct coll_record **last = NULL;

		for (pp = &records; *pp; pp = &(*pp)->next)
			if (!(*pp)->proc)
				last = pp;
		if (!last)
			break;
		r = *last;
		*last = r->next;
		rec_free(r);
		gone--;
	}
}

/**
 * coll_record_buffer - keep a registering process's buffer
 * @p:     the process (a reference held by the caller)
 * @fds:   its BUFFER message's descriptors: the buffer's memfd, the format
 *         log (-1 when missing); taken over
 * @scale: its clock's scale
 *
 * Called at registration, before the process is listed.  The texts
 * follow with coll_record_texts(), once it answers calls.
 */
void coll_record_buffer(struct coll_proc *p, int *fds, const struct ustrace_clock_scale *scale)
{
	struct coll_record *r = calloc(1, sizeof(*r));
	struct stat st;

	if (!r || fds[0] < 0 || fstat(fds[0], &st) || st.st_size < (off_t)RB_PAGE_SIZE) {
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		if (r && fds[0] < 0)
			coll_log(false, "process %d (%s): its buffer was made before it "
				 "registered: not kept", (int)coll_proc_pid(p), coll_proc_comm(p));
		free(r);
		return;
	}
	r->memfd = fds[0];
	r->fmt_fd = fds[1];
	r->scale = *scale;
	r->size = (size_t)st.st_size;
	r->map = mmap(NULL, r->size, PROT_READ, MAP_SHARED | MAP_NORESERVE, r->memfd, 0);
	if (r->map == MAP_FAILED || ring_buffer_foreign_cpus(r->map, r->size) <= 0) {
		r->map = r->map == MAP_FAILED ? NULL : r->map;
		coll_log(true, "process %d (%s): its buffer is not one of this layout: not kept",
			 (int)coll_proc_pid(p), coll_proc_comm(p));
		rec_free(r);
		return;
	}
	r->pid = coll_proc_pid(p);
	snprintf(r->comm, sizeof(r->comm), "%s", coll_proc_comm(p));
	if (asprintf(&r->cmdlines, "%d %s\n", (int)r->pid, r->comm) > 0)
		r->cmdlines_len = strlen(r->cmdlines);
	coll_procs_ref_one(p);
	r->proc = p;
	pthread_mutex_lock(&rec_lock);
	r->id = ++next_record_id;
	r->next = records;
	records = r;
	rec_ids_locked(r);	/* its events' ids in the tree, given now */
	pthread_mutex_unlock(&rec_lock);
	coll_wait_changed();
}

/**
 * coll_records_wake_words - the wake words of the running programs' buffers
 * @words: receives their addresses in our mappings (coll_wait.c)
 * @vals:  and their values, loaded under the lock that keeps the
 *         mappings (a word may be unmapped as soon as it is released)
 * @max:   room in both
 *
 * Return: how many, or -1 when there are more than @max.
 */
int coll_records_wake_words(const uint32_t **words, uint32_t *vals, int max)
{
	int n = 0;

	pthread_mutex_lock(&rec_lock);
	for (struct coll_record *r = records; r && n >= 0; r = r->next) {
		const uint32_t *w = r->proc && r->map ?
				    ring_buffer_foreign_wake_word(r->map, r->size) : NULL;

		if (!w)
			continue;
		if (n == max) {
			n = -1;
			break;
		}
		words[n] = w;
		vals[n++] = __atomic_load_n(w, __ATOMIC_SEQ_CST);
		for (int i = 0; i < r->nr_watch && n >= 0; i++) {
			if (n == max) {
				n = -1;
				break;
			}
			words[n] = ring_buffer_foreign_wake_word(r->watch[i].map, r->watch[i].size);
			vals[n] = __atomic_load_n(words[n], __ATOMIC_SEQ_CST);
			n++;
		}
	}
	pthread_mutex_unlock(&rec_lock);
	return n;
}

/**
 * coll_record_watch - watch the wake word of another buffer of a running program
 * @p:  the program (a reference held by the caller)
 * @fd: that buffer's memfd (COLL_WAIT_ARMED_FD's answer); taken over
 *
 * Return: whether it is watched (now, or already); if not, the caller
 * looks again every COLL_POLL_MS.
 */
bool coll_record_watch(struct coll_proc *p, int fd)
{
	struct coll_record *r;
	struct coll_watch *v;
	struct stat st;
	bool ok = false, added = false;
	void *map;

	if (fstat(fd, &st) || st.st_size < (off_t)RB_PAGE_SIZE) {
		close(fd);
		return false;
	}
	pthread_mutex_lock(&rec_lock);
	for (r = records; r && r->proc != p; r = r->next)
		;
	for (int i = 0; r && i < r->nr_watch && !ok; i++)
		ok = r->watch[i].dev == st.st_dev && r->watch[i].ino == st.st_ino;
	if (r && !ok && r->nr_watch < COLL_MAX_WATCH &&
	    (v = realloc(r->watch, (size_t)(r->nr_watch + 1) * sizeof(*v)))) {
		r->watch = v;
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd, 0);
		if (map != MAP_FAILED && ring_buffer_foreign_wake_word(map, (size_t)st.st_size)) {
			r->watch[r->nr_watch++] = (struct coll_watch){
				.dev = st.st_dev, .ino = st.st_ino, .map = map,
				.size = (size_t)st.st_size };
			ok = added = true;
		} else if (map != MAP_FAILED) {
			munmap(map, (size_t)st.st_size);
		}
	}
	pthread_mutex_unlock(&rec_lock);
	close(fd);
	if (added)
		coll_wait_changed();
	return ok;
}

/**
 * coll_record_texts - read the texts of a trace.dat from a registered process
 * @p: the process (a reference held by the caller)
 *
 * After it is listed, without locks: header_page, header_event,
 * trace_clock, saved_cmdlines.  The formats are the format log's.
 */
void coll_record_texts(struct coll_proc *p)
{
	char *hp = rec_read(p, "events/header_page", NULL);
	char *he = rec_read(p, "events/header_event", NULL);
	char *cl = rec_read(p, "trace_clock", NULL), *cm;
	struct coll_record *r;
	size_t cml;

	cm = rec_read(p, "saved_cmdlines", &cml);
	pthread_mutex_lock(&rec_lock);
	for (r = records; r && r->proc != p; r = r->next)
		;
	if (r) {
		if (hp)
			free(r->header_page), r->header_page = hp, hp = NULL;
		if (he)
			free(r->header_event), r->header_event = he, he = NULL;
		if (cl)
			free(r->clock_list), r->clock_list = cl, cl = NULL;
		if (cm && cml)
			free(r->cmdlines), r->cmdlines = cm, r->cmdlines_len = cml, cm = NULL;
	}
	pthread_mutex_unlock(&rec_lock);
	free(hp);
	free(he);
	free(cl);
	free(cm);
}

/**
 * coll_record_gone - a process ended: its record stays, without it
 */
void coll_record_gone(struct coll_proc *p)
{
	struct trace_dat_format *formats = NULL, *f, *next;
	struct coll_record *r;
	struct coll_proc *put = NULL;

	pthread_mutex_lock(&rec_lock);
	for (r = records; r; r = r->next) {
		if (r->proc == p) {
			put = p;
			r->proc = NULL;
			formats = rec_log_formats(r->fmt_fd, &r->cmdlines, &r->cmdlines_len);
		}
	}
	rec_trim_locked();
	pthread_mutex_unlock(&rec_lock);
	coll_wait_changed();
	/* Its events stay listed, even those it registered after we walked it. */
	for (f = formats; f; f = next) {
		next = f->next;
		if (!f->ftrace)
			coll_tree_learn_format(f->system, f->text, f->len);
		free(f);
	}
	if (put)
		coll_procs_put_one(put);
}

/* ------------------------------------------------------------------
 * ustrace dump
 */

static int rec_send_fd(int sock, const struct coll_msg *m, const void *payload, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cm;
	struct iovec iov[2] = {
		{ .iov_base = (void *)m, .iov_len = sizeof(*m) },
		{ .iov_base = (void *)payload, .iov_len = m->len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = m->len ? 2 : 1 };
	struct cmsghdr *c;

	if (fd >= 0) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = sizeof(cm.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &mh, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

/* The clock in use: the bracketed name of trace_clock. */
static void rec_clock_name(const char *list, char *out, size_t size)
{
	const char *a = list ? strchr(list, '[') : NULL, *b = a ? strchr(a, ']') : NULL;

	if (!a || !b || (size_t)(b - a - 1) >= size)
		snprintf(out, size, "local");
	else
		snprintf(out, size, "%.*s", (int)(b - a - 1), a + 1);
}

/*
 * The formats of the process's format log (coll_client.c): every event it
 * registered, including after it registered with us.  The log is written
 * by the process: every length is checked against what the file holds.
 */
/*
 * The names table at the start of the log (coll_proto.h) as saved_cmdlines
 * text ("PID COMM" lines), or NULL when it has none.  Each slot is
 * checked: a pid, a name ended within its 16 bytes; control characters
 * in a name become '?'.
 */
static char *rec_log_names(const char *buf, size_t size, size_t *len)
{
	const struct coll_name *t = (const struct coll_name *)buf;
	size_t cap = COLL_NAMES * (12 + sizeof(t->comm)) + 1, n = 0;
	char *text;

	if (size < COLL_NAMES_SIZE || !(text = malloc(cap)))
		return NULL;
	for (size_t i = 0; i < COLL_NAMES; i++) {
		struct coll_name e;
		const char *end;

		memcpy(&e, &t[i], sizeof(e));
		end = memchr(e.comm, 0, sizeof(e.comm));
		if (e.pid <= 0 || (size_t)e.pid % COLL_NAMES != i || !end || end == e.comm)
			continue;
		for (char *c = e.comm; *c; c++)
			if ((unsigned char)*c < ' ' || *c == 0x7f)
				*c = '?';
		n += (size_t)snprintf(text + n, cap - n, "%d %s\n", (int)e.pid, e.comm);
	}
	if (!n) {
		free(text);
		return NULL;
	}
	*len = n;
	return text;
}

static struct trace_dat_format *rec_log_formats(int fd, char **cmdlines, size_t *cmdlines_len)
{
	struct trace_dat_format *head = NULL, **tail = &head;
	struct stat st;
	char *buf, *names;
	size_t at = COLL_NAMES_SIZE, size, names_len = 0;

	if (fd < 0 || fstat(fd, &st) || st.st_size <= 0 || st.st_size > (64 << 20))
		return NULL;
	size = (size_t)st.st_size;
	buf = malloc(size);
	if (!buf || pread(fd, buf, size, 0) != (ssize_t)size) {
		free(buf);
		return NULL;
	}
	/* The names as the program kept them; the saved_cmdlines it logs at exit() win. */
	names = cmdlines ? rec_log_names(buf, size, &names_len) : NULL;
	if (names) {
		free(*cmdlines);
		*cmdlines = names;
		*cmdlines_len = names_len;
	}
	while (at + 8 <= size) {
		uint32_t len, sl;
		char sys[NAME_MAX + 1];

		memcpy(&len, buf + at, 4);
		memcpy(&sl, buf + at + 4, 4);
		if (len > size - at - 8 || sl > len || sl > NAME_MAX || !sl)
			break;
		memcpy(sys, buf + at + 8, sl);
		sys[sl] = 0;
		if (!strcmp(sys, COLL_LOG_CMDLINES)) {
			/* The program's saved_cmdlines as it ended: the last one is the one. */
			char *c = cmdlines && len > sl ? malloc(len - sl + 1) : NULL;

			if (c) {
				memcpy(c, buf + at + 8 + sl, len - sl);
				c[len - sl] = 0;
				free(*cmdlines);
				*cmdlines = c;
				*cmdlines_len = len - sl;
			}
		} else if (!memchr(sys, 0, sl) && !strchr(sys, '/') &&
			   (*tail = trace_dat_format_new(sys, buf + at + 8 + sl, len - sl,
							   !strcmp(sys, "ftrace")))) {
			tail = &(*tail)->next;
		}
		at += 8 + (size_t)len;
	}
	free(buf);
	return head;
}

/* One process's trace.dat, in a memfd.  Return: the memfd or -errno. */
static int rec_dat(struct coll_record *r)
{
	struct trace_dat_format *logged = rec_log_formats(r->fmt_fd, NULL, NULL), *f, *next;
	int nr_cpus = ring_buffer_foreign_cpus(r->map, r->size), fd, err = 0;
	struct trace_dat_cpu *cpus = calloc((size_t)(nr_cpus > 0 ? nr_cpus : 1), sizeof(*cpus));
	char **stats = calloc((size_t)(nr_cpus > 0 ? nr_cpus : 1), sizeof(*stats));
	char kallsyms[64], clock[32], uname_text[sizeof(struct utsname)];
	struct trace_dat_info info;
	struct utsname u;
	static char own_page[512], own_event[512];

	if (!cpus || !stats || nr_cpus <= 0) {
		free(cpus);
		free(stats);
		for (f = logged; f; f = next) {
			next = f->next;
			free(f);
		}
		return nr_cpus <= 0 ? -EINVAL : -ENOMEM;
	}
	for (int c = 0; c < nr_cpus && !err; c++) {
		uint64_t pages, killed;

		cpus[c].fd = memfd_create("ustrace-dump-cpu", MFD_CLOEXEC);
		if (cpus[c].fd < 0) {
			err = -errno;
			break;
		}
		err = ring_buffer_foreign_pages(r->map, r->size, c, cpus[c].fd, &pages, &killed);
		cpus[c].size = pages * RB_PAGE_SIZE;
		if (asprintf(&stats[c], "CPU: %d\npages: %llu\nunfinished bytes: %llu\n", c,
			     (unsigned long long)pages, (unsigned long long)killed) < 0)
			stats[c] = NULL;
		cpus[c].stats = stats[c] ? stats[c] : "";
		cpus[c].stats_len = strlen(cpus[c].stats);
	}
	snprintf(kallsyms, sizeof(kallsyms), "%0*lx T tracing_mark_write\n",
		 (int)(2 * sizeof(long)), TRACE_MARKER_IP);
	rec_clock_name(r->clock_list, clock, sizeof(clock));
	uname_text[0] = 0;
	if (!uname(&u))
		snprintf(uname_text, sizeof(uname_text), "%s %s %s %s", u.sysname, u.nodename,
			 u.release, u.machine);
	/* A process that died before we read them: this library's texts. */
	ring_buffer_print_page_header(own_page, sizeof(own_page));
	ring_buffer_print_entry_header(own_event, sizeof(own_event));
	info = (struct trace_dat_info){
		.version	= 7,
		.header_page	= r->header_page ? r->header_page : own_page,
		.header_event	= r->header_event ? r->header_event : own_event,
		.formats	= logged,
		.kallsyms	= kallsyms,
		.cmdlines	= r->cmdlines ? r->cmdlines : "",
		.cmdlines_len	= r->cmdlines ? r->cmdlines_len : 0,
		.clock_list	= r->clock_list ? r->clock_list : "[local]\n",
		.clock		= clock,
		.uname		= uname_text[0] ? uname_text : NULL,
		.nr_cpus	= nr_cpus,
		.cpus		= cpus,
		.clock_scale	= true,
		.scale_mode	= r->scale.mode,
		.scale_mult	= r->scale.mult,
		.scale_offset	= r->scale.offset,
	};
	fd = err ? -1 : memfd_create("ustrace-dump", MFD_CLOEXEC);
	if (!err && fd < 0)
		err = -errno;
	if (!err)
		err = trace_dat_write(fd, &info);
	for (int c = 0; c < nr_cpus; c++) {
		if (cpus[c].fd >= 0)
			close(cpus[c].fd);
		free(stats[c]);
	}
	free(cpus);
	free(stats);
	for (f = logged; f; f = next) {
		next = f->next;
		free(f);
	}
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

/**
 * coll_record_dump - answer ustrace dump on @sock
 *
 * One DUMPED with a trace.dat per record, then END.
 */
void coll_record_dump(int sock)
{
	struct coll_record *r, **v = NULL;
	struct coll_proc *p;
	struct coll_msg m;
	int err = 0, fd, nr = 0, i;

	pthread_mutex_lock(&rec_lock);
	for (r = records; r; r = r->next)
		nr++;
	v = calloc((size_t)nr + 1, sizeof(*v));
	nr = 0;
	for (r = records; r && v; r = r->next)
		v[nr++] = r;
	dumping++;
	pthread_mutex_unlock(&rec_lock);
	for (i = 0; i < nr && !err; i++) {
		r = v[i];
		/* A process still there: its cmdlines as they are now. */
		pthread_mutex_lock(&rec_lock);
		p = r->proc;
		if (p)
			coll_procs_ref_one(p);
		pthread_mutex_unlock(&rec_lock);
		if (p) {
			size_t len;
			char *c = rec_read(p, "saved_cmdlines", &len);

			coll_procs_put_one(p);
			pthread_mutex_lock(&rec_lock);
			if (c) {
				free(r->cmdlines);
				r->cmdlines = c;
				r->cmdlines_len = len;
			}
			pthread_mutex_unlock(&rec_lock);
		}
		fd = rec_dat(r);
		if (fd < 0) {
			coll_log(true, "dump of process %d (%s): %s", (int)r->pid, r->comm,
				 strerror(-fd));
			continue;
		}
		m = (struct coll_msg){ .op = COLL_DUMPED, .b = (uint64_t)r->pid,
				       .len = (uint32_t)strlen(r->comm) };
		err = rec_send_fd(sock, &m, r->comm, fd);
		close(fd);
	}
	pthread_mutex_lock(&rec_lock);
	dumping--;
	rec_trim_locked();
	pthread_mutex_unlock(&rec_lock);
	free(v);
	m = (struct coll_msg){ .op = COLL_END, .ret = err };
	rec_send_fd(sock, &m, NULL, -1);
}

/* ------------------------------------------------------------------
 * per_cpu/cpuN/trace_pipe_raw of the collector's tree
 */

struct coll_raw_src {
	uint64_t			id;	/* the record's */
	struct ring_buffer_foreign_pos	pos;
	bool				has;	/* a page taken, not given yet */
	uint64_t			stamp;	/* its time */
	uint64_t			inflight_since;	/* ms: a reservation held it up */
	char				page[RB_PAGE_SIZE];
};

struct coll_raw {
	int			cpu;
	int			nr;
	struct coll_raw_src	*src;
};

/**
 * coll_raw_open - a reader of CPU @cpu's pages of every program
 *
 * It reads the buffers the collector keeps (the programs', running or
 * gone) without consuming them: each program's pages in order, the
 * programs' pages merged by time.
 */
struct coll_raw *coll_raw_open(int cpu)
{
	struct coll_raw *r = calloc(1, sizeof(*r));

	if (r)
		r->cpu = cpu;
	return r;
}

void coll_raw_close(struct coll_raw *r)
{
	if (r) {
		free(r->src);
		free(r);
	}
}

/* The record of @id, or NULL.  Under rec_lock. */
static struct coll_record *coll_raw_record(uint64_t id)
{
	for (struct coll_record *rec = records; rec; rec = rec->next)
		if (rec->id == id)
			return rec;
	return NULL;
}

/* Take the next page of @rec into @s (whole only unless @partial); whether there was one. */
static bool coll_raw_take(struct coll_raw *raw, struct coll_raw_src *s,
			  struct coll_record *rec, bool partial)
{
	if (ring_buffer_foreign_read(rec->map, rec->size, raw->cpu, &s->pos, s->page,
				     partial) != 1)
		return false;
	rec_ids_page_locked(rec, s->page);
	s->has = true;
	s->stamp = ring_buffer_foreign_first(s->page);
	return true;
}

/* Take the next page of each source that has none, of the records there are.  Under rec_lock. */
static void coll_raw_fill_locked(struct coll_raw *raw, bool partial)
{
	for (struct coll_record *rec = records; rec; rec = rec->next) {
		struct coll_raw_src *s = NULL, *v;
		int i;

		for (i = 0; i < raw->nr; i++)
			if (raw->src[i].id == rec->id)
				s = &raw->src[i];
		if (!s) {
			v = realloc(raw->src, (size_t)(raw->nr + 1) * sizeof(*v));
			if (!v)
				return;
			raw->src = v;
			s = &raw->src[raw->nr++];
			memset(s, 0, sizeof(*s));
			s->id = rec->id;
		}
		if (!s->has && rec->map)
			coll_raw_take(raw, s, rec, partial);
	}
}

/*
 * The time of the next event of @s: of its page taken, else of what is
 * committed of the page its program writes (read without moving on:
 * @scratch).  Return: false if it has nothing.  Under rec_lock.
 */
static bool coll_raw_next_time(struct coll_raw *raw, struct coll_raw_src *s, char *scratch,
			       uint64_t *t)
{
	struct coll_record *rec;
	struct ring_buffer_foreign_pos pos;

	if (s->has) {
		*t = s->stamp;
		return true;
	}
	rec = coll_raw_record(s->id);
	if (!rec || !rec->map)
		return false;
	pos = s->pos;
	if (ring_buffer_foreign_read(rec->map, rec->size, raw->cpu, &pos, scratch, true) != 1)
		return false;
	*t = ring_buffer_foreign_first(scratch);
	return true;
}

/**
 * coll_raw_read - the next page of the CPU's stream of every program
 *
 * Whole pages first, then what is committed of the rest; event by event
 * in time order: the source whose next event is the oldest gives its
 * page, cut after its last event before the next event of any other
 * (ring_buffer_foreign_split()), the rest kept for the next read.
 * Return: the bytes given (RB_PAGE_SIZE), 0 for none now, -EINVAL for a
 * @size smaller than a page.
 */
ssize_t coll_raw_read(struct coll_raw *raw, void *buf, size_t size)
{
	char scratch[RB_PAGE_SIZE];	/* a peek at a page being written */
	struct coll_raw_src *s = NULL;
	uint64_t t, best = 0, limit = UINT64_MAX;

	if (size < RB_PAGE_SIZE)
		return -EINVAL;
	pthread_mutex_lock(&rec_lock);
	coll_raw_fill_locked(raw, false);
	/*
	 * The oldest next event, of a page taken or of a page being
	 * written, and the next oldest: the time the page given may not
	 * run past.
	 */
	for (int i = 0; i < raw->nr; i++) {
		if (!coll_raw_next_time(raw, &raw->src[i], scratch, &t))
			continue;
		if (!s || t < best) {
			if (s)
				limit = best;
			s = &raw->src[i];
			best = t;
		} else if (t < limit) {
			limit = t;
		}
	}
	if (s && !s->has) {
		struct coll_record *rec = coll_raw_record(s->id);

		if (!coll_raw_take(raw, s, rec, true))
			s = NULL;
	}
	if (s) {
		memcpy(buf, s->page, RB_PAGE_SIZE);
		if (limit != UINT64_MAX && ring_buffer_foreign_split(buf, limit, s->page)) {
			s->stamp = ring_buffer_foreign_first(s->page);
		} else {
			s->has = false;
		}
	}
	pthread_mutex_unlock(&rec_lock);
	return s ? RB_PAGE_SIZE : 0;
}

/*
 * Waiting (system-mode.rst, "Waiting").  A blocked read sleeps until, for
 * one program, what it has not read reaches buffer_percent of the
 * program's ring (the watermark of ring_buffer_wait_arm(), counted from
 * this reader's position), or, with buffer_percent 0, tracing off, or a
 * program gone (nothing will fill its pages), until there is any data.
 * The programs' writers wake it: each running program arms its buffer
 * for us (COLL_RAW_ARM, our mapping is read-only), its writer wakes its
 * buffer's wake word, and the watcher (coll_wait.c) wakes the tree.
 */

/* A reservation that holds a page up this long is a dead writer's: as if armed. */
#define COLL_INFLIGHT_MAX_MS	100

enum { RAW_NONE, RAW_READY, RAW_ARMED, RAW_INFLIGHT };

static uint64_t coll_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The source of @rec, made if new; NULL without memory.  Under rec_lock. */
static struct coll_raw_src *coll_raw_src(struct coll_raw *raw, struct coll_record *rec)
{
	struct coll_raw_src *v;

	for (int i = 0; i < raw->nr; i++)
		if (raw->src[i].id == rec->id)
			return &raw->src[i];
	v = realloc(raw->src, (size_t)(raw->nr + 1) * sizeof(*v));
	if (!v)
		return NULL;
	raw->src = v;
	v = &raw->src[raw->nr++];
	memset(v, 0, sizeof(*v));
	v->id = rec->id;
	return v;
}

/*
 * What a blocked read waits for of @rec: RAW_READY (read now), RAW_ARMED
 * (@target armed by the program: sleep), RAW_INFLIGHT (look again in
 * RING_BUFFER_WAIT_INFLIGHT_MS), RAW_NONE (nothing will come).  Under
 * rec_lock.
 */
static int coll_raw_src_wait(struct coll_raw *raw, struct coll_record *rec, int full,
			     bool stopped, uint32_t *target)
{
	struct coll_raw_src *s = coll_raw_src(raw, rec);
	bool any = !full || stopped || !rec->proc;
	uint64_t now;
	int ret;

	if (!s || !rec->map)
		return RAW_NONE;
	if (!s->has)
		coll_raw_take(raw, s, rec, any);
	if (any && s->has)
		return RAW_READY;
	if (!rec->proc)
		return RAW_NONE;
	ret = ring_buffer_foreign_wait(rec->map, rec->size, raw->cpu, &s->pos, s->has,
				       any ? 0 : full, target);
	if (ret < 0)
		return RAW_NONE;	/* not a CPU of that program's */
	if (ret == RING_BUFFER_WAIT_READY) {
		s->inflight_since = 0;
		return RAW_READY;
	}
	if (ret == RING_BUFFER_WAIT_ARMED) {
		s->inflight_since = 0;
		return RAW_ARMED;
	}
	now = coll_now_ms();
	if (!s->inflight_since)
		s->inflight_since = now;
	if (now - s->inflight_since < COLL_INFLIGHT_MAX_MS)
		return RAW_INFLIGHT;
	/*
	 * Held up that long: a writer died in its event.  The watermark's
	 * pages are read as it left them (ring_buffer_foreign_read()); any
	 * data waits for the next event, whose bell is rung.
	 */
	return any ? RAW_ARMED : RAW_READY;
}

/**
 * coll_raw_readable - is a blocked read of the CPU's pages to be done now?
 * @raw:     the reader
 * @full:    buffer_percent (0: any data)
 * @stopped: tracing is off: any data
 */
int coll_raw_readable(struct coll_raw *raw, int full, bool stopped)
{
	uint32_t target;
	int any = 0;

	pthread_mutex_lock(&rec_lock);
	for (struct coll_record *rec = records; rec && !any; rec = rec->next)
		any = coll_raw_src_wait(raw, rec, full, stopped, &target) == RAW_READY;
	pthread_mutex_unlock(&rec_lock);
	return any;
}

struct raw_arm {
	struct coll_proc	*proc;
	uint32_t		target;
};

/**
 * coll_raw_wait - arm the running programs for a blocked read of the CPU's pages
 * @raw:     the reader
 * @full:    buffer_percent (0: any data)
 * @stopped: tracing is off
 *
 * Each program whose watermark is not reached arms it (COLL_RAW_ARM),
 * then we look again: its writers store the tail, then look for the
 * armed word or the bell, so that either they wake us or we see what they
 * wrote.  Called with the wake word loaded (coll_wait_word()).
 * Return: 0 (read now), -1 (sleep until the word is woken), or the ms
 * after which to look again: a reservation open, or a program that
 * cannot arm for us (a protocol before 4, a kept memfd it closed), which
 * we poll every COLL_POLL_MS.
 */
int coll_raw_wait(struct coll_raw *raw, int full, bool stopped)
{
	struct raw_arm *arms = NULL;
	int nr = 0, max = 0, ms = -1, r;
	bool ready = false, poll = false;
	uint32_t target;

	pthread_mutex_lock(&rec_lock);
	for (struct coll_record *rec = records; rec; rec = rec->next)
		max++;
	arms = max ? calloc((size_t)max, sizeof(*arms)) : NULL;
	for (struct coll_record *rec = records; rec && !ready; rec = rec->next) {
		r = coll_raw_src_wait(raw, rec, full, stopped, &target);
		ready = r == RAW_READY;
		if (r == RAW_INFLIGHT)
			ms = RING_BUFFER_WAIT_INFLIGHT_MS;
		if (r != RAW_ARMED)
			continue;
		if (!arms || coll_proc_version(rec->proc) < COLL_VERSION_RAW_ARM) {
			poll = true;
			continue;
		}
		coll_procs_ref_one(rec->proc);
		arms[nr++] = (struct raw_arm){ .proc = rec->proc, .target = target };
	}
	pthread_mutex_unlock(&rec_lock);
	for (int i = 0; i < nr; i++) {
		struct coll_msg m = { .op = COLL_RAW_ARM, .a = (uint64_t)raw->cpu,
				      .b = arms[i].target };
		uint32_t outlen;
		int64_t ret = ready ? 0 : coll_proc_call(arms[i].proc, &m, NULL, NULL, 0, &outlen);

		/*
		 * Gone, or given up on: its record says so at the next look.
		 * COLL_RAW_SWAPPED: nothing to arm, a swap back wakes us.
		 */
		if (ret < 0 && ret != -ECONNRESET && ret != -ETIMEDOUT)
			poll = true;
		coll_procs_put_one(arms[i].proc);
	}
	free(arms);
	if (ready)
		return 0;
	/* Again, after the arms. */
	pthread_mutex_lock(&rec_lock);
	for (struct coll_record *rec = records; rec && !ready; rec = rec->next) {
		r = coll_raw_src_wait(raw, rec, full, stopped, &target);
		ready = r == RAW_READY;
		if (r == RAW_INFLIGHT)
			ms = RING_BUFFER_WAIT_INFLIGHT_MS;
	}
	pthread_mutex_unlock(&rec_lock);
	if (ready)
		return 0;
	return poll && (ms < 0 || ms > COLL_POLL_MS) ? COLL_POLL_MS : ms;
}

/**
 * coll_records_cmdlines - the saved_cmdlines lines of every kept record
 * Return: a text the caller frees (NULL for none).
 */
char *coll_records_cmdlines(size_t *len)
{
	char *t = NULL, *v;
	size_t l = 0;

	pthread_mutex_lock(&rec_lock);
	for (struct coll_record *r = records; r; r = r->next) {
		if (!r->cmdlines || !r->cmdlines_len)
			continue;
		v = realloc(t, l + r->cmdlines_len + 2);
		if (!v)
			break;
		t = v;
		memcpy(t + l, r->cmdlines, r->cmdlines_len);
		l += r->cmdlines_len;
		if (t[l - 1] != '\n')
			t[l++] = '\n';
		t[l] = 0;
	}
	pthread_mutex_unlock(&rec_lock);
	*len = l;
	return t;
}

/* ------------------------------------------------------------------
 * trace: the events of the programs gone
 */

struct gone_line {
	uint64_t	ts;
	size_t		idx;	/* ties keep the order they were read in */
	size_t		off, len;
};

struct gone_text {
	char		*buf;
	size_t		len, size;
	struct gone_line *lines;
	size_t		nr, alloc;
	unsigned long	entries;
};

static int gone_cmp(const void *a, const void *b)
{
	const struct gone_line *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The name saved_cmdlines gives @pid, or "<...>", as trace_find_cmdline(). */
static void gone_comm(const char *cmdlines, size_t len, int pid, char *comm, size_t size)
{
	const char *p = cmdlines, *end = cmdlines ? cmdlines + len : NULL;

	snprintf(comm, size, "<...>");
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		char *after;
		long v = strtol(p, &after, 10);

		if (after > p && after < e && *after == ' ' && v == pid) {
			snprintf(comm, size, "%.*s", (int)(e - after - 1), after + 1);
			return;
		}
		p = e + 1;
	}
}

/* One line, as the default trace format prints it (trace.c's print_context()). */
static int gone_add(struct gone_text *t, struct coll_printer *pr, const struct coll_record *r,
		    bool in_ns, int cpu, uint64_t ts, const void *data, uint32_t len)
{
	struct { uint16_t type; uint8_t flags, preempt_count; int32_t pid; } e;
	char comm[32], text[8192], lat[6], stamp[USTRACE_FMT_USECS_MAX + 8];
	size_t need;
	int n;

	if (len < sizeof(e))
		return 0;
	memcpy(&e, data, sizeof(e));
	if (coll_printer_event(pr, data, len, cpu, ts, text, sizeof(text)) < 0)
		return 0;
	gone_comm(r->cmdlines, r->cmdlines_len, e.pid, comm, sizeof(comm));
	ustrace_fmt_irq_info(lat, e.flags, e.preempt_count);
	lat[5] = 0;
	if (in_ns) {
		/* Rounded to the microsecond, as the program's own trace prints it. */
		char *sp = ustrace_fmt_usecs(stamp + sizeof(stamp) - 1, ts);

		stamp[sizeof(stamp) - 1] = 0;
		memmove(stamp, sp, strlen(sp) + 1);
	} else {
		snprintf(stamp, sizeof(stamp), "%12llu", (unsigned long long)ts);
	}
	need = strlen(comm) + strlen(text) + 96;
	if (t->size - t->len < need) {
		size_t ns = t->size ? t->size : 65536;
		char *v;

		while (ns - t->len < need)
			ns *= 2;
		if (!(v = realloc(t->buf, ns)))
			return -ENOMEM;
		t->buf = v, t->size = ns;
	}
	if (t->nr == t->alloc) {
		size_t na = t->alloc ? 2 * t->alloc : 1024;
		struct gone_line *v = realloc(t->lines, na * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->lines = v, t->alloc = na;
	}
	n = snprintf(t->buf + t->len, t->size - t->len, "%16s-%-7d [%03d] %s %s: %s\n", comm,
		     (int)e.pid, cpu, lat, stamp, text);
	if (n < 0 || (size_t)n >= t->size - t->len)
		return 0;
	t->lines[t->nr] = (struct gone_line){ .ts = ts, .idx = t->nr, .off = t->len,
					      .len = (size_t)n };
	t->nr++;
	t->len += (size_t)n;
	t->entries++;
	return 0;
}

/*
 * Where a record is printed from: the program wrote it, and its dynamic
 * fields' offsets and lengths (16 bits each) are read as they are, so it
 * is printed from the start of zeroes that reach past any of them.
 */
#define GONE_COPY_SIZE	(RB_PAGE_SIZE + (2u << 16) + 8)

/* Every event of @r's buffer, not consumed.  No lock held; @r is not freed meanwhile. */
static int gone_record(struct gone_text *t, struct coll_record *r)
{
	struct trace_dat_format *formats = rec_log_formats(r->fmt_fd, NULL, NULL), *f, *next;
	struct coll_printer *pr = coll_printer_new(TRACE_MARKER_IP);
	int nr_cpus = ring_buffer_foreign_cpus(r->map, r->size), err = pr ? 0 : -errno;
	char clock[32], page[RB_PAGE_SIZE], *copy = err ? NULL : calloc(1, GONE_COPY_SIZE);
	bool in_ns;

	if (!err && !copy)
		err = -ENOMEM;

	for (f = formats; f; f = next) {
		next = f->next;
		if (pr)
			coll_printer_format(pr, f->system, f->text, f->len);
		free(f);
	}
	rec_clock_name(r->clock_list, clock, sizeof(clock));
	in_ns = strcmp(clock, "counter") && strcmp(clock, "x86-tsc");
	for (int cpu = 0; !err && cpu < nr_cpus; cpu++) {
		struct ring_buffer_foreign_pos pos = { 0 };
		uint64_t pages = 0;

		/* A ring holds fewer than 65536 pages: more is a live writer's race. */
		while (!err && pages++ <= 65536 &&
		       ring_buffer_foreign_read(r->map, r->size, cpu, &pos, page, true) == 1) {
			const void *data;
			uint32_t at = 0, len;
			uint64_t stamp;

			memcpy(&stamp, page, 8);
			while (!err && ring_buffer_foreign_event(page, &at, &stamp, &data, &len)) {
				memcpy(copy, data, len);
				err = gone_add(t, pr, r, in_ns, cpu, stamp, copy, len);
				memset(copy, 0, len);
			}
		}
	}
	free(copy);
	coll_printer_free(pr);
	return err;
}

/**
 * coll_records_trace - the lines of `trace` for the programs gone
 * @len: receives the text's length
 *
 * Their events as the default trace format prints them, in time order,
 * after a line with their count for the header's sums (coll_tree.c's
 * merge).  The text comes from the format alone, through libtraceevent
 * (coll_print.c): without it there is none, and the log says so once.
 * Return: the text (the caller frees it), or NULL for none.
 */
char *coll_records_trace(size_t *len)
{
	static bool said;
	struct gone_text t = { 0 };
	struct coll_record *r, **v = NULL;
	char *out = NULL;
	int nr = 0, err = 0;
	size_t at;

	*len = 0;
	pthread_mutex_lock(&rec_lock);
	for (r = records; r; r = r->next)
		nr += !r->proc && r->map;
	if (nr && (v = calloc((size_t)nr, sizeof(*v)))) {
		nr = 0;
		for (r = records; r; r = r->next)
			if (!r->proc && r->map)
				v[nr++] = r;
		dumping++;
	}
	pthread_mutex_unlock(&rec_lock);
	if (!v)
		return NULL;
	for (int i = 0; i < nr && !err; i++)
		err = gone_record(&t, v[i]);
	pthread_mutex_lock(&rec_lock);
	dumping--;
	rec_trim_locked();
	pthread_mutex_unlock(&rec_lock);
	free(v);
	if (err == -ENOSYS && !__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		coll_log(false, "trace: the events of programs gone are not shown: "
			 "libtraceevent (libtraceevent.so.1) is not to be had; ustrace dump has them");
	if (!err && t.nr) {
		qsort(t.lines, t.nr, sizeof(*t.lines), gone_cmp);
		out = malloc(t.len + 96);
	}
	if (out) {
		at = (size_t)snprintf(out, 96, "# entries-in-buffer/entries-written: %lu/%lu\n",
				      t.entries, t.entries);
		for (size_t i = 0; i < t.nr; i++) {
			memcpy(out + at, t.buf + t.lines[i].off, t.lines[i].len);
			at += t.lines[i].len;
		}
		out[at] = 0;
		*len = at;
	}
	free(t.buf);
	free(t.lines);
	return out;
}

/**
 * coll_records_clear - `> trace`: forget the buffers of the programs gone
 *
 * The running programs clear their own (the write reaches them); what
 * the collector kept of the others goes, as the kernel's buffer is
 * emptied.
 */
void coll_records_clear(void)
{
	struct coll_record **pp = &records, *r;

	pthread_mutex_lock(&rec_lock);
	while (!dumping && (r = *pp)) {
		if (!r->proc) {
			*pp = r->next;
			rec_free(r);
		} else {
			pp = &r->next;
		}
	}
	pthread_mutex_unlock(&rec_lock);
}
