# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The tracefs tree and its FUSE server (Documentation/trace/tracefs.rst):
# every .c file here is in libustrace (the top Makefile's wildcard stops at
# kernel/*/*.c).
#
# tracefs_fuse.c, the FUSE server of the tracefs tree, is built against
# libfuse3 when CONFIG_TRACEFS_FUSE is set and pkg-config finds fuse3: the
# top Makefile then sets FUSE_CFLAGS and links FUSE_LIBS.  Otherwise
# tracefs_nofuse.c takes its place: ustrace_tracefs_mount() returns
# -ENOSYS, and USTRACE_TRACEFS says so on stderr.

LIB_SRCS-y += $(wildcard $(d)/*.c)

ifneq ($(FUSE_LIBS),)
LIB_SRCS- += $(d)/tracefs_nofuse.c
$(call add-cflags,$(d)/tracefs_fuse.c,$(FUSE_CFLAGS))
else
LIB_SRCS- += $(d)/tracefs_fuse.c
endif
