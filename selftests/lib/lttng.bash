# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lttng.bash - the LTTng session daemon of a benchmark run
# (selftests/bench/lttng_compare.sh, sustained.sh): started for the run,
# its LTTNG_HOME in the run's temporary directory, or, as root, the one
# already running used (its pid file is /var/run/lttng's) and left
# running; stopped at the end when the run started it.

# lttng_start_sessiond HOME WHO: export LTTNG_HOME=HOME and start
# "lttng-sessiond --daemonize --no-kernel" unless one runs already (then
# "# WHO: using the running lttng-sessiond (pid N)" is printed).
# Return: 0, LTTNG_SESSIOND_PID the daemon started (empty when one was
# running); 1, LTTNG_SESSIOND_WHY saying why it could not start.
lttng_start_sessiond() {
	local pidfile

	LTTNG_SESSIOND_PID=
	# shellcheck disable=SC2034	# read by the caller
	LTTNG_SESSIOND_WHY=
	export LTTNG_HOME=$1
	mkdir -p "$LTTNG_HOME"
	if [ "$(id -u)" -eq 0 ]; then
		pidfile=/var/run/lttng/lttng-sessiond.pid
	else
		pidfile=$LTTNG_HOME/.lttng/lttng-sessiond.pid
	fi
	if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
		echo "# $2: using the running lttng-sessiond (pid $(cat "$pidfile"))"
	elif ! timeout -k 5 30 lttng-sessiond --daemonize --no-kernel \
			>"$LTTNG_HOME/sessiond.log" 2>&1; then
		# shellcheck disable=SC2034	# read by the caller
		LTTNG_SESSIOND_WHY="lttng-sessiond --daemonize failed: $(tail -n 1 "$LTTNG_HOME/sessiond.log")"
		return 1
	else
		LTTNG_SESSIOND_PID=$(cat "$pidfile" 2>/dev/null)
	fi
	return 0
}

# lttng_stop_sessiond: end the daemon lttng_start_sessiond() started
# (TERM, up to 5 s, then KILL); nothing when it started none.
lttng_stop_sessiond() {
	local pid=${LTTNG_SESSIOND_PID:-}

	if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
		return 0
	fi
	kill "$pid" 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	kill -9 "$pid" 2>/dev/null
	return 0
}
