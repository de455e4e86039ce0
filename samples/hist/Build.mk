# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The latency sample: a server whose requests take known times, to measure
# with inter-event hist triggers through its tracefs (latency.sh shows it;
# selftests/hist/latency.sh checks the histogram).

$(call add-prog,$(d)/latency-sample,$(d)/latency-sample.c)
$(call add-cflags,$(d)/latency-sample.c,-I$(srctree)/$(d))
