/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ustrace command: one file per subcommand, dispatched from the table
 * in ustrace.c.
 */
#ifndef _USTRACE_TOOL_H
#define _USTRACE_TOOL_H

struct ustrace_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_list(int argc, char **argv);
int cmd_trace_cmd(int argc, char **argv);

/* Print "ustrace: <message>" on stderr. */
void ustrace_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* _USTRACE_TOOL_H */
