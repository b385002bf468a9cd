#!/bin/sh
# bench/auto.sh - repetitions = auto against a fixed design.  A noisy noop
# set (jitter JITTERS: throughput scaled by a uniform factor in [1-j, 1+j],
# so CV about j / sqrt(3)) run with repetitions = auto, precision PRECISION
# (relative half-width of the mean's CI), min 5, max 100; then the fixed
# design that reaches the same precision: every configuration gets as many
# runs as the auto run's noisiest configuration needed (a fixed design must
# be sized for its worst case in advance).  Prints per configuration the
# runs used and the precision reached by each design, and the total runs
# and wall time of each.
#
# Environment (and bench/lib.sh's): JITTERS ("0.005, 0.03, 0.06"),
# PRECISION (0.01), RUNTIME (20ms).
set -eu
. bench/lib.sh

JITTERS=${JITTERS:-0.005, 0.03, 0.06}
PRECISION=${PRECISION:-0.01}
RUNTIME=${RUNTIME:-20ms}
MAXREP=100

bench_build runstats lib
bench_build measure
bench_tmp

# ini REPETITIONS: the experiment file of one design.
ini() {
	cat <<INI
[experiment]
name = auto-vs-fixed
repetitions = $1
precision = $PRECISION
min_repetitions = 5
max_repetitions = $MAXREP
warmup = 0
runtime = $RUNTIME

[workload noisy]
type = noop
jitter = $JITTERS
INI
}

# design NAME REPETITIONS: runs it; $tmp/NAME.prec holds the precision.
design() {
	ini "$2" > "$tmp/$1.ini"
	"$BUILD/bench/measure" "$tmp/$1.time" "$CONTEND" run "$tmp/$1.ini" \
		--db "$tmp/$1.db" --quiet 2>> "$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	"$BUILD/bench/runstats" "$tmp/$1.db" precision throughput \
		> "$tmp/$1.prec"
}

echo "auto repetitions: noop jitter = $JITTERS, runtime $RUNTIME," \
	"precision $PRECISION (min 5, max $MAXREP)"
bench_machine
design auto auto
# The fixed design: the most runs any configuration needed.
nfix=$(awk '{ for (i = 1; i < NF; i++) if ($i == "n") print $(i + 1) }' \
	"$tmp/auto.prec" | sort -n | tail -n1)
design fixed "$nfix"
# Lines are "CANON... n N mean M cv V relhw R": fields from the end.  The
# cv expected from the jitter alone is j / sqrt(3); more is the machine's.
paste -d'|' "$tmp/auto.prec" "$tmp/fixed.prec" | awk -F'|' -v p="$PRECISION" \
    -v max="$MAXREP" '
	function field(s, k,   a, n) { n = split(s, a, " "); return a[n - k] }
	BEGIN { printf "%-14s %8s %7s %8s %-10s %6s %8s\n", "configuration",
			"cv", "n_auto", "relhw", "stopped", "n_fix", "relhw" }
	{ na = field($1, 6); cv = field($1, 2); ra = field($1, 0)
	  nf = field($2, 6); rf = field($2, 0)
	  canon = $1; sub(/ n [0-9]+ mean .*/, "", canon)
	  match(canon, /jitter=[^ ]*/)
	  printf "%-14s %8.4f %7d %8.4f %-10s %6d %8.4f\n",
		substr(canon, RSTART, RLENGTH), cv, na, ra,
		ra <= p ? "precision" : (na >= max ? "cap" : "?"), nf, rf
	  ta += na; tf += nf; ok += (rf <= p); k++ }
	END { printf "runs: auto %d, fixed %d (auto/fixed %.2f); the fixed" \
			" design reached the precision in %d of %d configurations\n",
			ta, tf, ta / tf, ok, k }'
printf 'wall: auto %.1f s, fixed %.1f s\n' "$(awk '{ print $1 }' "$tmp/auto.time")" \
	"$(awk '{ print $1 }' "$tmp/fixed.time")"
bench_end
