#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 600
#
# ftracetest-trigger.sh - the kernel's own ftracetest, test.d/trigger, against a
# program's tracefs (kernel-ftracetest.inc says how; expected-ftracetest.txt
# what each case must give, and why).

. "$(dirname "$0")/kernel-ftracetest.inc"
run_kernel_ftracetest trigger
