# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The recorder and its trace.dat writer (Documentation/trace/recording.rst):
# every .c file here is in libustrace (the top Makefile's wildcard stops at
# kernel/*/*.c).

LIB_SRCS-y += $(wildcard $(d)/*.c)
