#!/bin/sh
# End-to-end: `contend compare` on number files (verdicts, direction,
# exit 3 under --fail-on-regression, file:line errors with exit 2) and on
# databases written independently of contend (python3's sqlite3 module and
# db/schema.sql): label, DB:label, DB:experiment-id and --db selections,
# invocation means, unmatched configurations, the misleading-throughput,
# host-mismatch and single-invocation flags, and the json document.
set -u
CONTEND=${CONTEND:-./contend}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "e2e_compare: FAIL: $*" >&2; exit 1; }

# expect STATUS CMD...: runs CMD, stdout to $tmp/out, stderr to $tmp/err.
expect() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] ||
		fail "exit $got, want $want: $* ($(cat "$tmp/err"))"
}

# ---- number files ----
printf '# baseline\n100\n101\n99\n100.5\n99.5\n' >"$tmp/base.txt"
printf '110\n111\n109\n110.5\n109.5\n' >"$tmp/fast.txt"
printf '100\n100.1\n99.9\n100.05\n99.95\n' >"$tmp/tight.txt"
printf '100.1\n100.2\n100\n100.15\n100.05\n' >"$tmp/same.txt"
printf '80\n130\n95\n120\n85\n' >"$tmp/noisy.txt"
printf 'run 1 100\nrun 2 101\nrun 3 99\n' >"$tmp/cols.txt"
printf 'run 1 110\nrun 2 111\nrun 3 109\n' >"$tmp/cols2.txt"
printf 'a,100\nb,101\nc,99\n' >"$tmp/csv1.txt"
printf 'a,110\nb,111\n# c,0\nc,109\n' >"$tmp/csv2.txt"

expect 0 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt"
grep -q "^values  *100.0  *110.0  *+10.0% \[+8.8%, +11.2%\]  *faster" "$tmp/out" ||
	fail "files: the summary row ($(cat "$tmp/out"))"
grep -q "Method: .*two-level model" "$tmp/out" &&
	grep -q "Satterthwaite" "$tmp/out" || fail "files: the method is not named"
grep -q "Verdict: 1 faster, 0 slower, 0 no-change, 0 inconclusive" \
	"$tmp/out" || fail "files: verdict line"
grep -q "unit: runs of one invocation" "$tmp/out" ||
	fail "files: the unit of the interval is not printed"
# Summary first: the table, then the verdict line, then the detail.
awk '/^configuration/ {t = NR} /^Verdict:/ {v = NR} /^== / {d = NR}
     /^Method:/ {m = NR} END {exit !(t < v && v < d && d < m)}' "$tmp/out" ||
	fail "files: not summary-first"
awk 'length > 80 {exit 1}' "$tmp/out" || fail "files: a line is over 80 columns"

expect 0 "$CONTEND" compare "$tmp/tight.txt" "$tmp/same.txt"
grep -q "^values .* no-change" "$tmp/out" || fail "files: not no-change"
expect 0 "$CONTEND" compare "$tmp/base.txt" "$tmp/noisy.txt"
grep -q "^values .* inconclusive" "$tmp/out" || fail "files: not inconclusive"
tr '\n' ' ' < "$tmp/out" | tr -s ' ' |
	grep -q "plan: [0-9]* boots of [0-9]* runs a side would resolve 1%" ||
	fail "files: inconclusive without the runs needed"

# Lower is better turns a 10% rise into a regression.
expect 0 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" --lower-is-better
grep -q "^values .* slower" "$tmp/out" || fail "files: --lower-is-better"

# So does naming a lower-is-better metric; an unknown name stays higher.
expect 0 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" --metric elapsed_s
grep -q "^values .* slower" "$tmp/out" || fail "files: --metric elapsed_s"
expect 0 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" --metric ops_k
grep -q "^values .* faster" "$tmp/out" || fail "files: --metric ops_k"

# --fail-on-regression: exit 3 only beyond its percentage.
expect 3 "$CONTEND" compare "$tmp/fast.txt" "$tmp/base.txt" \
	--fail-on-regression 5
grep -q "regression: 1 configuration slower by more than 5% (Holm" "$tmp/err" ||
	fail "exit 3 without saying why"
grep -q "fails: values -9.1% \[" "$tmp/out" ||
	fail "the gate does not name the failing configuration"
# "5%" is accepted as well as "5"; 100% or more is not a regression bound.
expect 3 "$CONTEND" compare "$tmp/fast.txt" "$tmp/base.txt" \
	--fail-on-regression 5%
expect 2 "$CONTEND" compare "$tmp/fast.txt" "$tmp/base.txt" \
	--fail-on-regression 100%
expect 2 "$CONTEND" compare "$tmp/fast.txt" "$tmp/base.txt" \
	--fail-on-regression 5%%
expect 0 "$CONTEND" compare "$tmp/fast.txt" "$tmp/base.txt" \
	--fail-on-regression 20
# One file a side: one invocation each, no between-invocation variance,
# so the gate says its bound does not hold and --strict refuses.
tr -s ' \n' '  ' <"$tmp/out" |
	grep -q "false-alarm rate not guaranteed: one experiment a side in 1" ||
	fail "the gate claims its bound with one a side"
expect 2 "$CONTEND" compare "$tmp/fast.txt" "$tmp/base.txt" \
	--fail-on-regression 20 --strict
grep -q "strict: 1 of 1 configurations have one experiment a side" \
	"$tmp/err" || fail "--strict refuses without saying why"
grep -q "Gate:" "$tmp/out" && fail "--strict refused after printing a result"
expect 0 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" \
	--fail-on-regression 0
# a noisy candidate neither shows a loss nor rules one out: inconclusive
expect 4 "$CONTEND" compare "$tmp/base.txt" "$tmp/noisy.txt" \
	--fail-on-regression 0
grep -q "regression gate inconclusive: 1 of 1 configuration" "$tmp/err" ||
	fail "exit 4 without saying why"
tr -s ' \n' '  ' <"$tmp/out" | grep -q "inconclusive: values .*this design detects changes of" ||
	fail "the inconclusive configuration is not named with what it detects"

# Columns and delimiters apply to both files, as in ministat.
expect 0 "$CONTEND" compare -C 3 "$tmp/cols.txt" "$tmp/cols2.txt"
grep -q "^values  *100.0  *110.0 " "$tmp/out" || fail "-C 3: wrong column"
expect 0 "$CONTEND" compare -C 2 -d , "$tmp/csv1.txt" "$tmp/csv2.txt"
grep -q "^values  *100.0  *110.0 " "$tmp/out" || fail "-C 2 -d ,: wrong column"

# Comma-joined number files: one invocation each.
printf '101\n102\n100\n101.5\n100.5\n' >"$tmp/base2.txt"
printf '111\n112\n110\n111.5\n110.5\n' >"$tmp/fast2.txt"
expect 0 "$CONTEND" compare "$tmp/base.txt,$tmp/base2.txt" \
	"$tmp/fast.txt,$tmp/fast2.txt"
grep -q "number files, one invocation each, 10 values" "$tmp/out" ||
	fail "comma-joined files: not read as invocations"
grep -q "2 inv x 5 runs" "$tmp/out" || fail "comma-joined files: invocations"
grep -q "^values .* faster" "$tmp/out" || fail "comma-joined files: verdict"
# Two baseline invocations give the gate its between-invocation variance.
expect 0 "$CONTEND" compare "$tmp/base.txt,$tmp/base2.txt" "$tmp/fast.txt" \
	--fail-on-regression 20 --strict
tr -s ' \n' '  ' <"$tmp/out" |
	grep -q "family-wise false-alarm rate <= 5%" ||
	fail "the gate's bound with two baseline invocations"

# Bad input: exit 2 with file and line.
printf '1\n2\nthree\n' >"$tmp/bad.txt"
: >"$tmp/empty.txt"
expect 2 "$CONTEND" compare "$tmp/base.txt" "$tmp/bad.txt"
grep -q "bad.txt:3: not a finite number: 'three'" "$tmp/err" ||
	fail "malformed line not quoted: $(cat "$tmp/err")"
expect 2 "$CONTEND" compare "$tmp/base.txt,$tmp/bad.txt" "$tmp/fast.txt"
grep -q "bad.txt:3: not a finite number" "$tmp/err" ||
	fail "comma-joined: the bad file is not named"
expect 2 "$CONTEND" compare "$tmp/empty.txt" "$tmp/base.txt"
grep -q "empty.txt: no numbers" "$tmp/err" || fail "empty file message"
expect 2 "$CONTEND" compare "$tmp/base.txt"
# One value a side: an error naming the file, not a comparison of nothing.
printf '100\n' >"$tmp/one.txt"
expect 2 "$CONTEND" compare "$tmp/one.txt" "$tmp/base.txt"
grep -q "one.txt: the baseline has a single value" "$tmp/err" ||
	fail "one value: $(cat "$tmp/err")"
expect 2 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" --threshold x
expect 2 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" --confidence 1.5
expect 2 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" --format xml
expect 2 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" -C 0

if ! command -v python3 >/dev/null 2>&1; then
	echo "e2e_compare: SKIP database cases: python3 not found"
	exit 0
fi

expect 0 "$CONTEND" compare "$tmp/base.txt" "$tmp/fast.txt" --format json
python3 -m json.tool "$tmp/out" >/dev/null || fail "files: json does not parse"

# ---- databases ----
# build DB SPEC: SPEC is a python literal list of experiments
# (id, name, label, governor, [(canon, throughput, handoff_rate, runs)]).
build() {
	python3 - "$1" db/schema.sql "$2" <<'EOF' || fail "could not build $1"
import ast, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
dev = [3, -1, 4, -1, -5, 9, -2, -6, 5, -6]    # fixed, mean 0 over ten
run = 0
cid = 0
for eid, name, label, gov, configs in ast.literal_eval(sys.argv[3]):
    db.execute("INSERT INTO experiments (id, uuid, name, label, seed,"
               " run_order, confidence, status, created_at) VALUES"
               " (?, ?, ?, ?, '1', 'blocked', 0.95, 'complete', ?)",
               (eid, "u-%s-%d" % (label, eid), name, label, 1764478800 + eid))
    for k, v in (("cpu_model", "Test CPU"), ("cpus_online", "2"),
                 ("governor", gov), ("smt", "off"),
                 ("kernel", "6.%d" % eid)):
        db.execute("INSERT INTO experiment_meta VALUES (?, ?, ?)", (eid, k, v))
    seq = 0
    for pos, (canon, tput, rate, nrun) in enumerate(configs):
        cid += 1
        db.execute("INSERT INTO configs (id, experiment_id, pos, workload,"
                   " section, canon) VALUES (?, ?, ?, 'pthread-mutex',"
                   " 'mutex', ?)", (cid, eid, pos, canon))
        for p, kv in enumerate(canon.split()):
            k, v = kv.split("=")
            db.execute("INSERT INTO config_params VALUES (?, ?, ?, ?)",
                       (cid, p, k, v))
        for i in range(nrun):
            run += 1
            seq += 1
            d = dev[(i + eid) % 10] / 1000.0
            db.execute("INSERT INTO runs (id, experiment_id, config_id, seq,"
                       " repetition, status) VALUES (?, ?, ?, ?, ?, 'ok')",
                       (run, eid, cid, seq, i))
            for m, v in (("throughput", tput * (1 + d)),
                         ("handoff_rate", rate * (1 - d)),
                         ("elapsed_s", 2.0 * (1 + d))):
                db.execute("INSERT INTO samples VALUES (?, ?, ?)", (run, m, v))
db.commit()
EOF
}

# The baseline kernel twice (two boots), the candidate once: the lockdep
# pattern on delay=0, a genuine speed-up on delay=100, and a configuration
# only the baseline ran.  The candidate ran under another governor.
build "$tmp/base.db" "[
 (1, 'lockdep', 'v6.1', 'performance',
  [('threads=2 delay=0', 13.7e6, 1.76e6, 10),
   ('threads=2 delay=100', 5.7e6, 1.4e6, 10),
   ('threads=8 delay=0', 3e6, 1e6, 10)]),
 (2, 'lockdep', 'v6.1', 'performance',
  [('threads=2 delay=0', 13.8e6, 1.75e6, 10),
   ('threads=2 delay=100', 5.75e6, 1.41e6, 10),
   ('threads=8 delay=0', 3e6, 1e6, 10)])]"
build "$tmp/cand.db" "[
 (1, 'lockdep', 'v6.2', 'powersave',
  [('threads=2 delay=0', 32.4e6, 0.13e6, 10),
   ('threads=2 delay=100', 14.9e6, 1.4e6, 10)])]"

expect 0 "$CONTEND" compare "$tmp/base.db:v6.1" "$tmp/cand.db:v6.2" \
	--format json
cp "$tmp/out" "$tmp/db.json"
python3 - "$tmp/db.json" <<'EOF' || fail "json content: $(cat "$tmp/db.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["metric"] == "throughput" and r["direction"] == "higher", r
assert r["baseline"]["experiments"] == [1, 2], r["baseline"]
c = {x["config"]: x for x in r["comparisons"]}
assert set(c) == {"threads=2 delay=0", "threads=2 delay=100"}, c.keys()
lock, real = c["threads=2 delay=0"], c["threads=2 delay=100"]
for x in (lock, real):
    assert x["verdict"] == "faster", x
    # Two invocations of the baseline: the model's unit; they lend s2_b
    # to the candidate's one invocation.
    b, c = x["baseline"], x["candidate"]
    assert b["unit"] in ("invocations", "runs-pooled"), b
    assert b["invocations"] == 2 and b["n"] == 20 and b["runs"] == 20, b
    assert c["invocations"] == 1 and c["n"] == 10, c
    assert c["unit"] in ("runs-borrowed-between", "runs-pooled"), c
    assert x["scale"] == "log", x["scale"]
    assert isinstance(x["df"], (int, float)) and isinstance(x["se"], float), x
    assert x["params"]["threads"] == "2", x["params"]
    names = [f["name"] for f in x["flags"]]
    assert "single-invocation" in names and "host-mismatch" in names, names
    for k in ("change_pct", "diff_ci_low", "diff_ci_high", "p_welch",
              "p_mannwhitney", "hedges_g", "change_ci_low_pct",
              "change_ci_high_pct"):
        assert isinstance(x[k], float), (k, x[k])
names = lambda x: [f["name"] for f in x["flags"]]
assert "misleading-throughput" in names(lock), lock["flags"]
assert "misleading-throughput" not in names(real), real["flags"]
hm = [f for f in lock["flags"] if f["name"] == "host-mismatch"][0]
assert "governor 'performance' vs 'powersave'" in hm["message"], hm
assert "kernel" not in hm["message"], hm
assert [u["config"] for u in r["unmatched"]] == ["threads=8 delay=0"], r
assert r["summary"] == {"faster": 2, "slower": 0, "no_change": 0,
                        "inconclusive": 0, "unmatched": 1}, r["summary"]
EOF

# The same selection through --db and a bare label gives the same result.
expect 0 "$CONTEND" compare --db "$tmp/base.db" v6.1 "$tmp/cand.db:v6.2" \
	--format json
cmp -s "$tmp/out" "$tmp/db.json" && fail "--db output names no selector"
python3 - "$tmp/out" "$tmp/db.json" <<'EOF' || fail "--db and DB:label differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["comparisons"] == b["comparisons"] and a["summary"] == b["summary"]
EOF

# Text: the flags are printed with their numbers.
expect 0 "$CONTEND" compare "$tmp/base.db:v6.1" "$tmp/cand.db:v6.2"
# (a paragraph's continuation lines, indented 4, joined to it: compare
# wraps its prose for an 80-column terminal)
awk '/^    [^ ]/ { sub(/^ +/, " "); printf "%s", $0; next } NR > 1 { print "" } { printf "%s", $0 } END { print "" }' \
	"$tmp/out" | grep -q "flag misleading-throughput (both): .*hand-offs/s fell" ||
	fail "text: misleading-throughput"
# (the design under the level when the line would pass 80 columns)
grep -A1 "^  baseline " "$tmp/out" | tr '\n' ' ' | grep -q " 2 inv x 10 runs" ||
	fail "text: the invocations are not stated"
grep -q "nan" "$tmp/out" && fail "text: prints nan"
awk 'length > 100 {exit 1}' "$tmp/out" || fail "text: a line is over 100 columns"
grep -q "candidate: .*threads=8\|baseline: pthread-mutex \[mutex\] threads=8" \
	"$tmp/out" || fail "text: unmatched configuration not listed"

# One experiment by id on each side: single-invocation on both.
expect 0 "$CONTEND" compare "$tmp/base.db:1" "$tmp/cand.db:1" --format json
python3 - "$tmp/out" <<'EOF' || fail "DB:id selection"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["baseline"]["experiments"] == [1]
for x in r["comparisons"]:
    f = [f for f in x["flags"] if f["name"] == "single-invocation"]
    assert f and f[0]["side"] == "both", x["flags"]
EOF

# elapsed_s: lower is better, from the metric vocabulary.
expect 0 "$CONTEND" compare "$tmp/base.db:v6.1" "$tmp/cand.db:v6.2" \
	--metric elapsed_s --format json
grep -q '"direction": "lower"' "$tmp/out" || fail "elapsed_s direction"

# Reversed, the candidate is a regression.
expect 3 "$CONTEND" compare "$tmp/cand.db:v6.2" "$tmp/base.db:v6.1" \
	--fail-on-regression 10

# Selection errors exit 2.
expect 2 "$CONTEND" compare "$tmp/base.db:v9" "$tmp/cand.db:v6.2"
grep -q "no experiment, label or id 'v9'" "$tmp/err" ||
	fail "unknown label message: $(cat "$tmp/err")"
expect 2 "$CONTEND" compare "$tmp/base.db:v6.1" "$tmp/cand.db:v6.2" \
	--metric nosuch
grep -q "metric 'nosuch' is not recorded" "$tmp/err" || fail "metric message"
expect 2 "$CONTEND" compare "$tmp/base.txt" "$tmp/base.db:v6.1"
grep -q "exactly one configuration" "$tmp/err" || fail "file vs many configs"
expect 2 "$CONTEND" compare --db "$tmp/nowhere.db" v6.1 v6.2
expect 2 "$CONTEND" compare "$tmp/base.txt:v6.1" "$tmp/cand.db:v6.2"
# ---- export files as sides ----
"$CONTEND" export --db "$tmp/base.db" --format csv >"$tmp/base.csv" ||
	fail "export failed"
expect 0 "$CONTEND" compare "$tmp/base.csv" "$tmp/cand.db:v6.2" --format json
python3 - "$tmp/out" "$tmp/db.json" <<'EOF2' || fail "export side differs"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
strip = lambda r: [{k: v for k, v in c.items() if k != "flags"}
                   for c in r["comparisons"]]
assert strip(a) == strip(b), (strip(a), strip(b))
assert a["baseline"]["experiments"] == [1, 2], a["baseline"]
EOF2
# Extra columns (an "error" column in the middle) are found by name;
# warm-up and failed rows are ignored.
python3 - "$tmp/base.csv" "$tmp/extra.csv" <<'EOF2' || fail "extra column"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
out = csv.writer(open(sys.argv[2], "w", newline=""))
h = rows[0]
i = h.index("status")
out.writerow(h[:i] + ["error"] + h[i:])
for r in rows[1:]:
    out.writerow(r[:i] + ["x, \"quoted\""] + r[i:])
w = list(rows[1]); w[h.index("warmup")] = "1"; w[h.index("value")] = "1e99"
out.writerow(w[:i] + [""] + w[i:])
f = list(rows[1]); f[h.index("status")] = "failed"; f[h.index("value")] = "0"
out.writerow(f[:i] + ["crashed"] + f[i:])
EOF2
expect 0 "$CONTEND" compare "$tmp/extra.csv" "$tmp/cand.db:v6.2" --format json
python3 - "$tmp/out" "$tmp/db.json" <<'EOF2' || fail "extra-column side differs"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert [c["change_pct"] for c in a["comparisons"]] == \
       [c["change_pct"] for c in b["comparisons"]], a
EOF2
# Text from an export side, and bad export files.
expect 0 "$CONTEND" compare "$tmp/base.csv" "$tmp/cand.db:v6.2"
grep -q "baseline .*base.csv (export, experiments 1, 2)" "$tmp/out" ||
	fail "export side not described"
head -n 1 "$tmp/base.csv" | sed 's/uuid/uid/' >"$tmp/nouuid.csv"
tail -n +2 "$tmp/base.csv" >>"$tmp/nouuid.csv"
expect 2 "$CONTEND" compare "$tmp/nouuid.csv" "$tmp/cand.db:v6.2"
head -n 1 "$tmp/base.csv" >"$tmp/badval.csv"
sed -n 2p "$tmp/base.csv" | sed 's/,[^,]*$/,fast/' >>"$tmp/badval.csv"
expect 2 "$CONTEND" compare "$tmp/badval.csv" "$tmp/cand.db:v6.2"
grep -q "badval.csv:2: value 'fast'" "$tmp/err" ||
	fail "bad export value: $(cat "$tmp/err")"

# One experiment on both sides is compared with itself: said once.
expect 0 "$CONTEND" compare "$tmp/base.db:v6.1" "$tmp/base.db:v6.1"
grep -q "is on both sides" "$tmp/err" ||
	fail "no warning for an experiment on both sides: $(cat "$tmp/err")"
expect 0 "$CONTEND" compare "$tmp/base.db:v6.1" "$tmp/cand.db:v6.2"
grep -q "is on both sides" "$tmp/err" &&
	fail "a warning of overlap for two experiments: $(cat "$tmp/err")"

# Sides judged by different primary metrics (a lock workload's throughput,
# a command's own metric) match nowhere whatever the filter: the error
# says so, not "name the parameter the sides change".
printf '[experiment]\nname = tp\nrepetitions = 2\nwarmup = 0\nruntime = 10ms\n[workload a]\ntype = noop\n' >"$tmp/tp.ini"
printf '[experiment]\nname = own\nrepetitions = 2\nwarmup = 0\n[workload a]\ntype = command\nargv = sh -c "echo t 1"\nmetric.t = t ([0-9]+)\n' >"$tmp/own.ini"
expect 0 "$CONTEND" run "$tmp/tp.ini" --db "$tmp/prim.db" --quiet
expect 0 "$CONTEND" run "$tmp/own.ini" --db "$tmp/prim.db" --quiet
expect 2 "$CONTEND" compare --db "$tmp/prim.db" tp own --metric elapsed_s
grep -q "nothing compared: the sides measure different things: the baseline's configurations are judged by 'throughput', the candidate's by 't'" "$tmp/err" ||
	fail "different primaries: $(cat "$tmp/err")"
grep -q "filter" "$tmp/err" && fail "different primaries blamed on a filter"

echo "e2e_compare: ok"
