// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tfs-quiet DIR [subreaper] - mount and unmount a tracefs at DIR twice
 * with ustrace_tracefs_mount(), counting what the program sees of the
 * processes the library runs (fusermount3, its watchdog): SIGCHLDs and
 * children wait() finds.  With "subreaper" the program is one
 * (PR_SET_CHILD_SUBREAPER), as a supervisor is: orphans would come to it.
 *
 * Prints "mount 0 0 unmount 0 0 sigchld N wait ECHILD" (or "wait PID")
 * and exits 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <ustrace/tracefs.h>

static volatile sig_atomic_t sigchld;

static void on_chld(int sig)
{
	(void)sig;
	sigchld++;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_chld };
	int m1, m2, u1, u2;
	pid_t p;

	if (argc < 2) {
		fprintf(stderr, "usage: tfs-quiet DIR [subreaper]\n");
		return 2;
	}
	sigaction(SIGCHLD, &sa, NULL);
	if (argc > 2 && !strcmp(argv[2], "subreaper"))
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	m1 = ustrace_tracefs_mount(argv[1], NULL);
	u1 = ustrace_tracefs_unmount();
	m2 = ustrace_tracefs_mount(argv[1], NULL);
	u2 = ustrace_tracefs_unmount();
	/* What fusermount3 or another process might still send. */
	usleep(300 * 1000);
	p = waitpid(-1, NULL, WNOHANG);
	printf("mount %d %d unmount %d %d sigchld %d wait ", m1, m2, u1, u2, (int)sigchld);
	if (p < 0 && errno == ECHILD)
		printf("ECHILD\n");
	else
		printf("%d\n", (int)p);
	return 0;
}
