# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Tests of the tracefs tree (kernel/trace/tracefs/*.c), in process.
#
#   tfs-tree   every file's text and errno through the calls a file
#              system server makes (tfs_lookup/readdir/open/read/write/
#              truncate/mkdir/rmdir), against the texts and errnos of the
#              kernel's /sys/kernel/tracing; instances; events coming and
#              going with the registry.  Static: the tree's calls are
#              internal to the library.
#
# The same behaviour through a FUSE mount is tested by the ftracetest
# scripts in selftests/ftrace/test.d/.

$(call add-static-prog,$(d)/tfs-tree,$(d)/main.c $(d)/tree.c $(d)/events.c $(d)/control.c \
	$(d)/buffer.c,-lpthread)
$(call add-cflags,$(d)/main.c $(d)/tree.c $(d)/events.c $(d)/control.c $(d)/buffer.c,\
	-I$(srctree)/$(d))
TEST_PROGS += $(d)/tfs-tree
