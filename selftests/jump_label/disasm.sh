#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# disasm.sh - what a disabled tracepoint site costs, read from the compiler.
#
# Compiles selftests/jump_label/hot.c ("void hot(int x) { trace_foo_tp(x); }")
# at -O2 with the build's compiler and configuration, and reads the object
# with objdump -dr:
#
#   jump label form (CONFIG_JUMP_LABEL=y, x86-64), PIC and non-PIC:
#     - the site is a 5-byte "jmp" relocated against .text.unlikely;
#     - between the entry of hot() and the site there is no memory operand,
#       no call and no conditional branch, and the fall-through after the
#       site reaches "ret" without any either;
#     - the stub in .text.unlikely is "cmpb $0x0, state(%rip)" (state =
#       byte 24 of this site's __ustrace_jump_table entry), "jne" to the
#       entry's target, "jmp" back to site+5; the entry names the site, the
#       target and __tracepoint_foo+8 (the key).
#   load-and-branch form (-D__USTRACE_NO_ASM_GOTO, which is what every site
#   compiles to with CONFIG_JUMP_LABEL=n), PIC and non-PIC:
#     - before the first conditional branch of hot() there is a load whose
#       relocation names __tracepoint_foo (the key), and no jump table.
#
# Sanitizer and debug flags of the build are not used: they add code to
# every function entry.  Prints TAP.

set -u

. "$(dirname "$0")/../lib/tap.sh"
cc=${USTRACE_CC:-cc}
objdump=${OBJDUMP:-objdump}

autoconf=$objtree/include/generated/autoconf.h
command -v "$objdump" >/dev/null 2>&1 || skip_all "$objdump not found"
[ -f "$autoconf" ] || skip_all "$autoconf is missing: build first (make selftests)"

tap_begin disasm

machine=$($cc -dumpmachine 2>/dev/null)
have_jl=n
case $machine in
x86_64-*)	grep -q '^#define CONFIG_JUMP_LABEL 1' "$autoconf" && have_jl=y ;;
esac
echo "# compiler: $cc ($machine); CONFIG_JUMP_LABEL: $have_jl"

# compile OUT FLAGS...: hot.c at -O2, the build's configuration first.
compile() {
	local out=$1

	shift
	$cc -std=gnu11 -O2 -D_GNU_SOURCE -I"$objtree/include" -I"$srctree/include" \
		"$@" -c "$srctree/selftests/jump_label/hot.c" -o "$out" 2>"$tmp/cc.log" &&
		return 0
	diag "$tmp/cc.log"
	return 1
}

# The disassembly of hot(), one line per instruction:
#   ADDR<TAB>INSN<TAB>RELOC-TYPE RELOC-TARGET
# (addresses in hex without 0x; an instruction without relocation has an
# empty third field).
hot_insns() {
	"$objdump" -dr --no-show-raw-insn -j .text "$1" | awk -F'\t' '
	/^[0-9a-f]+ <hot>:$/	{ inf = 1; next }
	inf && /^$/		{ inf = 0 }
	!inf			{ next }
	/^ *[0-9a-f]+:\t/ {
		if (have) print addr "\t" insn "\t" rel
		addr = $1; sub(/^ */, "", addr); sub(/:$/, "", addr)
		insn = $2; rel = ""; have = 1; next
	}
	/^\t\t\t[0-9a-f]+: R_/ {
		rel = $4 " " $5; sub(/^[0-9a-f]+: /, "", rel)
	}
	END { if (have) print addr "\t" insn "\t" rel }'
}

# check_jl_form OBJ: the jump label checks, 3 TAP results.
check_jl_form() {
	local obj=$1 what=$2 insns stub table out

	insns=$(hot_insns "$obj")
	echo "# hot() ($what):"
	printf '%s\n' "$insns" | awk -F'\t' '{ printf "#   %s: %s%s\n", $1, $2, $3 == "" ? "" : "   [" $3 "]" }'

	# 1. The site: "jmp" of 5 bytes, relocated (at site+1) against
	#    .text.unlikely.
	out=$(printf '%s\n' "$insns" | awk -F'\t' '
	function hex(s,   i, c, v) {
		v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	{ a[NR] = hex($1); ins[NR] = $2; rel[NR] = $3 }
	END {
		for (i = 1; i <= NR; i++)
			if (ins[i] ~ /^jmp / && rel[i] ~ /^R_X86_64_(PC|PLT)32 \.text\.unlikely[-+]/)
				break
		if (i > NR) { print "no jmp relocated against .text.unlikely"; exit 1 }
		if (i == NR || a[i + 1] - a[i] != 5) {
			print "the jmp at the site is not 5 bytes long"; exit 1
		}
		printf "site at %x: %s [%s]\n", a[i], ins[i], rel[i]
	}')
	if [ $? -eq 0 ]; then
		ok "$what: the site is a 5-byte jmp to .text.unlikely ($out)"
	else
		not_ok "$what: the site is a 5-byte jmp to .text.unlikely: $out"
	fi

	# 2. Nothing is loaded or tested on the way through a disabled site.
	out=$(printf '%s\n' "$insns" | awk -F'\t' '
	function hex(s,   i, c, v) {
		v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	function mnem(s) { sub(/ .*/, "", s); return s }
	function is_nop(s) { return s ~ /^(nop|xchg +%ax,%ax|data16|cs nop|endbr64)/ }
	# A problem on the fast path, or "" if the instruction is harmless.
	function bad(s) {
		if (is_nop(s)) return ""
		m = mnem(s)
		if (m ~ /^j/ && m != "jmp") return "conditional branch"
		if (m ~ /^call/) return "call"
		if (m ~ /^(push|pop)/) return s ~ /\(/ ? "memory operand" : ""
		if (m == "lea") return ""
		if (s ~ /\(/) return "memory operand"
		return ""
	}
	{ a[NR] = hex($1); ins[NR] = $2; rel[NR] = $3 }
	END {
		for (site = 1; site <= NR; site++)
			if (ins[site] ~ /^jmp / && rel[site] ~ /\.text\.unlikely/)
				break
		if (site > NR) { print "no site found"; exit 1 }
		for (i = 1; i < site; i++)
			if ((why = bad(ins[i])) != "") {
				printf "%s before the site: %x: %s\n", why, a[i], ins[i]
				exit 1
			}
		path = ""
		for (i = site + 1; i <= NR; i++) {
			path = path "; " mnem(ins[i])
			if (ins[i] ~ /^(rep )?ret/)
				break
			if (ins[i] ~ /^jmp/) {
				printf "fall-through leaves by %x: %s\n", a[i], ins[i]
				exit 1
			}
			if ((why = bad(ins[i])) != "") {
				printf "%s after the site: %x: %s\n", why, a[i], ins[i]
				exit 1
			}
		}
		if (i > NR) { print "the fall-through does not reach ret"; exit 1 }
		printf "entry"
		for (i = 1; i < site; i++) printf "; %s", mnem(ins[i])
		printf "; jmp (site)%s\n", path
	}')
	if [ $? -eq 0 ]; then
		ok "$what: disabled fast path has no load, call or conditional branch ($out)"
	else
		not_ok "$what: disabled fast path has no load, call or conditional branch: $out"
	fi

	# 3. The stub and the jump entry agree with the site.
	stub=$("$objdump" -dr --no-show-raw-insn -j .text.unlikely "$obj" | awk -F'\t' '
	/^ *[0-9a-f]+:\t/ {
		if (have) print addr "\t" insn "\t" rel
		addr = $1; sub(/^ */, "", addr); sub(/:$/, "", addr)
		insn = $2; rel = ""; have = 1; next
	}
	/^\t\t\t[0-9a-f]+: R_/ {
		rel = $4 " " $5; sub(/^[0-9a-f]+: /, "", rel)
	}
	END { if (have) print addr "\t" insn "\t" rel }')
	table=$("$objdump" -r -j __ustrace_jump_table "$obj" | awk '$2 ~ /^R_/ { print $1 "\t" $2 "\t" $3 }')
	out=$( { printf '%s\n' "$insns" | sed 's/^/H\t/'
		 printf '%s\n' "$stub" | sed 's/^/S\t/'
		 printf '%s\n' "$table" | sed 's/^/T\t/'; } | awk -F'\t' '
	function hex(s,   i, c, v) {
		v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	# "R_X86_64_PC32 sym+0x13" -> symbol and signed addend
	function rsym(r) { sub(/^[^ ]* /, "", r); sub(/[-+]0x[0-9a-f]+$/, "", r); return r }
	function radd(r,   s) {
		if (!match(r, /[-+]0x[0-9a-f]+$/)) return 0
		s = substr(r, RSTART, RLENGTH)
		return (substr(s, 1, 1) == "-" ? -1 : 1) * hex(substr(s, 2))
	}
	$1 == "H" { nh++; ha[nh] = hex($2); hi[nh] = $3; hr[nh] = $4 }
	$1 == "S" { ns++; sa[ns] = hex($2); si[ns] = $3; sr[ns] = $4 }
	$1 == "T" {
		off = hex($2); k = int(off / 32); f = int((off % 32) / 8)
		tsym[k, f] = rsym($2 " " $4); tadd[k, f] = radd($4)
		if (k + 1 > nt) nt = k + 1
	}
	END {
		for (i = 1; i <= nh; i++)
			if (hi[i] ~ /^jmp / && hr[i] ~ /\.text\.unlikely/) break
		if (i > nh) { print "no site"; exit 1 }
		site = ha[i]; stubaddr = radd(hr[i]) + 4
		for (k = 0; k < nt; k++)
			if (tsym[k, 0] == ".text" && tadd[k, 0] == site) break
		if (k == nt) { printf "no jump entry names the site %x\n", site; exit 1 }
		if (tsym[k, 2] != "__tracepoint_foo" || tadd[k, 2] != 8) {
			printf "entry %d: key is %s%+d, not __tracepoint_foo+8\n", k, tsym[k, 2], tadd[k, 2]
			exit 1
		}
		if (tsym[k, 1] == "") { printf "entry %d has no target\n", k; exit 1 }
		for (j = 1; j <= ns; j++) if (sa[j] == stubaddr) break
		if (j + 2 > ns) { printf "no stub at .text.unlikely+%x\n", stubaddr; exit 1 }
		if (si[j] !~ /^cmpb +\$0x0,.*\(%rip\)/ || rsym(sr[j]) != "__ustrace_jump_table" ||
		    radd(sr[j]) + 5 != k * 32 + 24) {
			printf "stub does not test the state of entry %d: %s [%s]\n", k, si[j], sr[j]
			exit 1
		}
		if (si[j + 1] !~ /^jne / || rsym(sr[j + 1]) != tsym[k, 1] ||
		    radd(sr[j + 1]) + 4 != tadd[k, 1]) {
			printf "stub does not branch to the entry target %s%+d: %s [%s]\n",
			       tsym[k, 1], tadd[k, 1], si[j + 1], sr[j + 1]
			exit 1
		}
		if (si[j + 2] !~ /^jmp / || rsym(sr[j + 2]) != ".text" ||
		    radd(sr[j + 2]) + 4 != site + 5) {
			printf "stub does not return to site+5: %s [%s]\n", si[j + 2], sr[j + 2]
			exit 1
		}
		printf "stub at .text.unlikely+%x: cmpb state of entry %d; jne %s%+d; jmp site+5\n",
		       stubaddr, k, tsym[k, 1], tadd[k, 1]
	}')
	if [ $? -eq 0 ]; then
		ok "$what: stub and jump entry match the site ($out)"
	else
		not_ok "$what: stub and jump entry match the site: $out"
	fi
}

# check_load_form OBJ WHAT: the load-and-branch checks, 1 TAP result.
check_load_form() {
	local obj=$1 what=$2 insns out

	insns=$(hot_insns "$obj")
	echo "# hot() ($what):"
	printf '%s\n' "$insns" | awk -F'\t' '{ printf "#   %s: %s%s\n", $1, $2, $3 == "" ? "" : "   [" $3 "]" }'
	if "$objdump" -h "$obj" | grep -q __ustrace_jump_table; then
		not_ok "$what: load and conditional branch, no jump table: the object has a __ustrace_jump_table"
		return
	fi
	out=$(printf '%s\n' "$insns" | awk -F'\t' '
	{ ins[NR] = $2; rel[NR] = $3 }
	END {
		for (i = 1; i <= NR; i++) {
			m = ins[i]; sub(/ .*/, "", m)
			if (rel[i] ~ /__tracepoint_foo/) keyref = 1
			if (ins[i] ~ /\(/ && m !~ /^(nop|lea|push|pop)/) load = 1
			if (m ~ /^j/ && m != "jmp") { jcc = ins[i]; break }
		}
		if (jcc == "") { print "no conditional branch"; exit 1 }
		if (!keyref) { print "no relocation against __tracepoint_foo before " jcc; exit 1 }
		if (!load) { print "no memory load before " jcc; exit 1 }
		print "key loaded, then " jcc
	}')
	if [ $? -eq 0 ]; then
		ok "$what: load and conditional branch, no jump table ($out)"
	else
		not_ok "$what: load and conditional branch, no jump table: $out"
	fi
}

for pic in -fPIC -fno-pic; do
	what="jump label, $pic"
	if [ $have_jl != y ]; then
		for i in 1 2 3; do skip "$what" "no jump labels in this build ($machine)"; done
	elif compile "$tmp/hot-jl$pic.o" $pic; then
		check_jl_form "$tmp/hot-jl$pic.o" "$what"
	else
		for i in 1 2 3; do not_ok "$what: hot.c does not compile"; done
	fi
done

for pic in -fPIC -fno-pic; do
	what="load and branch (CONFIG_JUMP_LABEL=n form), $pic"
	if compile "$tmp/hot-load$pic.o" $pic -D__USTRACE_NO_ASM_GOTO; then
		check_load_form "$tmp/hot-load$pic.o" "$what"
	else
		not_ok "$what: hot.c does not compile"
	fi
done

tap_end
