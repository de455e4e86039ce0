#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# abi.sh - an object built against another USTRACE_RB_ABI (what a
# program's probes inline of the ring buffer: ring-buffer-design.rst,
# "What programs inline") gets its events refused, with one line on
# stderr, and nothing of it reaches the trace.  TAP on stdout.
#
# One program of three files: main.c and good.c (system abi_good) built
# against the library's headers, foreign.c (system abi_foreign, two
# events) built against a copy of <linux/trace_events.h> whose
# USTRACE_RB_ABI is one more.  Then the same program with foreign.c built
# against the real headers, whose events must be recorded: what the first
# run sees comes from the version alone.
#
# scripts/run-tests.sh runs it from the build directory with
# USTRACE_SRCTREE, USTRACE_OBJTREE, USTRACE_CC, USTRACE_CFLAGS and
# USTRACE_LDFLAGS set; by hand it falls back to an in-tree build and cc.

set -u

. "$(dirname "$0")/../lib/tap.sh"
cc=${USTRACE_CC:-cc}
cflags=${USTRACE_CFLAGS:-"-std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE"}
ldflags=${USTRACE_LDFLAGS:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustrace-abi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"

# events SYSTEM EVENT...: tmp/SYSTEM.h, one class and an event per name.
events() {
	local sys=$1 ev
	shift
	{
		cat <<EOH
#undef TRACE_SYSTEM
#define TRACE_SYSTEM $sys
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE $sys
#if !defined(_${sys}_H) || defined(TRACE_HEADER_MULTI_READ)
#define _${sys}_H
#include <linux/tracepoint.h>
DECLARE_EVENT_CLASS(${sys}_class, TP_PROTO(int v), TP_ARGS(v),
	TP_STRUCT__entry(__field(int, v)),
	TP_fast_assign(__entry->v = v;),
	TP_printk("v=%d", __entry->v));
EOH
		for ev; do
			echo "DEFINE_EVENT(${sys}_class, $ev, TP_PROTO(int v), TP_ARGS(v));"
		done
		echo "#endif"
		echo "#include <trace/define_trace.h>"
	} >"$tmp/$sys.h"
}
events abi_good good_ev
events abi_foreign foreign_ev foreign_ev2

cat >"$tmp/good.c" <<'EOC'
#define CREATE_TRACE_POINTS
#include "abi_good.h"
void fire_good(int v);
void fire_good(int v) { trace_good_ev(v); }
EOC
cat >"$tmp/foreign.c" <<'EOC'
#define CREATE_TRACE_POINTS
#include "abi_foreign.h"
void fire_foreign(int v);
void fire_foreign(int v) { trace_foreign_ev(v); trace_foreign_ev2(v); }
EOC
# Prints what the library made of the events, then what the global
# buffer holds: records of each system, and whether the good ones are
# intact (every value 1..N once).
cat >"$tmp/main.c" <<'EOC'
#include <stdio.h>
#include <string.h>
#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#define N 1000
void fire_good(int v);
void fire_foreign(int v);

struct rec {
	struct trace_entry ent;
	int v;
};

int main(void)
{
	struct trace_event_call *good = trace_find_event_call("abi_good", "good_ev");
	struct trace_event_call *foreign = trace_find_event_call("abi_foreign", "foreign_ev");
	struct trace_buffer *buffer = trace_get_global_buffer();
	static unsigned char seen[N + 1];
	unsigned long good_recs = 0, foreign_recs = 0, other = 0, bad = 0;

	printf("good registered: %s\n", good ? "yes" : "no");
	printf("foreign registered: %s\n", foreign ? "yes" : "no");
	printf("enable abi_good: %d\n", trace_set_clr_event("abi_good", NULL, 1));
	printf("enable abi_foreign: %d\n", trace_set_clr_event("abi_foreign", NULL, 1));
	for (int i = 1; i <= N; i++) {
		fire_good(i);
		fire_foreign(-i);
	}
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *event;
		unsigned long lost;
		uint64_t ts;

		while ((event = ring_buffer_consume(buffer, cpu, &ts, &lost))) {
			const struct rec *r = ring_buffer_event_data(event);

			if (good && r->ent.type == good->id) {
				good_recs++;
				if (r->v < 1 || r->v > N || seen[r->v]++)
					bad++;
			} else if (foreign && r->ent.type == foreign->id) {
				foreign_recs++;
			} else {
				other++;
			}
		}
	}
	printf("records: good %lu, foreign %lu, other %lu, bad %lu\n",
	       good_recs, foreign_recs, other, bad);
	return 0;
}
EOC

# The header of another version.
mkdir -p "$tmp/other/linux"
sed 's/^#define USTRACE_RB_ABI\([[:space:]]*\)\([0-9]*\)$/echo "#define USTRACE_RB_ABI\1$((\2 + 1))"/e' \
	"$srctree/include/linux/trace_events.h" >"$tmp/other/linux/trace_events.h"
ours=$(sed -n 's/^#define USTRACE_RB_ABI[[:space:]]*\([0-9]*\)$/\1/p' \
	"$srctree/include/linux/trace_events.h")
theirs=$(sed -n 's/^#define USTRACE_RB_ABI[[:space:]]*\([0-9]*\)$/\1/p' \
	"$tmp/other/linux/trace_events.h")
if [ -n "$ours" ] && [ "$theirs" = $((ours + 1)) ]; then
	ok "<linux/trace_events.h> defines USTRACE_RB_ABI ($ours); the copy says $theirs"
else
	not_ok "<linux/trace_events.h> defines USTRACE_RB_ABI (got '$ours', copy '$theirs')"
	tap_end
	exit 1
fi

# build NAME [FLAG...]: tmp/NAME from main.c, good.c and foreign.c, FLAGs
# (an -I) before the build's for foreign.c.
build() {
	local name=$1
	shift
	for f in main good; do
		$cc $cflags -I"$objtree/include" -I"$srctree/include" -I"$tmp" \
			-c "$tmp/$f.c" -o "$tmp/$name-$f.o" || return 1
	done
	$cc "$@" $cflags -I"$objtree/include" -I"$srctree/include" -I"$tmp" \
		-c "$tmp/foreign.c" -o "$tmp/$name-foreign.o" || return 1
	$cc $cflags "$tmp/$name-main.o" "$tmp/$name-good.o" "$tmp/$name-foreign.o" \
		-o "$tmp/$name" $ldflags -L"$objtree" -lustrace -Wl,-rpath,"$objtree" -lpthread
}

# run NAME: tmp/NAME.out and tmp/NAME.err; fails the test when it fails.
run() {
	if ! build "$1" "${@:2}" >"$tmp/$1.log" 2>&1; then
		not_ok "$1: the program builds"
		diag "$tmp/$1.log" 12
		return 1
	fi
	if ! "$tmp/$1" >"$tmp/$1.out" 2>"$tmp/$1.err"; then
		not_ok "$1: the program runs"
		diag "$tmp/$1.err" 12
		return 1
	fi
	ok "$1: the program builds and runs"
}

msg="ustrace: event abi_foreign:foreign_ev was built for ring buffer ABI $theirs, this libustrace has ABI $ours: not registered (rebuild the program against this library's headers)"

if run foreign -I"$tmp/other"; then
	same "foreign: stderr is one line naming the event and both versions" \
		"$msg" "$(cat "$tmp/foreign.err")"
	same "foreign: the object's events are not registered" \
		"good registered: yes|foreign registered: no" \
		"$(sed -n 1,2p "$tmp/foreign.out" | paste -sd'|')"
	same "foreign: enabling its system fails, the other's works" \
		"enable abi_good: 0|enable abi_foreign: -22" \
		"$(sed -n 3,4p "$tmp/foreign.out" | paste -sd'|')"
	same "foreign: the trace holds the good events, intact, and nothing else" \
		"records: good 1000, foreign 0, other 0, bad 0" \
		"$(sed -n 5p "$tmp/foreign.out")"
fi

if run same; then
	same "same version: stderr is empty" "" "$(cat "$tmp/same.err")"
	same "same version: both systems register and enable" \
		"good registered: yes|foreign registered: yes|enable abi_good: 0|enable abi_foreign: 0" \
		"$(sed -n 1,4p "$tmp/same.out" | paste -sd'|')"
	same "same version: both systems' events are recorded" \
		"records: good 1000, foreign 1000, other 1000, bad 0" \
		"$(sed -n 5p "$tmp/same.out")"
fi

tap_end
