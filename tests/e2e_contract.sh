#!/bin/sh
# e2e_contract.sh - an experiment stored before the runner-analysis
# contract's keys (repetitions.SECTION and auto.SECTION.*, db/contract.h):
# made by storing one and taking its keys away at schema 3, as the contend
# of that time left it.  Its report is the one the experiment had with its
# keys, read-only (the keys from its config text, in memory, the file
# untouched), after a merge into a new database (the keys written into
# it), and after a run upgrades the file (the keys written into the file
# once, by the store).
NAME=e2e_contract
. "$(dirname "$0")/lib.sh"

cat > "$tmp/auto.ini" <<'EOF'
[experiment]
name            = e2e-contract
repetitions     = auto
min_repetitions = 3
max_repetitions = 4
warmup          = 0
runtime         = 20ms
seed            = 5

[workload steady]
type      = noop
precision = 0.9

[workload fixed]
type        = noop
repetitions = 3
EOF
cat > "$tmp/other.ini" <<'EOF'
[experiment]
name        = e2e-contract-other
repetitions = 2
warmup      = 0
runtime     = 20ms

[workload w]
type = noop
EOF

# The verbose report of experiment 1 of $1 into $2.txt, its JSON into
# $2.json; the database's path, where the report names it, as DB.  The
# JSON lists the experiment's meta whole: the contract's keys, written by
# the migration in a different order and with numbers as the config text
# spelled them, are left out of it (the analysis they give is compared).
report() {
	"$CONTEND" report --db "$1" 1 --verbose > "$2.raw" 2> "$tmp/err" ||
		fail "report of $1: $(cat "$tmp/err")"
	sed "s|$1|DB|g" "$2.raw" > "$2.txt"
	"$CONTEND" report --db "$1" 1 --format json > "$2.raw" 2> "$tmp/err" ||
		fail "JSON report of $1: $(cat "$tmp/err")"
	grep -Ev '^ *"(repetitions|auto)\.[^"]*": ' "$2.raw" |
		sed "s|$1|DB|g; s/,\$//" > "$2.json"
}

same_report() {
	cmp -s "$tmp/want.txt" "$2.txt" ||
		fail "$1: the report differs: $(diff "$tmp/want.txt" "$2.txt" | head -20)"
	cmp -s "$tmp/want.json" "$2.json" ||
		fail "$1: the JSON report differs: $(diff "$tmp/want.json" "$2.json" | head -20)"
}

keys() {
	q "$1" "SELECT key || '=' || value FROM experiment_meta
		WHERE key LIKE 'repetitions.%' OR key LIKE 'auto.%'
		ORDER BY key" | tr '\n' ' '
}

# what the migration must write for e2e-contract, from its config text
migrated="auto.steady.max_repetitions=4 auto.steady.min_repetitions=3 \
auto.steady.precision=0.9 repetitions.steady=auto "

db=$tmp/new.db
"$CONTEND" run "$tmp/auto.ini" --db "$db" --quiet 2> "$tmp/err" ||
	die "run: $(cat "$tmp/err")"
report "$db" "$tmp/want"
grep -Eq 'repetitions = auto: (precision|cap) reached' "$tmp/want.txt" ||
	die "the report does not say why steady stopped: $(cat "$tmp/want.txt")"
grep -q '"stopped": ' "$tmp/want.json" ||
	die "the JSON report does not say why steady stopped"

# ---- the experiment as contend stored it before the keys ----
old=$tmp/old.db
sqlite3 "$db" "VACUUM INTO '$old'" || die "cannot copy the database"
sqlite3 "$old" "DELETE FROM experiment_meta
		WHERE key LIKE 'repetitions.%' OR key LIKE 'auto.%';
		PRAGMA user_version = 3" || die "cannot make the old database"
expect "no keys before" "" "$(keys "$old")"

# read-only: the same report, the file as it was
report "$old" "$tmp/ro"
same_report "read-only, schema 3" "$tmp/ro"
expect "a report leaves schema 3" 3 "$(q "$old" 'PRAGMA user_version')"
expect "a report writes no keys" "" "$(keys "$old")"

# merged into a new database: the keys written with the experiment
"$CONTEND" merge "$tmp/merged.db" "$old" > /dev/null 2> "$tmp/err" ||
	fail "merge: $(cat "$tmp/err")"
expect "keys after the merge" "$migrated" "$(keys "$tmp/merged.db")"
# the merge's own mark (runner/start_checks.c reads it), then the rest
expect "marked as merged" 1 "$(q "$tmp/merged.db" "SELECT count(*)
	FROM experiment_meta WHERE key = 'merged_into'")"
sqlite3 "$tmp/merged.db" "DELETE FROM experiment_meta
	WHERE key = 'merged_into'" || die "cannot unmark the merged copy"
report "$tmp/merged.db" "$tmp/merged"
same_report "merged from schema 3" "$tmp/merged"

# upgraded by a run: the keys written into the file, once
"$CONTEND" run "$tmp/other.ini" --db "$old" --quiet 2> "$tmp/err" ||
	fail "run on the old database: $(cat "$tmp/err")"
newest=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' db/schema.sql)
expect "a run upgrades schema 3" "$newest" "$(q "$old" 'PRAGMA user_version')"
expect "keys after the upgrade" "$migrated" "$(q "$old" \
	"SELECT key || '=' || value FROM experiment_meta
	 WHERE experiment_id = 1 AND (key LIKE 'repetitions.%' OR
				      key LIKE 'auto.%')
	 ORDER BY key" | tr '\n' ' ')"
report "$old" "$tmp/upgraded"
same_report "upgraded from schema 3" "$tmp/upgraded"

# ---- the keys are spelled in db/contract.[ch] alone ----
# A stored key given as a literal to experiment_meta, a section's key or
# the calibration's spelled outside db/ (comments and the INI's own
# `direction.NAME` key aside).
spelled=$(grep -rnE 'experiment_meta\([^)]*, *"|"(primary|repetitions|auto)\.|"calibration_loops_per_us"|"(kmsg|kstate|kstate_end)\.[%"]' \
	runner analysis plots cli | grep -Ev '^[^:]*:[0-9]+:[[:space:]]*/?\*')
expect "contract keys spelled outside db/contract.h" "" "$spelled"

[ "$fails" -eq 0 ] && echo "$NAME: an experiment stored before the contract's keys reports as before: read-only, merged, upgraded"
[ "$fails" -eq 0 ]
