# SPDX-License-Identifier: LGPL-2.1-or-later
#
# x86-64 text patching exists only for jump label sites.
LIB_SRCS-$(CONFIG_JUMP_LABEL) += $(d)/jump_label.c
