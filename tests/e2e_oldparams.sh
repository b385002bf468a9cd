#!/bin/sh
# e2e_oldparams.sh - compare matches an experiment stored before a
# parameter existed with one stored after it, the parameter at the value
# the older runs had (db/vocab.h vocab_added_param: timeline=0 and
# latency_every=0 of the lock workloads), and only at that value.
NAME=e2e_oldparams
. "$(dirname "$0")/lib.sh"
db=$tmp/o.db

cat > "$tmp/o.ini" <<'EOF2'
[experiment]
name        = old
repetitions = 3
warmup      = 0
seed        = 9

[workload m]
type     = pthread-mutex
threads  = 2
runtime  = 10ms
EOF2
# the old experiment ran without the probe; the new one sweeps it
sed 's/^runtime/timeline = 0, 10ms\nruntime/' "$tmp/o.ini" > "$tmp/n.ini"
"$CONTEND" run "$tmp/o.ini" --db "$db" --label before --quiet > /dev/null 2>&1 ||
	die "run before failed"
"$CONTEND" run "$tmp/n.ini" --db "$db" --label after --quiet > /dev/null 2>&1 ||
	die "run after failed"
# Experiment 1 as a version before the probes stored it: neither key in
# its parameters or its canonical strings.
sqlite3 "$db" "DELETE FROM config_params WHERE key IN ('timeline', 'latency_every')
	AND config_id IN (SELECT id FROM configs WHERE experiment_id = 1);
	UPDATE configs SET canon = replace(replace(canon,
	' timeline=0', ''), ' latency_every=0', '')
	WHERE experiment_id = 1;" || die "cannot rewrite experiment 1"
expect "the old experiment has no timeline key" 0 \
	"$(q "SELECT count(*) FROM configs WHERE experiment_id = 1 AND canon LIKE '%timeline%'")"

"$CONTEND" compare --db "$db" before after --format json > "$tmp/c.json" 2> "$tmp/err"
# timeline=0 matches the configuration without the key; timeline=10ms does
# not (it ran with the probe on, the old one without): not compared.
# Before the dictionary's added parameters neither matched.
expect "one configuration compared" 1 \
	"$(python3 -c 'import json,sys; print(len(json.load(sys.stdin)["comparisons"]))' < "$tmp/c.json")"
expect "the one compared is timeline=0's" 0 \
	"$(python3 -c 'import json,sys; c=json.load(sys.stdin)["comparisons"][0]; print(int("timeline" in c["config"]))' < "$tmp/c.json")"
expect "timeline=10ms not matched with the old configuration (unmatched)" 1 \
	"$(python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["unmatched"])' < "$tmp/c.json")"

[ "$fails" -eq 0 ] && echo "$NAME: an experiment stored before timeline= existed compares with timeline=0, not with timeline=10ms"
[ "$fails" -eq 0 ]
