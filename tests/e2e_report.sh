#!/bin/sh
# End-to-end: `contend report` on a database written independently of
# contend (python3's sqlite3 module and db/schema.sql): the lockdep pattern
# must be flagged, an interrupted experiment must say how many runs are
# missing, json must parse (python3 -m json.tool, also the golden file),
# csv must have one row per configuration x metric, and bad options or
# selectors must exit 2.
NAME=e2e_report
. "$(dirname "$0")/lib.sh"
need_python3

python3 -m json.tool tests/data/report/lockdep.json >/dev/null ||
	fail "golden tests/data/report/lockdep.json is not valid json"

db="$tmp/e2e.db"
python3 - "$db" db/schema.sql <<'EOF' || die "could not build the database"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
db.execute("INSERT INTO experiments (id, uuid, name, label, seed, run_order,"
           " confidence, status, created_at) VALUES (1, 'u-1', 'lockdep-e2e',"
           " 'e2e', '7', 'blocked', 0.95, 'interrupted', 1764478800)")
db.execute("INSERT INTO experiment_meta VALUES (1, 'hostname', 'e2e-host')")
# Fixed deviations, mean 0: 1-2 % noise around the means of the issue.
dev = [3, -1, 4, -1, -5, 9, -2, -6, 5, -6]
configs = [  # delay, throughput, hand-offs/s, contention rate, runs, planned
    ("0", 13.7e6, 1.76e6, 0.45, 10, 0),
    ("10000", 32.4e6, 0.13e6, 0.04, 8, 2),
]
seq = 0
run = 0
for c, (delay, tput, rate, cont, nrun, nplanned) in enumerate(configs, 1):
    db.execute("INSERT INTO configs (id, experiment_id, pos, workload, section,"
               " canon) VALUES (?, 1, ?, 'pthread-mutex', 'mutex-delay', ?)",
               (c, c, "threads=2 contended_delay_ns=%s runtime=2" % delay))
    for pos, kv in enumerate([("threads", "2"), ("contended_delay_ns", delay),
                              ("runtime", "2")]):
        db.execute("INSERT INTO config_params VALUES (?, ?, ?, ?)",
                   (c, pos, kv[0], kv[1]))
    for i in range(nrun + nplanned):
        run += 1
        seq += 1
        status = "ok" if i < nrun else "planned"
        db.execute("INSERT INTO runs (id, experiment_id, config_id, seq,"
                   " repetition, status) VALUES (?, 1, ?, ?, ?, ?)",
                   (run, c, seq, i, status))
        if status != "ok":
            continue
        d = dev[i % 10] / 400.0
        t = tput * (1 + d)
        for name, v in (("throughput", t), ("handoff_rate", rate * (1 - d)),
                        ("contention_rate", cont * (1 + d / 2)),
                        ("elapsed_s", 2.0), ("handoffs", 2 * rate * (1 - d))):
            db.execute("INSERT INTO samples VALUES (?, ?, ?)", (run, name, v))
        for th in range(2):
            db.execute("INSERT INTO thread_samples VALUES (?, ?, ?)",
                       (run, th, int(t * (1 + (0.001 if th else -0.001)))))
db.commit()
EOF

"$CONTEND" report --db "$db" >"$tmp/out.txt" || fail "text report exited $?"
grep -q "misleading-throughput" "$tmp/out.txt" ||
	fail "the lockdep pattern was not flagged"
grep -q "contended_delay_ns 0 -> 10000" "$tmp/out.txt" ||
	fail "the flag does not name the parameter change"
grep -q "2 of 20 runs are missing" "$tmp/out.txt" ||
	fail "the interrupted experiment does not say how many runs are missing"

"$CONTEND" report --db "$db" lockdep-e2e --format json >"$tmp/out.json" ||
	fail "json report exited $?"
python3 -m json.tool "$tmp/out.json" >/dev/null || fail "json does not parse"
python3 - "$tmp/out.json" <<'EOF' || fail "json content"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["experiment"]["runs"]["missing"] == 2, r["experiment"]["runs"]
c = r["configs"]
assert len(c) == 2
assert c[0]["metrics"]["throughput"]["n"] == 10
names = [f["name"] for f in c[1]["flags"]]
assert "misleading-throughput" in names, names
f = [f for f in c[1]["flags"] if f["name"] == "misleading-throughput"][0]
assert f["other_config"] == c[0]["id"]
assert f["rate_change_pct"] < -90
assert any(x["x"] == "handoff_rate" for x in r["correlations"])
EOF

"$CONTEND" report --db "$db" 1 --format csv >"$tmp/out.csv" ||
	fail "csv report exited $?"
# header + 2 configurations x 5 metrics
[ "$(wc -l <"$tmp/out.csv")" -eq 11 ] || fail "csv has $(wc -l <"$tmp/out.csv") lines, not 11"

"$CONTEND" report --db "$db" --handoff-drop 95 >"$tmp/hd.txt" ||
	fail "--handoff-drop 95 exited $?"
grep -q "! misleading-throughput" "$tmp/hd.txt" &&
	fail "a 92.6% drop raised the flag under --handoff-drop 95"

expect_status 2 report --db "$db" no-such-experiment
expect_status 2 report --db "$db" --format xml
expect_status 2 report --db "$db" --confidence 1.5
expect_status 2 report --db "$db" --resolve x
expect_status 2 report --db "$db" --bogus
# A database that is not there is bad input, as a bad one is.
expect_status 2 report --db "$tmp/missing.db"
[ "$fails" -eq 0 ]
