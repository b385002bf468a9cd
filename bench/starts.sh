#!/bin/sh
# bench/starts.sh - what a run costs around its measured window, per
# workload, as `contend run` runs it: one experiment of REPS runs of
# RUNTIME each per configuration (noop, the three mutexes, and
# pthread-mutex with hold_ns = 1000, which needs the busy-loop
# calibration), then per configuration the median start_latency_s (the
# runner's spawn to the release of the start barrier), the median wall_s /
# elapsed_s (a run's spawn-to-reap over its window) and how many distinct
# loops_per_us the runs reported.
# Targets (docs/PERFORMANCE.md): start latency <= 2 ms and within 3x of
# noop's; wall / window <= 1.03; one loops_per_us per experiment.
#
# Environment (and bench/lib.sh's): REPS (20), RUNTIME (100ms).
set -eu
. bench/lib.sh

REPS=${REPS:-20}
RUNTIME=${RUNTIME:-100ms}

bench_tmp
cat > "$tmp/starts.ini" <<INI
[experiment]
name = starts
repetitions = $REPS
warmup = 0
runtime = $RUNTIME
order = random
seed = 17

[workload noop]
type = noop

[workload pthread-mutex]
type = pthread-mutex

[workload pmutex-hold1000]
type = pthread-mutex
hold_ns = 1000

[workload spinlock]
type = spinlock

[workload futex-mutex]
type = futex-mutex
INI
echo "starts: $REPS runs of $RUNTIME per configuration through contend run" \
	"(random order)"
bench_machine
"$CONTEND" run "$tmp/starts.ini" --db "$tmp/s.db" --quiet 2> "$tmp/err" ||
	{ cat "$tmp/err" >&2; exit 1; }
printf '%-16s %5s %15s %12s %13s\n' configuration runs start_ms_median \
	wall/window loops_per_us
for sec in noop pthread-mutex pmutex-hold1000 spinlock futex-mutex; do
	sqlite3 "$tmp/s.db" "SELECT s.value * 1000 FROM samples s JOIN runs r
		ON r.id = s.run_id JOIN configs c ON c.id = r.config_id
		WHERE c.section = '$sec' AND r.status = 'ok'
		AND s.metric = 'start_latency_s'" > "$tmp/lat"
	sqlite3 "$tmp/s.db" "SELECT r.wall_s / s.value FROM samples s JOIN runs r
		ON r.id = s.run_id JOIN configs c ON c.id = r.config_id
		WHERE c.section = '$sec' AND r.status = 'ok'
		AND s.metric = 'elapsed_s'" > "$tmp/ratio"
	lpus=$(sqlite3 "$tmp/s.db" "SELECT count(DISTINCT s.value) FROM samples s
		JOIN runs r ON r.id = s.run_id JOIN configs c
		ON c.id = r.config_id WHERE c.section = '$sec'
		AND s.metric = 'loops_per_us'")
	printf '%-16s %5s %15.3f %12.4f %13s\n' "$sec" "$(wc -l < "$tmp/ratio")" \
		"$(median "$tmp/lat")" "$(median "$tmp/ratio")" \
		"$lpus distinct"
done
echo "calibration stored: $(sqlite3 "$tmp/s.db" "SELECT value FROM
	experiment_meta WHERE key = 'calibration_loops_per_us'")"
bench_end
