/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Events written the ways kernel headers write them (Linux 6.1 and the
 * forms of 6.10 and later), for compat.c: definitions not followed by
 * ';', TRACE_DEFINE_ENUM() and TRACE_DEFINE_SIZEOF(), the _NOP forms,
 * TRACE_EVENT_FLAGS(), __perf_count(), the one-argument __assign_str(),
 * __string_len(), __rel_string(), __vstring() in both forms, and
 * TP_printk() with the kernel's %p extensions.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM compat

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE compat-events

#if !defined(_COMPAT_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _COMPAT_EVENTS_H

#include <stdarg.h>
#include <linux/tracepoint.h>

#ifndef _COMPAT_EVENTS_TYPES
#define _COMPAT_EVENTS_TYPES
typedef unsigned long long u64;

enum compat_kind {
	COMPAT_ZERO,
	COMPAT_ONE,
	COMPAT_SEVEN = 7,
	CB = 123456,
};

struct compat_blob {
	char	bytes[24];
};

struct compat_va {
	const char	*fmt;
	va_list		*va;
};
#endif

TRACE_DEFINE_ENUM(COMPAT_ONE);
TRACE_DEFINE_ENUM(COMPAT_SEVEN)
TRACE_DEFINE_SIZEOF(struct compat_blob);
/* A value longer than its name is left alone, as by the kernel. */
TRACE_DEFINE_ENUM(CB);

/* No ';' after the class, as net.h writes net_dev_template. */
DECLARE_EVENT_CLASS(compat_class,

	TP_PROTO(int kind, const char *name),

	TP_ARGS(kind, name),

	TP_STRUCT__entry(
		__field(	int,	kind	)
		__string(	name,	name	)
	),

	TP_fast_assign(
		__entry->kind = kind;
		__assign_str(name);
	),

	TP_printk("COMPAT_ONE kind=%s bit=%d size=%d name=%s cb=%d",
		  __print_symbolic(__entry->kind,
				   { COMPAT_ZERO, "ZERO" },
				   { COMPAT_ONE, "ONE" },
				   { COMPAT_SEVEN, "SEVEN" }),
		  (1 << COMPAT_SEVEN) | COMPAT_ONE,
		  (int)sizeof(struct compat_blob), __get_str(name), CB)
)

DEFINE_EVENT(compat_class, compat_a,
	TP_PROTO(int kind, const char *name),
	TP_ARGS(kind, name)
);

DEFINE_EVENT(compat_class, compat_b,
	TP_PROTO(int kind, const char *name),
	TP_ARGS(kind, name)
)

TRACE_EVENT_FLAGS(compat_a, TRACE_EVENT_FL_CAP_ANY)

/* Strings the ways 6.1 and 6.10 assign them; no ';' after the event. */
TRACE_EVENT(compat_strings,

	TP_PROTO(const char *s, const char *l, int n, const char *r, u64 __perf_count(cnt)),

	TP_ARGS(s, l, n, r, __perf_count(cnt)),

	TP_STRUCT__entry(
		__string(	old,	s		)
		__string_len(	cut,	l,	n	)
		__string_len(	cut61,	l,	n	)
		__rel_string(	rel,	r		)
		__field(	u64,	cnt		)
	),

	TP_fast_assign(
		__assign_str(old, s);
		__assign_str(cut);
		__assign_str_len(cut61, l, n);
		__assign_rel_str(rel);
		__entry->cnt = cnt;
	),

	TP_printk("old=%s cut=%s cut61=%s rel=%s cnt=%llu", __get_str(old), __get_str(cut),
		  __get_str(cut61), __get_rel_str(rel), __entry->cnt)
)

/*
 * A TP_printk() that names the output function's "ret", as Linux 6.1's
 * spmi.h does for spmi_cmd (where it meant __entry->ret): the kernel's
 * holds TRACE_TYPE_HANDLED, 1, when the arguments are evaluated.
 */
TRACE_EVENT(compat_ret,

	TP_PROTO(int ret),

	TP_ARGS(ret),

	TP_STRUCT__entry(
		__field(	int,	ret	)
	),

	TP_fast_assign(
		__entry->ret = ret;
	),

	TP_printk("entry=%d ret=%d", __entry->ret, ret)
)

TRACE_EVENT(compat_vstr,

	TP_PROTO(const char *fmt, va_list *va, struct compat_va *vf),

	TP_ARGS(fmt, va, vf),

	TP_STRUCT__entry(
		__vstring(	v61,	fmt,	va	)
		__vstring(	v610,	vf		)
	),

	TP_fast_assign(
		__assign_vstr(v61, fmt, va);
		__assign_vstr(v610, vf);
	),

	TP_printk("%s|%s", __get_str(v61), __get_str(v610))
);

/* The kernel's %p extensions. */
TRACE_EVENT(compat_pointers,

	TP_PROTO(unsigned long ip, const void *ptr, const unsigned char *ip4,
		 const unsigned char *ip6, const unsigned char *uuid,
		 const unsigned char *mac, unsigned long mask,
		 const void *sa, int salen),

	TP_ARGS(ip, ptr, ip4, ip6, uuid, mac, mask, sa, salen),

	TP_STRUCT__entry(
		__field(	unsigned long,	ip		)
		__field(	const void *,	ptr		)
		__array(	unsigned char,	ip4,	4	)
		__array(	unsigned char,	ip6,	16	)
		__array(	unsigned char,	uuid,	16	)
		__array(	unsigned char,	mac,	6	)
		__field(	unsigned long,	mask		)
		__sockaddr(	sa,		salen		)
	),

	TP_fast_assign(
		__entry->ip = ip;
		__entry->ptr = ptr;
		memcpy(__entry->ip4, ip4, 4);
		memcpy(__entry->ip6, ip6, 16);
		memcpy(__entry->uuid, uuid, 16);
		memcpy(__entry->mac, mac, 6);
		__entry->mask = mask;
		__assign_sockaddr(sa, sa, salen);
	),

	TP_printk("s=%ps S=%pS p=%p px=%px I4=%pI4 i4=%pi4 I6=%pI6 I6c=%pI6c U=%pU Ul=%pUl "
		  "UB=%pUB M=%pM MR=%pMR MF=%pMF m=%pm ph=%*phC pb=%*pb pbl=%*pbl IS=%pISpc",
		  (void *)__entry->ip, (void *)__entry->ip, __entry->ptr, __entry->ptr,
		  __entry->ip4, __entry->ip4, __entry->ip6, __entry->ip6,
		  __entry->uuid, __entry->uuid, __entry->uuid,
		  __entry->mac, __entry->mac, __entry->mac, __entry->mac,
		  3, __entry->mac, 40, &__entry->mask, 16, &__entry->mask,
		  __get_sockaddr(sa))
);

/* A pointer field: the reader may not follow it out of the record. */
TRACE_EVENT(compat_extptr,

	TP_PROTO(const unsigned char *a),

	TP_ARGS(a),

	TP_STRUCT__entry(
		__field(	const unsigned char *,	a	)
	),

	TP_fast_assign(
		__entry->a = a;
	),

	TP_printk("%pI4 %pM %ps", __entry->a, __entry->a, __entry->a)
);

/* Compiled out: trace_compat_gone() exists, no event is registered. */
DECLARE_EVENT_CLASS_NOP(compat_nop_class,
	TP_PROTO(int x),
	TP_ARGS(x),
	TP_STRUCT__entry(__field(int, x)),
	TP_fast_assign(__entry->x = x;),
	TP_printk("x=%d", __entry->x)
);

DEFINE_EVENT_NOP(compat_nop_class, compat_gone,
	TP_PROTO(int x),
	TP_ARGS(x)
);

TRACE_EVENT_NOP(compat_gone_too,
	TP_PROTO(int x),
	TP_ARGS(x),
	TP_STRUCT__entry(__field(int, x)),
	TP_fast_assign(__entry->x = x;),
	TP_printk("x=%d", __entry->x)
);

#endif /* _COMPAT_EVENTS_H */

#include <trace/define_trace.h>
