# SPDX-License-Identifier: LGPL-2.1-or-later
#
# System mode (Documentation/trace/system-mode.rst): ustrace daemon, the
# programs that register with it, ustrace dump.  The scripts are the
# tests: daemon.sh (one tree for many programs: registration, remembered
# writes, the collector going and coming back, a mute collector, other
# users) and flight.sh (the buffers kept after their programs: SIGKILL,
# abort, _exit, closed descriptors; ustrace dump; a writer scribbling
# over its own buffer).
#
#   coll-scribble  a traced program that fires scribble:scribble_tick
#                  and, with -s, fills its own ring buffer's memory with
#                  garbage (flight.sh)
#   coll-other     the same with another format of scribble_tick, for
#                  daemon.sh (one event name, two formats)

$(call add-prog,$(d)/coll-scribble,$(d)/scribble.c)
$(call add-prog,$(d)/coll-other,$(d)/scribble-other.c)
$(call add-cflags,$(d)/scribble.c $(d)/scribble-other.c,-I$(srctree)/$(d))
