// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * coll-scribble - a traced program for selftests/collector/: it fires
 * 1000 scribble:scribble_tick events, then, with -s, writes garbage over
 * its own ring buffer (flight.sh: the collector maps the same memory and
 * must not trust a word of it): the buffer's counters, slot words, page
 * ids and pages get pseudo-random bytes; it says "scribbled" (or
 * "ready"), and waits for SIGTERM.
 *
 * coll-other is the same program with another format of scribble_tick
 * (SCRIBBLE_OTHER: one more field), for daemon.sh: two programs that
 * define one event name differently.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "scribble-events.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	int scribble = argc > 1 && !strcmp(argv[1], "-s");
	unsigned long long state = 0x9e3779b97f4a7c15ull;
	char line[512], path[256];
	FILE *maps;

	signal(SIGTERM, on_term);
	for (int i = 0; i < 1000; i++)
		trace_scribble_tick(i);
	if (!scribble) {
		printf("ready\n");
		fflush(stdout);
		while (!stop)
			pause();
		return 0;
	}
	maps = fopen("/proc/self/maps", "r");
	if (!maps)
		return 1;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;
		char perms[8];

		path[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &lo, &hi, perms, path) < 3 ||
		    !strstr(path, "ustrace-ring-buffer") || perms[1] != 'w')
			continue;
		/* Every 64th word of the first 64 MiB of each CPU region (sparse:
		 * only what was touched costs memory), and the header. */
		for (unsigned long a = lo; a + 8 <= hi && a < lo + (64ul << 20) * 2; a += 512) {
			state ^= state << 13, state ^= state >> 7, state ^= state << 17;
			if ((a - lo) % (256ul << 20) < (2ul << 20) || (state & 1))
				*(volatile uint64_t *)a = state;
		}
	}
	fclose(maps);
	printf("scribbled\n");
	fflush(stdout);
	while (!stop)
		pause();
	return 0;
}
