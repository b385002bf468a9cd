# shellcheck shell=sh
# bench/lib.sh - what the benchmarks of `make bench` share (sourced, not
# run): the paths, building a bench/*.c program with the Makefile's flags,
# a private temporary directory, medians, and the line that states the
# conditions of a measurement.
#
# Environment: CONTEND (./contend), BUILD (build), CC (cc), CFLAGS (-O2 -g).

CONTEND=${CONTEND:-./contend}
BUILD=${BUILD:-build}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}
BENCH_PKGS="gsl sqlite3 inih"
BENCH_WARN="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow
	-Wmissing-prototypes -Wstrict-prototypes -Wvla -Wwrite-strings
	-Wfloat-equal"

# bench_build NAME [lib]: compiles bench/NAME.c to $BUILD/bench/NAME; with
# "lib", links it against $BUILD/libcontend.a (built by `make`).
bench_build() {
	mkdir -p "$BUILD/bench"
	if [ "${2:-}" = lib ]; then
		# shellcheck disable=SC2086,SC2046  # flag lists, split on purpose
		$CC $BENCH_WARN $CFLAGS -I. $(pkg-config --cflags $BENCH_PKGS) \
			-o "$BUILD/bench/$1" "bench/$1.c" "$BUILD/libcontend.a" \
			$(pkg-config --libs $BENCH_PKGS) -lpthread -lm
	else
		# shellcheck disable=SC2086
		$CC $BENCH_WARN $CFLAGS -o "$BUILD/bench/$1" "bench/$1.c"
	fi
}

# bench_tmp [PARENT]: a private directory $tmp in PARENT (default $TMPDIR
# or /tmp), removed when the script ends or is interrupted.
# shellcheck disable=SC2120  # PARENT is optional
bench_tmp() {
	mkdir -p "${1:-${TMPDIR:-/tmp}}"
	tmp=$(mktemp -d "${1:-${TMPDIR:-/tmp}}/contend-bench.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
}

# bench_alternate ROUNDS A B [ARGS...]: ROUNDS rounds of `A ARGS` and
# `B ARGS`, A first in even rounds and B first in odd ones, so that neither
# always runs warm.  A and B are split into words: "rate sql" is a command
# and its argument.
bench_alternate() {
	ba_n=$1 ba_a=$2 ba_b=$3
	shift 3
	ba_i=0
	while [ "$ba_i" -lt "$ba_n" ]; do
		# shellcheck disable=SC2086  # split on purpose, see above
		if [ $((ba_i % 2)) -eq 0 ]; then
			$ba_a "$@"
			$ba_b "$@"
		else
			$ba_b "$@"
			$ba_a "$@"
		fi
		ba_i=$((ba_i + 1))
	done
}

# bench_rounds N MESSAGE FILE...: each FILE holds N lines, one a round;
# else prints MESSAGE and ends the script.
bench_rounds() {
	br_n=$1 br_msg=$2
	shift 2
	for br_f in "$@"; do
		[ "$(wc -l < "$br_f")" -eq "$br_n" ] || { echo "$br_msg" >&2; exit 1; }
	done
}

# An instrument must change what it measures in neither direction: the
# awk function band(lo, hi, t, rounds) judges a paired ratio's interval
# [lo, hi] against the band [t, 1/t] (t = 0.97: within 3% either way):
# "within", "slows what it measures", "raises what it measures" (the
# seed's trap), or "unresolved" with pairci's rounds.
BENCH_BAND='function band(lo, hi, t, rounds) {
	if (lo >= t && hi <= 1 / t) return "within " t "-" sprintf("%.3f", 1 / t)
	if (hi < t) return "slows what it measures"
	if (lo > 1 / t) return "raises what it measures"
	return "unresolved" (rounds != "" ? ": " rounds " rounds" : "")
}'

# median FILE [COLUMN]: the median of a column of numbers (default 1).
median() {
	awk -v c="${2:-1}" '{ print $c }' "$1" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR == 0) print "nan";
		      else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# quantile FILE COLUMN Q: the Q-quantile (0..1) of a column, nearest rank.
quantile() {
	awk -v c="$2" '{ print $c }' "$1" | sort -g | awk -v q="$3" '{ v[NR] = $1 }
		END { if (NR == 0) { print "nan"; exit }
		      k = int(q * NR + 0.999999); if (k < 1) k = 1; if (k > NR) k = NR;
		      print v[k] }'
}

# The conditions of the figures: noise from other work shows in the load.
# A figure counts only when taken on a quiet machine: the 1-minute load
# average at most 0.3 per CPU (BENCH_QUIET, default 0.3) when the
# benchmark starts, and no other process using the CPUs while it runs.
# The load after is recorded too; it includes the benchmark's own
# threads (a 2-thread case keeps two CPUs busy for minutes), so what it
# says of other work is read from bench_others instead.  bench_machine
# records the load before; bench_end the load after, the busiest other
# processes, and whether the verdicts printed between them stand.
BENCH_QUIET=${BENCH_QUIET:-0.3}
bench_machine() {
	bench_load0=$(cut -d' ' -f1 /proc/loadavg)
	echo "machine: $(nproc) cpus, $(sed -n 's/^model name[[:space:]]*: //p' \
		/proc/cpuinfo | head -n1), Linux $(uname -r);" \
		"load average: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# bench_others: the CPU share of processes that are neither this script's
# nor contend's nor the kernel's, summed (ps: %cpu over each one's life).
bench_others() {
	ps -eo pid=,ppid=,pcpu=,comm= | awk -v me="$$" '
		$4 ~ /^(contend|contend-guard|sh|awk|ps|sleep|hyperfine|perf|valgrind|ref_|pairci|measure|runstats|startref|sqlite3|kworker|ksoftirqd|rcu_|kdamond|migration|process_api)/ { next }
		$1 == me || $2 == me { next }
		{ s += $3; if ($3 > 1) busy = busy " " $4 "(" $3 "%)" }
		END { printf "%.1f%s\n", s, busy ? ":" busy : "" }'
}

# bench_end: the load after, the other processes, and the validity of
# the figures above: with the machine loaded when they started (or
# another process busy) every verdict above is void ("invalid: load X"),
# neither met nor missed.
bench_end() {
	be_load1=$(cut -d' ' -f1 /proc/loadavg)
	be_others=$(bench_others)
	echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) (the" \
		"benchmark's own threads included); other processes: $be_others% CPU"
	awk -v a="${bench_load0:-$be_load1}" -v b="$be_load1" -v n="$(nproc)" \
	    -v q="$BENCH_QUIET" -v o="${be_others%%:*}" 'BEGIN {
		if (a <= q * n && o < 10)
			printf "figures: valid (quiet: load %s at the start, limit " \
			       "%.2f on %d CPUs; no other busy process)\n", a, q * n, n
		else
			printf "figures: invalid: load %s at the start (limit %.2f " \
			       "on %d CPUs), other processes %s%% CPU: the " \
			       "verdicts above are neither met nor missed\n", a,
			       q * n, n, o }'
}

# bench_need TOOL WHY: true when TOOL is on PATH, else prints a skip line.
bench_need() {
	if command -v "$1" > /dev/null 2>&1; then
		return 0
	fi
	echo "SKIP: $1 is not installed ($2)"
	return 1
}
