# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The ustrace command: one file per subcommand.
$(call add-tool,$(d)/ustrace,$(wildcard $(d)/*.c))
$(call add-cflags,$(d)/cmd-trace-cmd.c,-DUSTRACE_PKGLIBDIR='"$(libdir)/ustrace"')

# ustrace-trace-cmd.so: preloaded into the stock trace-cmd by
# "ustrace trace-cmd" (shim/trace-cmd-shim.c); installed into
# $(libdir)/ustrace.  It does not use libustrace.  It is built without
# sanitizers even in a SANITIZE= build: it goes into the stock trace-cmd,
# which is not instrumented, and a sanitizer runtime must come first in a
# process's libraries or not at all.
$(call declare,$(d)/ustrace-trace-cmd.so,$(d)/shim/trace-cmd-shim.c,-ldl,-shared)
$(call add-cflags,$(d)/shim/trace-cmd-shim.c,-fno-sanitize=all)
$(obj)$(d)/ustrace-trace-cmd.so: COMMON_LDFLAGS := $(LDFLAGS)
$(obj)$(d)/ustrace-trace-cmd.so: LIBS :=
INSTALL_PKGLIBS += $(d)/ustrace-trace-cmd.so
