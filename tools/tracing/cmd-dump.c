// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace dump - what the collector's buffers hold now, as one trace.dat:
 * every process it knows, those that still run and those that died
 * (ustrace_collector_dump(3), ustrace-daemon(1)).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ustrace/collector.h>
#include <ustrace/kernel.h>

#include "ustrace.h"

static void dump_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace dump [--rundir DIR] [-o FILE] [-v 6|7]\n"
		"Write what the collector's buffers hold now, of every traced\n"
		"program it knows (running or gone), into one trace-cmd data file\n"
		"(default trace.dat).\n");
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rundir",	required_argument, NULL, 'r' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *rundir = NULL, *output = "trace.dat";
	int c, err, nr, version = 7;

	while ((c = getopt_long(argc, argv, "+o:v:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rundir = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'v':
			version = atoi(optarg);
			if (version != 6 && version != 7) {
				ustrace_err("dump: -v takes 6 or 7");
				return 2;
			}
			break;
		case 'h':
			dump_usage(stdout);
			return 0;
		default:
			dump_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		dump_usage(stderr);
		return 2;
	}
	err = ustrace_collector_dump(rundir, output, version, &nr);
	if (err == -ECONNREFUSED)
		ustrace_err("dump: no collector runs (ustrace daemon)");
	else if (err == -ENODATA)
		ustrace_err("dump: the collector holds no program's buffer");
	else if (err == -EINVAL || err == -ENOMEM || err == -EIO)
		ustrace_err("dump: %s", ustrace_kernel_errmsg());
	else if (err)
		ustrace_err("dump: %s", strerror(-err));
	if (err)
		return 1;
	fprintf(stderr, "ustrace dump: %s: %d process%s\n", output, nr, nr == 1 ? "" : "es");
	return 0;
}
