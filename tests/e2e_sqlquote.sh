#!/bin/sh
# e2e_sqlquote.sh - SQL only through bound parameters: an experiment whose
# name, label and parameter values are full of quotes, semicolons, SQL
# comments, LIKE wildcards and backslashes runs, and every string comes
# back byte for byte from the database, `contend export` (csv and json)
# and `contend report --format json`; selecting the experiment by that
# name or label finds exactly it (a wildcard matches nothing else); and
# no table lost a row; `contend merge` copies them unchanged.
set -u
: "${CONTEND:=./contend}"
tmp=$(mktemp -d /tmp/contend-sqlquote-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
failed=0
fail() { echo "e2e_sqlquote: FAIL: $*" >&2; failed=1; }
command -v python3 > /dev/null 2>&1 || { echo "e2e_sqlquote: python3 missing: skipped"; exit 0; }

name="it's \"quoted\"; DROP TABLE runs; -- %_ \\ é"
label="l'); DELETE FROM samples; --"
# The command's argument, as the INI line writes it and as argv gets it.
arg_ini='O'"'"'Brien \"x\"; DROP TABLE experiments; --'
arg='O'"'"'Brien "x"; DROP TABLE experiments; --'
db=$tmp/q.db
cat > "$tmp/q.ini" <<INI
[experiment]
name        = $name
repetitions = 2
warmup      = 0

[workload w]
type   = command
argv   = echo "$arg_ini" 42
metric = ([0-9]+)\$
INI
"$CONTEND" run "$tmp/q.ini" --db "$db" --quiet --label "$label" > /dev/null 2> "$tmp/err" ||
	{ echo "e2e_sqlquote: FAIL: run: $(cat "$tmp/err")" >&2; exit 1; }
# A decoy whose name the wildcard characters would match under LIKE.
sed "s/^name .*/name = it's \"quoted\"; DROP TABLE runs; -- ab \\\\ é/" "$tmp/q.ini" > "$tmp/decoy.ini"
"$CONTEND" run "$tmp/decoy.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err" ||
	fail "decoy run: $(cat "$tmp/err")"

"$CONTEND" export --db "$db" --format json > "$tmp/export.json" 2> "$tmp/err" || fail "export json: $(cat "$tmp/err")"
"$CONTEND" export --db "$db" --format csv > "$tmp/export.csv" 2> "$tmp/err" || fail "export csv: $(cat "$tmp/err")"
"$CONTEND" report --db "$db" "$name" --format json > "$tmp/report.json" 2> "$tmp/err" ||
	fail "report by name: $(cat "$tmp/err")"
"$CONTEND" report --db "$db" "$label" --format json > "$tmp/report-label.json" 2> "$tmp/err" ||
	fail "report by label: $(cat "$tmp/err")"

"$CONTEND" merge "$tmp/merged.db" "$db" > /dev/null 2> "$tmp/err" || fail "merge: $(cat "$tmp/err")"

NAME=$name LABEL=$label ARG=$arg python3 - "$db" "$tmp" <<'PY' || failed=1
import csv, json, os, sqlite3, sys
db, tmp = sys.argv[1], sys.argv[2]
name, label, arg = os.environ["NAME"], os.environ["LABEL"], os.environ["ARG"]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what}: {got!r} != {exp!r}")

c = sqlite3.connect(db)
rows = c.execute("SELECT id, name, label FROM experiments ORDER BY id").fetchall()
want("experiments", len(rows), 2)
want("stored name", rows[0][1], name)
want("stored label", rows[0][2], label)
argv = c.execute("SELECT value FROM config_params WHERE key = 'argv' AND "
                 "config_id IN (SELECT id FROM configs WHERE experiment_id = 1)").fetchone()
want("stored argv", argv[0] if argv else None, f'echo "{arg.replace(chr(34), chr(92) + chr(34))}" 42')
ok = c.execute("SELECT count(*) FROM runs WHERE experiment_id = 1 AND status = 'ok'").fetchone()[0]
want("ok runs", ok, 2)
thr = c.execute("SELECT value FROM samples JOIN runs ON runs.id = run_id "
                "WHERE experiment_id = 1 AND metric = 'throughput'").fetchall()
want("extracted metric", sorted(v for (v,) in thr), [42.0, 42.0])
tables = {t for (t,) in c.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
for t in ("experiments", "experiment_meta", "configs", "config_params", "runs", "samples", "run_threads"):
    if t not in tables:
        bad.append(f"table {t} is gone")

ex = [r for r in json.load(open(f"{tmp}/export.json")) if r["experiment_id"] == 1]
want("export json name", {r["experiment"] for r in ex}, {name})
want("export json label", {r["label"] for r in ex}, {label})
if not all("O'Brien" in r["params"] and "DROP TABLE experiments; --" in r["params"] for r in ex):
    bad.append("export json params lost the argument")
cx = [r for r in csv.DictReader(open(f"{tmp}/export.csv", newline="")) if r["experiment_id"] == "1"]
want("export csv name", {r["experiment"] for r in cx}, {name})
want("export csv label", {r["label"] for r in cx}, {label})

m = sqlite3.connect(f"{tmp}/merged.db")
want("merged names", [r[0] for r in m.execute("SELECT name FROM experiments ORDER BY created_at, id")][:1], [name])
want("merged labels", [r[0] for r in m.execute("SELECT label FROM experiments ORDER BY created_at, id")][:1], [label])

for f in ("report.json", "report-label.json"):
    e = json.load(open(f"{tmp}/{f}"))["experiment"]
    want(f"{f}: selected id", e["id"], 1)
    want(f"{f}: name", e["name"], name)
    want(f"{f}: label", e["label"], label)
for b in bad:
    print("e2e_sqlquote: FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ $failed -eq 0 ] && echo "e2e_sqlquote: quotes, semicolons, comments and wildcards round-trip; selection by name and label exact"
exit $failed
