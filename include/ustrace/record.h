/* SPDX-License-Identifier: MIT */
/*
 * Recording a program's events into a trace-cmd data file ("trace.dat"),
 * with nothing else running: no file system, no daemon, no trace-cmd.
 *
 * Without a line of code, the environment starts it when the program
 * starts (ustrace_record_start(3) lists the variables):
 *
 *	$ USTRACE_EVENTS=sample_trace USTRACE_OUTPUT=trace.dat ./app
 *	$ trace-cmd report trace.dat
 *
 * or the program starts it itself:
 *
 *	struct ustrace_record_attr attr = {
 *		.size	= sizeof(attr),
 *		.events	= "sample_trace,sched:sched_switch",
 *		.output	= "trace.dat",
 *	};
 *
 *	ustrace_record_start(&attr);
 *	...
 *	ustrace_record_stop();		// or at exit, or on a fatal signal
 *
 * The file is written when the program exits, when it is killed by a
 * fatal signal, and on request (ustrace_record_dump(), or a signal).
 */
#ifndef _USTRACE_RECORD_H
#define _USTRACE_RECORD_H

#include <stddef.h>

#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

/**
 * enum ustrace_record_mode - what happens when a CPU's buffer is full
 * @USTRACE_RECORD_PRODUCER_CONSUMER: new events are dropped; a thread of
 *	the library moves full pages to disk as the buffer fills, so that a
 *	recording longer than the buffer keeps everything (trace-cmd
 *	record's way)
 * @USTRACE_RECORD_OVERWRITE: the oldest events are overwritten; nothing is
 *	moved to disk before the file is written (a flight recorder: the
 *	file holds the last buffer_kb of each CPU)
 */
enum ustrace_record_mode {
	USTRACE_RECORD_PRODUCER_CONSUMER	= 0,
	USTRACE_RECORD_OVERWRITE		= 1,
};

/**
 * struct ustrace_record_attr - how to record
 * @size:         sizeof(struct ustrace_record_attr): members added later
 *                go at the end, and a program built against an older
 *                header leaves them at their defaults
 * @events:       the events to enable, "SYSTEM[:EVENT][,...]", each part
 *                a glob(7) pattern, "all" for every event; events that
 *                register later (dlopen()) are enabled when they come;
 *                NULL: none
 * @output:       the file; NULL: "trace.dat" (relative to the working
 *                directory at the start)
 * @buffer_kb:    each CPU's buffer in KiB; 0: 1408, the kernel's default
 * @clock:        a trace_clock name ("local", "global", "counter", "mono",
 *                "mono_raw", "boot", "x86-tsc"); NULL: "local"
 * @mode:         enum ustrace_record_mode
 * @file_version: 7 (trace-cmd 3's default) or 6; 0: 7
 * @dump_signal:  a signal that writes the next numbered file
 *                (OUTPUT.1, OUTPUT.2, ...); 0: none
 */
struct ustrace_record_attr {
	size_t		size;
	const char	*events;
	const char	*output;
	unsigned long	buffer_kb;
	const char	*clock;
	int		mode;
	int		file_version;
	int		dump_signal;
};

__ustrace_visible int ustrace_record_start(const struct ustrace_record_attr *attr);
__ustrace_visible int ustrace_record_dump(const char *path);
__ustrace_visible int ustrace_record_stop(void);

__USTRACE_END_DECLS

#endif /* _USTRACE_RECORD_H */
