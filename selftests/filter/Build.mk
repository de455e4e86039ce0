# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   flt-filter  event filters (kernel/trace/trace_events_filter.c): every
#               filter of kernel-texts.h against a live kernel's errno,
#               file text and error_log entry; the examples of
#               Documentation/trace/events.rst; each operator on each kind
#               of field; == and != of strings of every length; CPU,
#               COMM, common fields; CPUS{} with CPU ids that have holes
#               (root: a mount namespace); system filters; a
#               rejected event takes no room and is not written; a
#               passed record is the same bytes as an unfiltered one, at
#               every length, filtered in the scratch record and in place;
#               the switch between the two and back, losing nothing;
#               filters replaced while threads record.  Static: the filter
#               calls are internal.
#   instructions.sh  what a filter costs, in instructions (callgrind, of
#               selftests/bench/filter_bench --callgrind): the filter
#               alone, and a filtered event that passes over unfiltered

$(call add-static-prog,$(d)/flt-filter,$(d)/filter.c,-lpthread)
$(call add-cflags,$(d)/filter.c,-I$(srctree)/$(d))
TEST_PROGS += $(d)/flt-filter
