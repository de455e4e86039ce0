# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The recorder and its trace.dat writer (Documentation/trace/recording.rst),
# and the kernel's events next to the program's (<ustrace/kernel.h>,
# recording.rst, "Kernel and program on one timeline"): every .c file here
# is in libustrace (the top Makefile's wildcard stops at kernel/*/*.c).
# ktrace.h is private to this folder.

LIB_SRCS-y += $(wildcard $(d)/*.c)
