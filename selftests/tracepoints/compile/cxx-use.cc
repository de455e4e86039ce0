// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For compile-fail.sh: a C++ program that declares, defines, probes and
 * fires tracepoints.  Exits 0 when the probes saw what was fired.
 */
#include <cstdio>
#include <cstring>
#include <linux/tracepoint.h>
#include <linux/tracepoint-defs.h>
#include <trace/define_trace.h>

DECLARE_TRACE(cxx_tp,
	TP_PROTO(int v, const char *s),
	TP_ARGS(v, s));

DECLARE_TRACE_CONDITION(cxx_cond,
	TP_PROTO(int v),
	TP_ARGS(v),
	TP_CONDITION(v > 0));

DEFINE_TRACE(cxx_tp);
DEFINE_TRACE(cxx_cond);

namespace {

struct seen {
	int calls = 0;
	int v = 0;
	const char *s = nullptr;
};

void probe(void *data, int v, const char *s)
{
	seen *st = static_cast<seen *>(data);

	st->calls++;
	st->v = v;
	st->s = s;
}

void cond_probe(void *data, int v)
{
	static_cast<seen *>(data)->calls++;
	static_cast<seen *>(data)->v = v;
}

int failures;

void check(bool ok, const char *what)
{
	if (!ok) {
		std::printf("cxx-use: failed: %s\n", what);
		failures++;
	}
}

} // namespace

int main()
{
	seen a, c;
	static const char str[] = "cxx";

	trace_cxx_tp_tp(1, str);
	check(!trace_cxx_tp_enabled(), "off at first");
	check(register_trace_cxx_tp(probe, &a) == 0, "register");
	check(register_trace_cxx_tp(probe, &a) == -EEXIST, "-EEXIST");
	check(register_trace_cxx_cond(cond_probe, &c) == 0, "register cond");
	check(trace_cxx_tp_enabled(), "on");
	trace_cxx_tp_tp(42, str);
	trace_cxx_cond_tp(-1);
	trace_cxx_cond_tp(7);
	check(a.calls == 1 && a.v == 42 && a.s == str, "probe saw the args");
	check(c.calls == 1 && c.v == 7, "condition");
	check(tracepoint_lookup("cxx_tp") == &__tracepoint_cxx_tp, "lookup");
	check(unregister_trace_cxx_tp(probe, &a) == 0, "unregister");
	check(unregister_trace_cxx_cond(cond_probe, &c) == 0,
	      "unregister cond");
	tracepoint_synchronize_unregister();
	trace_cxx_tp_tp(43, str);
	check(a.calls == 1, "off again");
	check(!tracepoint_enabled(cxx_tp), "tracepoint_enabled()");
	return failures ? 1 : 0;
}
