/* SPDX-License-Identifier: MIT */
/*
 * The ids of the trace-cmd data file's options and sections
 * (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)) that ustrace's trace.dat
 * writer and readers use: one table for the recorder
 * (kernel/trace/record/) and the ustrace command (tools/tracing/).
 * Numbers of the file format, not calls: nothing here needs the library.
 */
#ifndef _USTRACE_USTRACE_TRACE_DAT_H
#define _USTRACE_USTRACE_TRACE_DAT_H

/*
 * trace-cmd's ids.  In version 7 a section's id is that of the option that
 * points to it: DONE for an options section, BUFFER for a flyrecord one.
 */
enum trace_dat_option_id {
	TRACE_DAT_OPT_DONE		= 0,
	TRACE_DAT_OPT_CPUSTAT		= 2,
	TRACE_DAT_OPT_BUFFER		= 3,
	TRACE_DAT_OPT_TRACECLOCK	= 4,
	TRACE_DAT_OPT_UNAME		= 5,
	TRACE_DAT_OPT_CPUCOUNT		= 8,
	TRACE_DAT_OPT_STRINGS		= 15,
	TRACE_DAT_OPT_HEADER_INFO	= 16,
	TRACE_DAT_OPT_FTRACE_EVENTS	= 17,
	TRACE_DAT_OPT_EVENT_FORMATS	= 18,
	TRACE_DAT_OPT_KALLSYMS		= 19,
	TRACE_DAT_OPT_PRINTK		= 20,
	TRACE_DAT_OPT_CMDLINES		= 21,
	/*
	 * ustrace's own: how the recording process's local clock derives
	 * from the TSC, for ustrace record -K, which maps the kernel's
	 * x86-tsc stamps onto it (u32 mode, u32 0, u64 mult, u64 offset).
	 * Written only when asked (USTRACE_CLOCK_SCALE): trace-cmd warns
	 * about options it does not know, and this file is not for it.
	 */
	TRACE_DAT_OPT_CLOCK_SCALE	= 0x7573,
};

#endif /* _USTRACE_USTRACE_TRACE_DAT_H */
