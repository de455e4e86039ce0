/* SPDX-License-Identifier: MIT */
/*
 * The minimal tracepoint declarations, for headers.
 *
 * A header that wants to test a tracepoint from an inline function includes
 * this file instead of <linux/tracepoint.h>, declares the tracepoint with
 * DECLARE_TRACEPOINT() and tests it with tracepoint_enabled(); the actual
 * trace call lives in a non-inline wrapper in a C file.
 */
#ifndef _USTRACE_LINUX_TRACEPOINT_DEFS_H
#define _USTRACE_LINUX_TRACEPOINT_DEFS_H

#include <linux/jump_label.h>

__USTRACE_BEGIN_DECLS

/**
 * struct tracepoint_func - one probe attached to a tracepoint
 * @func: the probe, called as func(data, args...)
 * @data: the private pointer given at registration
 * @prio: higher runs earlier; equal priorities run in registration order
 *
 * Arrays of these end with an entry whose @func is NULL.
 */
struct tracepoint_func {
	void *func;
	void *data;
	int prio;
};

/**
 * struct tracepoint - one tracepoint, defined once by DEFINE_TRACE()
 * @name:      the tracepoint's global name
 * @key:       on while at least one probe is attached
 * @regfunc:   called before the first probe is attached (may fail)
 * @unregfunc: called after the last probe is removed
 * @funcs:     RCU-protected array of probes, NULL when there are none
 * @signature: the TP_PROTO text, to detect two definitions that disagree
 * @priv:      owned by the library
 *
 * Programs and the library share this layout; new members go at the end.
 */
struct tracepoint {
	const char *name;
	struct static_key key;
	int (*regfunc)(void);
	void (*unregfunc)(void);
	struct tracepoint_func *funcs;
	const char *signature;
	void *priv;
};

#define DECLARE_TRACEPOINT(tp) \
	extern struct tracepoint __tracepoint_##tp

#ifdef CONFIG_TRACEPOINTS
/**
 * tracepoint_enabled - is a tracepoint on?
 * @tp: the tracepoint name, declared with DECLARE_TRACEPOINT()
 *
 * A static-key test: a NOP in the program text while the tracepoint is off.
 * The trace call itself belongs in a non-inline wrapper (see
 * Documentation/trace/tracepoints.rst).
 */
# define tracepoint_enabled(tp) \
	__ustrace_static_branch_unlikely(__tracepoint_##tp, key)
#else
# define tracepoint_enabled(tp) false
#endif

__USTRACE_END_DECLS

#endif /* _USTRACE_LINUX_TRACEPOINT_DEFS_H */
