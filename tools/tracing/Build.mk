# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The ustrace command: one file per subcommand.
$(call add-tool,$(d)/ustrace,$(wildcard $(d)/*.c))
$(call add-cflags,$(d)/cmd-trace-cmd.c,-DUSTRACE_PKGLIBDIR='"$(libdir)/ustrace"')

# ustrace-trace-cmd.so: preloaded into the stock trace-cmd by
# "ustrace trace-cmd" (shim/trace-cmd-shim.c); installed into
# $(libdir)/ustrace.  It does not use libustrace.
$(call declare,$(d)/ustrace-trace-cmd.so,$(d)/shim/trace-cmd-shim.c,-ldl,-shared)
INSTALL_PKGLIBS += $(d)/ustrace-trace-cmd.so
