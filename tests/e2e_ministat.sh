#!/bin/sh
# e2e_ministat.sh - compare as ministat is used: any number of candidates
# against one baseline, a side on standard input ("-"), ministat's table
# (N, Min, Max, Median, Avg, Stddev; figures worked by hand below) and
# with --ascii its distribution plot; the exit status is the worst of the
# comparisons; database and export sides get ministat's row per side in
# each configuration's detail; bad forms exit 2.
NAME=e2e_ministat
. "$(dirname "$0")/lib.sh"

printf '1\n2\n3\n4\n' > "$tmp/a"          # mean 2.5, median 2.5, sd sqrt(5/3)
printf '10\n11\n12\n13\n14\n' > "$tmp/b"  # mean 12, sd sqrt(2.5)
printf '1\n2\n3\n4\n5\n6\n7\n' > "$tmp/c"
"$CONTEND" compare "$tmp/a" "$tmp/b" "$tmp/c" > "$tmp/out" 2>&1 ||
	fail "compare of three files exited $?"
expect "table header" "       N           Min           Max        Median           Avg        Stddev" \
	"$(sed -n 4p "$tmp/out")"
expect "row of a" "x      4             1             4           2.5           2.5     1.2909944" \
	"$(sed -n 5p "$tmp/out")"
expect "row of b" "+      5            10            14            12            12     1.5811388" \
	"$(sed -n 6p "$tmp/out")"
expect "legend" "* $tmp/c" "$(sed -n 3p "$tmp/out")"
expect "two comparisons" 2 "$(grep -c '^Verdict:' "$tmp/out")"
grep -q "^======== candidate 2 of 2: $tmp/c$" "$tmp/out" || fail "no heading for the second candidate"

"$CONTEND" compare "$tmp/a" "$tmp/b" --ascii > "$tmp/plot" 2>&1 || fail "--ascii exited $?"
frame=$(grep -c '^+--------------------------------------------------------------------------+$' "$tmp/plot")
expect "the plot's frame" 2 "$frame"
expect "every value drawn" "4 5" "$(sed -n '/^+--/,/^+--/p' "$tmp/plot" | tr -cd 'x' | wc -c) $(sed -n '/^+--/,/^+--/p' "$tmp/plot" | grep -v '^+' | tr -cd '+' | wc -c)"
# the lowest value of a at the left edge, the highest of b at the right
grep -q '^|x' "$tmp/plot" || fail "the smallest value is not at the left edge"
grep -q '+|$' "$tmp/plot" || fail "the largest value is not at the right edge"
expect "a bar per sample, A at its mean" 2 "$(grep -c '^|.*A.*|$' "$tmp/plot" | tr -d ' ')"

# standard input
cat "$tmp/b" | "$CONTEND" compare "$tmp/a" - > "$tmp/in" 2>&1 || fail "stdin side exited $?"
expect "stdin side" "+      5            10            14            12            12     1.5811388" \
	"$(sed -n 5p "$tmp/in")"
grep -q '^values .* faster' "$tmp/in" || fail "stdin comparison has no verdict"

# the worst status wins: the second candidate is the regression
"$CONTEND" compare "$tmp/b" "$tmp/b" "$tmp/a" --fail-on-regression 5 > /dev/null 2>&1
expect "regression in a later candidate" 3 $?
"$CONTEND" compare "$tmp/a" "$tmp/b" "$tmp/c" --format json > "$tmp/j" 2>&1 || fail "json"
if command -v python3 > /dev/null 2>&1; then
	expect "json: an array of two" 2 "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$tmp/j")"
	# ministat's figures per side (by hand above; c: 1..7, median 4,
	# sd sqrt(28/6) = 2.16025)
	expect "json: ministat per side" "4 1 2.5 2.5 4 1.29099 | 7 1 4 4 7 2.16025" \
		"$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))[1]["comparisons"][0]
f = lambda m: " ".join("%g" % m[k] for k in ("n", "min", "median", "mean", "max", "sd"))
print(f(r["baseline"]["ministat"]), "|", f(r["candidate"]["ministat"]))' "$tmp/j")"
fi

if command -v gnuplot > /dev/null 2>&1; then
	"$CONTEND" compare "$tmp/a" "$tmp/b" "$tmp/c" --plot "$tmp/pl" > /dev/null 2>&1 ||
		fail "--plot with two candidates"
	[ -s "$tmp/pl/1/compare.png" ] && [ -s "$tmp/pl/2/compare.png" ] ||
		fail "--plot DIR with several candidates: no DIR/1 and DIR/2"
fi

# Database and export sides: ministat's row per side in each
# configuration's detail, of the runs as stored (figures by hand: base
# 10 20 30 40: median 25, mean 25, sd sqrt(500/3) = 12.9099; cand 12 14
# 16 18 20: mean 16, sd sqrt(10) = 3.16228).  Number files have the
# table above instead, not twice.
grep -q '^  runs  *N' "$tmp/out" && fail "number files: the runs' rows repeat the table"
if command -v python3 > /dev/null 2>&1; then
	python3 - "$tmp/m.db" "$(dirname "$0")/../db/schema.sql" <<'EOF2' || fail "could not build m.db"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
run = 0
for eid, label, vals in ((1, "base", [10, 20, 30, 40]),
                         (2, "cand", [12, 14, 16, 18, 20])):
    db.execute("INSERT INTO experiments (id, uuid, name, label, seed,"
               " run_order, confidence, status, created_at) VALUES"
               " (?, ?, 'm', ?, '1', 'blocked', 0.95, 'complete', ?)",
               (eid, "u-%d" % eid, label, 1764478800 + eid))
    db.execute("INSERT INTO configs (id, experiment_id, pos, workload,"
               " section, canon) VALUES (?, ?, 0, 'pthread-mutex', 'mutex',"
               " 'threads=2')", (eid, eid))
    db.execute("INSERT INTO config_params VALUES (?, 0, 'threads', '2')",
               (eid,))
    for i, v in enumerate(vals):
        run += 1
        db.execute("INSERT INTO runs (id, experiment_id, config_id, seq,"
                   " repetition, status) VALUES (?, ?, ?, ?, ?, 'ok')",
                   (run, eid, eid, i + 1, i))
        db.execute("INSERT INTO samples VALUES (?, 'throughput', ?)", (run, v))
db.commit()
EOF2
	"$CONTEND" export --db "$tmp/m.db" base --format csv > "$tmp/base.csv" ||
		fail "export of m.db"
	for side in "$tmp/m.db:base" "$tmp/base.csv"; do
		"$CONTEND" compare "$side" "$tmp/m.db:cand" > "$tmp/dbout" 2>&1 ||
			fail "compare $side exited $?"
		expect "$side: the runs' header" "  runs         N         Min         Max      Median         Avg      Stddev" \
			"$(grep '^  runs ' "$tmp/dbout")"
		expect "$side: the baseline's runs" "  baseline     4          10          40          25          25       12.91" \
			"$(grep '^  baseline  *4 ' "$tmp/dbout")"
		expect "$side: the candidate's runs" "  candidate    5          12          20          16          16       3.162" \
			"$(grep '^  candidate  *5 ' "$tmp/dbout")"
		"$CONTEND" compare "$side" "$tmp/m.db:cand" --format json > "$tmp/dbj" 2>&1 ||
			fail "compare $side --format json exited $?"
		expect "$side: ministat per side in json" "4 10 25 25 40 12.9099 | 5 12 16 16 20 3.16228" \
			"$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["comparisons"][0]
f = lambda m: " ".join("%g" % m[k] for k in ("n", "min", "median", "mean", "max", "sd"))
print(f(r["baseline"]["ministat"]), "|", f(r["candidate"]["ministat"]))' "$tmp/dbj")"
	done
fi

expect_status 2 compare - - < "$tmp/a"
expect_status 2 compare "$tmp/a"
printf 'x\n' | "$CONTEND" compare "$tmp/a" - > /dev/null 2> "$tmp/err"
expect "bad stdin status" 2 $?
grep -q '(standard input):1:' "$tmp/err" || fail "bad stdin message: $(cat "$tmp/err")"

[ "$fails" -eq 0 ] && echo "$NAME: several candidates, standard input, ministat's table and plot, its rows for database and export sides"
