# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Tests of the TRACE_EVENT layer (include/trace/, kernel/trace/trace_*.c).
#
#   te-events   format texts against the kernel's (embedded), the sample
#               events recorded and rendered by us and by libtraceevent
#               (which must parse every format without a warning),
#               enabling per event, per system and all, bad records,
#               four threads recording at once.
#               Needs libtraceevent (pkg-config); not built without it.
#   compile-fail.sh  TRACE_EVENT() misuse that must not compile; a clean
#               header that compiles with -Werror (C and C++)
#   cxx.sh      events defined from C++ (cxx/): the same formats and
#               trace text as the same definition compiled as C
#   sample.sh   what samples/trace_events/trace-events-sample prints
#   abi.sh      an object built against another USTRACE_RB_ABI: its
#               events refused with one line on stderr, the trace intact

te-tep-cflags	:= $(shell $(PKG_CONFIG) --cflags libtraceevent 2>/dev/null)
te-tep-libs	:= $(shell $(PKG_CONFIG) --libs libtraceevent 2>/dev/null)

ifneq ($(te-tep-libs),)
$(call add-prog,$(d)/te-events,$(d)/events.c $(d)/tep-glue.c,$(te-tep-libs) -lpthread)
$(call add-cflags,$(d)/events.c,-I$(srctree)/$(d) -I$(srctree)/samples/trace_events)
$(call add-cflags,$(d)/tep-glue.c,$(te-tep-cflags))
TEST_PROGS += $(d)/te-events
endif

#   te-dlopen   an event in a dlopen()ed object (te-plugin.so): registered
#               on load, recorded, gone on dlclose (also while enabled),
#               the same id after reloading.

$(call add-shlib,$(d)/te-plugin.so,$(d)/plugin/plugin.c)
$(call add-cflags,$(d)/plugin/plugin.c,-I$(srctree)/$(d))
$(call add-prog,$(d)/te-dlopen,$(d)/dlopen.c,-ldl)
$(obj)$(d)/te-dlopen: $(obj)$(d)/te-plugin.so
TEST_PROGS += $(d)/te-dlopen

#   te-compat   trace headers written as the kernel's: no ';' after a
#               definition, TRACE_DEFINE_ENUM()/_SIZEOF() values in the
#               print fmt, the _NOP forms, __assign_str() of 6.1 and 6.10,
#               __string_len(), __rel_string(), __vstring(); TP_printk()
#               with the kernel's %p extensions, and naming the output
#               function's "ret" (spmi.h).  Static: it calls the
#               library's internals.

$(call add-static-prog,$(d)/te-compat,$(d)/compat.c)
$(call add-cflags,$(d)/compat.c,-I$(srctree)/$(d))
TEST_PROGS += $(d)/te-compat
