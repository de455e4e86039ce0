# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ustrace top-level Makefile.
#
# Build directory
# ---------------
# "make" builds in the source tree. "make O=dir" puts everything it writes
# (.config, include/generated/, objects, libraries, programs, test logs)
# under dir instead, so several configurations can be built side by side:
#
#	make O=build/asan SANITIZE=address,undefined
#
# Run make from the top of the source tree. $(obj) is the build directory
# with a trailing slash, or empty for an in-tree build; every rule names its
# outputs $(obj)path and its sources by their path in the source tree.
#
# Fragments
# ---------
# Programs are not listed here. Every samples/*/Build.mk,
# tools/tracing/Build.mk, selftests/*/Build.mk and kernel/Build.mk,
# kernel/*/Build.mk, kernel/*/*/Build.mk is included, with $(d) set to the
# fragment's directory. A fragment declares what it builds with these helpers
# (NAME is a path in the source tree, without $(obj); SRCS are .c files in the
# source tree; an empty SRCS declares nothing, so $(wildcard) is safe before
# the sources exist):
#
#	$(call add-prog,NAME,SRCS[,LDLIBS])
#		program linked against libustrace.so, with a run path to the
#		build directory so that it runs uninstalled
#	$(call add-static-prog,NAME,SRCS[,LDLIBS])
#		program linked against libustrace.a
#	$(call add-shlib,NAME,SRCS[,LDLIBS])
#		shared object (for dlopen()), linked against libustrace.so
#	$(call add-tool,NAME,SRCS[,LDLIBS])
#		add-prog, and "make install" installs it into $(bindir)
#	$(call add-cflags,SRCS,FLAGS)
#		compile SRCS with FLAGS too, after the usual flags
#	$(call objs-of,SRCS)
#		the object files SRCS compile to
#
# and appends names relative to the build directory to these lists:
#
#	TEST_PROGS	programs "make check" runs (TAP on stdout)
#	BENCH_PROGS	programs "make bench" runs (with selftests/bench/*.sh)
#	STRESS_PROGS	programs "make stress" runs (with selftests/stress/*.sh)
#	EXTRA_TARGETS	files of custom rules that "make" builds
#	SELFTEST_TARGETS files of custom rules that "make selftests" builds
#	INSTALL_PKGLIBS	files "make install" puts in $(libdir)/ustrace
#	LIB_SRCS-y	more library sources. kernel/*.c, kernel/*/*.c (but
#			kernel/arch/) and, on x86_64, kernel/arch/x86/*.c are
#			always in, unless a fragment names them in
#			LIB_SRCS-$(CONFIG_FOO) and CONFIG_FOO is off
#
# Programs declared under selftests/ are built by "make selftests" (and so by
# "make check"); the others by "make". Custom rules name their outputs
# $(obj)path, depend on $(autoconf_h) when they compile, compile with
# $(PROG_CFLAGS), and print with $(Q) and $(call msg,TAG,file).
#
# $(d) is valid only while make reads the fragment: use it in the arguments
# of these helpers, in targets, prerequisites and ":=" assignments, never in
# recipes or "=" variables (those are expanded later, when $(d) has moved on).
# Documentation/process/build.rst has examples.
#
# Variables
# ---------
#	O=dir		build directory (default: the source tree)
#	V=1		print commands instead of "  CC      file"
#	CC, AR, CFLAGS, LDFLAGS	toolchain; CFLAGS and LDFLAGS are appended
#	SANITIZE=list	-fsanitize=list, e.g. address,undefined or thread
#	KCONFIG_OVERRIDES="CONFIG_A=n CONFIG_B=y"  applied on top of .config
#	PREFIX, DESTDIR, bindir, libdir, includedir, mandir  for install
#	USTRACE_SKIP_DEPS=1  "make check" and "make run" skip install-deps.sh

VERSION		:= 0.1.0
SOVERSION	:= 0
USTRACE_VERSION	:= $(VERSION)

MAKEFLAGS	+= -r
.SUFFIXES:
.DELETE_ON_ERROR:
.DEFAULT_GOAL	:= all

ifeq ($(V),1)
Q		:=
msg		= @:
else
Q		:= @
msg		= @printf '  %-7s %s\n' '$(1)' '$(2)'
MAKEFLAGS	+= --no-print-directory
endif

srctree		:= $(CURDIR)
obj		:= $(if $(O),$(patsubst %/,%,$(O))/)
objtree		:= $(if $(O),$(abspath $(O)),$(CURDIR))

AR		?= ar
PKG_CONFIG	?= pkg-config
PYTHON		?= /usr/bin/python3
INSTALL		?= install

ARCH		:= $(firstword $(subst -, ,$(shell $(CC) -dumpmachine 2>/dev/null)))
CC_IS_CLANG	:= $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1)),y)
export ARCH USTRACE_VERSION KCONFIG_OVERRIDES

# ---------------------------------------------------------------------------
# Targets that need no configuration, and targets that make one. Asking for
# both at once ("make defconfig all") runs them one by one.

config-targets	:= defconfig olddefconfig syncconfig savedefconfig menuconfig \
		   listconfig %_defconfig
no-config-targets := clean distclean help deps check check-quick run uninstall fuzz

goals		:= $(MAKECMDGOALS)
ifneq ($(filter $(config-targets),$(goals)),)
ifneq ($(filter-out $(config-targets),$(goals)),)
mixed-targets	:= y
endif
endif
need-config	:= $(if $(goals),$(filter-out $(config-targets) $(no-config-targets),$(goals)),all)

ifdef mixed-targets

$(goals): __sequential
	@:
__sequential:
	$(Q)set -e; for t in $(goals); do $(MAKE) -f $(firstword $(MAKEFILE_LIST)) $$t; done
.PHONY: $(goals) __sequential

else # !mixed-targets

# ---------------------------------------------------------------------------
# Configuration

KCONFIG		:= $(PYTHON) $(srctree)/scripts/kconfig.py --srctree $(srctree) \
		   --objtree $(objtree)
kconfig-files	:= $(wildcard Kconfig */Kconfig */*/Kconfig)
autoconf_h	:= $(obj)include/generated/autoconf.h
auto_conf	:= $(obj)include/config/auto.conf
overrides-stamp	:= $(obj)include/config/overrides

# $(call update-stamp,FILE,TEXT): write TEXT to FILE unless FILE holds it, so
# that FILE's time says when TEXT last changed.
update-stamp	= $(shell mkdir -p $(dir $(1)) && { test -f $(1) && \
		  test "$$(cat $(1))" = '$(2)' || printf '%s\n' '$(2)' > $(1); })

defconfig olddefconfig syncconfig savedefconfig menuconfig listconfig: FORCE
	$(Q)$(KCONFIG) $@

%_defconfig: configs/%_defconfig FORCE
	$(Q)$(KCONFIG) defconfig $<

ifneq ($(need-config),)
# Reading auto.conf makes make build it first; a build directory without a
# .config gets configs/defconfig.
-include $(auto_conf)

$(obj).config:
	$(Q)$(KCONFIG) defconfig

# New overrides are applied once, when they differ from the last ones.
$(call update-stamp,$(overrides-stamp),$(KCONFIG_OVERRIDES))

$(auto_conf): $(obj).config $(kconfig-files) $(overrides-stamp)
	$(Q)$(KCONFIG) syncconfig

# syncconfig rewrites autoconf.h only when its contents change.
$(autoconf_h): $(auto_conf)
	$(Q)test -f $@ || $(KCONFIG) syncconfig
endif

# ---------------------------------------------------------------------------
# Flags

ifdef CONFIG_USTRACE_DEBUG
OPTFLAGS	:= -O0 -g3
else
OPTFLAGS	:= -O2 -g
endif

ifneq ($(SANITIZE),)
SAN_FLAGS	:= -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

# libfuse3 for the tracefs server (kernel/trace/tracefs/Build.mk). Without it the
# library still builds, and ustrace_tracefs_mount() returns -ENOSYS.
ifdef CONFIG_TRACEFS_FUSE
ifeq ($(shell $(PKG_CONFIG) --exists fuse3 2>/dev/null && echo y),y)
FUSE_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags fuse3)
FUSE_LIBS	:= $(shell $(PKG_CONFIG) --libs fuse3)
endif
endif

# The build directory's include/ comes first: an in-tree build's
# include/generated/ must not shadow an O= build's.
CPPFLAGS_USTRACE := -D_GNU_SOURCE -I$(objtree)/include -I$(srctree)/include
COMMON_CFLAGS	:= -std=gnu11 $(OPTFLAGS) -Wall -Wextra -fPIC $(SAN_FLAGS) \
		   $(CPPFLAGS_USTRACE)
# -fno-semantic-interposition here and -Bsymbolic-functions at link time:
# calls between the library's own exported functions (the recording path:
# reserve, event data, commit) bind locally instead of going through the
# PLT; nobody interposes them.
LIB_CFLAGS	:= $(COMMON_CFLAGS) -fvisibility=hidden -fno-semantic-interposition $(CFLAGS)
PROG_CFLAGS	:= $(COMMON_CFLAGS) -I$(srctree)/selftests/lib $(CFLAGS)
DEP_FLAGS	:= -MMD -MP

COMMON_LDFLAGS	:= $(SAN_FLAGS) $(LDFLAGS)
LIBS		:= $(FUSE_LIBS) -lpthread -ldl
# clang does not link the sanitizer runtime into shared objects.
LIB_NO_UNDEF	:= $(if $(and $(SAN_FLAGS),$(CC_IS_CLANG)),,-Wl,--no-undefined)
LINK_SHARED	:= -L$(objtree) -lustrace -Wl,-rpath,$(objtree)

# Objects are rebuilt when the compiler or its flags change.
flags-stamp	:= $(obj).build-flags
flags-text	:= $(CC) | $(LIB_CFLAGS) | $(PROG_CFLAGS) | $(COMMON_LDFLAGS) | $(FUSE_CFLAGS)
ifneq ($(need-config),)
$(call update-stamp,$(flags-stamp),$(flags-text))
endif

# ---------------------------------------------------------------------------
# Fragment helpers

objs-of		= $(patsubst %.c,$(obj)%.o,$(filter %.c,$(1)))

PROGS		:=
OBJS		:=
EXTRA_CFLAGS	:=
TEST_PROGS	:=
INSTALL_PKGLIBS	:=
BENCH_PROGS	:=
STRESS_PROGS	:=
INSTALL_PROGS	:=
EXTRA_TARGETS	:=
SELFTEST_TARGETS :=
LIB_SRCS-y	:=
LIB_SRCS-	:=

# $(call __link,NAME,SRCS,LDLIBS,link-flags,prerequisite)
define __link
PROGS += $(1)
OBJS += $(call objs-of,$(2))
$(obj)$(1): $(call objs-of,$(2)) $(5) $(flags-stamp)
	$$(call msg,LD,$$@)
	$$(Q)$$(CC) $$(COMMON_LDFLAGS) -o $$@ $$(filter %.o,$$^) $(4) $(3) $$(LIBS)
endef

# An installed tool is linked again without the build tree's run path,
# with one relative to where it is installed instead ($ORIGIN, then
# $(bindir) to $(libdir)), so that it finds the installed library from any
# PREFIX or DESTDIR without LD_LIBRARY_PATH.
install-rpath	= $$ORIGIN/$(shell realpath -m --relative-to='$(bindir)' '$(libdir)')
define __install_link
INSTALL_PROGS += $(1)
$(obj)install-bin/$(notdir $(1)): $(call objs-of,$(2)) $(obj)libustrace.so $(flags-stamp) $(obj)install-bin/rpath-stamp
	$$(call msg,LD,$$@)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(COMMON_LDFLAGS) -o $$@ $$(filter %.o,$$^) -L$$(objtree) -lustrace \
		-Wl,-rpath,'$$(install-rpath)' $(3) $$(LIBS)
endef

# The installed tools are linked again when the run path changes.
$(obj)install-bin/rpath-stamp: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)printf '%s\n' '$(install-rpath)' >$@.tmp && \
	{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

declare		= $(if $(strip $(2)),$(eval $(call __link,$(strip $(1)),$(strip $(2)),$(3),$(4),$(5))))
add-prog	= $(call declare,$(1),$(2),$(3),$(LINK_SHARED),$(obj)libustrace.so)
add-static-prog	= $(call declare,$(1),$(2),$(3),$(obj)libustrace.a,$(obj)libustrace.a)
add-shlib	= $(call declare,$(1),$(2),$(3),-shared $(LINK_SHARED),$(obj)libustrace.so)
add-tool	= $(call add-prog,$(1),$(2),$(3))$(if $(strip $(2)),$(eval $(call __install_link,$(strip $(1)),$(strip $(2)),$(3))))
add-cflags	= $(if $(strip $(1)),$(eval $(call objs-of,$(1)): EXTRA_CFLAGS += $(2)))

fragments	:= $(wildcard kernel/Build.mk kernel/*/Build.mk kernel/*/*/Build.mk \
		   samples/*/Build.mk tools/tracing/Build.mk selftests/*/Build.mk)

define include-fragment
d := $(patsubst %/,%,$(dir $(1)))
include $(1)
endef
$(foreach f,$(fragments),$(eval $(call include-fragment,$(f))))
d :=

# ---------------------------------------------------------------------------
# Library

# kernel/*.c, kernel/*/*.c but kernel/arch/, the architecture's files, and
# what fragments add; a file a fragment lists under a disabled option
# (LIB_SRCS-$(CONFIG_FOO) with CONFIG_FOO unset) is left out.
lib-srcs	:= $(filter-out $(LIB_SRCS-),$(sort $(wildcard kernel/*.c) \
		   $(filter-out kernel/arch/%,$(wildcard kernel/*/*.c)) \
		   $(if $(filter x86_64,$(ARCH)),$(wildcard kernel/arch/x86/*.c)) \
		   $(LIB_SRCS-y)))
lib-objs	:= $(call objs-of,$(lib-srcs))
OBJS		+= $(lib-objs)

libso-real	:= $(obj)libustrace.so.$(VERSION)
libso-soname	:= libustrace.so.$(SOVERSION)
lib-files	:= $(if $(lib-objs),$(libso-real) $(obj)$(libso-soname) $(obj)libustrace.so \
		   $(obj)libustrace.a)

CFLAGS_OBJ	= $(PROG_CFLAGS)
ifneq ($(lib-objs),)
$(lib-objs): CFLAGS_OBJ = $(LIB_CFLAGS)
endif

$(obj)%.o: %.c $(autoconf_h) $(flags-stamp)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_OBJ) $(EXTRA_CFLAGS) $(DEP_FLAGS) -c -o $@ $<

$(libso-real): $(lib-objs) $(flags-stamp)
	$(call msg,LD,$@)
	$(Q)$(CC) $(COMMON_LDFLAGS) -shared -Wl,-soname,$(libso-soname) $(LIB_NO_UNDEF) -Wl,-Bsymbolic-functions \
		-o $@ $(lib-objs) $(LIBS)

$(obj)$(libso-soname): $(libso-real)
	$(Q)ln -sf $(notdir $<) $@

$(obj)libustrace.so: $(obj)$(libso-soname)
	$(Q)ln -sf $(notdir $<) $@

$(obj)libustrace.a: $(lib-objs)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $(lib-objs)

$(obj)ustrace.pc: scripts/ustrace.pc.in FORCE
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(pc-libdir)|g' \
		-e 's|@INCLUDEDIR@|$(pc-includedir)|g' -e 's|@VERSION@|$(VERSION)|g' \
		-e 's|@FUSE_REQUIRES@|$(if $(FUSE_LIBS), fuse3)|g' \
		$< > $@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

# ---------------------------------------------------------------------------
# Build targets

rel-progs	:= $(filter-out selftests/%,$(PROGS))
test-builds	:= $(filter-out $(BENCH_PROGS) $(STRESS_PROGS),$(filter selftests/%,$(PROGS)) \
		   $(TEST_PROGS))

all: $(lib-files) $(addprefix $(obj),$(rel-progs) $(EXTRA_TARGETS))
	@:

selftests: all $(addprefix $(obj),$(test-builds) $(SELFTEST_TARGETS))
	@:

-include $(OBJS:.o=.d)

# ---------------------------------------------------------------------------
# Running

RUN_PROG	?= samples/tracepoints/tracepoint-sample
RUN_ARGS	?=
# Then a program's own tracefs, driven from a shell (needs FUSE).
RUN_DEMO	?= samples/tracefs/demo.sh

# "make run" and "make check" install the dependencies before they parse a
# configuration, so they hand the build to a second make.
ifneq ($(USTRACE_SKIP_DEPS),1)
deps:
	$(Q)$(srctree)/scripts/install-deps.sh
else
deps:
	@:
endif

run: deps
	$(Q)$(MAKE) all
	$(Q)test -x $(objtree)/$(RUN_PROG) || { echo "make run: $(RUN_PROG) was not built" >&2; exit 1; }
	$(Q)$(objtree)/$(RUN_PROG) $(RUN_ARGS)
	$(Q)$(if $(RUN_DEMO),$(srctree)/$(RUN_DEMO) $(objtree))

# What tests see besides USTRACE_SRCTREE, USTRACE_OBJTREE and USTRACE_VARIANT
# (scripts/run-tests.sh sets those): how to build and install like this build.
test-env	= USTRACE_CC='$(CC)' USTRACE_CFLAGS='$(PROG_CFLAGS)' \
		  USTRACE_LDFLAGS='$(COMMON_LDFLAGS)' USTRACE_SANITIZE='$(SANITIZE)' \
		  USTRACE_MAKEARGS='O=$(objtree) CC=$(CC)$(if $(SANITIZE), SANITIZE=$(SANITIZE))'

VARIANT		?= local
TEST_ENV	?=
TEST_WRAP	?=
RESULTS		?=

# Run the tests of this build directory once, in the current environment.
run-tests: selftests
	$(Q)$(test-env) $(srctree)/scripts/run-tests.sh --variant '$(VARIANT)' \
		--srctree $(srctree) --objtree $(objtree) \
		$(foreach e,$(TEST_ENV),--env '$(e)') $(if $(TEST_WRAP),--wrap '$(TEST_WRAP)') \
		$(if $(RESULTS),--results '$(RESULTS)') -- $(addprefix $(objtree)/,$(TEST_PROGS)) \
		$(if $(RESULTS),|| :)

# $(call run-tier,NAME,PROGS): run PROGS, then selftests/NAME/*.sh, in the
# build directory with their output as it comes; fail if one fails.
define run-tier
	$(Q)status=0; \
	for p in $(addprefix $(objtree)/,$(2)) $(wildcard $(srctree)/selftests/$(1)/*.sh); do \
		echo "# $(1): $${p#$(srctree)/}"; \
		case $$p in *.sh) test -x $$p || set -- bash;; *) set --;; esac; \
		(cd $(objtree) && $(test-env) USTRACE_SRCTREE=$(srctree) USTRACE_OBJTREE=$(objtree) \
			USTRACE_VARIANT=$(1) "$$@" $$p </dev/null) || \
			{ echo "# $(1): $$p failed" >&2; status=1; }; \
	done; test $$status = 0
endef

# make fuzz: the parsers under libFuzzer (clang), FUZZ_TIME seconds each; failing
# inputs go to selftests/fuzz/regress/, which "make check" replays.
FUZZ_TIME	?= 60
fuzz:
	$(Q)MAKE='$(MAKE)' $(srctree)/scripts/run-fuzz.sh '$(CHECK_DIR)/fuzz' '$(FUZZ_TIME)'

# The benchmarks append their figures to $(BENCH_TABLE); the table of
# targets is printed at the end, whether or not one of them failed.
BENCH_TABLE	= $(objtree)/bench-table.txt
bench: export USTRACE_BENCH_TABLE = $(BENCH_TABLE)
bench: all $(addprefix $(obj),$(BENCH_PROGS))
	$(Q)rm -f $(BENCH_TABLE)
	$(call run-tier,bench,$(BENCH_PROGS)); status=$$?; \
		$(srctree)/scripts/bench-table.sh $(BENCH_TABLE); exit $$status

stress: all $(addprefix $(obj),$(STRESS_PROGS))
	$(call run-tier,stress,$(STRESS_PROGS))

# ---------------------------------------------------------------------------
# Test variants for "make check". Each builds in $(CHECK_DIR)/<dir> with the
# given make arguments, then runs the tests with the given environment and
# under the given wrapper command. Variants may share a build directory.

CHECK_DIR	?= build
CHECK_VARIANTS	?= default nopatch nojl asan tsan clang
CHECK_JOBS	?= 2

check-default-dir	:= default
check-nopatch-dir	:= default
check-nopatch-env	:= USTRACE_JUMP_LABEL=0
check-nojl-dir		:= nojl
check-nojl-make		:= KCONFIG_OVERRIDES=CONFIG_JUMP_LABEL=n
check-asan-dir		:= asan
check-asan-make		:= SANITIZE=address,undefined
check-asan-env		:= ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
			   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
check-tsan-dir		:= tsan
check-tsan-make		:= SANITIZE=thread
check-tsan-env		:= TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
check-tsan-wrap		:= setarch $(ARCH) -R
check-clang-dir		:= clang
check-clang-make	:= CC=clang

check-results	= $(CHECK_DIR)/check-results
check-jobs	= $(if $(filter -j%,$(MAKEFLAGS)),,-j$(CHECK_JOBS))

# One shell command per variant: a variant that does not build counts as
# one failure and the others still run.
define check-variant
	$(Q)printf '# variant %s: make O=%s %s\n' '$(1)' '$(CHECK_DIR)/$(check-$(1)-dir)' '$(check-$(1)-make)'; \
	if $(MAKE) $(check-jobs) O=$(CHECK_DIR)/$(check-$(1)-dir) $(check-$(1)-make) selftests; then \
		$(MAKE) O=$(CHECK_DIR)/$(check-$(1)-dir) $(check-$(1)-make) run-tests \
			VARIANT='$(1)' TEST_ENV='$(check-$(1)-env)' TEST_WRAP='$(check-$(1)-wrap)' \
			RESULTS='$(srctree)/$(check-results)/$(1)' || :; \
	else \
		$(srctree)/scripts/run-tests.sh --variant '$(1)' \
			--results '$(check-results)/$(1)' --build-failed || :; \
	fi

endef

check: deps
	$(Q)rm -rf $(check-results) && mkdir -p $(check-results)
	$(foreach v,$(CHECK_VARIANTS),$(call check-variant,$(v)))
	$(Q)$(srctree)/scripts/run-tests.sh --total $(addprefix $(check-results)/,$(CHECK_VARIANTS))

check-quick: CHECK_VARIANTS := default
check-quick: check

# ---------------------------------------------------------------------------
# Install

PREFIX		?= /usr/local
bindir		?= $(PREFIX)/bin
libdir		?= $(PREFIX)/lib
includedir	?= $(PREFIX)/include
mandir		?= $(PREFIX)/share/man
pkgconfigdir	?= $(libdir)/pkgconfig
pc-libdir	= $(patsubst $(PREFIX)/%,$${prefix}/%,$(libdir))
pc-includedir	= $(patsubst $(PREFIX)/%,$${prefix}/%,$(includedir))

hdr-dir		:= $(includedir)/ustrace
headers		:= $(filter-out include/generated/%,$(shell find include -name '*.h' 2>/dev/null))
man-pages	:= $(wildcard Documentation/man/*.[1-8])
man-path	= $(mandir)/man$(subst .,,$(suffix $(1)))/$(notdir $(1))
# The collector's systemd user unit (scripts/ustrace-daemon.service.in).
systemd-user-dir := $(PREFIX)/lib/systemd/user

install: all $(obj)ustrace.pc $(addprefix $(obj)install-bin/,$(notdir $(INSTALL_PROGS)))
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)test -n "$(lib-files)" || { echo "make install: no library sources in kernel/" >&2; exit 1; }
	$(Q)$(INSTALL) -d $(DESTDIR)$(libdir) $(DESTDIR)$(pkgconfigdir) $(DESTDIR)$(hdr-dir)/generated
	$(Q)$(INSTALL) -m 0755 $(libso-real) $(DESTDIR)$(libdir)/
	$(Q)ln -sf $(notdir $(libso-real)) $(DESTDIR)$(libdir)/$(libso-soname)
	$(Q)ln -sf $(libso-soname) $(DESTDIR)$(libdir)/libustrace.so
	$(Q)$(INSTALL) -m 0644 $(obj)libustrace.a $(DESTDIR)$(libdir)/
	$(Q)$(INSTALL) -m 0644 $(obj)ustrace.pc $(DESTDIR)$(pkgconfigdir)/
	$(Q)$(INSTALL) -m 0644 $(autoconf_h) $(DESTDIR)$(hdr-dir)/generated/
	$(Q)$(foreach h,$(headers),$(INSTALL) -D -m 0644 $(h) $(DESTDIR)$(hdr-dir)/$(h:include/%=%) &&) :
	$(Q)$(foreach m,$(man-pages),$(INSTALL) -D -m 0644 $(m) $(DESTDIR)$(call man-path,$(m)) &&) :
	$(Q)$(foreach p,$(INSTALL_PROGS),$(INSTALL) -D -m 0755 $(obj)install-bin/$(notdir $(p)) \
		$(DESTDIR)$(bindir)/$(notdir $(p)) &&) :
	$(Q)$(foreach p,$(INSTALL_PKGLIBS),$(INSTALL) -D -m 0755 $(obj)$(p) \
		$(DESTDIR)$(libdir)/ustrace/$(notdir $(p)) &&) :
	$(Q)$(INSTALL) -d $(DESTDIR)$(systemd-user-dir)
	$(Q)sed 's|@bindir@|$(bindir)|' $(srctree)/scripts/ustrace-daemon.service.in \
		>$(DESTDIR)$(systemd-user-dir)/ustrace-daemon.service
	$(Q)if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
		ldconfig; fi

uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(addprefix $(DESTDIR)$(libdir)/,libustrace.so libustrace.so.$(SOVERSION) \
		libustrace.so.$(VERSION) libustrace.a) $(DESTDIR)$(pkgconfigdir)/ustrace.pc \
		$(foreach m,$(man-pages),$(DESTDIR)$(call man-path,$(m))) \
		$(addprefix $(DESTDIR)$(bindir)/,$(notdir $(INSTALL_PROGS))) \
		$(addprefix $(DESTDIR)$(libdir)/ustrace/,$(notdir $(INSTALL_PKGLIBS))) \
		$(DESTDIR)$(systemd-user-dir)/ustrace-daemon.service
	$(Q)rm -rf $(DESTDIR)$(hdr-dir)

# ---------------------------------------------------------------------------
# Cleaning

clean:
	$(call msg,CLEAN,$(if $(obj),$(obj),.))
	$(Q)rm -f $(OBJS) $(OBJS:.o=.d) $(lib-files) $(obj)ustrace.pc $(flags-stamp) \
		$(addprefix $(obj),$(PROGS) $(EXTRA_TARGETS) $(SELFTEST_TARGETS))
	$(Q)rm -rf $(obj)install-bin $(obj)selftests-output
	$(Q)for d in kernel samples selftests tools; do \
		test ! -d $(obj)$$d || find $(obj)$$d \( -name '*.o' -o -name '*.d' \) -delete; done

# In the source tree, distclean also removes the test variants' $(CHECK_DIR).
distclean: clean
	$(call msg,CLEAN,config)
	$(Q)rm -rf $(obj).config $(obj).config.old $(obj)defconfig $(obj)include/generated \
		$(obj)include/config $(if $(O),,$(CHECK_DIR))

help:
	@echo 'Building (O=dir builds in dir, V=1 shows commands):'
	@echo '  all (default)   - libustrace.so, libustrace.a, tools and samples'
	@echo '  selftests       - all, and the test programs'
	@echo '  run             - install-deps, all, then run $(RUN_PROG) and $(RUN_DEMO)'
	@echo '  install         - install into $$(DESTDIR)$$(PREFIX) (PREFIX=$(PREFIX))'
	@echo '  uninstall       - remove what install installed'
	@echo 'Testing:'
	@echo '  check           - install-deps, then the tests in every variant:'
	@echo '                    $(CHECK_VARIANTS)'
	@echo '  check-quick     - the tests in the default variant only'
	@echo '  run-tests       - the tests of this build directory (O=...)'
	@echo '  bench           - build and run the benchmarks'
	@echo '  stress          - build and run the stress (torture) tests'
	@echo 'Configuration:'
	@echo '  defconfig       - .config from configs/defconfig'
	@echo '  NAME_defconfig  - .config from configs/NAME_defconfig'
	@echo '  olddefconfig    - update .config, new symbols take their defaults'
	@echo '  menuconfig      - edit .config in a terminal'
	@echo '  savedefconfig   - write a minimal config to $$(O)/defconfig'
	@echo '  listconfig      - print every symbol'
	@echo 'Cleaning:'
	@echo '  clean           - remove what the build made, keep the configuration'
	@echo '  distclean       - clean, remove the configuration and $(CHECK_DIR)/'
	@echo '  deps            - install the Debian packages the build needs'

.PHONY: all selftests run run-tests bench stress check check-quick deps install uninstall \
	clean distclean help FORCE
FORCE:

endif # mixed-targets
