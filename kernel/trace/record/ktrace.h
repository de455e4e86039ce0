/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's events next to the program's (<ustrace/kernel.h>): the
 * session on the kernel's tracefs (ktrace.c) and the merge of its pages
 * with programs' trace.dat files (ktrace_merge.c, ktrace_dat.c).  Not
 * installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_RECORD_KTRACE_H
#define _USTRACE_KERNEL_TRACE_RECORD_KTRACE_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <ustrace/kernel.h>

#include "trace_dat.h"

/* The pages the kernel gives (buffer_subbuf_size_kb 4) and we write. */
#define KT_PAGE_SIZE	4096

/**
 * struct kt_cpu - one CPU of the kernel's buffer
 * @pipe:      its per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK (-1: closed)
 * @spill:     the pages read so far (a memfd)
 * @size:      their bytes, whole pages
 * @stats:     per_cpu/cpuN/stats as the recording ended, or NULL
 */
struct kt_cpu {
	int		pipe;
	int		spill;
	uint64_t	size;
	char		*stats;
};

struct ustrace_kernel {
	char			root[PATH_MAX];		/* the tracefs mount */
	char			inst[PATH_MAX];		/* our instance in it */
	char			clock[16];
	int			nr_cpus;
	struct kt_cpu		*cpus;
	struct trace_dat_format	*formats;		/* the enabled events' */
	char			*header_page;
	char			*header_event;
	char			*cmdlines;
	char			*clock_list;
	pthread_t		reader;
	bool			reader_started;
	bool			stopped;
	int			stop_req;		/* atomic */
	int			read_err;		/* atomic, the reader's */
};

/* ktrace.c: set the message ustrace_kernel_errmsg() returns; @err passes. */
int kt_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ktrace_dat.c: a trace.dat of ours (version 7), read back. */
struct kt_dat_cpu {
	const unsigned char	*pages;
	uint64_t		size;
	const char		*stats;		/* NUL-terminated, or NULL */
};

struct kt_dat {
	unsigned char		*map;
	size_t			map_size;
	const char		*header_page;	/* NUL-terminated copies */
	const char		*header_event;
	struct trace_dat_format	*formats;	/* the file's, remapped later */
	char			*kallsyms;
	char			*cmdlines;
	size_t			cmdlines_len;
	char			*clock_list;
	char			clock[16];
	bool			has_scale;
	uint32_t		scale_mode;
	uint64_t		scale_mult;
	uint64_t		scale_offset;
	int			nr_cpus;
	struct kt_dat_cpu	*cpus;
};

int kt_dat_open(const char *path, struct kt_dat *d);
void kt_dat_close(struct kt_dat *d);

void kt_formats_free(struct trace_dat_format *f);
/* The "ID: N" of a format's text, or -1. */
long kt_format_id(const struct trace_dat_format *f);

/* ktrace_merge.c */
int kt_merge_write(struct ustrace_kernel *k, struct kt_dat *in, int nr_in, int fd,
		   int version);

#endif /* _USTRACE_KERNEL_TRACE_RECORD_KTRACE_H */
