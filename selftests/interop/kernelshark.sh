#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# kernelshark.sh - KernelShark (Debian's 2.2) opens a trace.dat recorded
# from a running ustrace program ("ustrace trace-cmd record"), under Xvfb.
#
# KernelShark has no load-and-exit mode: this starts it on the file in a
# virtual X server, waits for its window ("Kernel Shark"), takes a
# screenshot with ImageMagick's import and checks that KernelShark's log
# has no load error and that the picture is not blank (the CPU plots are
# coloured bars in an otherwise grey window).  The screenshot is kept as
# selftests-output/<variant>/interop/kernelshark.png in the build
# directory, for people to look at.
#
# As root KernelShark first opens a modal "root privileges" dialog, so it
# runs as an unprivileged user: the caller when not root, else "nobody"
# (through setpriv).  TAP on stdout.
#
# Then the same for a recording of synthetic events: the latency sample
# (samples/hist/latency-sample) with the inter-event hist triggers of
# Documentation/trace/histogram.rst, "record -e synthetic".

. "$(dirname "$0")/functions"

require_fuse
require_trace_cmd
require_cmd kernelshark kernelshark
require_cmd Xvfb xvfb
require_cmd xdotool xdotool
require_cmd import imagemagick
require_cmd identify imagemagick
require_cmd convert imagemagick
as_user=()
if [ "$(id -u)" = 0 ]; then
	require_cmd setpriv util-linux
	id nobody >/dev/null 2>&1 || skip_all "no user nobody to run KernelShark as (not as root)"
	as_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)
fi
plan 9

start_sample -- -p 5000 -t 2
ks=$WORK/ks
mkdir "$ks" || exit 1
chmod 711 "$WORK"
[ "$(id -u)" = 0 ] && chown nobody "$ks"

# --- the recording
t_record() {
	(cd "$ks" && tc record -e sample_trace -o "$ks/trace.dat" sleep 1) >"$WORK/rec.out" 2>&1 ||
		{ echo "record failed: $(tail -n 5 "$WORK/rec.out")"; return 1; }
	chmod 644 "$ks/trace.dat"
	trace-cmd report "$ks/trace.dat" 2>/dev/null | events_of >"$WORK/rec.ev"
	[ "$(wc -l <"$WORK/rec.ev")" -ge 50 ] || { echo "only $(wc -l <"$WORK/rec.ev") events"; return 1; }
	echo "recorded: $(wc -l <"$WORK/rec.ev") events; tasks and CPUs: $(cut -f 2,3 "$WORK/rec.ev" | sort -u | tr '\t\n' '/ ')" >&2
}
check "record -e sample_trace: a trace.dat for KernelShark" t_record

# --- KernelShark under Xvfb, as the unprivileged user (selftests/lib/ks-shot.bash)
cp "$(dirname "$0")/../lib/ks-shot.bash" "$ks/shot" && chmod 755 "$ks/shot"

t_window() {
	timeout -k 5 90 ${as_user[@]+"${as_user[@]}"} "$ks/shot" "$ks" || return 1
	echo "KernelShark's log:" >&2
	sed 's/^/  /' "$ks/ks.log" >&2
	mkdir -p "$OUTDIR" && cp "$ks/out.png" "$OUTDIR/kernelshark.png" &&
		echo "screenshot: $OUTDIR/kernelshark.png" >&2
}
check "KernelShark opens the file under Xvfb as $( [ ${#as_user[@]} -gt 0 ] && echo nobody || id -un): its window, a screenshot" t_window

t_log() {
	[ -s "$ks/ks.log" ] || { echo "no log"; return 1; }
	grep -q "Loading.*trace.dat" "$ks/ks.log" || { echo "it did not say it loads the file:"; cat "$ks/ks.log"; return 1; }
	# Plugins for events we do not have (sched_switch, kvm) decline to
	# start: that is no load error.
	if grep -iv 'failed to initialize\|XDG_RUNTIME_DIR' "$ks/ks.log" | grep -qi 'error\|fail\|warn\|cannot\|unable'; then
		grep -iv 'failed to initialize\|XDG_RUNTIME_DIR' "$ks/ks.log" | grep -i 'error\|fail\|warn\|cannot\|unable'
		return 1
	fi
}
check "KernelShark's log: the file loaded, no error or warning" t_log

t_picture() {
	local colours sat

	colours=$(identify -format '%k' "$ks/out.png")
	# The share of strongly coloured pixels: the plots' bars; the window
	# around them is grey, white and black.
	sat=$(convert "$ks/out.png" -colorspace HSL -channel G -separate +channel \
		-threshold 50% -format '%[fx:mean]' info:)
	echo "screenshot: $(identify -format '%wx%h' "$ks/out.png"), $colours colours, saturated share $sat" >&2
	[ "$colours" -ge 64 ] || { echo "$colours colours: a blank window"; return 1; }
	awk -v s="$sat" 'BEGIN { exit !(s >= 0.01) }' ||
		{ echo "only $sat of the pixels are coloured: no plot drawn"; return 1; }
}
check "the screenshot is not blank: coloured plots" t_picture

t_cpus() {
	# What KernelShark had to show: events of both threads, and (the
	# threads are not pinned) usually more than one CPU.
	[ "$(cut -f 2 "$WORK/rec.ev" | sort -u | wc -l)" -eq 2 ] ||
		{ echo "tasks: $(cut -f 2 "$WORK/rec.ev" | sort -u | tr '\n' ' ')"; return 1; }
}
check "the recording holds both tasks of the program" t_cpus

check_stop "the program exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"

# --- synthetic events: the latency sample's, recorded while it serves
SAMPLE=$objtree/samples/hist/latency-sample
start_sample -- -b 0
syn=$WORK/ks-syn
mkdir "$syn" || exit 1
[ "$(id -u)" = 0 ] && chown nobody "$syn"

t_syn_record() {
	local rec

	(cd "$MNT" &&
	 echo 'req_latency u64 lat; int id; char path[]' > synthetic_events &&
	 echo 'hist:keys=id:ts0=common_timestamp.usecs:p=path' > events/latency_sample/req_start/trigger &&
	 echo 'hist:keys=id:lat=common_timestamp.usecs-$ts0:onmatch(latency_sample.req_start).req_latency($lat,id,$p)' \
		> events/latency_sample/req_end/trigger) || return 1
	(cd "$syn" && tc record -e synthetic -o "$syn/trace.dat" sleep 2) >"$WORK/syn.out" 2>&1 &
	rec=$!
	recording_on synthetic/req_latency || return 1
	kill -USR1 "$SAMPLE_PID"
	wait "$rec" || { echo "record failed: $(tail -n 5 "$WORK/syn.out")"; return 1; }
	chmod 644 "$syn/trace.dat"
	trace-cmd report "$syn/trace.dat" 2>/dev/null | events_of >"$WORK/syn.ev"
	[ "$(grep -c $'\treq_latency\t' "$WORK/syn.ev")" -eq 10 ] ||
		{ echo "$(grep -c $'\treq_latency\t' "$WORK/syn.ev") req_latency events, not 10"; return 1; }
}
check "record -e synthetic: the latency sample's synthetic events in a trace.dat" t_syn_record

t_syn_window() {
	timeout -k 5 90 ${as_user[@]+"${as_user[@]}"} "$ks/shot" "$syn" || return 1
	grep -q "Loading.*trace.dat" "$syn/ks.log" || { echo "it did not say it loads the file:"; cat "$syn/ks.log"; return 1; }
	if grep -iv 'failed to initialize\|XDG_RUNTIME_DIR' "$syn/ks.log" | grep -qi 'error\|fail\|warn\|cannot\|unable'; then
		grep -iv 'failed to initialize\|XDG_RUNTIME_DIR' "$syn/ks.log" | grep -i 'error\|fail\|warn\|cannot\|unable'
		return 1
	fi
	mkdir -p "$OUTDIR" && cp "$syn/out.png" "$OUTDIR/kernelshark-synthetic.png" &&
		echo "screenshot: $OUTDIR/kernelshark-synthetic.png" >&2
}
check "KernelShark opens the recording of synthetic events: its window, no error in its log" t_syn_window

check_stop "the latency sample exits 0 on SIGTERM, no sanitizer report" "$SAMPLE_PID" "$MNT"
finish
