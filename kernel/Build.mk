# SPDX-License-Identifier: LGPL-2.1-or-later
#
# liburcu-bp's inline read-side code (_LGPL_SOURCE) reaches the per-thread
# reader through a pointer into an arena that does not honour the struct's
# declared 128-byte alignment (harmless on x86-64 and arm64).  The check is
# made in the inlined liburcu code itself, so it can only be switched off
# for the whole file; every other UBSan check stays on.
$(call add-cflags,$(d)/tracepoint.c,-fno-sanitize=alignment)
