#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ks-shot.bash DIR [KERNELSHARK-ARGS...]: KernelShark on DIR/trace.dat (or
# on what the arguments name) in a new Xvfb; the window's picture in
# DIR/out.png, its id in DIR/window; KernelShark's output in DIR/ks.log.
# Run it as a user other than root (as root KernelShark opens a modal
# dialog first); DIR must be that user's.  Used by
# selftests/interop/kernelshark.sh and selftests/kernel/kernelshark.sh.
set -u
dir=$1
shift
[ $# -gt 0 ] || set -- "$dir/trace.dat"
export HOME=$dir XDG_RUNTIME_DIR=$dir/run
mkdir -m 700 "$XDG_RUNTIME_DIR" || exit 1
xpid= kpid=
end() {
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null && wait "$kpid" 2>/dev/null
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null && wait "$xpid" 2>/dev/null
}
trap end EXIT
# -displayfd: Xvfb picks a free display and says which.  -noreset: an X
# server resets when its last client leaves, and refuses connections
# meanwhile; the xdotool calls below connect and leave while KernelShark
# starts, which then could not connect to the display (Qt: "Could not load
# the Qt platform plugin xcb"), 2 runs in 40.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$dir/display" >"$dir/xvfb.log" 2>&1 &
xpid=$!
for i in $(seq 100); do
	[ -s "$dir/display" ] && break
	sleep 0.1
done
[ -s "$dir/display" ] || { echo "Xvfb did not start: $(cat "$dir/xvfb.log")"; exit 1; }
export DISPLAY=:$(cat "$dir/display")
kernelshark "$@" >"$dir/ks.log" 2>&1 &
kpid=$!
for i in $(seq 200); do
	wid=$(xdotool search --name '^Kernel Shark' 2>/dev/null | head -n 1)
	[ -n "$wid" ] && break
	kill -0 "$kpid" 2>/dev/null || { echo "kernelshark exited: $(tail -n 5 "$dir/ks.log")"; exit 1; }
	sleep 0.1
done
[ -n "$wid" ] || { echo "no KernelShark window after 20 s"; exit 1; }
echo "$wid" >"$dir/window"
xdotool windowsize "$wid" 1200 760 2>/dev/null
# Loaded and drawn: the picture stops changing.
prev=
for i in $(seq 40); do
	sleep 0.5
	import -window "$wid" "$dir/out.png" 2>>"$dir/import.log" || continue
	sum=$(identify -format '%#' "$dir/out.png" 2>/dev/null)
	[ -n "$sum" ] && [ "$sum" = "$prev" ] && break
	prev=$sum
done
[ -s "$dir/out.png" ] || { echo "no screenshot: $(cat "$dir/import.log")"; exit 1; }
