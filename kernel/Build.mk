# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The tracepoint core builds with the common flags: its thread-local reader
# pointer (tp_rcu.c) is declared initial-exec in <linux/tracepoint.h>.
