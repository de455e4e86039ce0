# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ftracetest: selftests/ftrace/ftracetest runs test.d/**/*.tc against the
# tracefs that samples/tracefs/tracefs-sample serves (ftracetest.sh is what
# "make check" runs). tfs-io makes the system calls a shell cannot.

$(call add-prog,$(d)/tfs-io,$(d)/tfs-io.c)
