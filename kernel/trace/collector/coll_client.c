// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The program's side of system mode (Documentation/trace/system-mode.rst):
 * find the collector, register, and answer its calls of the tracefs tree.
 *
 * At start (a constructor) a program looks for $USTRACE_RUNDIR/
 * collector.sock.  Nothing is there: nothing changes (no thread, no
 * descriptor), unless the directory exists, which says that the user
 * runs a collector: then one thread waits (inotify, no wakeups) for the
 * collector to come.  A collector is there: connect, check that it runs
 * as our user or root (SO_PEERCRED), say hello, take the control writes
 * it remembers (STATE) until WELCOME; all of it bounded by
 * COLL_HELLO_WAIT_MS, after which the program goes on untraced and says
 * so on stderr once.  Then the thread "ustrace-coll" answers the
 * collector's calls with this process's tracefs tree (tracefs.h) until
 * the collector goes, and waits for the next one.
 *
 * The remembered writes are applied to every event when it registers
 * (coll_apply_pending(), called after each registration by
 * trace_event_post_register), so that an event the collector was told
 * to enable before the program started is on from its first hit, and to
 * the rest of the tree once after WELCOME.
 *
 * Descriptors.  The program may close every descriptor it did not open
 * (daemons do) and get our numbers back for its own files: before each
 * use the socket is checked to still be the one we opened (same inode);
 * when it is not, it is not ours any more: it is never touched again, and
 * the program runs untraced from then on, with one line on stderr.
 *
 * fork(): the child keeps no connection (its copy is closed in the
 * child's fork handler) and does not register: it writes into the
 * buffers it shares with its parent, as in embedded mode.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <ustrace/collector.h>

#include "../../internal.h"
#include "../trace_array.h"
#include "../tracefs/tracefs.h"
#include "collector.h"
#include "coll_proto.h"

#define COLL_HELLO_WAIT_MS	500
/* A collector that did not answer is asked again this often, so many times. */
#define COLL_RETRY_MS		1000
#define COLL_RETRIES		10

/*
 * The program may close our descriptors while this thread uses them (a
 * daemon closing all it did not open), which is why every use checks the
 * descriptor first.  ThreadSanitizer sees a race on the descriptor in
 * that: the accesses of ours are ignored.
 */
#define coll_fd_use_begin()	ustrace_tsan_ignore_begin()
#define coll_fd_use_end()	ustrace_tsan_ignore_end()
#define COLL_MAX_HANDLES	1024

struct coll_state {
	struct coll_state	*next;
	uint32_t		kind;
	uint32_t		flags;
	char			*path;
	char			*data;
	size_t			len;
};

/* An event this process registered, and whether the state reached it. */
struct coll_event {
	struct coll_event	*next;
	char			*system;
	char			*name;
	bool			applied;	/* under coll.lock */
	bool			logged;		/* its format is in the log (coll.lock) */
	bool			gone;		/* atomic */
};

static struct {
	pthread_mutex_t		lock;	/* everything below */
	int			sock;
	dev_t			sock_dev;
	ino_t			sock_ino;
	bool			welcomed;
	bool			globals_applied;
	bool			thread_started;
	bool			lost;	/* the program took our descriptor */
	bool			timed_out;	/* the collector did not answer at start */
	pid_t			pid;	/* the process that connected */
	int			fmt_fd;	/* the format log (-1: none yet) */
	dev_t			fmt_dev;
	ino_t			fmt_ino;
	/* The buffer whose memfd the collector keeps, and watches (COLL_WAIT_ARM). */
	struct trace_buffer	*watched;
	dev_t			watched_dev;
	ino_t			watched_ino;
	char			rundir[PATH_MAX];
	struct coll_state	*state, **state_tail;
	struct coll_event	*events;
	struct tfs_file		*handles[COLL_MAX_HANDLES];
} coll = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.sock = -1,
	.fmt_fd = -1,
};

static void coll_unlock(void);

/* ------------------------------------------------------------------
 * The socket
 */

/* Is coll.sock still the socket we opened?  Under coll.lock. */
static bool coll_sock_ours(void)
{
	struct stat st;

	bool same;

	if (coll.sock < 0 || coll.pid != getpid())
		return false;
	coll_fd_use_begin();
	same = !fstat(coll.sock, &st) && S_ISSOCK(st.st_mode) && st.st_dev == coll.sock_dev &&
	       st.st_ino == coll.sock_ino;
	coll_fd_use_end();
	if (!same) {
		if (!coll.lost)
			fprintf(stderr, "ustrace: the program closed the collector's connection "
				"(descriptor %d): not traced from now on\n", coll.sock);
		coll.lost = true;
		coll.sock = -1;
		return false;
	}
	return true;
}

/* Drop the connection (the collector went).  Under coll.lock. */
static void coll_disconnect(void)
{
	unsigned int i;

	if (coll_sock_ours()) {
		coll_fd_use_begin();
		close(coll.sock);
		coll_fd_use_end();
	}
	coll.sock = -1;
	coll.welcomed = false;
	for (i = 0; i < COLL_MAX_HANDLES; i++) {
		if (coll.handles[i])
			tfs_release(coll.handles[i]);
		coll.handles[i] = NULL;
	}
}

/* Send a message (and descriptors with it: @fd, @fd2 >= 0). */
static int coll_send_fds(const struct coll_msg *m, const void *payload, size_t len, int fd,
			 int fd2)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)m, .iov_len = sizeof(*m) },
		{ .iov_base = (void *)payload, .iov_len = len },
	};
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} cm;
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };
	int fds[2] = { fd, fd2 }, nr = (fd >= 0) + (fd >= 0 && fd2 >= 0);
	struct cmsghdr *c;

	if (!coll_sock_ours())
		return -EBADF;
	if (nr) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = CMSG_SPACE((size_t)nr * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)nr * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (size_t)nr * sizeof(int));
	}
	coll_fd_use_begin();
	nr = sendmsg(coll.sock, &mh, MSG_NOSIGNAL) < 0 ? -errno : 0;
	coll_fd_use_end();
	return nr;
}

static int coll_send(const struct coll_msg *m, const void *payload, size_t len)
{
	return coll_send_fds(m, payload, len, -1, -1);
}

/*
 * One message, waiting at most @ms (-1: for ever).  Return: its length,
 * 0 at the collector's end, -ETIMEDOUT, -errno.  @buf holds
 * sizeof(struct coll_msg) + COLL_MAX_PAYLOAD.
 */
static ssize_t coll_recv(char *buf, int ms, bool locked)
{
	struct pollfd pfd;
	ssize_t n;
	int sock;

	for (;;) {
		if (!locked)
			pthread_mutex_lock(&coll.lock);
		sock = coll_sock_ours() ? coll.sock : -1;
		if (!locked)
			coll_unlock();
		if (sock < 0)
			return -EBADF;
		pfd = (struct pollfd){ .fd = sock, .events = POLLIN };
		coll_fd_use_begin();
		n = poll(&pfd, 1, ms);
		coll_fd_use_end();
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ETIMEDOUT;
		if (!locked)
			pthread_mutex_lock(&coll.lock);
		coll_fd_use_begin();
		n = coll_sock_ours() ? recv(coll.sock, buf, sizeof(struct coll_msg) +
					    COLL_MAX_PAYLOAD, MSG_DONTWAIT) : -1;
		coll_fd_use_end();
		if (n < 0)
			n = coll.sock < 0 ? -EBADF : -errno;
		if (!locked)
			coll_unlock();
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n > 0 && (size_t)n < sizeof(struct coll_msg))
			return -EPROTO;
		if (n > 0 && ((struct coll_msg *)buf)->len != n - sizeof(struct coll_msg))
			return -EPROTO;
		return n;
	}
}

/* ------------------------------------------------------------------
 * Remembered control writes
 */

static void coll_state_add(const struct coll_msg *m, const char *payload)
{
	size_t plen = strnlen(payload, m->len);
	struct coll_state *s;

	if (plen == m->len)
		return;
	s = calloc(1, sizeof(*s));
	if (!s)
		return;
	s->kind = m->d;
	s->flags = m->c;
	s->path = strndup(payload, plen);
	s->len = m->len - plen - 1;
	s->data = malloc(s->len + 1);
	if (!s->path || !s->data) {
		free(s->path);
		free(s->data);
		free(s);
		return;
	}
	memcpy(s->data, payload + plen + 1, s->len);
	s->data[s->len] = 0;
	if (!coll.state_tail)
		coll.state_tail = &coll.state;
	*coll.state_tail = s;
	coll.state_tail = &s->next;
}

static void coll_state_free(void)
{
	struct coll_state *s, *next;

	for (s = coll.state; s; s = next) {
		next = s->next;
		free(s->path);
		free(s->data);
		free(s);
	}
	coll.state = NULL;
	coll.state_tail = &coll.state;
}

/* The inode of a path from the root, or -errno. */
static int coll_resolve(const char *path, uint64_t *ino)
{
	char name[NAME_MAX + 1];
	struct tfs_stat st;
	const char *p = path, *e;
	int err;

	*ino = TFS_ROOT_INO;
	while (*p) {
		e = strchrnul(p, '/');
		if (e - p > NAME_MAX)
			return -ENAMETOOLONG;
		if (e > p) {
			memcpy(name, p, (size_t)(e - p));
			name[e - p] = 0;
			err = tfs_lookup(*ino, name, &st);
			if (err)
				return err;
			*ino = st.ino;
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

static void coll_write_path(const char *path, uint32_t flags, const char *data, size_t len)
{
	struct tfs_file *f;
	uint64_t ino;

	if (coll_resolve(path, &ino) ||
	    tfs_open(ino, O_WRONLY | (int)(flags & (O_TRUNC | O_APPEND)), &f))
		return;
	tfs_write(f, data, len, 0, 0);
	tfs_release(f);
}

static void coll_mkdir_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct tfs_stat st;
	char parent[PATH_MAX];
	uint64_t ino;

	if (!slash || (size_t)(slash - path) >= sizeof(parent))
		return;
	memcpy(parent, path, (size_t)(slash - path));
	parent[slash - path] = 0;
	if (!coll_resolve(parent, &ino))
		tfs_mkdir(ino, slash + 1, &st);
}

/*
 * Where an entry of the tree's instance at @path starts: "instances/X/"
 * or "".  Return: the rest of the path.
 */
static const char *coll_in_instance(const char *path, size_t *prefix)
{
	const char *p = path;

	*prefix = 0;
	if (!strncmp(p, "instances/", 10)) {
		p = strchr(p + 10, '/');
		if (!p)
			return NULL;
		*prefix = (size_t)(p + 1 - path);
		return p + 1;
	}
	return p;
}

/*
 * Does the state entry concern the event @e, and at which path: the
 * event's own files, its system's (enable, filter), every event's
 * (events/enable), or set_event.  Return: the path to write, in @out.
 */
static bool coll_state_for_event(const struct coll_state *s, const struct coll_event *e,
				 char *out, size_t size)
{
	size_t prefix, sl = strlen(e->system), nl = strlen(e->name);
	const char *rest = coll_in_instance(s->path, &prefix), *file;

	if (s->kind != COLL_STATE_WRITE || !rest)
		return false;
	if (!strcmp(rest, "set_event")) {
		snprintf(out, size, "%s", s->path);
		return true;
	}
	if (strncmp(rest, "events/", 7))
		return false;
	rest += 7;
	if (!strcmp(rest, "enable")) {
		file = "enable";
	} else if (!strncmp(rest, e->system, sl) && rest[sl] == '/') {
		rest += sl + 1;
		if (!strchr(rest, '/'))
			file = rest;	/* the system's enable, filter */
		else if (!strncmp(rest, e->name, nl) && rest[nl] == '/')
			file = rest + nl + 1;
		else
			return false;
		if (strchr(file, '/'))
			return false;
	} else {
		return false;
	}
	return snprintf(out, size, "%.*sevents/%s/%s/%s", (int)prefix, s->path, e->system,
			e->name, file) < (int)size;
}

/* Is the entry one of the tree's, not of an event's? */
static bool coll_state_global(const struct coll_state *s)
{
	size_t prefix;
	const char *rest = coll_in_instance(s->path, &prefix);

	if (s->kind != COLL_STATE_WRITE)
		return true;
	return rest && strncmp(rest, "events/", 7) && strcmp(rest, "set_event");
}

/*
 * The format log: a memfd the collector holds (handed over with the
 * buffer, GETBUF), into which the format of every event is appended as it
 * registers, so that the collector can name the events of a process that
 * died.  A record: u32 length of what follows, u32 length of the system's
 * name, the name, the format's text.  Under coll.lock.
 */
static bool coll_fmt_ours(void)
{
	struct stat st;
	bool same;

	if (coll.fmt_fd < 0)
		return false;
	coll_fd_use_begin();
	same = !fstat(coll.fmt_fd, &st) && st.st_dev == coll.fmt_dev && st.st_ino == coll.fmt_ino;
	coll_fd_use_end();
	return same;
}

static void coll_fmt_log_locked(void)
{
	char path[PATH_MAX], *text = NULL;
	struct coll_event *e;
	struct tfs_file *f;
	uint64_t ino;

	if (!coll_fmt_ours() || tfs_init())
		return;
	text = malloc(COLL_MAX_PAYLOAD);
	if (!text)
		return;
	for (e = __atomic_load_n(&coll.events, __ATOMIC_ACQUIRE); e; e = e->next) {
		uint32_t head[2];
		ssize_t n, len = 0;

		if (e->logged || __atomic_load_n(&e->gone, __ATOMIC_RELAXED))
			continue;
		e->logged = true;
		snprintf(path, sizeof(path), "events/%s/%s/format", e->system, e->name);
		if (coll_resolve(path, &ino) || tfs_open(ino, O_RDONLY, &f))
			continue;
		while (len < COLL_MAX_PAYLOAD &&
		       (n = tfs_read(f, text + len, (size_t)(COLL_MAX_PAYLOAD - len), len)) > 0)
			len += n;
		tfs_release(f);
		head[1] = (uint32_t)strlen(e->system);
		head[0] = head[1] + (uint32_t)len;
		coll_fd_use_begin();
		n = write(coll.fmt_fd, head, sizeof(head)) != sizeof(head) ||
		    write(coll.fmt_fd, e->system, head[1]) != (ssize_t)head[1] ||
		    write(coll.fmt_fd, text, (size_t)len) != len;
		coll_fd_use_end();
		if (n)
			break;
	}
	free(text);
}

/* coll.lock, waiting at most @ms; whether it was taken. */
static bool coll_lock_within(long ms)
{
	struct timespec at;

	clock_gettime(CLOCK_REALTIME, &at);
	at.tv_nsec += ms * 1000000L;
	while (at.tv_nsec >= 1000000000L)
		at.tv_sec++, at.tv_nsec -= 1000000000L;
	return !pthread_mutex_timedlock(&coll.lock, &at);
}

/*
 * At exit: the program's saved_cmdlines into the format log, so that a
 * recording made after it ended names its threads.  exit() does not wait
 * long for it: the thread may hold coll.lock through a hello to a
 * collector that does not answer (COLL_HELLO_WAIT_MS), and then there is
 * no log to write to anyway.
 */
#define COLL_EXIT_WAIT_MS	100

static void coll_log_cmdlines(void *unused __attribute__((__unused__)))
{
	char *text = NULL;
	struct tfs_file *f;
	uint64_t ino;
	ssize_t n, len = 0;
	uint32_t head[2];
	bool fail;

	if (!coll_lock_within(COLL_EXIT_WAIT_MS))
		return;
	if (!coll_fmt_ours() || coll.pid != getpid() || coll_resolve("saved_cmdlines", &ino) ||
	    !(text = malloc(COLL_MAX_PAYLOAD)) || tfs_open(ino, O_RDONLY, &f))
		goto out;
	while (len < COLL_MAX_PAYLOAD &&
	       (n = tfs_read(f, text + len, (size_t)(COLL_MAX_PAYLOAD - len), len)) > 0)
		len += n;
	tfs_release(f);
	head[1] = sizeof(COLL_LOG_CMDLINES) - 1;
	head[0] = head[1] + (uint32_t)len;
	coll_fd_use_begin();
	fail = write(coll.fmt_fd, head, sizeof(head)) != sizeof(head) ||
	       write(coll.fmt_fd, COLL_LOG_CMDLINES, head[1]) != (ssize_t)head[1];
	if (!fail && write(coll.fmt_fd, text, (size_t)len) != len)
		fail = true;
	coll_fd_use_end();
	(void)fail;
out:
	coll_unlock();
	free(text);
}

/* Apply what is due: the tree's entries once, each event's once.  Under coll.lock. */
static void coll_apply_locked(void)
{
	char path[PATH_MAX];
	struct coll_state *s;
	struct coll_event *e;

	if (!coll.welcomed || tfs_init())
		return;
	coll_fmt_log_locked();
	if (!coll.globals_applied) {
		coll.globals_applied = true;
		for (s = coll.state; s; s = s->next) {
			if (!coll_state_global(s))
				continue;
			if (s->kind == COLL_STATE_MKDIR)
				coll_mkdir_path(s->path);
			else if (s->kind == COLL_STATE_WRITE)
				coll_write_path(s->path, s->flags, s->data, s->len);
		}
	}
	for (e = __atomic_load_n(&coll.events, __ATOMIC_ACQUIRE); e; e = e->next) {
		if (e->applied || __atomic_load_n(&e->gone, __ATOMIC_RELAXED))
			continue;
		e->applied = true;
		for (s = coll.state; s; s = s->next)
			if (coll_state_for_event(s, e, path, sizeof(path)))
				coll_write_path(path, s->flags & ~(uint32_t)O_TRUNC, s->data,
						s->len);
	}
}

/* Events registered that the state has not reached yet (atomic). */
static int coll_pending;

/* Apply the state to new events, and tell the collector.  Under coll.lock. */
static void coll_apply_new_locked(void)
{
	struct coll_msg m = { .op = COLL_EVENTS };

	coll_apply_locked();
	/* The collector learns them: their directories, their formats. */
	if (coll.welcomed)
		coll_send(&m, NULL, 0);
}

/*
 * Unlock coll.lock, applying first what an event registered meanwhile
 * left pending: the holder does it, so that nothing is left waiting.
 */
static void coll_unlock(void)
{
	while (__atomic_exchange_n(&coll_pending, 0, __ATOMIC_ACQ_REL))
		coll_apply_new_locked();
	pthread_mutex_unlock(&coll.lock);
}

/*
 * After an event registered (trace_event_post_register()), in the
 * registering thread, so that the event is on before its first hit.  That
 * thread may hold the dynamic linker's lock (dlopen), which the holder of
 * coll.lock may be waiting for (rendering a text with a symbol): the wait
 * for coll.lock is bounded (COLL_APPLY_WAIT_MS), and when it runs out
 * the holder applies it as it unlocks (coll_unlock()).
 */
#define COLL_APPLY_WAIT_MS	100

static void coll_apply_pending(void)
{
	__atomic_store_n(&coll_pending, 1, __ATOMIC_RELEASE);
	if (coll_lock_within(COLL_APPLY_WAIT_MS))
		coll_unlock();
}

/*
 * The event notifier: with the event mutex held, so only noted here, in
 * a list that only grows (pushed with a compare-and-swap, never freed:
 * an event that goes is marked, and one that comes back is a new entry).
 */
static void coll_event_notify(struct trace_event_call *call, int added)
{
	const char *system = call->event_class ? call->event_class->system : NULL;
	const char *name = call->name;
	struct coll_event *e, *head;

	if (!system || !name)
		return;
	if (!added) {
		for (e = __atomic_load_n(&coll.events, __ATOMIC_ACQUIRE); e; e = e->next)
			if (!strcmp(e->system, system) && !strcmp(e->name, name))
				__atomic_store_n(&e->gone, true, __ATOMIC_RELAXED);
		return;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->system = strdup(system);
	e->name = strdup(name);
	if (!e->system || !e->name) {
		free(e->system);
		free(e->name);
		free(e);
		return;
	}
	head = __atomic_load_n(&coll.events, __ATOMIC_RELAXED);
	do
		e->next = head;
	while (!__atomic_compare_exchange_n(&coll.events, &head, e, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
}

/* ------------------------------------------------------------------
 * The collector's calls
 */

static int coll_handle_new(struct tfs_file *f)
{
	unsigned int i;

	for (i = 0; i < COLL_MAX_HANDLES; i++) {
		if (!coll.handles[i]) {
			coll.handles[i] = f;
			return (int)i;
		}
	}
	return -EMFILE;
}

static struct tfs_file *coll_handle(uint64_t h)
{
	return h < COLL_MAX_HANDLES ? coll.handles[h] : NULL;
}

static void coll_stat_out(const struct tfs_stat *st, struct coll_stat *out)
{
	*out = (struct coll_stat){ .ino = st->ino, .mode = st->mode, .nlink = st->nlink,
				   .size = st->size };
}

struct coll_dir_ctx {
	char	*buf;
	size_t	len, size;
};

static int coll_dir_fill(void *ctx, const char *name, const struct tfs_stat *st, off_t next)
{
	struct coll_dir_ctx *d = ctx;
	size_t nl = strlen(name), rec = (sizeof(struct coll_dirent) + nl + 7) & ~(size_t)7;
	struct coll_dirent de = { .next = next, .namelen = (uint32_t)nl };

	if (d->len + rec > d->size)
		return 1;
	coll_stat_out(st, &de.st);
	memcpy(d->buf + d->len, &de, sizeof(de));
	memcpy(d->buf + d->len + sizeof(de), name, nl);
	memset(d->buf + d->len + sizeof(de) + nl, 0, rec - sizeof(de) - nl);
	d->len += rec;
	return 0;
}

/*
 * The collector sleeps on the wake word of the buffer whose memfd it
 * keeps: is @word that one?  A snapshot swap gives the top level another
 * memfd, an instance has its own: those the collector cannot watch.
 * Under coll.lock.
 */
static bool coll_watches(const uint32_t *word)
{
	struct stat st;
	size_t size;
	int fd;
	bool same;

	if (!coll.watched || !word || word != ring_buffer_wait_word(coll.watched))
		return false;
	fd = ring_buffer_memfd(coll.watched, &size);
	if (fd < 0)
		return false;
	same = !fstat(fd, &st) && st.st_dev == coll.watched_dev && st.st_ino == coll.watched_ino;
	close(fd);
	return same;
}

struct coll_find_word {
	const uint32_t		*word;
	struct trace_buffer	*buffer;
};

static void coll_find_word_fn(struct trace_array *tr, void *priv)
{
	struct coll_find_word *fw = priv;
	struct trace_buffer *b = trace_array_buffer(tr);

	if (b && ring_buffer_wait_word(b) == fw->word)
		fw->buffer = b;
}

/* The memfd of the buffer (the top level's or an instance's) whose wake word is @word, or -1. */
static int coll_word_memfd(const uint32_t *word)
{
	struct coll_find_word fw = { .word = word };
	size_t size;

	if (!word)
		return -1;
	coll_find_word_fn(trace_array_top(), &fw);
	if (!fw.buffer)
		trace_array_for_each_instance(coll_find_word_fn, &fw);
	return fw.buffer ? ring_buffer_memfd(fw.buffer, &size) : -1;
}

/*
 * COLL_WAIT_ARM: arm @f as its own blocked readers do (tfs_wait_arm()).
 * Sleeping until woken is for a buffer the collector watches: the one
 * whose memfd it keeps, or (protocol 4) another of ours (an instance's,
 * the top level's after a snapshot swap) whose memfd goes with the
 * answer, in @fdp (COLL_WAIT_ARMED_FD), so that it watches that one's
 * word too.  Without a memfd, the collector looks again after
 * COLL_POLL_MS.
 */
static int64_t coll_wait_arm(struct tfs_file *f, int *fdp)
{
	int ret = tfs_wait_arm(f);
	const uint32_t *word;

	if (ret >= 0)
		return ret;
	word = tfs_wait_word(f);
	if (coll_watches(word))
		return -1;
	*fdp = coll_word_memfd(word);
	return *fdp >= 0 ? COLL_WAIT_ARMED_FD : COLL_POLL_MS;
}

/*
 * COLL_RAW_ARM: arm the buffer the collector keeps for its trace_pipe_raw
 * reader (at CPU @cpu, @target: ring_buffer_wait_arm_at()), while its
 * pages are the top level's.  A snapshot swap traded them for the
 * snapshot's (ring_buffer_swap(): the top level's buffer has another
 * memfd then): nothing is written into the kept ones but what was
 * reserved before, and a swap back wakes their word: COLL_RAW_SWAPPED.
 * A memfd we cannot look at (the program closed it): -ESTALE.  Under
 * coll.lock.
 */
static int64_t coll_raw_arm(uint64_t cpu, uint64_t target)
{
	struct trace_array *tr = trace_array_top();
	struct stat st;
	size_t size;
	bool same;
	int ret, fd;

	if (!coll.watched || !tr || trace_array_buffer(tr) != coll.watched)
		return -ESTALE;
	if (cpu > INT_MAX || target > UINT32_MAX)
		return -EINVAL;
	fd = ring_buffer_memfd(coll.watched, &size);
	if (fd < 0)
		return -ESTALE;
	same = !fstat(fd, &st) && st.st_dev == coll.watched_dev && st.st_ino == coll.watched_ino;
	close(fd);
	if (!same)
		return COLL_RAW_SWAPPED;
	ret = ring_buffer_wait_arm_at(coll.watched, (int)cpu, (uint32_t)target);
	return ret < 0 ? ret : ret == RING_BUFFER_WAIT_READY;
}

/* One call; the reply's payload goes to @out (COLL_MAX_PAYLOAD).  Under coll.lock. */
static int64_t coll_call(const struct coll_msg *m, const char *payload, char *out,
			 uint32_t *outlen, int *fdp)
{
	struct coll_dir_ctx dir = { .buf = out, .size = COLL_MAX_PAYLOAD };
	char name[NAME_MAX + 1];
	struct tfs_stat st;
	struct tfs_file *f;
	int64_t ret;

	*outlen = 0;
	if (m->op == COLL_LOOKUP || m->op == COLL_MKDIR || m->op == COLL_RMDIR) {
		if (!m->len || m->len > NAME_MAX || memchr(payload, 0, m->len))
			return -EINVAL;
		memcpy(name, payload, m->len);
		name[m->len] = 0;
	}
	switch (m->op) {
	case COLL_LOOKUP:
	case COLL_GETATTR:
	case COLL_MKDIR:
		ret = m->op == COLL_LOOKUP ? tfs_lookup(m->a, name, &st) :
		      m->op == COLL_MKDIR ? tfs_mkdir(m->a, name, &st) : tfs_getattr(m->a, &st);
		if (!ret) {
			coll_stat_out(&st, (struct coll_stat *)out);
			*outlen = sizeof(struct coll_stat);
		}
		return ret;
	case COLL_RMDIR:
		return tfs_rmdir(m->a, name);
	case COLL_READDIR:
		ret = tfs_readdir(m->a, (off_t)m->b, coll_dir_fill, &dir);
		*outlen = (uint32_t)dir.len;
		return ret;
	case COLL_OPEN:
		ret = tfs_open(m->a, (int)m->c, &f);
		if (ret)
			return ret;
		ret = coll_handle_new(f);
		if (ret < 0)
			tfs_release(f);
		return ret;
	case COLL_READ:
		f = coll_handle(m->a);
		if (!f)
			return -EBADF;
		ret = tfs_read(f, out, m->d < COLL_MAX_PAYLOAD ? m->d : COLL_MAX_PAYLOAD,
			       (off_t)m->b);
		if (ret > 0)
			*outlen = (uint32_t)ret;
		return ret;
	case COLL_WRITE:
		f = coll_handle(m->a);
		if (!f)
			return -EBADF;
		tfs_set_writer((pid_t)m->d);
		ret = tfs_write(f, payload, m->len, (off_t)m->b, m->c);
		tfs_set_writer(0);
		return ret;
	case COLL_FLUSH:
		f = coll_handle(m->a);
		return f ? tfs_flush(f) : -EBADF;
	case COLL_READABLE:
		f = coll_handle(m->a);
		return f ? tfs_readable(f) : -EBADF;
	case COLL_WAIT_ARM:
		f = coll_handle(m->a);
		return f ? coll_wait_arm(f, fdp) : -EBADF;
	case COLL_RAW_ARM:
		return coll_raw_arm(m->a, m->b);

	case COLL_RELEASE:
		f = coll_handle(m->a);
		if (!f)
			return -EBADF;
		coll.handles[m->a] = NULL;
		tfs_release(f);
		return 0;
	case COLL_TRUNCATE:
		return tfs_truncate(m->a);
	}
	return -ENOSYS;
}

/*
 * The thread names at the start of the format log (coll_proto.h), mapped
 * shared: trace.c's saved_cmdlines copies every name it saves there
 * (trace_set_cmdline_mirror()), so that the collector has them even if we
 * are SIGKILLed before exit() logs our saved_cmdlines.  A forked child
 * writes its names there too: its events are in its parent's buffer.
 */
static struct coll_name *coll_names;
static size_t coll_names_size;

static void coll_name_put(int pid, int tgid, const char *comm)
{
	struct coll_name *t = __atomic_load_n(&coll_names, __ATOMIC_ACQUIRE), *e;

	if (!t || pid <= 0)
		return;
	e = &t[(unsigned int)pid % COLL_NAMES];
	/* A process killed in the middle leaves pid 0: no torn name. */
	__atomic_store_n(&e->pid, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	strncpy(e->comm, comm, sizeof(e->comm) - 1);
	e->comm[sizeof(e->comm) - 1] = 0;
	__atomic_store_n(&e->tgid, tgid, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&e->pid, pid, __ATOMIC_RELEASE);
}

static void coll_name_fill(int pid, int tgid, const char *comm, void *priv)
{
	(void)priv;
	coll_name_put(pid, tgid, comm);
}

/*
 * A new format log (@fd, empty): room for its names table, the log's
 * records after it (Return: -errno if there is none: no log), and the
 * table mapped and filled (without the mapping it stays zeroes).  Under
 * coll.lock.
 */
static int coll_names_map(int fd)
{
	struct coll_name *old = __atomic_exchange_n(&coll_names, NULL, __ATOMIC_ACQ_REL);
	void *t;

	trace_set_cmdline_mirror(NULL);		/* no copy in flight into the old one */
	if (old)
		munmap(old, coll_names_size);
	if (ftruncate(fd, (off_t)COLL_NAMES_SIZE) ||
	    lseek(fd, (off_t)COLL_NAMES_SIZE, SEEK_SET) != (off_t)COLL_NAMES_SIZE)
		return -errno;
	t = mmap(NULL, COLL_NAMES_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (t == MAP_FAILED)
		return 0;
	coll_names_size = COLL_NAMES_SIZE;
	__atomic_store_n(&coll_names, (struct coll_name *)t, __ATOMIC_RELEASE);
	trace_set_cmdline_mirror(coll_name_put);
	trace_for_each_saved_cmdline(coll_name_fill, NULL);
	return 0;
}

/*
 * The top-level buffer's memfd, for the collector to keep (its events
 * outlive us), and our clock's scale; the format log made and filled.
 * Return: the descriptor or -errno; the scale in @out.
 */
static int coll_getbuf(char *out, uint32_t *outlen)
{
	struct trace_array *tr = trace_array_top();
	struct trace_buffer *b = tr ? trace_array_buffer(tr) : NULL;
	struct stat st;
	size_t size;
	int fd;

	*outlen = 0;
	if (!b)
		return -ENOMEM;
	if (!coll_fmt_ours()) {
		coll.fmt_fd = memfd_create("ustrace-formats", MFD_CLOEXEC);
		if (coll.fmt_fd >= 0 && (fstat(coll.fmt_fd, &st) || coll_names_map(coll.fmt_fd))) {
			close(coll.fmt_fd);
			coll.fmt_fd = -1;
		} else if (coll.fmt_fd >= 0) {
			coll.fmt_dev = st.st_dev;
			coll.fmt_ino = st.st_ino;
		}
		for (struct coll_event *e = __atomic_load_n(&coll.events, __ATOMIC_ACQUIRE); e;
		     e = e->next)
			e->logged = false;
	}
	coll_fmt_log_locked();
	ustrace_clock_local_scale((struct ustrace_clock_scale *)out);
	*outlen = sizeof(struct ustrace_clock_scale);
	fd = ring_buffer_memfd(b, &size);
	if (fd >= 0 && !fstat(fd, &st)) {
		coll.watched = b;
		coll.watched_dev = st.st_dev;
		coll.watched_ino = st.st_ino;
	}
	return fd;
}

/* ------------------------------------------------------------------
 * Registration and the thread
 */

static int coll_connect_locked(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	struct stat st;
	int fd, err;

	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/" COLL_SOCK_NAME, coll.rundir) >=
	    (int)sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	if (lstat(sa.sun_path, &st))
		return -errno;
	if (!S_ISSOCK(st.st_mode))
		return -ENOTSOCK;
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		fprintf(stderr, "ustrace: %s belongs to uid %u, not to us or root: "
			"not registering\n", sa.sun_path, (unsigned int)st.st_uid);
		return -EPERM;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) ||
	    (cred.uid != geteuid() && cred.uid != 0)) {
		fprintf(stderr, "ustrace: the collector at %s runs as uid %u, not as us or "
			"root: not registering\n", coll.rundir, (unsigned int)cred.uid);
		close(fd);
		return -EPERM;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	coll.sock = fd;
	coll.sock_dev = st.st_dev;
	coll.sock_ino = st.st_ino;
	coll.pid = getpid();
	coll.lost = false;
	return 0;
}

static int coll_register_locked(char *buf)
{
	struct coll_msg m = { .op = COLL_HELLO, .b = (uint64_t)getpid(), .c = COLL_VERSION };
	char payload[16 + 1 + PATH_MAX];
	const struct coll_msg *r = (const struct coll_msg *)buf;
	struct timespec t0, t;
	ssize_t n, plen;
	long left;
	int err;

	snprintf(payload, 16, "%s", program_invocation_short_name);
	plen = (ssize_t)strlen(payload) + 1;
	n = readlink("/proc/self/exe", payload + plen, PATH_MAX - 1);
	plen += n > 0 ? n : 0;
	m.len = (uint32_t)plen;
	err = coll_send(&m, payload, (size_t)plen);
	if (err)
		return err;
	coll_state_free();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = COLL_HELLO_WAIT_MS - ((t.tv_sec - t0.tv_sec) * 1000 +
					     (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			return -ETIMEDOUT;
		n = coll_recv(buf, (int)left, true);
		if (n <= 0)
			return n ? (int)n : -ECONNRESET;
		if (r->op == COLL_WELCOME) {
			/* The collector's clock, unless ours was read already. */
			if (r->len == sizeof(struct ustrace_clock_scale))
				ustrace_clock_local_adopt((const void *)(buf + sizeof(*r)));
			break;
		}
		if (r->op == COLL_STATE)
			coll_state_add(r, buf + sizeof(*r));
		else if (r->op != COLL_REPLY)
			return -EPROTO;
	}
	coll.welcomed = true;
	coll.globals_applied = false;
	for (struct coll_event *e = __atomic_load_n(&coll.events, __ATOMIC_ACQUIRE); e;
	     e = e->next)
		e->applied = false;
	return 0;
}

/*
 * BUFFER: the top-level buffer's memfd and the format log, right after
 * WELCOME, so that the collector holds them before the program runs on.
 * A buffer made before we could keep its memfd is not sent (the collector
 * then has the tree, not the flight recorder).  Under coll.lock.
 */
static int coll_send_buffer_locked(void)
{
	struct coll_msg m = { .op = COLL_BUFFER };
	char scale[sizeof(struct ustrace_clock_scale)];
	uint32_t len;
	int fd = coll_getbuf(scale, &len), err;

	m.len = len;
	err = coll_send_fds(&m, scale, len, fd, fd >= 0 && coll_fmt_ours() ? coll.fmt_fd : -1);
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * Connect and register; say why not on stderr when the collector is there
 * but failed us (once: not again when @again).
 */
static int coll_join_locked(char *buf, bool again)
{
	int err = coll_connect_locked();

	if (err)
		return err;
	err = coll_register_locked(buf);
	if (!err)
		err = coll_send_buffer_locked();
	if (err) {
		static bool said_mute;

		if (err == -ETIMEDOUT && !said_mute)
			fprintf(stderr, "ustrace: the collector at %s does not answer: running "
				"untraced\n", coll.rundir);
		else if (err != -ETIMEDOUT && !again)
			fprintf(stderr, "ustrace: the collector at %s: %s: running untraced\n",
				coll.rundir, strerror(-err));
		said_mute |= err == -ETIMEDOUT;
		coll_disconnect();
	}
	return err;
}

/* Serve the collector until it goes. */
static void coll_serve(char *buf, char *out)
{
	const struct coll_msg *m = (const struct coll_msg *)buf;
	struct coll_msg r;
	uint32_t outlen;
	ssize_t n;

	for (;;) {
		n = coll_recv(buf, -1, false);
		pthread_mutex_lock(&coll.lock);
		if (n <= 0) {
			coll_disconnect();
			coll_unlock();
			return;
		}
		if (m->op == COLL_STATE) {
			coll_state_add(m, buf + sizeof(*m));
		} else if (m->op == COLL_WARN) {
			fprintf(stderr, "%.*s", (int)m->len, buf + sizeof(*m));
		} else if (m->op >= COLL_LOOKUP && m->op < COLL_NR_OPS) {
			int fd = -1;

			r = (struct coll_msg){ .op = COLL_REPLY, .seq = m->seq };
			r.ret = coll_call(m, buf + sizeof(*m), out, &outlen, &fd);
			r.len = outlen;
			coll_send_fds(&r, out, outlen, fd, -1);
			if (fd >= 0)
				close(fd);
		}
		coll_unlock();
	}
}

/*
 * Wait (without waking) for collector.sock in the run directory: one
 * that is there already, unless @fresh (the one there failed us), or the
 * next one a collector makes.  Return: false when the directory went.
 */
static bool coll_wait_for_collector(bool fresh)
{
	char ev[sizeof(struct inotify_event) + NAME_MAX + 1] __attribute__((aligned(8)));
	char path[PATH_MAX + sizeof(COLL_SOCK_NAME) + 1];
	struct stat st;
	bool found = false;
	ssize_t n;
	int fd;

	fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0)
		return false;
	if (inotify_add_watch(fd, coll.rundir, IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF) < 0) {
		close(fd);
		return false;
	}
	snprintf(path, sizeof(path), "%s/" COLL_SOCK_NAME, coll.rundir);
	if (!fresh && !lstat(path, &st) && S_ISSOCK(st.st_mode))
		found = true;
	while (!found) {
		n = read(fd, ev, sizeof(ev));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (char *p = ev; p < ev + n;) {
			const struct inotify_event *ie = (const struct inotify_event *)p;

			if (ie->mask & (IN_DELETE_SELF | IN_IGNORED))
				goto out;
			if (ie->len && !strcmp(ie->name, COLL_SOCK_NAME))
				found = true;
			p += sizeof(*ie) + ie->len;
		}
	}
out:
	close(fd);
	return found;
}

static void *coll_thread(void *arg)
{
	char *buf = malloc(sizeof(struct coll_msg) + COLL_MAX_PAYLOAD);
	char *out = malloc(COLL_MAX_PAYLOAD);
	bool fresh, connected, stop;
	int err, tries;

	(void)arg;
	if (!buf || !out || tfs_init())
		goto out;
	pthread_mutex_lock(&coll.lock);
	fresh = coll.sock < 0 && !coll.timed_out;	/* the one there at start failed us */
	coll_unlock();
	for (;;) {
		coll_apply_pending();
		pthread_mutex_lock(&coll.lock);
		connected = coll.sock >= 0;
		coll_unlock();
		if (connected)
			coll_serve(buf, out);
		pthread_mutex_lock(&coll.lock);
		stop = coll.lost || coll.pid != getpid();
		coll_unlock();
		if (stop)
			break;
		if (!coll_wait_for_collector(fresh))
			break;
		/*
		 * A new collector binds, then listens: it may refuse for a
		 * moment.  One too busy to answer in time is asked again.
		 */
		for (tries = 0; tries < 20 + COLL_RETRIES; tries++) {
			pthread_mutex_lock(&coll.lock);
			err = coll_join_locked(buf, tries > 0);
			coll_unlock();
			if (err == -ECONNREFUSED && tries < 20)
				usleep(25000);
			else if (err == -ETIMEDOUT)
				usleep(COLL_RETRY_MS * 1000);
			else
				break;
		}
		fresh = true;
	}
out:
	free(buf);
	free(out);
	return NULL;
}

static int coll_start_thread(void)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	int err;

	sigfillset(&all);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t, &attr, coll_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (!err)
		pthread_setname_np(t, "ustrace-coll");
	return -err;
}

/*
 * fork(): outermost level (coll.lock nests the tree's locks).  The child
 * keeps no connection and no thread.
 */
static void coll_atfork_prepare(void)
{
	pthread_mutex_lock(&coll.lock);
}

static void coll_atfork_parent(void)
{
	pthread_mutex_unlock(&coll.lock);
}

static void coll_atfork_child(void)
{
	struct stat st;
	unsigned int i;

	if (coll.sock >= 0 && !fstat(coll.sock, &st) && st.st_dev == coll.sock_dev &&
	    st.st_ino == coll.sock_ino)
		close(coll.sock);
	coll.sock = -1;
	coll.welcomed = false;
	coll.lost = true;
	if (coll_fmt_ours())
		close(coll.fmt_fd);
	coll.fmt_fd = -1;
	/*
	 * The names table stays mapped, and written: the child's events go
	 * into its parent's buffer, and the collector names them from the
	 * parent's table (a slot both write at once comes out as one name
	 * or the other, or is left out: the reader checks each).
	 */
	for (i = 0; i < COLL_MAX_HANDLES; i++)
		coll.handles[i] = NULL;
	ustrace_fork_reinit_mutex(&coll.lock, PTHREAD_MUTEX_DEFAULT);
}

static const struct ustrace_fork_ops coll_fork_ops = {
	.prepare	= coll_atfork_prepare,
	.parent		= coll_atfork_parent,
	.child		= coll_atfork_child,
};

/**
 * coll_rundir - the collector's run directory
 * @buf: where it is written (PATH_MAX)
 *
 * $USTRACE_RUNDIR; else /run/ustrace for root, $XDG_RUNTIME_DIR/ustrace
 * for the others.  Return: 0, -ENOENT (no variable says where).
 */
int coll_rundir(char *buf, size_t size)
{
	const char *dir = ustrace_getenv_path("USTRACE_RUNDIR"), *xdg;

	if (dir && *dir)
		return snprintf(buf, size, "%s", dir) < (int)size ? 0 : -ENAMETOOLONG;
	if (ustrace_env_untrusted())
		return -ENOENT;
	if (geteuid() == 0)
		return snprintf(buf, size, "/run/ustrace") < (int)size ? 0 : -ENAMETOOLONG;
	xdg = secure_getenv("XDG_RUNTIME_DIR");
	if (!xdg || *xdg != '/')
		return -ENOENT;
	return snprintf(buf, size, "%s/ustrace", xdg) < (int)size ? 0 : -ENAMETOOLONG;
}

/**
 * ustrace_collector_rundir - where programs look for the collector
 * @buf:  PATH_MAX bytes
 *
 * Return: 0, or -ENOENT when no variable says (not root, no
 * XDG_RUNTIME_DIR and no USTRACE_RUNDIR).
 */
int ustrace_collector_rundir(char *buf, size_t size)
{
	return coll_rundir(buf, size);
}

__attribute__((constructor))
static void coll_client_startup(void)
{
	const char *opt = ustrace_getenv("USTRACE_DAEMON");
	const char *embedded = ustrace_getenv_path("USTRACE_TRACEFS");
	struct stat st;
	char *buf;
	int err;

	ustrace_fork_register(USTRACE_FORK_COLLECTOR, &coll_fork_ops);
	if (ustrace_is_tool() || (opt && !strcmp(opt, "0")) || (embedded && *embedded))
		return;
	if (coll_rundir(coll.rundir, sizeof(coll.rundir)) || stat(coll.rundir, &st) ||
	    !S_ISDIR(st.st_mode))
		return;
	if (trace_event_notifier_register(coll_event_notify))
		return;
	/* Buffers made from now on can be handed to a collector. */
	ring_buffer_keep_memfds();
	ustrace_atexit(coll_log_cmdlines);
	trace_event_post_register(coll_apply_pending);
	buf = malloc(sizeof(struct coll_msg) + COLL_MAX_PAYLOAD);
	if (!buf)
		return;
	pthread_mutex_lock(&coll.lock);
	coll.pid = getpid();
	err = coll_join_locked(buf, false);
	coll.timed_out = err == -ETIMEDOUT;
	coll_unlock();
	free(buf);
	/* Registered, or the collector may come later: the thread serves, or waits. */
	(void)err;
	coll.thread_started = !coll_start_thread();
}
