/* SPDX-License-Identifier: MIT */
/*
 * The collector: one tracefs for every traced program of a user, at
 * $USTRACE_RUNDIR/tracing, which programs linked with libustrace join by
 * themselves when they start.  `ustrace daemon` is this call; see
 * ustrace-daemon(1) and Documentation/trace/system-mode.rst.
 */
#ifndef _USTRACE_COLLECTOR_H
#define _USTRACE_COLLECTOR_H

#include <stddef.h>

#include <linux/compiler.h>

__USTRACE_BEGIN_DECLS

/*
 * Be the collector of @rundir (NULL: the default, as
 * ustrace_collector_rundir() says) until ustrace_collector_stop().
 * @options are the tracefs mount's ("gid=N", "allow_other"); @ready, if
 * not NULL, is called once programs may register.
 * Return: 0 once stopped, or a negative errno value (-EBUSY: another
 * collector serves @rundir; -EPERM: @rundir is not ours).
 */
__ustrace_visible int ustrace_collector_run(const char *rundir, const char *options,
					    void (*ready)(void));

/* Make ustrace_collector_run() return.  Async-signal-safe. */
__ustrace_visible void ustrace_collector_stop(void);

/*
 * The run directory programs look in: $USTRACE_RUNDIR, else /run/ustrace
 * for root and $XDG_RUNTIME_DIR/ustrace for other users.  @buf: PATH_MAX.
 * Return: 0, or -ENOENT when none applies.
 */
__ustrace_visible int ustrace_collector_rundir(char *buf, size_t size);

/*
 * Write what the collector of @rundir (NULL: the default) holds in its
 * buffers now, of every process it knows, running or gone, into one
 * trace.dat @output (version 6 or 7; 0 for 7).  *@nr (if not NULL) is set
 * to the number of processes in it.
 * Return: 0, or a negative errno value (-ECONNREFUSED: no collector;
 * -ENODATA: it holds no buffer).
 */
__ustrace_visible int ustrace_collector_dump(const char *rundir, const char *output,
					     int version, int *nr);

/*
 * Tell the collector of @rundir (NULL: the default) of an event a program
 * defines before the program runs: @system and its @format text (as
 * `ustrace list -F OBJECT` prints it).  The collector lists it from then
 * on.  Return: 0, or a negative errno value (-ECONNREFUSED: no collector).
 */
__ustrace_visible int ustrace_collector_learn(const char *rundir, const char *system,
					      const char *format);

__USTRACE_END_DECLS

#endif /* _USTRACE_COLLECTOR_H */
