# SPDX-License-Identifier: LGPL-2.1-or-later
#
# guest-lib.bash - sourced by selftests/record/guest-*.sh: the programs, and
# what says a recorded file is whole.  Sets app, sample, ustrace and run; needs tap.sh sourced first and trace-cmd (the caller checks).

app=$objtree/selftests/record/rec-app
sample=$objtree/samples/trace_events/trace-events-sample
ustrace=$objtree/tools/tracing/ustrace
run=(timeout -k 5 60)

# need_trace_cmd: one failure and the end when trace-cmd is missing.
need_trace_cmd() {
	command -v trace-cmd >/dev/null && return
	not_ok "trace-cmd is installed (scripts/install-deps.sh installs it)"
	tap_end
	exit 1
}

# readable FILE: trace-cmd report (into FILE.rep) and dump read it, no warning.
readable() {
	local f=$1

	"${run[@]}" trace-cmd report "$f" >"$f.rep" 2>"$f.err" &&
		"${run[@]}" trace-cmd dump --all "$f" >/dev/null 2>>"$f.err" &&
		! [ -s "$f.err" ] || { cat "$f.err" 2>/dev/null; false; }
}

# whole FILE WORKERS LAST: readable, each worker's rec_seq exactly 0..LAST
# in order (compare.py seq's check, without a Python start per worker).
whole() {
	local f=$1

	readable "$f" || return 1
	awk -v workers="$2" -v last="$3" '
	match($0, /rec_seq: +worker=[0-9]+ seq=[0-9]+$/) {
		split(substr($0, RSTART), a, /[= ]+/)
		w = a[3]; s = a[5]
		if (s != next_seq[w] + 0) {
			printf "# worker %d: seq %d where %d was due\n", w, s, next_seq[w]
			bad = 1
		}
		next_seq[w] = s + 1
	}
	END {
		for (w = 0; w < workers; w++)
			if (next_seq[w] + 0 != last + 1) {
				printf "# worker %d: %d events, want 0..%d\n", w, next_seq[w], last
				bad = 1
			}
		exit bad
	}' "$f.rep"
}

