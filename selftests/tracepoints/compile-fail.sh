#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# timeout: 360
#
# compile-fail.sh - what the tracepoint headers must refuse, and how clean
# they are.  TAP on stdout.
#
#   probe type    a probe whose prototype does not match is an error at the
#                 line that registers it (gcc, clang; also as C++); the
#                 matching probe compiles
#   definitions   two files defining one tracepoint do not link; one file
#                 defining it twice does not compile
#   export        EXPORT_TRACEPOINT_SYMBOL{,_GPL} compile only where the
#                 tracepoint is defined
#   headers       each public header compiles alone as C (gnu11, c11, c99)
#                 and C++ (c++11, c++17) with -Wall -Wextra -Werror; the
#                 macros used in a C or C++ file draw no warning; a C++
#                 program declares, defines, probes and fires; -Wpedantic
#                 findings are reported as TODO
#   no tracepoints  with CONFIG_TRACEPOINTS unset the seed examples build
#                 without warnings, link without libustrace, run, and
#                 register returns -ENOSYS
#
# scripts/run-tests.sh runs it from the build directory with USTRACE_SRCTREE,
# USTRACE_OBJTREE, USTRACE_CC, USTRACE_CFLAGS, USTRACE_LDFLAGS and
# USTRACE_SANITIZE set; run by hand it falls back to an in-tree build and
# cc.  The compile-only checks use a generated/autoconf.h of their own
# (tracepoints and jump labels on), whatever the build's configuration.

set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
tap_begin tp-cf
src=$srctree/selftests/tracepoints
csrc=$src/compile
cc=${USTRACE_CC:-cc}
cflags=${USTRACE_CFLAGS:-"-std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE \
-I$objtree/include -I$srctree/include -I$srctree/selftests/lib"}
ldflags=${USTRACE_LDFLAGS:-}

# summarize FILE: each distinct diagnostic of a compiler's output, counted.
summarize() {
	grep -E ': (warning|error): ' "$1" |
		sed 's/^.*: \(warning\|error\): /\1: /' |
		LC_ALL=C sort | uniq -c | sed 's/^/#   /'
}

have() { command -v "$1" >/dev/null 2>&1; }

# line_of FILE PATTERN: the number of the first line matching PATTERN.
line_of() { grep -n -- "$2" "$1" | head -n 1 | cut -d: -f1; }

# expect_fail NAME REGEX CMD...: CMD fails, and says something matching
# the extended REGEX.
expect_fail() {
	local name=$1 re=$2
	shift 2
	if "$@" >"$tmp/log" 2>&1; then
		not_ok "$name"
		echo "#   it succeeded"
	elif grep -Eq -- "$re" "$tmp/log"; then
		ok "$name"
	else
		not_ok "$name"
		echo "#   it failed, but says nothing matching /$re/:"
		diag "$tmp/log" 15
	fi
}

# Configurations of our own: everything on, and tracepoints off.
mkdir -p "$tmp/cfg-y/generated" "$tmp/cfg-n/generated"
printf '#define CONFIG_TRACEPOINTS 1\n#define CONFIG_JUMP_LABEL 1\n' \
	>"$tmp/cfg-y/generated/autoconf.h"
printf '/* CONFIG_TRACEPOINTS is not set */\n' \
	>"$tmp/cfg-n/generated/autoconf.h"

# The generated directory comes first: an in-tree build's
# include/generated/ must not take its place.
base_c="-D_GNU_SOURCE -I$tmp/cfg-y -I$srctree/include"

# cc_c COMPILER ARGS...: compile C to an object, plain -Wall, no -Werror.
cc_c()  { local c=$1; shift; $c -std=gnu11 -Wall $base_c -c -o "$tmp/o.o" "$@"; }
# cxx_c COMPILER ARGS...: the same as C++.
cxx_c() { local c=$1; shift; $c -x c++ -std=c++11 -Wall $base_c -c -o "$tmp/o.o" "$@"; }

c_compilers=()
for c in gcc clang; do have "$c" && c_compilers+=("$c"); done
cxx_compilers=()
for c in g++ clang++; do have "$c" && cxx_compilers+=("$c"); done


# ---- probe type ------------------------------------------------------------

mm=$csrc/probe-mismatch.c
for c in "${c_compilers[@]}"; do
	check "$c: matching probes compile" cc_c "$c" -DMISMATCH=0 "$mm"
	for m in 1 2 3 4 5 6 7 8; do
		line=$(line_of "$mm" "MISMATCH $m \*/")
		expect_fail "$c: mismatched probe $m: error at probe-mismatch.c:$line" \
			"probe-mismatch\.c:$line:[0-9]+: error:" \
			cc_c "$c" -DMISMATCH=$m "$mm"
	done
done
[ ${#c_compilers[@]} -gt 0 ] || skip "probe type" "no gcc or clang"

line=$(line_of "$mm" "MISMATCH 1 \*/")
for c in "${cxx_compilers[@]}"; do
	check "$c: matching probes compile as C++" \
		cxx_c "$c" -DMISMATCH=0 "$mm"
	expect_fail "$c: as C++, mismatched probe 1: error at line $line" \
		"probe-mismatch\.c:$line:[0-9]+: error:" \
		cxx_c "$c" -DMISMATCH=1 "$mm"
done

# ---- definitions -------------------------------------------------------------

# link_c OUT SRC...: a program, built and linked as the build's programs.
link_c() {
	local out=$1
	shift
	$cc $cflags -I"$csrc" "$@" -o "$out" $ldflags -L"$objtree" -lustrace \
		-Wl,-rpath,"$objtree" -lpthread
}

check "one definition of dd_tp links" \
	link_c "$tmp/dd-one" "$csrc/double-define-a.c"
expect_fail "two files defining dd_tp do not link" \
	"multiple definition of .__tracepoint_dd_tp'" \
	link_c "$tmp/dd-two" "$csrc/double-define-a.c" "$csrc/double-define-b.c"
for c in "${c_compilers[@]}"; do
	expect_fail "$c: DEFINE_TRACE twice in one file does not compile" \
		"redefinition of .*dd_tp" \
		cc_c "$c" -DTWICE "$csrc/double-define-a.c"
done

# ---- export ------------------------------------------------------------------

# gcc reports the error in the header and names the line in a note; clang
# reports it on the line.
ex=$csrc/export.c
for c in "${c_compilers[@]}"; do
	for gpl in "" -DGPL; do
		macro=EXPORT_TRACEPOINT_SYMBOL${gpl:+_GPL}
		line=$(line_of "$ex" "^$macro(ex_tp);")
		check "$c: $macro compiles beside DEFINE_TRACE" \
			cc_c "$c" $gpl -DDEFINE_HERE "$ex"
		expect_fail "$c: $macro without DEFINE_TRACE: error (export.c:$line)" \
			"export\.c:$line:" cc_c "$c" $gpl "$ex"
	done
done

# ---- headers -----------------------------------------------------------------

headers=$(cd "$srctree/include" &&
	  find . -name '*.h' -not -path './generated/*' | sed 's|^\./||' |
	  LC_ALL=C sort)

# check_header HEADER LANG TAG: every compiler and standard of LANG (c,
# c++); TAG names the scratch files, so that checks can run in parallel.
check_header() {
	local h=$1 lang=$2 tag=$3 c std bad=0
	local -a comps stds

	printf '#include <%s>\nint tp_header_check;\n' "$h" >"$tmp/$tag.src"
	if [ "$lang" = c ]; then
		comps=("${c_compilers[@]}") stds=(gnu11 c11 c99)
	else
		comps=("${cxx_compilers[@]}") stds=(c++11 c++17)
	fi
	for c in "${comps[@]}"; do
		for std in "${stds[@]}"; do
			if ! $c -x "$lang" -std="$std" -Wall -Wextra -Werror \
				$base_c -fsyntax-only "$tmp/$tag.src" \
				>"$tmp/$tag.log" 2>&1; then
				echo "#   $c -std=$std:"
				diag "$tmp/$tag.log" 8
				bad=1
			fi
		done
	done
	return $bad
}

# Two at a time: most of this script's time goes here.
i=0
for h in $headers; do
	for lang in c c++; do
		i=$((i + 1))
		check_header "$h" "$lang" "hdr$i" >"$tmp/hdr$i.out" &
		[ $((i % 2)) -eq 0 ] && wait
	done
done
wait
i=0
for h in $headers; do
	for lang in c c++; do
		i=$((i + 1))
		name="<$h> compiles alone as $lang (-Wall -Wextra -Werror)"
		if [ -s "$tmp/hdr$i.out" ]; then
			not_ok "$name"
			cat "$tmp/hdr$i.out"
		else
			ok "$name"
		fi
	done
done

# check_clean LANG STD SRC: no diagnostic at all with -Wall -Wextra.
check_clean() {
	local lang=$1 std=$2 srcf=$3 c bad=0
	local -a comps

	comps=("${c_compilers[@]}")
	[ "$lang" = c ] || comps=("${cxx_compilers[@]}")
	for c in "${comps[@]}"; do
		$c -x "$lang" -std="$std" -Wall -Wextra $base_c -fsyntax-only \
			"$srcf" >"$tmp/clean.log" 2>&1
		if [ -s "$tmp/clean.log" ]; then
			echo "#   $c:"
			summarize "$tmp/clean.log"
			bad=1
		fi
	done
	return $bad
}

for lang in c c++; do
	name="DECLARE_TRACE/DEFINE_TRACE in a $lang file: no warnings"
	if [ $lang = c ]; then
		out=$(check_clean c gnu11 "$mm")
	else
		out=$(check_clean c++ c++11 "$csrc/cxx-use.cc")
	fi
	if [ $? -eq 0 ]; then
		ok "$name (-Wall -Wextra)"
	else
		not_ok "$name (-Wall -Wextra)"
		echo "$out"
	fi
done

# -Wpedantic: reported, not enforced (the kernel's macros are GNU C).
# pedantic LANG STD SRC: the distinct diagnostics of every compiler.
pedantic() {
	local lang=$1 std=$2 srcf=$3 c
	local -a comps

	comps=("${c_compilers[@]}")
	[ "$lang" = c ] || comps=("${cxx_compilers[@]}")
	for c in "${comps[@]}"; do
		$c -x "$lang" -std="$std" -Wpedantic $base_c -fsyntax-only \
			"$srcf" >"$tmp/ped.log" 2>&1
		grep -E ': (warning|error): ' "$tmp/ped.log" |
			sed 's/^.*: \(warning\|error\): /'"$c"': /'
	done | LC_ALL=C sort | uniq -c
}

printf '#include <linux/tracepoint.h>\nint tp_header_check;\n' >"$tmp/ped.src"
for what in header usage; do
	for lang in c c++; do
		std=gnu11 srcf=$tmp/ped.src
		[ $lang = c++ ] && std=c++11
		if [ $what = usage ]; then
			srcf=$mm
			[ $lang = c++ ] && srcf=$csrc/cxx-use.cc
		fi
		out=$(pedantic $lang $std "$srcf")
		name="-Wpedantic, $lang, <linux/tracepoint.h> $what"
		if [ -z "$out" ]; then
			ok "$name"
		else
			todo "$name" "GNU C extensions, reported only"
			echo "$out" | sed 's/^/#   /'
		fi
	done
done

# A C++ program, built like this build's programs.  A sanitized library
# links only with the C++ compiler of its own family (one runtime).
cxxflags=$(printf '%s\n' $cflags | grep -v '^-std=' | tr '\n' ' ')
run_cxx=("${cxx_compilers[@]}")
if [ -n "${USTRACE_SANITIZE:-}" ]; then
	run_cxx=(g++)
	$cc --version 2>/dev/null | head -n 1 | grep -q clang && run_cxx=(clang++)
	have "${run_cxx[0]}" || run_cxx=()
fi
for c in "${run_cxx[@]}"; do
	name="$c: a C++ program declares, defines, probes and fires"
	if ! $c -std=c++11 $cxxflags "$csrc/cxx-use.cc" -o "$tmp/cxx-$c" \
		$ldflags -L"$objtree" -lustrace -Wl,-rpath,"$objtree" -lpthread \
		>"$tmp/log" 2>&1; then
		not_ok "$name"
		echo "#   it does not build:"
		diag "$tmp/log" 15
	else
		check "$name" "$tmp/cxx-$c"
	fi
done
[ ${#run_cxx[@]} -gt 0 ] || skip "a C++ program" "no C++ compiler for this build"

# ---- CONFIG_TRACEPOINTS unset ------------------------------------------------

seed_srcs=("$src/seed.c" "$src/seed/subsys/file.c" "$src/seed/foo.c"
	   "$src/seed/wrapper-user.c" "$src/seed/create.c")
nflags="-I$tmp/cfg-n $cflags -I$src -I$src/seed/include -I$src/seed"
name="CONFIG_TRACEPOINTS=n"
if $cc $nflags "${seed_srcs[@]}" -o "$tmp/seed-n" $ldflags \
	>"$tmp/n-build.log" 2>&1; then
	ok "$name: the seed examples build without libustrace"
	if [ -s "$tmp/n-build.log" ]; then
		not_ok "$name: no warnings with the build's flags"
		summarize "$tmp/n-build.log"
	else
		ok "$name: no warnings with the build's flags"
	fi
	# Nothing of the library is referenced.
	refs=$(nm -u "$tmp/seed-n" 2>/dev/null |
	       grep -E 'tracepoint|__ustrace|static_key|jump_label')
	needed=$(readelf -d "$tmp/seed-n" 2>/dev/null | grep -i 'NEEDED.*ustrace')
	if [ -z "$refs$needed" ]; then
		ok "$name: no reference to libustrace"
	else
		not_ok "$name: no reference to libustrace"
		printf '%s\n%s\n' "$refs" "$needed" | sed 's/^/#   /'
	fi
	# seed.c checks the -ENOSYS itself.
	if "$tmp/seed-n" >"$tmp/n-run.log" 2>&1 &&
	   ! grep -q '^not ok' "$tmp/n-run.log" && grep -q '^ok' "$tmp/n-run.log"; then
		ok "$name: the seed examples run, register returns -ENOSYS"
	else
		not_ok "$name: the seed examples run, register returns -ENOSYS"
		diag "$tmp/n-run.log" 30
	fi
else
	not_ok "$name: the seed examples build without libustrace"
	diag "$tmp/n-build.log" 30
	skip "$name: no warnings with the build's flags" "no build"
	skip "$name: no reference to libustrace" "no build"
	skip "$name: the seed examples run" "no build"
fi

tap_end
