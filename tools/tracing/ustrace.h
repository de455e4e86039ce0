/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ustrace command: one file per subcommand, dispatched from the table
 * in ustrace.c.
 */
#ifndef _USTRACE_TOOL_H
#define _USTRACE_TOOL_H

#include <stdbool.h>
#include <stdint.h>

struct ustrace_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_daemon(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_trace_cmd(int argc, char **argv);

/* cmd-list.c: the format of every trace event an ELF object defines, to @fn. */
int object_formats(const char *path, int (*fn)(const char *system, const char *text, void *ctx),
		   void *ctx);

/*
 * cmd-daemon.c: tell the collector of the events the ELF object @path
 * defines (ustrace_collector_learn(3)).  Return: how many, or -errno.
 */
int learn_object(const char *rundir, const char *path);

/* Print "ustrace: <message>" on stderr. */
void ustrace_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* dat-read.c: what a trace.dat holds per CPU. */
struct dat_cpu {
	uint64_t	offset;		/* where its pages are */
	uint64_t	size;		/* their bytes */
	char		*stats;		/* its CPUSTAT text, or NULL */
};

struct dat_summary {
	int		version;
	unsigned int	page_size;
	char		clock[32];
	int		nr_cpus;
	struct dat_cpu	*cpus;
};

int dat_read_summary(const char *path, struct dat_summary *d);
void dat_free_summary(struct dat_summary *d);
unsigned long long dat_stat(const struct dat_cpu *cpu, const char *name);

#endif /* _USTRACE_TOOL_H */
