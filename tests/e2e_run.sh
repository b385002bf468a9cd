#!/bin/sh
# e2e_run.sh - `contend run` of a noop experiment whose runs crash, hang,
# fail and break the protocol on purpose: every run is stored with the
# right status while the others complete; config errors and --dry-run
# write nothing; the same seed gives the same order; `contend exec` by hand.
NAME=e2e_run
. "$(dirname "$0")/lib.sh"

cat > "$tmp/faults.ini" <<'EOF'
[experiment]
name        = e2e-faults
repetitions = 2
warmup      = 1
runtime     = 20ms
timeout     = 5s
seed        = 42
randomize_env = yes

[workload good]
type    = noop
threads = 1, 2

[workload crash]
type  = noop
fault = segv

[workload hang]
type    = noop
fault   = hang
timeout = 300ms

[workload fail]
type  = noop
fault = exit

[workload proto]
type  = noop
fault = garbage, noend

[workload orphan]
type  = noop
fault = fork
EOF

# ---- a whole experiment of misbehaving runs ----
db=$tmp/faults.db
"$CONTEND" run "$tmp/faults.ini" --db "$db" --label e2e > "$tmp/out" 2> "$tmp/err"
# Every run of crash, hang, fail, proto and orphan failed: exit 1, each
# such configuration named with its first reason.
expect "exit status of run" 1 $?
expect "configurations whose runs all failed" 5 \
	"$(grep -c ': all [0-9]* runs failed (first: ' "$tmp/err")"
grep -q "configuration 3 \[crash\] .*all 3 runs failed (first: crashed: " "$tmp/err" ||
	fail "the crashing configuration is not named: $(cat "$tmp/err")"
# Each failed run's reason as it happened, one line each.
expect "failure lines" 15 "$(grep -c '^contend: run [0-9]* [a-z]*: ' "$tmp/err")"
grep -q "^contend: run [0-9]* crashed: killed by " "$tmp/err" ||
	fail "no crash line: $(cat "$tmp/err")"
# The summary counts them by reason.
grep -q "^failed runs by reason:" "$tmp/out" || fail "no reasons in the summary"
grep -Eq "^ +3  crashed: killed by " "$tmp/out" ||
	fail "no crash count in the summary: $(cat "$tmp/out")"
# report lists them per configuration
"$CONTEND" report --db "$db" 1 > "$tmp/report" 2>&1 || fail "report exited $?"
grep -q "config 3 \[crash\].*: 3 of 3 runs failed" "$tmp/report" ||
	fail "report does not list the crashed runs: $(cat "$tmp/report")"
grep -q "3 x crashed: killed by " "$tmp/report" ||
	fail "report does not say why they failed"
# 8 configurations x (1 warm-up + 2 measured)
expect "runs planned" 24 "$(q "$db" "SELECT count(*) FROM runs")"
expect "runs still planned" 0 \
	"$(q "$db" "SELECT count(*) FROM runs WHERE status IN ('planned','interrupted')")"
expect "experiment status" complete "$(q "$db" "SELECT status FROM experiments")"
expect "label" e2e "$(q "$db" "SELECT label FROM experiments")"
expect "seed" 42 "$(q "$db" "SELECT seed FROM experiments")"
for pair in good:ok crash:crashed hang:timeout fail:failed proto:protocol \
	    orphan:ok; do
	sec=${pair%%:*}
	st=${pair#*:}
	expect "statuses of [$sec]" "$st" "$(q "$db" "SELECT DISTINCT r.status
		FROM runs r JOIN configs c ON c.id = r.config_id
		WHERE c.section = '$sec'")"
done
expect "crash reason" 3 "$(q "$db" "SELECT count(*) FROM runs
	WHERE status = 'crashed' AND error LIKE 'killed by SIGSEGV%'")"
expect "timeout reason" 3 "$(q "$db" "SELECT count(*) FROM runs
	WHERE status = 'timeout' AND error LIKE 'timed out after 0.3s%'")"
expect "failure carries stderr" 3 "$(q "$db" "SELECT count(*) FROM runs
	WHERE status = 'failed' AND error LIKE '%exiting with status 1 as asked%'")"
expect "protocol reasons" 6 "$(q "$db" "SELECT count(*) FROM runs
	WHERE status = 'protocol' AND error LIKE 'protocol: %'")"
# ok runs carry the workload's metrics and the runner's rusage
for m in elapsed_s throughput user_s sys_s vcsw ivcsw maxrss_kb wall_s; do
	expect "ok runs with $m" 9 "$(q "$db" "SELECT count(*) FROM samples s
		JOIN runs r ON r.id = s.run_id WHERE r.status = 'ok'
		AND s.metric = '$m'")"
done
expect "no workload metric on a failed run" 0 "$(q "$db" "SELECT count(*)
	FROM samples s JOIN runs r ON r.id = s.run_id
	WHERE r.status <> 'ok' AND s.metric = 'elapsed_s'")"
expect "per-thread counts of threads=2" 6 "$(q "$db" "SELECT count(*)
	FROM thread_samples t JOIN runs r ON r.id = t.run_id
	JOIN configs c ON c.id = r.config_id WHERE c.canon LIKE '%threads=2%'
	AND c.section = 'good'")"
expect "env_pad recorded" 24 "$(q "$db" "SELECT count(*) FROM runs
	WHERE env_pad BETWEEN 0 AND 4095")"
expect "warm-ups" 8 "$(q "$db" "SELECT count(*) FROM runs WHERE warmup = 1")"
expect "host metadata" 1 "$(q "$db" "SELECT count(*) FROM experiment_meta
	WHERE key = 'kernel_release' AND value <> ''")"
grep -q "^24 runs: 9 ok, 3 failed, 3 crashed, 3 timeout, 6 protocol" "$tmp/out" ||
	fail "no summary on stdout: $(cat "$tmp/out")"
# blocked: the first 8 runs are the warm-up round, one per configuration
expect "warm-up round" "8 8" "$(q "$db" "SELECT count(DISTINCT config_id),
	sum(warmup) FROM runs WHERE seq < 8" | tr '|' ' ')"

# ---- the same seed gives the same order (and the same env padding) ----
"$CONTEND" run "$tmp/faults.ini" --db "$db" --quiet > /dev/null 2>&1
expect "second experiment" 1 $?
order() {
	q "$db" "SELECT c.pos, r.repetition, r.warmup, r.env_pad FROM runs r
		JOIN configs c ON c.id = r.config_id
		WHERE r.experiment_id = $1 ORDER BY r.seq" | tr '\n' ' '
}
[ "$(order 1)" = "$(order 2)" ] || fail "same seed, different order"
"$CONTEND" run "$tmp/faults.ini" --db "$db" --quiet --seed 43 > /dev/null 2>&1
[ "$(order 1)" != "$(order 3)" ] || fail "--seed 43 gave seed 42's order"
expect "--seed recorded" "43 option" "$(q "$db" "SELECT e.seed, m.value
	FROM experiments e JOIN experiment_meta m ON m.experiment_id = e.id
	WHERE e.id = 3 AND m.key = 'seed_source'" | tr '|' ' ')"

# ---- nothing is written on a config error or a dry run ----
printf '[experiment]\nname = x\nrepetitions = many\n[workload a]\ntype = noop\n' \
	> "$tmp/bad.ini"
"$CONTEND" run "$tmp/bad.ini" --db "$tmp/bad.db" > /dev/null 2> "$tmp/err"
expect "exit status on a config error" 2 $?
[ -e "$tmp/bad.db" ] && fail "a config error created a database"
grep -q "bad.ini:3" "$tmp/err" || fail "config error without file:line: $(cat "$tmp/err")"
"$CONTEND" run "$tmp/faults.ini" --db "$tmp/dry.db" --dry-run > "$tmp/out" 2>&1
expect "exit status of --dry-run" 0 $?
[ -e "$tmp/dry.db" ] && fail "--dry-run created a database"
grep -q "24 runs" "$tmp/out" || fail "--dry-run without plan summary"
"$CONTEND" run "$tmp/missing.ini" --db "$tmp/bad.db" > /dev/null 2>&1
expect "exit status on a missing config" 2 $?
"$CONTEND" run --bogus > /dev/null 2>&1
expect "exit status on an unknown option" 2 $?
"$CONTEND" run "$tmp/faults.ini" --resume 1 > /dev/null 2>&1
expect "exit status on CONFIG with --resume" 2 $?
[ -e "$tmp/bad.db" ] && fail "a usage error created a database"

# ---- --fail-fast stops at the first failure, resumable ----
"$CONTEND" run "$tmp/faults.ini" --db "$tmp/ff.db" --fail-fast --quiet \
	--seed 1 > /dev/null 2> "$tmp/err"
expect "exit status of --fail-fast" 1 $?
expect "--fail-fast status" failed "$(q "$tmp/ff.db" "SELECT status FROM experiments")"
expect "--fail-fast stopped at the first bad run" 1 "$(q "$tmp/ff.db" "SELECT
	count(*) FROM runs WHERE status NOT IN ('ok', 'planned')")"
grep -q "run --resume 1" "$tmp/err" || fail "--fail-fast without resume hint"

# ---- the progress line: on a terminal only, never with --quiet ----
printf '[experiment]\nname = p\nrepetitions = 2\nwarmup = 0\nruntime = 10ms\nseed = 1\n[workload a]\ntype = noop\n' \
	> "$tmp/p.ini"
"$CONTEND" run "$tmp/p.ini" --db "$tmp/p.db" > /dev/null 2> "$tmp/err"
grep -q 'ETA' "$tmp/err" && fail "progress line drawn on a pipe"
if command -v script > /dev/null 2>&1; then
	script -qec "'$CONTEND' run '$tmp/p.ini' --db '$tmp/p.db'" /dev/null \
		> "$tmp/tty" 2>&1
	grep -q '\[2/2\] .* elapsed, ETA' "$tmp/tty" ||
		fail "no progress line on a terminal: $(cat "$tmp/tty")"
	grep -q '2 runs: 2 ok' "$tmp/tty" || fail "no summary on a terminal"
	script -qec "'$CONTEND' run '$tmp/p.ini' --db '$tmp/p.db' --quiet" \
		/dev/null > "$tmp/tty" 2>&1
	grep -q 'ETA' "$tmp/tty" && fail "progress line drawn with --quiet"
fi

# ---- contend exec by hand ----
"$CONTEND" exec noop threads=2 runtime=200ms > "$tmp/out"
expect "exec exit status" 0 $?
expect "exec end line" end "$(tail -n 1 "$tmp/out")"
expect "exec thread lines" 2 "$(grep -c '^thread ' "$tmp/out")"
# The window runs from the first worker's first operation to the last
# one's last (harness.c), so it may fall a little short of the 200 ms
# asked, by however late the workers woke: only a positive window is sure.
awk '$1 == "elapsed_s" && $2 > 0 { ok = 1 } END { exit !ok }' "$tmp/out" ||
	fail "exec elapsed_s missing or not positive: $(cat "$tmp/out")"
"$CONTEND" exec noop threads=0 > /dev/null 2> "$tmp/err"
expect "exec exit status on a bad value" 2 $?
grep -q threads "$tmp/err" || fail "exec bad value message: $(cat "$tmp/err")"
"$CONTEND" exec nop > /dev/null 2> "$tmp/err"
expect "exec exit status on an unknown workload" 2 $?
grep -q "did you mean 'noop'" "$tmp/err" || fail "no suggestion: $(cat "$tmp/err")"
"$CONTEND" exec noop fault=exit > /dev/null 2>&1
expect "exec exit status of a failing run" 1 $?

[ "$fails" -eq 0 ]
