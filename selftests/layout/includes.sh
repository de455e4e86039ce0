#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# includes.sh - no part of the library includes another part's private
# header (scripts/check-includes.py; Documentation/process/layout.rst says
# which folder holds which part and what each may include).  Then the
# checker itself, on scratch trees: each planted breach must fail it.

. "$(dirname "$0")/../lib/tap.sh"
tap_begin includes

checker=$srctree/scripts/check-includes.py

# tree_with FILE LINE: a scratch tree whose FILE holds LINE (and the
# headers the rules name, so that includes resolve as in the real tree).
tree_with() {
	rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
	for h in kernel/internal.h kernel/trace/trace_array.h \
		 kernel/trace/trace_events_internal.h \
		 kernel/trace/ring_buffer/rb_internal.h \
		 kernel/trace/ring_buffer/rb_fast.h \
		 kernel/trace/tracefs/tracefs.h include/linux/trace_events.h \
		 include/linux/ring_buffer.h "$1"; do
		mkdir -p "$tmp/tree/$(dirname "$h")" && : >"$tmp/tree/$h"
	done
	printf '%s\n' "$2" >"$tmp/tree/$1"
	mkdir -p "$tmp/tree/Documentation/process"
	cp "$srctree/Documentation/process/layout.rst" "$tmp/tree/Documentation/process/"
}

# refused FILE LINE RULE: the checker fails on the scratch tree and names
# FILE and RULE.
refused() {
	tree_with "$1" "$2"
	if "${PYTHON:-python3}" "$checker" --srctree "$tmp/tree" >"$tmp/out"; then
		echo "check-includes.py passed:"; cat "$tmp/out"; return 1
	fi
	grep "^#   $1:1: .*$3" "$tmp/out" || { cat "$tmp/out"; return 1; }
}

# accepted FILE LINE: the checker finds nothing but the real tree's
# exceptions, which the scratch tree does not have.
accepted() {
	tree_with "$1" "$2"
	"${PYTHON:-python3}" "$checker" --srctree "$tmp/tree" >"$tmp/out"
	! grep '^not ok' "$tmp/out" | grep -v 'still needed' || { cat "$tmp/out"; return 1; }
}

# refused_folder FILE: a source in a folder layout.rst does not name fails.
refused_folder() {
	tree_with "$1" ''
	! "${PYTHON:-python3}" "$checker" --srctree "$tmp/tree" >"$tmp/out" &&
		grep "^#   $(dirname "$1")/ is not on the map" "$tmp/out"
}

check "the tree keeps to layout.rst" "${PYTHON:-python3}" "$checker" --srctree "$srctree"
check "the tracefs may not include the ring buffer's internals" refused \
	kernel/trace/tracefs/x.c '#include "../ring_buffer/rb_internal.h"' 'private to the ring buffer'
check "only trace_events.c may include rb_fast.h" refused \
	kernel/trace/trace_output.c '#include "ring_buffer/rb_fast.h"' 'rb_fast.h is open to'
check "trace_events.c may include rb_fast.h" accepted \
	kernel/trace/trace_events.c '#include "ring_buffer/rb_fast.h"'
check "the recorder may include trace_array.h" accepted \
	kernel/trace/record/x.c '#include "../trace_array.h"'
check "the recorder may not include the engine's private headers" refused \
	kernel/trace/record/x.c '#include "../trace_events_internal.h"' 'private to the engine'
check "the ring buffer knows nothing of events" refused \
	kernel/trace/ring_buffer/x.c '#include <linux/trace_events.h>' 'knows nothing of events'
check "the engine works without the tracefs" refused \
	kernel/trace/x.c '#include "tracefs/tracefs.h"' 'without any file system'
check "tools use exported APIs only" refused \
	tools/tracing/x.c '#include "../../kernel/trace/trace_array.h"' 'exported APIs only'
check "a private header reached by -I counts" refused \
	kernel/trace/tracefs/x.c '#include "rb_internal.h"' 'private to the ring buffer'
check "tests may not include the ring buffer's internals" refused \
	selftests/x/x.c '#include "../../kernel/trace/ring_buffer/rb_internal.h"' 'private to the ring buffer'
check "tests may include the engine's headers" accepted \
	selftests/x/x.c '#include "../../kernel/trace/trace_events_internal.h"'
check "a folder off the map fails" refused_folder kernel/trace/new/x.c
tap_end
