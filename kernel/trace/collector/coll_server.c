// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The collector (Documentation/trace/system-mode.rst): one tracefs for
 * every traced program of its user.  This file owns the run directory,
 * the socket programs register on, and the registered processes; the
 * tree it serves over them is coll_tree.c, mounted at $RUNDIR/tracing by
 * the library's FUSE server (tfs_serve()).
 *
 * The run directory ($USTRACE_RUNDIR, or /run/ustrace for root,
 * $XDG_RUNTIME_DIR/ustrace for the others) is made 0700 if missing, and
 * refused if it belongs to someone else or others may write into it.
 * It holds collector.lock (flock: one collector per directory),
 * collector.sock (0700) and tracing/.  A program is accepted when its
 * SO_PEERCRED uid is the collector's, or, with the option group=GID,
 * when that group is one of its groups (then the directory is 0750 and
 * the socket 0770, both of that group, so that its members reach them).
 *
 * Threads: the caller's (ustrace_collector_run()) accepts and registers;
 * the FUSE server's workers make the calls into the processes
 * (coll_proc_call()), one call at a time per process.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <ustrace/collector.h>
#include <ustrace/tracefs.h>

#include "../../internal.h"
#include "../tracefs/tracefs.h"
#include "collector.h"

#define COLL_HELLO_READ_MS	500
#define COLL_BACKLOG		64
/* SO_PEERGROUPS: at most this many groups of a peer are looked at. */
#define COLL_PEER_GROUPS	256

struct coll_proc {
	struct coll_proc	*next;
	int			refs;		/* under coll_procs_lock */
	bool			dead;		/* under coll_procs_lock */
	bool			learning;	/* a learner runs (coll_procs_lock) */
	bool			relearn;	/* and must walk again */
	bool			texts_read;	/* the learner read the texts */
	bool			said;		/* "registered" logged (coll_procs_lock) */
	uint64_t		ticket;		/* its first walk's turn (coll_procs_lock) */
	bool			skip_pollin;	/* accept loop: a call is reading */
	pthread_mutex_t		call_lock;	/* one call at a time */
	uint32_t		seq;		/* under call_lock */
	int			sock;
	uint64_t		id;
	pid_t			pid;
	uint32_t		version;	/* the protocol its hello said */
	char			comm[17];
};

static void coll_proc_note_events(struct coll_proc *p);

static pthread_mutex_t coll_procs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct coll_proc *coll_procs, **coll_procs_tail = &coll_procs;
static uint64_t coll_next_id;
/* First walks in the order of registration: coll_learn_turn(). */
static pthread_cond_t coll_learn_cond = PTHREAD_COND_INITIALIZER;
static uint64_t coll_learn_tickets, coll_learn_done;
static int coll_stop_fd = -1;
static char coll_dir[PATH_MAX];

void coll_log(bool error, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ustrace daemon: %s\n", line);
	if (error)
		coll_tree_log(line);
}

static void coll_proc_unref_locked(struct coll_proc *p)
{
	struct coll_proc **pp;

	if (--p->refs)
		return;
	for (pp = &coll_procs; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			if (coll_procs_tail == &p->next)
				coll_procs_tail = pp;
			break;
		}
	}
	close(p->sock);
	pthread_mutex_destroy(&p->call_lock);
	free(p);
}

/* Under coll_procs_lock: the process is gone, or gave up on. */
static void coll_proc_kill_locked(struct coll_proc *p)
{
	if (p->dead)
		return;
	__atomic_store_n(&p->dead, true, __ATOMIC_RELAXED);
	coll_proc_unref_locked(p);	/* the list's reference */
}

int coll_procs_get(struct coll_proc ***procs)
{
	struct coll_proc *p, **v;
	int nr = 0, i = 0;

	pthread_mutex_lock(&coll_procs_lock);
	for (p = coll_procs; p; p = p->next)
		nr += !p->dead;
	v = nr ? calloc((size_t)nr, sizeof(*v)) : NULL;
	if (nr && !v) {
		pthread_mutex_unlock(&coll_procs_lock);
		return -ENOMEM;
	}
	for (p = coll_procs; p; p = p->next) {
		if (!p->dead) {
			p->refs++;
			v[i++] = p;
		}
	}
	pthread_mutex_unlock(&coll_procs_lock);
	*procs = v;
	return nr;
}

void coll_procs_put(struct coll_proc **procs, int nr)
{
	int i;

	pthread_mutex_lock(&coll_procs_lock);
	for (i = 0; i < nr; i++)
		coll_proc_unref_locked(procs[i]);
	pthread_mutex_unlock(&coll_procs_lock);
	free(procs);
}

pid_t coll_proc_pid(const struct coll_proc *p)
{
	return p->pid;
}

uint32_t coll_proc_version(const struct coll_proc *p)
{
	return p->version;
}

const char *coll_proc_comm(const struct coll_proc *p)
{
	return p->comm;
}

uint64_t coll_proc_id(const struct coll_proc *p)
{
	return p->id;
}

void coll_procs_ref_one(struct coll_proc *p)
{
	pthread_mutex_lock(&coll_procs_lock);
	p->refs++;
	pthread_mutex_unlock(&coll_procs_lock);
}

void coll_procs_put_one(struct coll_proc *p)
{
	pthread_mutex_lock(&coll_procs_lock);
	coll_proc_unref_locked(p);
	pthread_mutex_unlock(&coll_procs_lock);
}

void coll_proc_list(struct coll_proc *p)
{
	pthread_mutex_lock(&coll_procs_lock);
	*coll_procs_tail = p;
	coll_procs_tail = &p->next;
	pthread_mutex_unlock(&coll_procs_lock);
}

/*
 * Said once, when the walks of @p's events are done (or will not be
 * made): a user who reads that a program registered can enable its
 * events.
 */
static void coll_proc_say_registered(struct coll_proc *p)
{
	bool say;

	pthread_mutex_lock(&coll_procs_lock);
	say = !p->said;
	p->said = true;
	pthread_mutex_unlock(&coll_procs_lock);
	if (say)
		coll_log(false, "process %d (%s) registered", (int)p->pid, p->comm);
}

static int coll_sendmsg(int sock, const struct coll_msg *m, const void *payload)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)m, .iov_len = sizeof(*m) },
		{ .iov_base = (void *)payload, .iov_len = m->len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = m->len ? 2 : 1 };

	return sendmsg(sock, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 ? -errno : 0;
}

static long coll_ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void coll_proc_give_up(struct coll_proc *p, const char *why)
{
	bool was_live;

	pthread_mutex_lock(&coll_procs_lock);
	was_live = !p->dead;
	if (was_live && why)
		coll_log(true, "process %d (%s) %s: given up on", (int)p->pid, p->comm, why);
	if (was_live)
		shutdown(p->sock, SHUT_RDWR);
	coll_proc_kill_locked(p);
	pthread_mutex_unlock(&coll_procs_lock);
	if (was_live)
		coll_record_gone(p);	/* the caller's reference keeps @p */
}

/*
 * recv() of one message, and of the descriptors it carries: @fdp[0] and
 * @fdp[1] (-1: none; all closed when @fdp is NULL).
 */
static ssize_t coll_recv_fd(int sock, void *buf, size_t size, int *fdp)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} cm;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.buf,
			     .msg_controllen = sizeof(cm.buf) };
	struct cmsghdr *c;
	int fds[2] = { -1, -1 }, nr = 0;
	ssize_t n;

	n = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	for (c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; CMSG_LEN((i + 1) * sizeof(int)) <= c->cmsg_len; i++) {
			int got;

			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (fdp && nr < 2)
				fds[nr++] = got;
			else
				close(got);
		}
	}
	if (fdp) {
		fdp[0] = fds[0];
		fdp[1] = fds[1];
	}
	return n;
}

static void coll_close_fds(int *fdp)
{
	for (int i = 0; fdp && i < 2; i++) {
		if (fdp[i] >= 0)
			close(fdp[i]);
		fdp[i] = -1;
	}
}

int64_t coll_proc_call(struct coll_proc *p, struct coll_msg *msg, const void *payload,
		       void *out, size_t size, uint32_t *outlen)
{
	return coll_proc_call_fd(p, msg, payload, out, size, outlen, NULL);
}

int64_t coll_proc_call_fd(struct coll_proc *p, struct coll_msg *msg, const void *payload,
			  void *out, size_t size, uint32_t *outlen, int *fdp)
{
	char *buf = malloc(sizeof(struct coll_msg) + COLL_MAX_PAYLOAD);
	const struct coll_msg *r = (const struct coll_msg *)buf;
	struct pollfd pfd = { .fd = p->sock, .events = POLLIN };
	struct timespec t0;
	int64_t ret = -ECONNRESET;
	ssize_t n;
	long left;

	*outlen = 0;
	if (!buf)
		return -ENOMEM;
	pthread_mutex_lock(&p->call_lock);
	if (__atomic_load_n(&p->dead, __ATOMIC_RELAXED))
		goto out;
	msg->seq = ++p->seq;
	if (coll_sendmsg(p->sock, msg, payload)) {
		coll_proc_give_up(p, NULL);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		left = COLL_CALL_WAIT_MS - coll_ms_since(&t0);
		if (left <= 0 || poll(&pfd, 1, (int)left) == 0) {
			coll_proc_give_up(p, "did not answer within 2 s");
			ret = -ETIMEDOUT;
			goto out;
		}
		if (fdp)
			fdp[0] = fdp[1] = -1;
		n = coll_recv_fd(p->sock, buf, sizeof(struct coll_msg) + COLL_MAX_PAYLOAD, fdp);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		/* Gone, or a message that is not what the protocol says. */
		if (n < (ssize_t)sizeof(*r) || r->len != n - sizeof(*r)) {
			coll_close_fds(fdp);
			coll_proc_give_up(p, n > 0 ? "broke the protocol" : NULL);
			goto out;
		}
		if (r->op == COLL_EVENTS) {
			coll_proc_note_events(p);
			continue;
		}
		if (r->op != COLL_REPLY || r->seq != msg->seq) {
			coll_close_fds(fdp);
			continue;	/* a late answer to a call given up on */
		}
		ret = r->ret;
		*outlen = r->len < size ? r->len : (uint32_t)size;
		if (*outlen)	/* out may be NULL for a call with no answer text */
			memcpy(out, buf + sizeof(*r), *outlen);
		break;
	}
out:
	pthread_mutex_unlock(&p->call_lock);
	free(buf);
	return ret;
}

int coll_proc_send(struct coll_proc *p, const struct coll_msg *msg, const void *payload)
{
	int err;

	pthread_mutex_lock(&p->call_lock);
	err = coll_sendmsg(p->sock, msg, payload);
	pthread_mutex_unlock(&p->call_lock);
	return err;
}

/*
 * After WELCOME the program sends BUFFER first: take it (its descriptors
 * and scale) before anything else is asked.  A program that does not
 * within COLL_HELLO_READ_MS is listed without a flight record.
 */
void coll_proc_take_buffer(struct coll_proc *p)
{
	char buf[sizeof(struct coll_msg) + 64];
	const struct coll_msg *m = (const struct coll_msg *)buf;
	struct pollfd pfd = { .fd = p->sock, .events = POLLIN };
	struct ustrace_clock_scale scale;
	int fds[2] = { -1, -1 };
	ssize_t n;

	if (poll(&pfd, 1, COLL_HELLO_READ_MS) != 1)
		return;
	n = coll_recv_fd(p->sock, buf, sizeof(buf), fds);
	if (n < (ssize_t)sizeof(*m) || m->op != COLL_BUFFER || m->len != sizeof(scale) ||
	    (size_t)n != sizeof(*m) + sizeof(scale)) {
		coll_close_fds(fds);
		return;
	}
	memcpy(&scale, buf + sizeof(*m), sizeof(scale));
	coll_record_buffer(p, fds, &scale);
}

void coll_procs_state(const struct coll_msg *msg, const void *payload)
{
	struct coll_proc **v;
	int nr, i;

	nr = coll_procs_get(&v);
	for (i = 0; i < nr; i++) {
		pthread_mutex_lock(&v[i]->call_lock);
		if (coll_sendmsg(v[i]->sock, msg, payload))
			coll_proc_give_up(v[i], NULL);
		pthread_mutex_unlock(&v[i]->call_lock);
	}
	if (nr > 0)
		coll_procs_put(v, nr);
}

/* ------------------------------------------------------------------
 * Registration
 */

/*
 * The learner of a process: walks its events (coll_tree_learn()), reads
 * its texts the first time, and walks again as long as the process says
 * it registered more events (EVENTS) meanwhile.  It holds a reference.
 */
/*
 * The first walk of a process waits for those of the processes that
 * registered before it, so that of two formats of one event the first
 * registered is the one served and the other refused (coll_tree.c),
 * whichever learner is quicker.  At most COLL_LEARN_TURN_MS: a process
 * slow to answer delays the ones after it by that much, not for ever.
 */
#define COLL_LEARN_TURN_MS	2000

static void coll_learn_turn(struct coll_proc *p)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += COLL_LEARN_TURN_MS / 1000;
	pthread_mutex_lock(&coll_procs_lock);
	while (coll_learn_done + 1 < p->ticket &&
	       !pthread_cond_timedwait(&coll_learn_cond, &coll_procs_lock, &until))
		;
	pthread_mutex_unlock(&coll_procs_lock);
}

/* Its first walk is done (or will not be made): the next may go. */
static void coll_learn_turn_done(struct coll_proc *p)
{
	pthread_mutex_lock(&coll_procs_lock);
	if (coll_learn_done < p->ticket) {
		coll_learn_done = p->ticket;
		pthread_cond_broadcast(&coll_learn_cond);
	}
	pthread_mutex_unlock(&coll_procs_lock);
}

static void *coll_learner(void *arg)
{
	struct coll_proc *p = arg;
	bool again, first = !p->texts_read;

	if (first)
		coll_learn_turn(p);
	do {
		coll_tree_learn(p);
		if (first) {
			coll_learn_turn_done(p);
			first = false;
		}
		if (!p->texts_read) {
			p->texts_read = true;
			coll_record_texts(p);
		}
		pthread_mutex_lock(&coll_procs_lock);
		again = p->relearn && !p->dead;
		p->relearn = false;
		p->learning = again;
		pthread_mutex_unlock(&coll_procs_lock);
	} while (again);
	/*
	 * The events its constructors registered after the hello have each
	 * asked for a walk (EVENTS): walked, when none is asked for any more.
	 */
	coll_proc_say_registered(p);
	coll_procs_put_one(p);
	return NULL;
}

/* The process has events to learn (it registered, or registered more). */
static void coll_proc_note_events(struct coll_proc *p)
{
	pthread_attr_t attr;
	pthread_t t;
	bool start;

	pthread_mutex_lock(&coll_procs_lock);
	start = !p->learning && !p->dead;
	if (start) {
		p->learning = true;
		p->refs++;
		if (!p->ticket)
			p->ticket = ++coll_learn_tickets;
	} else {
		p->relearn = true;
	}
	pthread_mutex_unlock(&coll_procs_lock);
	if (!start)
		return;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, coll_learner, p)) {
		coll_learn_turn_done(p);
		coll_proc_say_registered(p);
		pthread_mutex_lock(&coll_procs_lock);
		p->learning = false;
		pthread_mutex_unlock(&coll_procs_lock);
		coll_procs_put_one(p);
	}
	pthread_attr_destroy(&attr);
}

/*
 * What a process says unasked (EVENTS), read by the accept loop when no
 * call is reading the socket.  Return: false if the process is gone.
 */
static bool coll_proc_drain(struct coll_proc *p)
{
	char buf[sizeof(struct coll_msg) + 64];
	const struct coll_msg *m = (const struct coll_msg *)buf;
	ssize_t n;

	if (pthread_mutex_trylock(&p->call_lock)) {
		p->skip_pollin = true;	/* the call reads it */
		return true;
	}
	while ((n = coll_recv_fd(p->sock, buf, sizeof(buf), NULL)) > 0) {
		if ((size_t)n >= sizeof(*m) && m->op == COLL_EVENTS)
			coll_proc_note_events(p);
	}
	pthread_mutex_unlock(&p->call_lock);
	return !(n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR));
}

/*
 * A tool's LEARN messages, instead of HELLO: the events it read from a
 * program's object, each listed from now on.  At most COLL_LEARN_MAX of
 * them, for at most COLL_HELLO_READ_MS between two.
 */
#define COLL_LEARN_MAX	100000

static bool coll_is_learn(int sock, const struct coll_msg *m)
{
	char *buf;
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	ssize_t n;

	if (m->op != COLL_LEARN)
		return false;
	buf = malloc(sizeof(*m) + COLL_MAX_PAYLOAD);
	for (int i = 0; buf && i < COLL_LEARN_MAX; i++) {
		const struct coll_msg *lm = (const struct coll_msg *)buf;
		size_t sl;

		if (poll(&pfd, 1, COLL_HELLO_READ_MS) != 1)
			break;
		n = recv(sock, buf, sizeof(*m) + COLL_MAX_PAYLOAD, MSG_DONTWAIT);
		if (n < (ssize_t)sizeof(*lm) || lm->op != COLL_LEARN || lm->len != n - sizeof(*lm))
			break;
		sl = strnlen(buf + sizeof(*lm), lm->len);
		if (sl && sl < lm->len)
			coll_tree_learn_format(buf + sizeof(*lm), buf + sizeof(*lm) + sl + 1,
					       lm->len - sl - 1);
	}
	free(buf);
	close(sock);
	return true;
}

/* ustrace dump: instead of HELLO, DUMP; answered here, then closed. */
static bool coll_is_dump(int sock, const struct coll_msg *m)
{
	char drop[sizeof(*m)];

	if (m->op != COLL_DUMP)
		return false;
	/* Taken off the queue: a socket closed with unread data resets its peer. */
	if (recv(sock, drop, sizeof(drop), MSG_DONTWAIT) < 0) {
		close(sock);
		return true;
	}
	coll_record_dump(sock);
	close(sock);
	return true;
}

/* The group whose members' programs are taken too (group=GID), or -1. */
static gid_t coll_group = (gid_t)-1;

/*
 * Is coll_group one of the peer's groups: its effective gid, or one of
 * its supplementary groups as the kernel gives them for the socket
 * (SO_PEERGROUPS, the peer's at connect()), not as /etc/group says.
 */
static bool coll_peer_in_group(int sock, const struct ucred *cred)
{
	gid_t groups[COLL_PEER_GROUPS];
	socklen_t len = sizeof(groups);

	if (coll_group == (gid_t)-1)
		return false;
	if (cred->gid == coll_group)
		return true;
	if (getsockopt(sock, SOL_SOCKET, SO_PEERGROUPS, groups, &len))
		return false;
	for (size_t i = 0; i < len / sizeof(*groups); i++)
		if (groups[i] == coll_group)
			return true;
	return false;
}

static void coll_refuse_peer(const struct ucred *cred)
{
	if (coll_group == (gid_t)-1)
		coll_log(true, "refused process %d of uid %u: this collector takes uid %u only",
			 (int)cred->pid, (unsigned int)cred->uid, (unsigned int)geteuid());
	else
		coll_log(true, "refused process %d of uid %u: this collector takes uid %u "
			 "and the members of group %u only", (int)cred->pid,
			 (unsigned int)cred->uid, (unsigned int)geteuid(),
			 (unsigned int)coll_group);
}

/*
 * A dump hands over every program's events: the collector's user's only,
 * not the group's members' (they may register, not read the others').
 */
static bool coll_refuse_dump(int sock, const struct coll_msg *m, bool own,
			     const struct ucred *cred)
{
	if (own || m->op != COLL_DUMP)
		return false;
	coll_log(true, "refused a dump by process %d of uid %u: only uid %u may dump",
		 (int)cred->pid, (unsigned int)cred->uid, (unsigned int)geteuid());
	close(sock);
	return true;
}

static void coll_accept_one(int lsock)
{
	char buf[sizeof(struct coll_msg) + 16 + 1 + PATH_MAX];
	const struct coll_msg *m = (const struct coll_msg *)buf;
	struct pollfd pfd = { .events = POLLIN };
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	struct coll_proc *p;
	ssize_t n;
	bool own;
	int sock;

	sock = accept4(lsock, NULL, NULL, SOCK_CLOEXEC);
	if (sock < 0)
		return;
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &cl)) {
		close(sock);
		return;
	}
	own = cred.uid == geteuid();
	if (!own && !coll_peer_in_group(sock, &cred)) {
		coll_refuse_peer(&cred);
		close(sock);
		return;
	}
	pfd.fd = sock;
	if (poll(&pfd, 1, COLL_HELLO_READ_MS) == 1 &&
	    (n = recv(sock, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT)) >= (ssize_t)sizeof(*m) &&
	    (coll_refuse_dump(sock, m, own, &cred) || coll_is_dump(sock, m) ||
	     coll_is_learn(sock, m)))
		return;
	if (poll(&pfd, 1, COLL_HELLO_READ_MS) != 1 ||
	    (n = recv(sock, buf, sizeof(buf), MSG_DONTWAIT)) < (ssize_t)sizeof(*m) ||
	    m->op != COLL_HELLO || m->len != n - sizeof(*m) || m->c < COLL_VERSION_MIN ||
	    m->c > COLL_VERSION) {
		coll_log(true, "process %d: no hello of protocol %d to %d: refused", (int)cred.pid,
			 COLL_VERSION_MIN, COLL_VERSION);
		close(sock);
		return;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		close(sock);
		return;
	}
	p->sock = sock;
	p->pid = cred.pid;	/* the kernel's word, not the hello's */
	p->refs = 1;
	p->id = ++coll_next_id;
	p->version = m->c;
	pthread_mutex_init(&p->call_lock, NULL);
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)strnlen(buf + sizeof(*m), m->len),
		 buf + sizeof(*m));
	/*
	 * The remembered writes go first, then WELCOME, and only then is the
	 * process listed: a write made meanwhile is sent to it as STATE after
	 * the ones it has (the tree's lock orders them, coll_tree.c).
	 */
	if (coll_tree_welcome(p)) {
		pthread_mutex_destroy(&p->call_lock);
		free(p);
		close(sock);
		return;
	}
	/* The walk takes many calls: in a thread, not in the way of the next registration. */
	coll_proc_note_events(p);
}


/* Make or check the run directory: ours, and nobody else's to write. */
static int coll_prepare_dir(const char *dir)
{
	char tmp[PATH_MAX], *s;
	struct stat st;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (s = tmp + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		fprintf(stderr, "ustrace daemon: %s belongs to uid %u with mode %03o: it must be "
			"ours and not writable by others\n", dir, (unsigned int)st.st_uid,
			(unsigned int)(st.st_mode & 0777));
		return -EPERM;
	}
	/* The group's members must reach the socket; nobody else. */
	if (coll_group != (gid_t)-1 && (chown(dir, (uid_t)-1, coll_group) || chmod(dir, 0750)))
		return -errno;
	return 0;
}

/*
 * Take the collector's own option, group=GID, out of @options; the rest
 * are the mount's (@rest, as long as @options).  Return: 0, -EINVAL.
 */
static int coll_take_options(const char *options, char *rest, size_t size)
{
	const char *s = options ? options : "";
	size_t used = 0;

	coll_group = (gid_t)-1;
	*rest = 0;
	while (*s) {
		const char *end = strchrnul(s, ',');
		size_t len = (size_t)(end - s);

		if (len > 6 && !strncmp(s, "group=", 6)) {
			if (tfs_parse_gid(s + 6, len - 6, &coll_group))
				return -EINVAL;
		} else if (len) {
			if (used + !!used + len + 1 > size)
				return -EINVAL;
			if (used)
				rest[used++] = ',';
			memcpy(rest + used, s, len);
			rest[used += len] = 0;
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/**
 * ustrace_collector_stop - make ustrace_collector_run() return
 *
 * Context: async-signal-safe (a signal handler of the daemon).
 */
void ustrace_collector_stop(void)
{
	uint64_t one = 1;

	if (coll_stop_fd >= 0 && write(coll_stop_fd, &one, sizeof(one)) < 0)
		return;
}

/*
 * ustrace_collector_learn() in the collector itself, for the run directory
 * it serves (ustrace daemon --learn, from its ready callback, before the
 * accept loop could read a LEARN): into the tree at once.  Return: 0, or
 * -ENOENT when this process does not serve @rundir.  The collector's thread.
 */
int coll_learn_local(const char *rundir, const char *system, const char *format)
{
	char dir[PATH_MAX];

	if (coll_stop_fd < 0)
		return -ENOENT;
	if (rundir && *rundir) {
		if (snprintf(dir, sizeof(dir), "%s", rundir) >= (int)sizeof(dir))
			return -ENOENT;
	} else if (coll_rundir(dir, sizeof(dir))) {
		return -ENOENT;
	}
	if (strcmp(dir, coll_dir))
		return -ENOENT;
	coll_tree_learn_format(system, format, strlen(format));
	return 0;
}

static int coll_run(const char *rundir, const char *options, void (*ready)(void));

/**
 * ustrace_collector_run - be the collector until ustrace_collector_stop()
 * @rundir:  the run directory, NULL for the default (see coll_rundir())
 * @options: the tracefs mount's options, as ustrace_tracefs_mount()'s, and
 *           the collector's own group=GID (take that group's programs too)
 * @ready:   called once the tree is mounted and programs may register
 *
 * See ustrace-daemon(1).  Return: 0 when stopped, or -errno: -EBUSY
 * (another collector serves @rundir), -EPERM (@rundir is not ours), or
 * what ustrace_tracefs_mount(3) returns.
 */
int ustrace_collector_run(const char *rundir, const char *options, void (*ready)(void))
{
	char *mount_opts;
	int err;

	mount_opts = malloc(options ? strlen(options) + 1 : 1);
	if (!mount_opts)
		return -ENOMEM;
	err = coll_take_options(options, mount_opts, options ? strlen(options) + 1 : 1);
	if (!err)
		err = coll_run(rundir, options ? mount_opts : NULL, ready);
	free(mount_opts);
	return err;
}

static int coll_run(const char *rundir, const char *options, void (*ready)(void))
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[PATH_MAX + 32];
	int lock_fd = -1, lsock = -1, err;
	mode_t um;

	if (rundir && *rundir)
		err = snprintf(coll_dir, sizeof(coll_dir), "%s", rundir) < (int)sizeof(coll_dir) ?
		      0 : -ENAMETOOLONG;
	else
		err = coll_rundir(coll_dir, sizeof(coll_dir));
	if (err)
		return err;
	err = coll_prepare_dir(coll_dir);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/collector.lock", coll_dir);
	lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lock_fd < 0)
		return -errno;
	if (flock(lock_fd, LOCK_EX | LOCK_NB)) {
		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/" COLL_TREE_NAME, coll_dir);
	if (mkdir(path, 0700) && errno != EEXIST) {
		err = -errno;
		goto out;
	}
	err = tfs_serve(path, options, &coll_tree_backend);
	if (err)
		goto out;

	coll_stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	lsock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (coll_stop_fd < 0 || lsock < 0) {
		err = -errno;
		goto out_unmount;
	}
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/" COLL_SOCK_NAME, coll_dir) >=
	    (int)sizeof(sa.sun_path)) {
		err = -ENAMETOOLONG;
		goto out_unmount;
	}
	unlink(sa.sun_path);	/* a dead collector's: the lock says none serves */
	um = umask(077);
	err = bind(lsock, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	umask(um);
	if (!err && coll_group != (gid_t)-1 &&
	    (chown(sa.sun_path, (uid_t)-1, coll_group) || chmod(sa.sun_path, 0770)))
		err = -errno;
	if (!err && listen(lsock, COLL_BACKLOG))
		err = -errno;
	if (err)
		goto out_unmount;
	coll_wait_start();
	if (ready)
		ready();

	for (;;) {
		struct coll_proc **v = NULL;
		struct pollfd *pfd;
		int nr = coll_procs_get(&v), i;

		nr = nr < 0 ? 0 : nr;
		pfd = calloc((size_t)nr + 2, sizeof(*pfd));
		if (!pfd) {
			coll_procs_put(v, nr);
			err = -ENOMEM;
			break;
		}
		pfd[0] = (struct pollfd){ .fd = lsock, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = coll_stop_fd, .events = POLLIN };
		/*
		 * A process's end: its socket hangs up; what it says unasked
		 * (EVENTS) is read here when no call is reading.
		 */
		bool skipped = false;

		for (i = 0; i < nr; i++) {
			short ev = POLLRDHUP | (v[i]->skip_pollin ? 0 : POLLIN);

			skipped |= v[i]->skip_pollin;
			v[i]->skip_pollin = false;
			pfd[i + 2] = (struct pollfd){ .fd = v[i]->sock, .events = ev };
		}
		if (poll(pfd, (nfds_t)nr + 2, skipped ? 50 : -1) < 0 && errno != EINTR) {
			err = -errno;
			free(pfd);
			coll_procs_put(v, nr);
			break;
		}
		for (i = 0; i < nr; i++) {
			if (pfd[i + 2].revents & (POLLHUP | POLLRDHUP | POLLERR))
				coll_proc_give_up(v[i], NULL);
			else if ((pfd[i + 2].revents & POLLIN) && !coll_proc_drain(v[i]))
				coll_proc_give_up(v[i], NULL);
		}
		if (nr)
			coll_procs_put(v, nr);
		if (pfd[1].revents) {
			free(pfd);
			break;
		}
		if (pfd[0].revents & POLLIN)
			coll_accept_one(lsock);
		free(pfd);
	}
	unlink(sa.sun_path);
out_unmount:
	ustrace_tracefs_unmount();
	coll_wait_stop();
out:
	if (lsock >= 0)
		close(lsock);
	if (coll_stop_fd >= 0)
		close(coll_stop_fd);
	coll_stop_fd = -1;
	close(lock_fd);
	return err;
}
