// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tools' side of the collector's socket: ustrace dump's
 * (ustrace_collector_dump(3): ask for the buffers it holds, one trace.dat
 * per process, coll_record.c, and merge them into one file with
 * ustrace_kernel_write(3)), and what a tool tells it of a program's
 * events before the program runs (ustrace_collector_learn(3)).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <ustrace/collector.h>
#include <ustrace/kernel.h>

#include "../../internal.h"
#include "collector.h"

/* How long the collector may take to write every process's file. */
#define COLL_DUMP_WAIT_MS	60000

/* The collector's socket in @rundir (NULL or empty: the default run directory). */
static int dump_connect(const char *rundir)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	char dir[PATH_MAX];
	struct stat st;
	int fd, err;

	if (!rundir || !*rundir) {
		err = coll_rundir(dir, sizeof(dir));
		if (err)
			return err;
		rundir = dir;
	}
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/" COLL_SOCK_NAME, rundir) >=
	    (int)sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	if (lstat(sa.sun_path, &st))
		return -errno == -ENOENT ? -ECONNREFUSED : -errno;
	if (!S_ISSOCK(st.st_mode) || (st.st_uid != geteuid() && st.st_uid != 0))
		return -EPERM;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (cred.uid != geteuid() && cred.uid != 0) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* One answer, with the descriptor it carries. */
static ssize_t dump_recv(int sock, struct coll_msg *m, char *name, size_t size, int *fdp)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cm;
	struct iovec iov[2] = {
		{ .iov_base = m, .iov_len = sizeof(*m) },
		{ .iov_base = name, .iov_len = size - 1 },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2, .msg_control = cm.buf,
			     .msg_controllen = sizeof(cm.buf) };
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	struct cmsghdr *c;
	ssize_t n;

	*fdp = -1;
	if (poll(&pfd, 1, COLL_DUMP_WAIT_MS) != 1)
		return -ETIMEDOUT;
	n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	if (!n)
		return -ECONNRESET;	/* the collector closed it (or died) */
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(int))) {
			int fd;

			memcpy(&fd, CMSG_DATA(c), sizeof(int));
			if (*fdp < 0)
				*fdp = fd;
			else
				close(fd);
		}
	}
	if ((size_t)n < sizeof(*m))
		return -EPROTO;
	name[n - sizeof(*m) < size - 1 ? n - sizeof(*m) : size - 1] = 0;
	return n;
}

/**
 * ustrace_collector_dump - a trace.dat of what the collector's buffers hold now
 * @rundir:  the collector's run directory (NULL: the default)
 * @output:  the file to write
 * @version: 6 or 7 (0: 7)
 * @nr:      receives the number of processes in it (may be NULL)
 *
 * See ustrace_collector_dump(3).  Return: 0, or -errno: -ECONNREFUSED (no
 * collector runs there), -ENODATA (it holds no process's buffer), what
 * ustrace_kernel_write(3) returns (its message: ustrace_kernel_errmsg()).
 */
int ustrace_collector_dump(const char *rundir, const char *output, int version, int *nr)
{
	char name[64], **paths = NULL;
	struct coll_msg m = { .op = COLL_DUMP };
	int sock, err = 0, n = 0, *fds = NULL, fd;
	ssize_t got;

	if (nr)
		*nr = 0;
	if (!output)
		return -EINVAL;
	sock = dump_connect(rundir);
	if (sock < 0)
		return sock;
	if (send(sock, &m, sizeof(m), MSG_NOSIGNAL) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		got = dump_recv(sock, &m, name, sizeof(name), &fd);
		if (got < 0 || !got) {
			err = got ? (int)got : -ECONNRESET;
			break;
		}
		if (m.op == COLL_END) {
			err = (int)m.ret;
			break;
		}
		if (m.op != COLL_DUMPED || fd < 0) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		int *nf = realloc(fds, (size_t)(n + 1) * sizeof(*fds));
		char **np = realloc(paths, (size_t)(n + 2) * sizeof(*paths));

		if (nf)
			fds = nf;
		if (np)
			paths = np;
		if (!nf || !np || asprintf(&paths[n], "/proc/self/fd/%d", fd) < 0) {
			close(fd);
			err = -ENOMEM;
			break;
		}
		fds[n++] = fd;
		paths[n] = NULL;
	}
	if (!err && !n)
		err = -ENODATA;
	if (!err) {
		err = ustrace_kernel_write(NULL, (const char *const *)paths, output, version);
		if (!err && nr)
			*nr = n;
	}
out:
	for (int i = 0; i < n; i++) {
		close(fds[i]);
		free(paths[i]);
	}
	free(fds);
	free(paths);
	close(sock);
	return err;
}

/**
 * ustrace_collector_learn - tell the collector of an event before its program runs
 * @rundir: the collector's run directory (NULL: the default)
 * @system: the event's system
 * @format: its format text (events/SYSTEM/EVENT/format)
 *
 * The collector lists events/SYSTEM/EVENT from then on, as it does the
 * events of programs gone: a write to its files is remembered and applies
 * to programs that register later (ustrace daemon --learn, ustrace
 * trace-cmd).  The call returns once the collector has taken it in (it
 * closes the connection then), or after COLL_LEARN_WAIT_MS: a tool that
 * starts trace-cmd next finds the event's directory there.
 * Return: 0, -ECONNREFUSED (no collector), -ETIMEDOUT (it did not take it
 * in within the bound), -EINVAL, -errno.
 */
int ustrace_collector_learn(const char *rundir, const char *system, const char *format)
{
	struct coll_msg m = { .op = COLL_LEARN };
	size_t sl = system ? strlen(system) : 0, fl = format ? strlen(format) : 0;
	struct iovec iov[3];
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 3 };
	int sock, err = 0;

	if (!sl || !fl || sl + 1 + fl > COLL_MAX_PAYLOAD)
		return -EINVAL;
	err = coll_learn_local(rundir, system, format);
	if (err != -ENOENT)
		return err;
	err = 0;
	sock = dump_connect(rundir);
	if (sock < 0)
		return sock;
	m.len = (uint32_t)(sl + 1 + fl);
	iov[0] = (struct iovec){ .iov_base = &m, .iov_len = sizeof(m) };
	iov[1] = (struct iovec){ .iov_base = (void *)system, .iov_len = sl + 1 };
	iov[2] = (struct iovec){ .iov_base = (void *)format, .iov_len = fl };
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0) {
		err = -errno;
	} else {
		/* Nothing more: it reads this, sees the end, closes. */
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		char c;

		shutdown(sock, SHUT_WR);
		if (poll(&pfd, 1, COLL_LEARN_WAIT_MS) != 1)
			err = -ETIMEDOUT;
		else if (recv(sock, &c, 1, MSG_DONTWAIT) < 0 && errno != ECONNRESET)
			err = -errno;
	}
	close(sock);
	return err;
}
