// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ustrace - userspace tracepoints, from the command line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <ustrace/tool.h>

#include "ustrace.h"

#ifndef USTRACE_VERSION
# define USTRACE_VERSION "unknown"
#endif

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct ustrace_cmd commands[] = {
	{ "record",	cmd_record,	"run a program and record its events into a trace.dat" },
	{ "report",	cmd_report,	"show a trace.dat (trace-cmd report)" },
	{ "list",	cmd_list,	"list the tracepoints or events an object defines" },
	{ "daemon",	cmd_daemon,	"be the collector: one tracefs for every traced program" },
	{ "dump",	cmd_dump,	"write what the collector's buffers hold into a trace.dat" },
	{ "trace-cmd",	cmd_trace_cmd,	"run the stock trace-cmd on a ustrace tracefs" },
	{ "version",	cmd_version,	"print the version" },
	{ "help",	cmd_help,	"show this help" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/*
 * The USTRACE_* variables of our environment are for the programs we run
 * (ustrace record, ustrace trace-cmd): libustrace neither records this
 * process (nor writes over its program's file when it exits) nor serves a
 * tracefs at the program's mount.
 */
USTRACE_TOOL;

void ustrace_err(const char *fmt, ...)
{
	va_list ap;

	fputs("ustrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: ustrace COMMAND [ARGS...]\n\ncommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\n'ustrace COMMAND --help' describes a command; "
		"see also ustrace(1).\n");
}

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("ustrace %s\n", USTRACE_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc - 1, argv + 1);
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	ustrace_err("'%s' is not a command; see 'ustrace help'", argv[1]);
	return 2;
}
