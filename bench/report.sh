#!/bin/sh
# bench/report.sh - report speed at a million samples.  A synthetic
# database of NCONFIGS x NRUNS x NMETRICS samples (100 x 1000 x 10) is
# written through the store API (bench/storebench.c); then, alternating,
# REPEAT times each: `contend report --format json` and the plain SQL
# aggregate of the same samples (sqlite3: count and mean per configuration
# and metric over measured ok runs).  Prints the medians of wall and CPU
# time (user + system), peak RSS, and report/SQL.
# Targets (docs/PERFORMANCE.md): report under 1 s, at most 3x the SQL.
# Both are judged on CPU time: the machine is shared, and a wall time
# also counts the time spent waiting for a CPU (wall is shown beside it).
#
# Environment (and bench/lib.sh's): REPEAT (5), NCONFIGS (100), NRUNS
# (1000), NMETRICS (10).
set -eu
. bench/lib.sh

REPEAT=${REPEAT:-5}
NCONFIGS=${NCONFIGS:-100}
NRUNS=${NRUNS:-1000}
NMETRICS=${NMETRICS:-10}
TIME_TARGET=1
RATIO_TARGET=3

bench_need sqlite3 "the SQL baseline: apt-get install sqlite3" || exit 0
bench_build storebench lib
bench_build measure
bench_tmp
db=$tmp/report.db

echo "report speed: $NCONFIGS configurations x $NRUNS runs x $NMETRICS" \
	"metrics, $REPEAT rounds, alternating"
"$BUILD/bench/storebench" gen "$db" "$NCONFIGS" "$NRUNS" "$NMETRICS" > "$tmp/gen"
sql="SELECT r.config_id, s.metric, count(*), avg(s.value)
     FROM runs r JOIN samples s ON s.run_id = r.id
     WHERE r.experiment_id = 1 AND r.status = 'ok' AND r.warmup = 0
     GROUP BY r.config_id, s.metric"
# Same answer count: one row per configuration and metric.
rows=$(sqlite3 "$db" "$sql" | wc -l)
[ "$rows" -eq $((NCONFIGS * NMETRICS)) ] || {
	echo "report.sh: the SQL baseline returned $rows rows" >&2; exit 1; }
# Warm the page cache for both.
"$CONTEND" report --db "$db" --format json > "$tmp/report.json"
bench_machine
sql_round() { "$BUILD/bench/measure" "$tmp/sql" sqlite3 "$db" "$sql"; }
report_round() {
	"$BUILD/bench/measure" "$tmp/rep" "$CONTEND" report --db "$db" --format json
}
bench_alternate "$REPEAT" sql_round report_round
printf '%-28s %10s %10s %12s\n' "" wall_s cpu_s peak_rss_MiB
for k in rep sql; do
	[ "$k" = rep ] && what="contend report --format json" || what="sqlite3 GROUP BY"
	printf '%-28s %10.3f %10.3f %12.1f\n' "$what" "$(median "$tmp/$k" 1)" \
		"$(median "$tmp/$k" 2)" "$(awk -v k="$(median "$tmp/$k" 3)" \
		'BEGIN { print k / 1024 }')"
done
awk -v rc="$(median "$tmp/rep" 2)" -v sc="$(median "$tmp/sql" 2)" \
    -v rw="$(median "$tmp/rep" 1)" -v sw="$(median "$tmp/sql" 1)" \
    -v tt="$TIME_TARGET" -v rt="$RATIO_TARGET" 'BEGIN {
	printf "report cpu %.3f s (target < %g s): %s\n", rc, tt,
		rc < tt ? "ok" : "below target"
	printf "report/SQL cpu %.2f, wall %.2f (target <= %g): %s\n", rc / sc,
		rw / sw, rt, rc / sc <= rt ? "ok" : "below target" }'
bench_end
