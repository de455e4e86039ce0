# SPDX-License-Identifier: LGPL-2.1-or-later
#
# liburcu-bp's inline read-side code (_LGPL_SOURCE) reaches the per-thread
# reader through a pointer into an arena that does not honour the struct's
# declared 128-byte alignment (harmless on x86-64 and arm64).  The check is
# made in the inlined liburcu code itself, so it can only be switched off
# for the whole file; every other UBSan check stays on.
#
# The read side also reads liburcu-bp's thread-local reader pointer, which
# lives in another shared object: with the default TLS dialect every read
# is a call to __tls_get_addr, with TLS descriptors (gnu2) a call that
# returns the static offset at once.  It takes an enabled tracepoint with
# one probe from ~12.7 to ~10.1 ns here (selftests/bench/tp_bench).  Only
# compilers that accept the option get it (clang 14 does not).
tp-tls-dialect := $(shell $(CC) -Werror -mtls-dialect=gnu2 -fPIC -E -x c /dev/null \
			  -o /dev/null 2>/dev/null && echo -mtls-dialect=gnu2)
#
# Better still, initial-exec: liburcu-bp is loaded with the library (a
# DT_NEEDED of it), so its TLS block is in the static TLS area and the
# reader pointer is one %fs-relative load away.  When a program dlopen()s
# libustrace, glibc places liburcu-bp's few bytes of TLS in the static
# area's reserve, as it does for libustrace's own initial-exec variable.
$(call add-cflags,$(d)/tracepoint.c,-fno-sanitize=alignment $(tp-tls-dialect) -ftls-model=initial-exec)
