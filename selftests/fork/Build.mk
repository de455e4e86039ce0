# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   fork-safety  a traced program that forks, execs and spawns (fork() +
#                exit(), fork() + exec(), system(), popen(), vfork() +
#                exec(), posix_spawn()), from one thread and from several
#                while others trace, change enables, read the buffer, serve
#                a tracefs that is being read, or record; children mount a
#                tracefs of their own.  Each case in a process of its own
#                with a deadline (kernel/fork.c, issue 16).
#   fork-safety-static  the cases that fork, linked with libustrace.a,
#                whose objects register their fork handlers from their
#                own constructors (fork-static.c)
#   fork-probe   fork() from a probe, while a grace period waits for the
#                probe, does not return: what fork.rst says is not
#                supported
#   fork-killed  children SIGKILLed in the middle of an event while others
#                write at full speed: their events are found, made padding
#                and counted, the accounting identity holds; a reset after
#                random kills (ring-buffer-design.rst, "Writers that die")

$(call add-prog,$(d)/fork-safety,$(d)/fork.c,-lpthread)
$(call add-static-prog,$(d)/fork-safety-static,$(d)/fork-static.c,-lpthread)
$(call add-prog,$(d)/fork-probe,$(d)/fork-probe.c,-lpthread)
$(call add-prog,$(d)/fork-killed,$(d)/fork-killed.c,-lpthread)
$(call add-cflags,$(d)/fork.c $(d)/fork-static.c $(d)/fork-killed.c,-I$(srctree)/$(d))
TEST_PROGS += $(d)/fork-safety $(d)/fork-safety-static $(d)/fork-probe $(d)/fork-killed
