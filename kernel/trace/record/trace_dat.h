/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The trace-cmd data file ("trace.dat"), versions 6 and 7, as trace-cmd
 * 3.x writes them (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)), so that the
 * stock trace-cmd, libtracecmd and KernelShark read what we record.
 *
 * The writer is a fatal-signal path: trace_dat_write() and the texts the
 * recorder builds there (struct seq_buf, <linux/seq_buf.h>) use only write(), pread() and memory the caller owns; they never
 * allocate, lock or call stdio.  Whoever renders the texts beforehand
 * (formats, cmdlines, stats) does it in whatever context is safe for
 * that.  Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_DAT_H
#define _USTRACE_KERNEL_TRACE_TRACE_DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ustrace/trace_dat.h>

/*
 * One event's format text (tracefs's events/SYSTEM/EVENT/format).  A
 * list only ever grows at its tail, with release stores, so that a
 * fatal-signal path can walk it while another thread appends.
 */
struct trace_dat_format {
	struct trace_dat_format	*next;
	const char		*system;	/* points into @text's storage */
	bool			ftrace;		/* the ftrace section (id < 21) */
	size_t			len;
	char			text[];
};

/*
 * A format of a list (ktrace_dat.c): @text copied, its system named.
 * Return: NULL without memory.
 */
struct trace_dat_format *trace_dat_format_new(const char *system, const char *text, size_t len,
					      bool ftrace);

/**
 * struct trace_dat_cpu - one CPU's part of the file
 * @fd:        where its ring buffer pages are, from offset 0
 * @size:      their bytes, a multiple of the page size
 * @stats:     its CPUSTAT text (per_cpu/cpuN/stats, "CPU: N" first)
 * @stats_len: its length
 */
struct trace_dat_cpu {
	int		fd;
	uint64_t	size;
	const char	*stats;
	size_t		stats_len;
};

/**
 * struct trace_dat_info - what goes into a file
 * @version:      6 or 7
 * @header_page:  events/header_page
 * @header_event: events/header_event
 * @formats:      every event's format, ftrace ones and the others
 * @kallsyms:     "ADDR TYPE NAME\n" lines, may be empty
 * @printk:       "0xADDR : \"text\"\n" lines (printk_formats), or NULL
 * @cmdlines:     saved_cmdlines
 * @clock_list:   trace_clock ("[local] global ...")
 * @clock:        the clock in use
 * @uname:        the UNAME option, or NULL
 * @nr_cpus:      entries in @cpus
 * @cpus:         the data, per CPU
 * @clock_scale:  write the option TRACE_DAT_OPT_CLOCK_SCALE (<ustrace/trace_dat.h>)
 * @scale_mode:   its mode: 1 the TSC scaled, 2 CLOCK_MONOTONIC
 * @scale_mult:   local = @scale_offset + ((tsc * @scale_mult) >> 32)
 * @scale_offset: (modulo 2^64)
 * @copy_buf:     a page-aligned buffer of @copy_size bytes (a multiple
 *                of the page size) to copy the CPUs' pages through, or
 *                NULL (a static 64 KiB one); with one, the pages go to the
 *                file with O_DIRECT where its file system takes it
 *                (recording.rst, "Sustained rate")
 * @copy_size:    its size
 */
struct trace_dat_info {
	int				version;
	const char			*header_page;
	const char			*header_event;
	const struct trace_dat_format	*formats;
	const char			*kallsyms;
	const char			*printk;
	const char			*cmdlines;
	size_t				cmdlines_len;
	const char			*clock_list;
	const char			*clock;
	const char			*uname;
	int				nr_cpus;
	const struct trace_dat_cpu	*cpus;
	bool				clock_scale;
	uint32_t			scale_mode;
	uint64_t			scale_mult;
	uint64_t			scale_offset;
	void				*copy_buf;
	size_t				copy_size;
};

/*
 * Write the whole file to @fd from its current position (an empty file).
 * Context: async-signal-safe; one caller at a time (a static copy buffer,
 * without @info->copy_buf).
 * Return: 0, or a negative errno of write()/pread() (-EIO for a short
 * read of a CPU's pages).
 */
int trace_dat_write(int fd, const struct trace_dat_info *info);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_DAT_H */
