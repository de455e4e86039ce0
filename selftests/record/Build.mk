# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Tests of the zero-setup recording (kernel/trace/record/: trace_record.c,
# trace_dat.c, trace_record_libc.c, <ustrace/record.h>) and of ustrace
# record / report / list.  The scripts run the programs below and read
# their files with the stock trace-cmd: record.sh (what is recorded),
# guest-fds.sh, guest-privileges.sh, guest-ends.sh and guest-memory.sh
# (the program's descriptors; set-user-ID programs and planted links;
# signals, _exit() and exec; ulimit -v: sourcing guest-lib.bash), ustrace-cmd.sh (the commands),
# tree.sh (ustrace record of a process tree: one file; two processes given
# one USTRACE_OUTPUT).
#
#   rec-app         the recorded program: workers pinned to CPUs fire the
#                   sample events and numbered events; ends by stop, exit,
#                   a signal, _exit() or exec, closes its descriptors as a
#                   daemon does, runs under a seccomp filter (see its
#                   comment)
#   rec-app-static  the same linked with libustrace.a: trace markers, and
#                   the instance's own trace text to compare with
#
# rec-app -p loads selftests/trace_events/te-plugin.so: an event that
# registers long after the recording started.

rec-srcs	:= $(d)/rec-app.c $(d)/rec-app-static.c
$(call add-cflags,$(rec-srcs),-I$(srctree)/$(d) -I$(srctree)/samples/trace_events)
$(call add-prog,$(d)/rec-app,$(d)/rec-app.c,-lpthread -ldl)
$(call add-static-prog,$(d)/rec-app-static,$(d)/rec-app-static.c,-lpthread -ldl)
$(obj)$(d)/rec-app: $(obj)selftests/trace_events/te-plugin.so
