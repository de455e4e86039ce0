# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ftracetest: selftests/ftrace/ftracetest runs test.d/**/*.tc against the
# tracefs that samples/tracefs/tracefs-sample serves (ftracetest.sh,
# fuse.sh and mounts.sh are what "make check" runs, a part each).
# tfs-io makes the system calls a shell cannot; tfs-quiet mounts with the
# API and counts what the program sees of the processes the library runs.

$(call add-prog,$(d)/tfs-io,$(d)/tfs-io.c)
$(call add-prog,$(d)/tfs-quiet,$(d)/tfs-quiet.c)
