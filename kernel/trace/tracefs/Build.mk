# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The tracefs tree and its FUSE server (Documentation/trace/tracefs.rst):
# every .c file here is in libustrace (the top Makefile's wildcard stops at
# kernel/*/*.c).
#
# tracefs_fuse.c, the FUSE server of the tracefs tree, is compiled against
# libfuse3 when CONFIG_TRACEFS_FUSE is set and pkg-config finds fuse3: the
# top Makefile then sets FUSE_CFLAGS (with -DUSTRACE_HAVE_LIBFUSE3) and
# links FUSE_LIBS. Otherwise the file builds without libfuse3 and its
# ustrace_tracefs_mount() returns -ENOSYS.

LIB_SRCS-y += $(wildcard $(d)/*.c)

$(call add-cflags,$(d)/tracefs_fuse.c,$(FUSE_CFLAGS))
