#!/bin/sh
# e2e_start_latency.sh - the runner stamps each run's spawn in its
# environment (CONTEND_SPAWN_NS) and the harness reports start_latency_s:
# stored for every run, with and without randomize_env, positive and
# shorter than the run's spawn-to-reap time even when the runner itself
# inherited a stale stamp; a run typed by hand reports none.
NAME=e2e_start_latency
. "$(dirname "$0")/lib.sh"

cat > "$tmp/lat.ini" <<'INI'
[experiment]
name        = e2e-start-latency
repetitions = 3
warmup      = 0
runtime     = 20ms
seed        = 7

[workload plain]
type = noop

[workload padded]
type = noop
randomize_env = yes
INI

# A stale stamp from an outer runner must not reach the runs.
if ! CONTEND_SPAWN_NS=1 "$CONTEND" run "$tmp/lat.ini" --db "$tmp/l.db" \
	--quiet > "$tmp/out" 2> "$tmp/err"; then
	fail "contend run: $(cat "$tmp/err")"
fi
expect "ok runs" 6 "$(q "$tmp/l.db" "SELECT count(*) FROM runs WHERE status = 'ok'")"
expect "runs with a latency" 6 "$(q "$tmp/l.db" \
	"SELECT count(*) FROM samples WHERE metric = 'start_latency_s'")"
expect "latencies in (0, wall_s)" 6 "$(q "$tmp/l.db" \
	"SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id
	 WHERE s.metric = 'start_latency_s' AND s.value > 0
	   AND s.value < r.wall_s")"
expect "padded runs keep their pad" 3 "$(q "$tmp/l.db" \
	"SELECT count(*) FROM runs WHERE env_pad IS NOT NULL")"

# By hand: no stamp, no latency.
if ! env -u CONTEND_SPAWN_NS "$CONTEND" exec noop runtime=10ms > "$tmp/hand"; then
	fail "contend exec by hand"
fi
grep -q '^elapsed_s ' "$tmp/hand" || fail "exec by hand printed no elapsed_s"
if grep -q '^start_latency_s ' "$tmp/hand"; then
	fail "exec by hand reported a start latency"
fi

[ "$fails" -eq 0 ] && echo "e2e_start_latency: ok"
exit "$fails"
