# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Interop tests: the stock Debian tools on a ustrace program's tracefs
# (samples/tracefs/tracefs-sample).  The *.sh scripts are the tests
# ("make check" runs them; functions is what they share):
#
#   record.sh       trace-cmd record, the options users reach for, then
#                   trace-cmd report against the mount's own trace text
#   live.sh         the recorder's data paths read while the program runs;
#                   record -N to trace-cmd listen
#   control.sh      trace-cmd start/stop/show/extract/stat/reset/list/stream
#   libtracefs.sh   tfs-libtracefs: libtracefs reads our events
#   kernelshark.sh  KernelShark opens a recording, under Xvfb
#   unprivileged.sh a program and its recording as a user, no root
#
# tfs-libtracefs needs libtracefs (Debian: libtracefs-dev); without it
# it is not built and libtracefs.sh skips.  It uses no libustrace.

interop-tfs-cflags	:= $(shell $(PKG_CONFIG) --cflags libtracefs 2>/dev/null)
interop-tfs-libs	:= $(shell $(PKG_CONFIG) --libs libtracefs 2>/dev/null)

ifneq ($(interop-tfs-libs),)
$(call declare,$(d)/tfs-libtracefs,$(d)/tfs-libtracefs.c,$(interop-tfs-libs))
$(call add-cflags,$(d)/tfs-libtracefs.c,$(interop-tfs-cflags))
endif
