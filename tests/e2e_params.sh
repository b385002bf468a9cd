#!/bin/sh
# e2e_params.sh - a command that sweeps its own arguments (param.NAME and
# {NAME}), judged by the metric it names (primary, direction), with a
# prepare and a cleanup around every run: the parameters reach the
# database and the report; repetitions = auto stops on the primary metric
# (it used to run to max_repetitions watching a throughput the command
# never reports); a failing or hanging prepare fails its run with the
# reason; bad forms are refused with file:line and exit status 2.
NAME=e2e_params
. "$(dirname "$0")/lib.sh"
db=$tmp/p.db
log=$tmp/hooks.log

cat > "$tmp/p.ini" <<EOF2
[experiment]
name        = e2e-params
repetitions = auto
min_repetitions = 3
max_repetitions = 12
warmup      = 0
seed        = 3

[workload sweep]
type = command
param.threads = 1..4*2
param.mode = fast, slow
argv = sh -c "echo lat_ms 0.{threads}; echo mode {mode}; echo thr \$T"
env = T={threads}
metric.lat_ms = ^lat_ms ([0-9.]+)\$
metric.thr = ^thr ([0-9]+)\$
direction.lat_ms = lower
prepare = sh -c "echo prepare {threads} {mode} >> $log"
cleanup = sh -c "echo cleanup {threads} >> $log"

[workload failing]
type = command
repetitions = 2
argv = echo x 1
metric.x = ^x ([0-9]+)\$
primary = x
direction = higher
prepare = sh -c "echo no scratch disk >&2; exit 3"

[workload hanging]
type = command
repetitions = 2
argv = echo x 1
metric.x = ^x ([0-9]+)\$
prepare = sleep 30
prepare_timeout = 100ms
EOF2

# every run of [failing] and [hanging] fails, so run exits 1 and names them
st=0
"$CONTEND" run --db "$db" "$tmp/p.ini" > "$tmp/out" 2>&1 || st=$?
[ "$st" -eq 1 ] || { cat "$tmp/out"; die "run exited $st, not 1"; }
grep -q 'configuration .*\[failing\].*all 2 runs failed' "$tmp/out" &&
	grep -q 'configuration .*\[hanging\].*all 2 runs failed' "$tmp/out" ||
	{ cat "$tmp/out"; die "run did not name the configurations that failed"; }
expect "configurations of [sweep]" 6 \
	"$(q "SELECT count(*) FROM configs WHERE section = 'sweep'")"
expect "param.threads stored" "1 2 4" "$(q "SELECT DISTINCT value FROM config_params
	WHERE key = 'param.threads' ORDER BY CAST(value AS int)" | tr '\n' ' ' | sed 's/ $//')"
expect "the identity holds the user parameters" 1 "$(q "SELECT count(*) FROM configs
	WHERE canon LIKE '%env=T={threads} %param.mode=slow param.threads=4'")"
# {threads} reached argv and env: thr is the env's T, lat_ms the argv's
expect "thr follows env = T={threads}" "1 2 4" "$(q "SELECT DISTINCT printf('%g', value)
	FROM samples WHERE metric = 'thr' ORDER BY value" | tr '\n' ' ' | sed 's/ $//')"
expect "lat_ms follows argv" "0.1 0.2 0.4" "$(q "SELECT DISTINCT printf('%g', value)
	FROM samples WHERE metric = 'lat_ms' ORDER BY value" | tr '\n' ' ' | sed 's/ $//')"
# auto watched lat_ms (the first metric.NAME written), which does not vary
expect "auto stopped at min_repetitions" 18 \
	"$(q "SELECT count(*) FROM runs r JOIN configs c ON c.id = r.config_id
	WHERE c.section = 'sweep' AND r.status = 'ok'")"
expect "primary stored" "lat_ms" "$(q "SELECT value FROM experiment_meta
	WHERE key = 'primary.sweep'")"
expect "direction stored" "higher" "$(q "SELECT value FROM experiment_meta
	WHERE key = 'direction.failing.x'")"
expect "a prepare and a cleanup per run" "18 18" \
	"$(grep -c '^prepare' "$log") $(grep -c '^cleanup' "$log")"
grep -q '^prepare 4 slow$' "$log" || fail "prepare did not get {threads} {mode}"
expect "failing prepare" "failed|prepare: exit status 3; stderr ends: no scratch disk" \
	"$(q "SELECT DISTINCT status || '|' || error FROM runs r JOIN configs c
	ON c.id = r.config_id WHERE c.section = 'failing'")"
expect "hanging prepare" "failed|prepare: timed out after 0.1s" \
	"$(q "SELECT DISTINCT status || '|' || error FROM runs r JOIN configs c
	ON c.id = r.config_id WHERE c.section = 'hanging'")"
expect "no metric of a run whose prepare failed" 0 "$(q "SELECT count(*) FROM samples s
	JOIN runs r ON r.id = s.run_id WHERE r.status = 'failed'")"

"$CONTEND" report --db "$db" > "$tmp/summary" 2>&1 || fail "report failed"
# the summary names the sweep by the user's parameters, not the argv they fill
grep -q '^ 1  sweep    mode=fast threads=1  ' "$tmp/summary" ||
	fail "the summary does not show the user parameters: $(sed -n 7p "$tmp/summary")"
"$CONTEND" report --verbose --db "$db" > "$tmp/report" 2>&1 || fail "report failed"
grep -q '^  primary metric: lat_ms (lower is better' "$tmp/report" ||
	fail "the report does not state the primary metric"
grep -q 'precision reached after 3 measured runs' "$tmp/report" ||
	fail "auto did not stop on the primary: $(grep auto "$tmp/report" | head -2)"
"$CONTEND" report --db "$db" --format json > "$tmp/report.json" 2>&1 ||
	fail "report json failed"
if command -v python3 >/dev/null 2>&1; then
	expect "configs[].primary" "lat_ms lower" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
c = r["configs"][0]
print(c["primary"], c["direction"])' "$tmp/report.json")"
fi

# prepare and cleanup in [experiment] run around every run of every
# section, {NAME} from the section's own param.NAME; a section's own
# prepare replaces it, its cleanup still inherited.
cat > "$tmp/h.ini" <<EOF2
[experiment]
name        = e2e-hooks
repetitions = 2
warmup      = 0
prepare     = sh -c "echo eprep {n} >> $tmp/h.log"
cleanup     = sh -c "echo eclean >> $tmp/h.log"

[workload a]
type    = command
param.n = 1, 2
argv    = echo x {n}
metric.x = ^x ([0-9]+)\$

[workload b]
type    = command
param.n = 3
argv    = echo x {n}
metric.x = ^x ([0-9]+)\$
prepare = sh -c "echo own {n} >> $tmp/h.log"
EOF2
"$CONTEND" run --db "$tmp/h.db" "$tmp/h.ini" > "$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; fail "the run with [experiment] hooks failed"; }
expect "inherited prepare n=1, n=2; own prepare; cleanup for all" "2 2 2 6" \
	"$(grep -c '^eprep 1$' "$tmp/h.log") $(grep -c '^eprep 2$' "$tmp/h.log") $(grep -c '^own 3$' "$tmp/h.log") $(grep -c '^eclean$' "$tmp/h.log")"

# Bad forms: file:line, exit status 2, no database.
bad() {
	printf '[experiment]\nname = bad\n[workload c]\ntype = command\nmetric = ([0-9]+)\n%s\n' "$1" > "$tmp/bad.ini"
	"$CONTEND" run --db "$tmp/bad.db" "$tmp/bad.ini" > "$tmp/err" 2>&1
	expect "status of '$1'" 2 $?
	grep -q "$2" "$tmp/err" || fail "'$1': want '$2', got: $(cat "$tmp/err")"
	[ ! -e "$tmp/bad.db" ] || fail "'$1' wrote a database"
}
bad 'argv = echo {nope}' 'bad.ini:6: argv: unknown parameter {nope}'
bad 'argv = true
env = T=1, T=2' 'bad.ini:7: .*env: a comma in .T=1, T=2.*param.T = 1, 2.*env = T={T}'
bad 'argv = true
prepare = echo "unterminated' 'bad.ini:7: prepare: unterminated double quote'
bad 'argv = true
param.1x = 1' 'bad.ini:7: param.1x: the NAME of param.NAME'
bad 'argv = true
param.n = 3..1' "bad.ini:7: param.n: reversed range"
bad 'argv = true
direction = up' "bad.ini:7: direction: unknown value 'up'"

[ "$fails" -eq 0 ] && echo "$NAME: param.NAME sweeps argv and env, primary drives auto and the report, prepare/cleanup run per run, from [experiment] too"
