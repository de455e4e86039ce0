// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tfs-io - the system calls a shell cannot make, for the .tc tests.
 *
 *   tfs-io nonblock FILE          open O_NONBLOCK, read once
 *   tfs-io setfl FILE             open, fcntl(F_SETFL, O_NONBLOCK), read once
 *   tfs-io read FILE              open, one blocking read
 *   tfs-io poll FILE MS           poll(POLLIN) with a timeout
 *   tfs-io select FILE MS         select() for reading with a timeout
 *   tfs-io signal FILE MS         a blocking read, SIGALRM (no SA_RESTART)
 *                                 after MS milliseconds
 *   tfs-io write0 FILE            open O_WRONLY, write(fd, "", 0)
 *   tfs-io write FILE TEXT        open O_WRONLY, one write of TEXT
 *   tfs-io writefile FILE SRC     open O_WRONLY, one write of all of SRC
 *                                 (any bytes, any size)
 *   tfs-io writefile FILE SRC a   the same with O_APPEND
 *   tfs-io trunc FILE             open O_WRONLY | O_TRUNC, nothing written
 *   tfs-io pages FILE             open O_NONBLOCK, ioctl(2)
 *                                 USTRACE_TRACEFS_IOC_RAW_PAGES, read once
 *                                 (64 KiB); a failed ioctl prints
 *                                 "ioctl: NAME" and reads nothing
 *
 * Each prints one line: "data N" (N bytes read), "eof", "readable",
 * "timeout", "wrote N", "opened", or the errno's name (EAGAIN, EINTR,
 * ...), and exits 0; a failed open prints "open: NAME" and exits 1 (trunc:
 * the name alone, exit 0).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <ustrace/tracefs.h>

static char buf[65536];

static const char *errname(int err)
{
	switch (err) {
	case EAGAIN:	return "EAGAIN";
	case EINTR:	return "EINTR";
	case EINVAL:	return "EINVAL";
	case EACCES:	return "EACCES";
	case EPERM:	return "EPERM";
	case ENOENT:	return "ENOENT";
	case EBUSY:	return "EBUSY";
	case ENOTCONN:	return "ENOTCONN";
	case EBADF:	return "EBADF";
	case ENOMEM:	return "ENOMEM";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENOTTY:	return "ENOTTY";
	default:	return strerror(err);
	}
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		printf("open: %s\n", errname(errno));
		exit(1);
	}
	return fd;
}

static void report_read(ssize_t n)
{
	if (n > 0)
		printf("data %zd\n", n);
	else if (n == 0)
		printf("eof\n");
	else
		printf("%s\n", errname(errno));
}

/* The result of poll() or select(). */
static void report_wait(int n, int readable)
{
	if (n > 0)
		printf("%s\n", readable ? "readable" : "other");
	else if (n == 0)
		printf("timeout\n");
	else
		printf("%s\n", errname(errno));
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	const char *op = argc > 2 ? argv[1] : "";
	const char *path = argc > 2 ? argv[2] : "";
	int ms = argc > 3 ? atoi(argv[3]) : 0;
	int fd;

	if (!strcmp(op, "nonblock")) {
		fd = open_or_die(path, O_RDONLY | O_NONBLOCK);
		report_read(read(fd, buf, sizeof(buf)));
	} else if (!strcmp(op, "setfl")) {
		fd = open_or_die(path, O_RDONLY);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		report_read(read(fd, buf, sizeof(buf)));
	} else if (!strcmp(op, "read")) {
		fd = open_or_die(path, O_RDONLY);
		report_read(read(fd, buf, sizeof(buf)));
	} else if (!strcmp(op, "poll")) {
		struct pollfd pfd = { .events = POLLIN };
		int n;

		pfd.fd = open_or_die(path, O_RDONLY);
		n = poll(&pfd, 1, ms);
		report_wait(n, pfd.revents & POLLIN);
	} else if (!strcmp(op, "select")) {
		struct timeval tv = { ms / 1000, ms % 1000 * 1000 };
		fd_set set;
		int n;

		fd = open_or_die(path, O_RDONLY);
		FD_ZERO(&set);
		FD_SET(fd, &set);
		n = select(fd + 1, &set, NULL, NULL, &tv);
		report_wait(n, n > 0 && FD_ISSET(fd, &set));
	} else if (!strcmp(op, "signal")) {
		struct sigaction sa = { .sa_handler = on_alarm };
		struct itimerval it = { .it_value = { ms / 1000, ms % 1000 * 1000 } };

		sigaction(SIGALRM, &sa, NULL);
		fd = open_or_die(path, O_RDONLY);
		setitimer(ITIMER_REAL, &it, NULL);
		report_read(read(fd, buf, sizeof(buf)));
	} else if (!strcmp(op, "write0") || (!strcmp(op, "write") && argc > 3)) {
		const char *text = argc > 3 ? argv[3] : "";
		ssize_t n;

		fd = open_or_die(path, O_WRONLY);
		n = write(fd, text, strlen(text));
		if (n < 0)
			printf("%s\n", errname(errno));
		else
			printf("wrote %zd\n", n);
	} else if (!strcmp(op, "writefile") && argc > 3) {
		char *data = NULL;
		size_t len = 0, cap = 0;
		ssize_t n;
		FILE *src = fopen(argv[3], "rb");

		if (!src) {
			printf("src: %s\n", errname(errno));
			return 1;
		}
		while (!feof(src) && !ferror(src)) {
			if (len == cap && !(data = realloc(data, cap = cap ? 2 * cap : 65536)))
				return 1;
			len += fread(data + len, 1, cap - len, src);
		}
		fclose(src);
		fd = open_or_die(path, O_WRONLY | (argc > 4 && argv[4][0] == 'a' ? O_APPEND : 0));
		n = write(fd, data, len);
		if (n < 0)
			printf("%s\n", errname(errno));
		else
			printf("wrote %zd\n", n);
		if (close(fd))
			printf("close: %s\n", errname(errno));
		free(data);
	} else if (!strcmp(op, "pages")) {
		fd = open_or_die(path, O_RDONLY | O_NONBLOCK);
		if (ioctl(fd, USTRACE_TRACEFS_IOC_RAW_PAGES))
			printf("ioctl: %s\n", errname(errno));
		else
			report_read(read(fd, buf, sizeof(buf)));
	} else if (!strcmp(op, "trunc")) {
		fd = open(path, O_WRONLY | O_TRUNC);
		printf("%s\n", fd < 0 ? errname(errno) : "opened");
	} else {
		fprintf(stderr, "usage: tfs-io nonblock|setfl|read|poll|select|signal|write0|write|writefile|trunc|pages FILE [MS|TEXT|SRC]\n");
		return 2;
	}
	return 0;
}
