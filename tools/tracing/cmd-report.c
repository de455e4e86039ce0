// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace report - show a trace.dat with the stock trace-cmd.
 *
 * The file is trace-cmd's own format, so trace-cmd's reader is the one to
 * show it: this checks that the file is there and hands it over, with any
 * further arguments for trace-cmd report.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ustrace.h"

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: ustrace report [FILE] [-- TRACE-CMD-REPORT-OPTIONS...]\n"
		"Show a trace-cmd data file (default: trace.dat) with\n"
		"'trace-cmd report'; options after -- are passed to it.\n"
		"  -h, --help   this help\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *file = "trace.dat";
	char **args;
	int c, n = 0;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 'h') {
			report_usage(stdout);
			return 0;
		}
		report_usage(stderr);
		return 2;
	}
	if (optind < argc && strcmp(argv[optind - 1], "--"))
		file = argv[optind++];
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (access(file, R_OK)) {
		ustrace_err("report: %s: %s", file, strerror(errno));
		return 1;
	}
	args = calloc((size_t)(argc - optind) + 5, sizeof(*args));
	if (!args)
		return 1;
	args[n++] = "trace-cmd";
	args[n++] = "report";
	args[n++] = "-i";
	args[n++] = (char *)file;
	while (optind < argc)
		args[n++] = argv[optind++];
	fflush(NULL);
	execvp(args[0], args);
	ustrace_err("report: trace-cmd: %s%s", strerror(errno), errno == ENOENT ?
		    " (install trace-cmd: apt-get install trace-cmd)" : "");
	free(args);
	return 127;
}
