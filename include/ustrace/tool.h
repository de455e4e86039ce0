/* SPDX-License-Identifier: MIT */
/*
 * A tool that hands the USTRACE_* variables of its environment on to the
 * programs it runs (the ustrace command, its trace-cmd shim, a launcher,
 * a test harness), and must not act on them itself.  See USTRACE_TOOL(3).
 */
#ifndef _USTRACE_USTRACE_TOOL_H
#define _USTRACE_USTRACE_TOOL_H

#ifdef __cplusplus
# define __USTRACE_TOOL_LINKAGE	extern "C"
#else
# define __USTRACE_TOOL_LINKAGE
#endif

/*
 * "USTRACE_TOOL;" once, at file scope, in the program or in an object it
 * preloads: libustrace's start-up then neither serves a tracefs at
 * $USTRACE_TRACEFS nor records for $USTRACE_EVENTS in this process.  The
 * library's constructors look for the symbol, __ustrace_tool, in the
 * process's global scope: the program must be linked with libustrace
 * (which then exports the symbol from it), or export it (-rdynamic).
 */
#define USTRACE_TOOL							\
	__USTRACE_TOOL_LINKAGE __attribute__((__visibility__("default"), __used__)) \
	const char __ustrace_tool = 1

#endif /* _USTRACE_USTRACE_TOOL_H */
