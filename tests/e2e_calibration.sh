#!/bin/sh
# e2e_calibration.sh - the busy-loop calibration is one per experiment:
# measured once and stored as experiment_meta calibration_loops_per_us,
# reported by every run; `calibration = N` and --calibration-from pin it;
# --resume hands on the stored value instead of measuring again; bad values
# are refused with file:line and exit 2.  Values and presence only, never a
# speed.
NAME=e2e_calibration
. "$(dirname "$0")/lib.sh"
db=$tmp/c.db

# ini NAME [EXTRA-EXPERIMENT-LINE]: 3 runs of pthread-mutex hold_ns = 1000
ini() {
	cat <<EOF
[experiment]
name = $1
repetitions = 3
warmup = 0
runtime = 20ms
order = sequential
seed = 3
${2:-}

[workload hold]
type = pthread-mutex
threads = 1
hold_ns = 1000
EOF
}

# meta EXPERIMENT KEY
meta() {
	q "SELECT value FROM experiment_meta WHERE experiment_id = $1
	   AND key = '$2'"
}

# lpus EXPERIMENT: the distinct loops_per_us its ok runs reported
lpus() {
	q "SELECT DISTINCT s.value FROM samples s JOIN runs r ON r.id = s.run_id
	   WHERE r.experiment_id = $1 AND r.status = 'ok'
	   AND s.metric = 'loops_per_us'"
}

# 1. measured once, stored once, every run reports it
ini measured > "$tmp/m.ini"
"$CONTEND" run "$tmp/m.ini" --db "$db" --quiet 2> "$tmp/err" ||
	die "run measured: $(cat "$tmp/err")"
expect "measured: meta rows" 1 "$(q "SELECT count(*) FROM experiment_meta
	WHERE key = 'calibration_loops_per_us'")"
stored=$(meta 1 calibration_loops_per_us)
expect "measured: source" measured "$(meta 1 calibration_source)"
expect "measured: runs with loops_per_us" 3 "$(q "SELECT count(*) FROM samples
	WHERE metric = 'loops_per_us'")"
expect "measured: one value, the stored one" \
	"$(q "SELECT CAST('$stored' AS REAL)")" "$(lpus 1)"

# 2. calibration = N is every run's
ini pinned "calibration = 1234.5" > "$tmp/p.ini"
"$CONTEND" run "$tmp/p.ini" --db "$db" --quiet 2> "$tmp/err" ||
	die "run pinned: $(cat "$tmp/err")"
expect "pinned: stored" 1234.5 "$(meta 2 calibration_loops_per_us)"
expect "pinned: source" config "$(meta 2 calibration_source)"
expect "pinned: every run" 1234.5 "$(lpus 2)"

# 3. --calibration-from another experiment of the database
"$CONTEND" run "$tmp/m.ini" --db "$db" --quiet --calibration-from 2 \
	2> "$tmp/err" || die "run --calibration-from: $(cat "$tmp/err")"
expect "from: stored" 1234.5 "$(meta 3 calibration_loops_per_us)"
expect "from: source" "experiment 2" "$(meta 3 calibration_source)"
expect "from: every run" 1234.5 "$(lpus 3)"
expect_status 2 run "$tmp/m.ini" --db "$db" --quiet --calibration-from 99
expect_status 2 run --resume 1 --db "$db" --calibration-from 2

# 4. --resume hands on the stored value, never measures again: the stored
# value is changed behind the runner's back, and the resumed runs report
# the changed one.  A fail-fast stop leaves the experiment to resume.
cat > "$tmp/r.ini" <<'EOF'
[experiment]
name = resumed
repetitions = 2
warmup = 0
runtime = 20ms
order = sequential

[workload before]
type = pthread-mutex
threads = 1
hold_ns = 1000

[workload broken]
type = noop
fault = exit

[workload after]
type = pthread-mutex
threads = 1
think_ns = 500
EOF
"$CONTEND" run "$tmp/r.ini" --db "$db" --quiet --fail-fast 2> /dev/null
expect "resume: stopped" failed "$(q "SELECT status FROM experiments
	WHERE id = 4")"
expect "resume: before ran" 2 "$(q "SELECT count(*) FROM runs r JOIN configs c
	ON c.id = r.config_id WHERE r.experiment_id = 4 AND c.section = 'before'
	AND r.status = 'ok'")"
sqlite3 "$db" "UPDATE experiment_meta SET value = '777.25' WHERE
	experiment_id = 4 AND key = 'calibration_loops_per_us'"
"$CONTEND" run --resume 4 --db "$db" --quiet 2> "$tmp/err"
expect "resume: meta rows" 1 "$(q "SELECT count(*) FROM experiment_meta
	WHERE experiment_id = 4 AND key = 'calibration_loops_per_us'")"
expect "resume: stored value kept" 777.25 \
	"$(meta 4 calibration_loops_per_us)"
expect "resume: resumed runs report it" 777.25 "$(q "SELECT DISTINCT s.value
	FROM samples s JOIN runs r ON r.id = s.run_id JOIN configs c
	ON c.id = r.config_id WHERE r.experiment_id = 4 AND c.section = 'after'
	AND s.metric = 'loops_per_us'")"
expect "resume: after ran" 2 "$(q "SELECT count(*) FROM runs r JOIN configs c
	ON c.id = r.config_id WHERE r.experiment_id = 4 AND c.section = 'after'
	AND r.status = 'ok'")"

# 5. bad values: file:line and the key, exit 2, nothing written
runs_before=$(q "SELECT count(*) FROM experiments")
for bad in 0 -5 abc nan inf 1e400 ""; do
	ini bad "calibration = $bad" > "$tmp/bad.ini"
	"$CONTEND" run "$tmp/bad.ini" --db "$db" --quiet > /dev/null \
		2> "$tmp/err"
	st=$?
	expect "calibration = '$bad': exit status" 2 "$st"
	grep -q "bad.ini:8:.*calibration" "$tmp/err" ||
		fail "calibration = '$bad': no file:line:key in: $(cat "$tmp/err")"
done
expect "bad values: nothing written" "$runs_before" \
	"$(q "SELECT count(*) FROM experiments")"

# 6. exec: the value given is the one used; a bad one is refused
"$CONTEND" exec pthread-mutex threads=1 hold_ns=100 jobs=10 \
	--calibration 4321 > "$tmp/out" 2> "$tmp/err" ||
	fail "exec --calibration: $(cat "$tmp/err")"
expect "exec --calibration" 4321 \
	"$(awk '$1 == "loops_per_us" { print $2 }' "$tmp/out")"
for bad in 0 -1 x; do
	expect_status 2 exec pthread-mutex jobs=10 --calibration "$bad"
done
# nothing calibrated, nothing measured: no loops_per_us
"$CONTEND" exec pthread-mutex threads=1 jobs=10 > "$tmp/out" ||
	fail "exec without calibrated work"
grep -q '^loops_per_us ' "$tmp/out" &&
	fail "exec without calibrated work reported a calibration"

[ "$fails" -eq 0 ]
