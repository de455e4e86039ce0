# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The kernel's events next to the program's (<ustrace/kernel.h>,
# Documentation/trace/recording.rst, "Kernel and program on one
# timeline"): every .c file here is in libustrace.  ktrace.h is private to
# this folder.

LIB_SRCS-y += $(wildcard $(d)/*.c)
