# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The ustrace command: one file per subcommand.
$(call add-tool,$(d)/ustrace,$(wildcard $(d)/*.c))

# The installed ustrace finds the installed shim from where it is: make
# install links it with the install's paths ($(bindir) and $(libdir) as
# given to make install, known only when its recipes run), which
# cmd-trace-cmd.c references weakly.  The file changes only when they do.
$(obj)install-bin/ustrace: $(obj)install-bin/ustrace-paths.o

$(obj)install-bin/ustrace-paths.c: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)rel=$$(realpath -m --relative-to='$(bindir)' '$(libdir)/ustrace' 2>/dev/null); \
	printf '%s\n' '/* Made by make install: where the shim goes (tools/tracing/Build.mk). */' \
		"const char ustrace_install_shim_rel[] = \"$$rel\";" \
		'const char ustrace_install_pkglibdir[] = "$(libdir)/ustrace";' >$@.tmp && \
	{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

$(obj)install-bin/ustrace-paths.o: $(obj)install-bin/ustrace-paths.c $(flags-stamp)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -c -o $@ $<

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
