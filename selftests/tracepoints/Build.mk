# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Tests of the tracepoint core (include/linux/tracepoint.h,
# kernel/tracepoint.c).
#
#   api          registration semantics, errors, regfunc, conditions, nesting
#   enomem       allocation failures (its own malloc; skips under ASan/TSan)
#   seed-example the seed document's examples, compiled as written (seed.c,
#                seed/)
#   shared-so    a tracepoint in libtpdef.so (-fvisibility=hidden), probed
#                from the program and from libtpprobe.so
#   shared-static  the same with libtpdef.a linked into the program
#   dlopen       plugins that forget their probes; a plugin that defines one
#   conflict     two objects defining one name (tp-dup-[abc].so)
#   inline       sites in inline functions and unrolled loops
#   fork         fork() while other threads register and fire
#   rcu          the read side and grace periods (kernel/tp_rcu.c)
#   hostless     a program without libustrace dlopen()s tp-hostless.so
#   compile-fail.sh  what must not compile or link, header hygiene, C++,
#                CONFIG_TRACEPOINTS=n (found and run by scripts/run-tests.sh)
#
# The programs find their shared objects next to themselves (dlopen) or
# through a run path to this directory of the build tree.

tp-comma	:= ,
tp-out		:= $(objtree)/$(d)
tp-rpath	:= -Wl$(tp-comma)-rpath$(tp-comma)$(tp-out)
tp-soname	= -Wl$(tp-comma)-soname$(tp-comma)$(1)

$(call add-prog,$(d)/api,$(d)/api.c)
$(call add-prog,$(d)/enomem,$(d)/enomem.c)
$(call add-prog,$(d)/inline,$(d)/inline.c $(d)/inline2.c)
$(call add-prog,$(d)/fork,$(d)/fork.c)
$(call add-prog,$(d)/rcu,$(d)/rcu.c)

# seed: the trace headers sit in seed/include and seed/tpath.
tp-seed-srcs	:= $(d)/seed.c $(d)/seed/subsys/file.c $(d)/seed/foo.c \
		   $(d)/seed/wrapper-user.c $(d)/seed/create.c
$(call add-prog,$(d)/seed-example,$(tp-seed-srcs))
$(call add-cflags,$(tp-seed-srcs),-I$(srctree)/$(d)/seed/include \
	-I$(srctree)/$(d)/seed)

# Shared objects.  Everything under shared/ includes "shared/..." or
# finds its trace header again through TRACE_INCLUDE_PATH, relative to $(d).
$(call add-cflags,$(wildcard $(d)/shared/*.c) $(d)/shared.c $(d)/dlopen.c,\
	-I$(srctree)/$(d))
$(call add-cflags,$(d)/shared/libtpdef.c,-fvisibility=hidden)

$(call add-shlib,$(d)/libtpdef.so,$(d)/shared/libtpdef.c,\
	$(call tp-soname,libtpdef.so))
$(call add-shlib,$(d)/libtpprobe.so,$(d)/shared/libtpprobe.c,\
	$(call tp-soname,libtpprobe.so))
$(call add-shlib,$(d)/tp-plugin.so,$(d)/shared/plugin.c)
$(call add-shlib,$(d)/tp-defplugin.so,$(d)/shared/defplugin.c)
$(call add-shlib,$(d)/tp-dup-a.so,$(d)/shared/dup-a.c)
$(call add-shlib,$(d)/tp-dup-b.so,$(d)/shared/dup-b.c)
$(call add-shlib,$(d)/tp-dup-c.so,$(d)/shared/dup-c.c)
$(call add-shlib,$(d)/tp-hostless.so,$(d)/shared/hostless.c)

$(obj)$(d)/libtpdef.a: $(call objs-of,$(d)/shared/libtpdef.c)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^
SELFTEST_TARGETS += $(d)/libtpdef.a

$(call add-prog,$(d)/shared-so,$(d)/shared.c,\
	-L$(tp-out) -ltpdef -ltpprobe $(tp-rpath))
$(obj)$(d)/shared-so: $(obj)$(d)/libtpdef.so $(obj)$(d)/libtpprobe.so

$(call add-prog,$(d)/shared-static,$(d)/shared.c,\
	$(obj)$(d)/libtpdef.a -L$(tp-out) -ltpprobe $(tp-rpath))
$(obj)$(d)/shared-static: $(obj)$(d)/libtpdef.a $(obj)$(d)/libtpprobe.so

# Plugins attach to dl_host_event, which the program defines and exports.
$(call add-prog,$(d)/dlopen,$(d)/dlopen.c,-L$(tp-out) -ltpdef $(tp-rpath) \
	-Wl$(tp-comma)--export-dynamic-symbol=__tracepoint_dl_host_event)
$(obj)$(d)/dlopen: $(addprefix $(obj)$(d)/,libtpdef.so tp-plugin.so \
	tp-defplugin.so)

$(call add-prog,$(d)/conflict,$(d)/conflict.c)

# hostless: a plugin host that does not link libustrace (no LINK_SHARED).
$(call add-cflags,$(d)/hostless.c,-I$(srctree)/$(d))
$(call declare,$(d)/hostless,$(d)/hostless.c,,,)
$(obj)$(d)/hostless: $(obj)$(d)/tp-hostless.so
$(obj)$(d)/conflict: $(addprefix $(obj)$(d)/tp-dup-,a.so b.so c.so)

TEST_PROGS += $(addprefix $(d)/,api enomem seed-example shared-so \
	shared-static dlopen conflict inline fork rcu hostless)
