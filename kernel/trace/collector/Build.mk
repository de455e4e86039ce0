# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The collector (Documentation/trace/system-mode.rst): its client, in every
# program (coll_client.c), and the collector itself (coll_server.c, and
# coll_tree.c, the tree of many processes), which `ustrace daemon` runs.
# It serves its tree with the tracefs part's FUSE server: without libfuse3
# coll_nofuse.c takes the collector's place (ustrace_collector_run()
# returns -ENOSYS) and only the client is built.

LIB_SRCS-y += $(wildcard $(d)/*.c)

ifneq ($(FUSE_LIBS),)
LIB_SRCS- += $(d)/coll_nofuse.c
$(call add-cflags,$(d)/coll_server.c,$(FUSE_CFLAGS))
else
LIB_SRCS- += $(d)/coll_server.c $(d)/coll_tree.c
endif
