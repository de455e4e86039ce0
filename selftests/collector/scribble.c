// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * coll-scribble - a traced program for selftests/collector/: it fires
 * 1000 scribble:scribble_tick events, then, with -s, writes garbage over
 * its own ring buffer (flight.sh: the collector maps the same memory and
 * must not trust a word of it): the buffer's counters, slot words, page
 * ids and pages get pseudo-random bytes; with -S, it writes a header
 * whose CPU stride is half its own (cpu_shift 27, as many CPUs as that
 * fits in the mapping) and, in the last of those CPU regions, a ring whose
 * pages go on past the end of the region and of the mapping (the reader
 * must bound page ids by the stride, not only by RB_MAX_PAGES); it says
 * "scribbled" (or "ready"), and waits for SIGTERM.  It writes through a
 * mapping of its own of the buffer's memfd (which the library keeps open
 * for the collector), the whole file as the collector sees it: the
 * library maps only a part of each CPU's region (its view).
 *
 * With -f it forks a child first that names itself "scribble-kid", fires
 * 100 events into its parent's buffer, says "kid PID ready" and waits
 * (flight.sh: the collector names the child's events after both were
 * SIGKILLed).
 *
 * With -u N it says "ready" and fires N more events each time it gets
 * SIGUSR1 (wakeups.sh: a burst after an idle time), 10 at a SIGUSR2,
 * and says "burst N" after each (N the events fired).
 *
 * coll-other is the same program with another format of scribble_tick
 * (SCRIBBLE_OTHER: one more field), for daemon.sh: two programs that
 * define one event name differently.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#define CREATE_TRACE_POINTS
#include "scribble-events.h"

static volatile sig_atomic_t stop, bursts, small;

static void on_usr(int sig)
{
	if (sig == SIGUSR1)
		bursts++;
	else
		small++;
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * The layout as ring-buffer-design.rst describes it ("The buffer"): the
 * header's nr_cpus and cpu_shift words, and in a CPU region the tail, the
 * ring's size, the slot words and the page -> slot table.  A ring of two
 * slots, both holding page @page, complete, the tail on the later one.
 */
static void fake_ring(char *region, uint32_t page)
{
	volatile uint64_t *slots = (volatile uint64_t *)(region + 4096);
	volatile uint16_t *page_slot = (volatile uint16_t *)(region + 4096 + 129 * 4096);
	/* Complete: 4080 bytes + the open and close marks. */
	uint64_t w = (uint64_t)page << 48 | 4082;

	*(volatile uint64_t *)region = (uint64_t)5 << 16;	/* tail: page 0, seq 5 */
	*(volatile uint32_t *)(region + 128) = 2;		/* nr_slots */
	*(volatile uint32_t *)(region + 132) = 65280;		/* nr_pages */
	page_slot[0] = 0;
	slots[0] = w | (uint64_t)5 << 25;
	slots[1] = w | (uint64_t)4 << 25;
}

static void lie_about_stride(char *map, unsigned long size)
{
	const unsigned int shift = 27;
	unsigned long cpus = (size - 4096) >> shift;
	/*
	 * CPU 0's page 40000 in a stride of 1 << 27 would be in the next
	 * CPU's region (only 32512 pages fit): a page that looks whole (one
	 * 4-byte event), which a reader bounding ids by RB_MAX_PAGES alone
	 * would copy twice.  The last CPU's page 65279 is past the mapping.
	 */
	char *page = map + 4096 + (1ul << 20) + 40000ul * 4096;

	*(volatile uint32_t *)(map + 16) = (uint32_t)cpus;	/* nr_cpus */
	*(volatile uint32_t *)(map + 20) = shift;		/* cpu_shift */
	*(volatile uint64_t *)page = 1;				/* time_stamp */
	*(volatile uint64_t *)(page + 8) = 8;			/* commit */
	*(volatile uint32_t *)(page + 16) = 1;			/* type_len 1 */
	fake_ring(map + 4096, 40000);
	fake_ring(map + 4096 + ((cpus - 1) << shift), 65279);
}

int main(int argc, char **argv)
{
	int scribble = argc > 1 && !strcmp(argv[1], "-s");
	int stride = argc > 1 && !strcmp(argv[1], "-S");
	int forker = argc > 1 && !strcmp(argv[1], "-f");
	int burst = argc > 2 && !strcmp(argv[1], "-u") ? atoi(argv[2]) : 0;
	sigset_t usr1, old;
	unsigned long long state = 0x9e3779b97f4a7c15ull;
	char link[256], path[300];
	struct dirent *d;
	DIR *fds;

	signal(SIGTERM, on_term);
	signal(SIGUSR1, on_usr);
	signal(SIGUSR2, on_usr);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigaddset(&usr1, SIGUSR2);
	sigaddset(&usr1, SIGTERM);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	if (forker && fork() == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		prctl(PR_SET_NAME, "scribble-kid");
		for (int i = 0; i < 100; i++)
			trace_scribble_tick(-i);
		printf("kid %d ready\n", (int)getpid());
		fflush(stdout);
		while (!stop)
			pause();
		exit(0);
	}
	for (int i = 0; i < 1000; i++)
		trace_scribble_tick(i);
	if (!scribble && !stride) {
		printf("ready\n");
		fflush(stdout);
		/* Both signals blocked but while it sleeps: none is missed. */
		for (int k = 1000; !stop; ) {
			sigsuspend(&old);
			for (; (bursts > 0 || small > 0) && burst > 0;) {
				int n = bursts > 0 ? (bursts--, burst) : (small--, 10);

				for (int i = 0; i < n; i++)
					trace_scribble_tick(k++);
				printf("burst %d\n", n);
				fflush(stdout);
			}
		}
		return 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	fds = opendir("/proc/self/fd");
	if (!fds)
		return 1;
	while ((d = readdir(fds))) {
		unsigned long lo, hi;
		struct stat st;
		ssize_t n;
		void *map;
		int fd;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		fd = atoi(d->d_name);
		if (!strstr(link, "memfd:ustrace-ring-buffer") || fstat(fd, &st))
			continue;
		map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			continue;
		lo = (unsigned long)map;
		hi = lo + (unsigned long)st.st_size;
		if (stride) {
			if (hi - lo > 4096 + (2ul << 27))
				lie_about_stride((char *)lo, hi - lo);
			continue;
		}
		/* Every 64th word of the first 64 MiB of each CPU region (sparse:
		 * only what was touched costs memory), and the header. */
		for (unsigned long a = lo; a + 8 <= hi && a < lo + (64ul << 20) * 2; a += 512) {
			state ^= state << 13, state ^= state >> 7, state ^= state << 17;
			if ((a - lo) % (256ul << 20) < (2ul << 20) || (state & 1))
				*(volatile uint64_t *)a = state;
		}
	}
	closedir(fds);
	printf("scribbled\n");
	fflush(stdout);
	while (!stop)
		pause();
	return 0;
}
