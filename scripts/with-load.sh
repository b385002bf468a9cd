#!/bin/sh
# Runs a command while N busy loops (default 2: one per CPU of the
# project's machines) keep the CPUs loaded, then stops them and exits
# with the command's status: `make check-loaded` runs every test this way,
# so a test that only passes on a quiet machine fails in CI.
# Usage: with-load.sh [-n N] COMMAND ARGS...
n=2
if [ "$1" = -n ]; then
	n=$2
	shift 2
fi
pids=""
i=0
while [ "$i" -lt "$n" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
# shellcheck disable=SC2086  # a list of pids
trap 'kill $pids 2>/dev/null' EXIT INT TERM
echo "with-load: $n busy loops:$pids; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$@"
status=$?
echo "with-load: load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
