#!/bin/sh
# e2e_regimes.sh - the multimodal flag through the binary: a command whose
# runs print 100 in 7 of every 10 runs and 115 in the others (a counter
# file decides, each value with a little spread) is flagged multimodal
# with both regimes and no outliers; one that prints values around 100 is
# not flagged.
NAME=e2e_regimes
. "$(dirname "$0")/lib.sh"

db=$tmp/r.db
cat > "$tmp/r.ini" <<INI
[experiment]
name        = regimes
repetitions = 20
warmup      = 0
order       = sequential

[workload two]
type       = command
argv       = sh -c "n=\$(cat '$tmp/two' 2>/dev/null || echo 0); echo \$((n + 1)) > '$tmp/two'; j=\$((n % 3)); if [ \$((n % 10)) -lt 7 ]; then echo value 10\$j; else echo value 11\$((j + 4)); fi"
metric.value = value ([0-9]+)

[workload one]
type       = command
argv       = sh -c "n=\$(cat '$tmp/one' 2>/dev/null || echo 0); echo \$((n + 1)) > '$tmp/one'; echo value \$((97 + n % 7))"
metric.value = value ([0-9]+)
INI

"$CONTEND" run "$tmp/r.ini" --db "$db" --quiet >/dev/null 2>"$tmp/err" ||
	die "run: $(cat "$tmp/err")"
"$CONTEND" report --db "$db" --format json >"$tmp/rep.json" 2>"$tmp/err" ||
	die "report: $(cat "$tmp/err")"
need_python3
python3 - "$tmp/rep.json" <<'PY' || fail "the flags: $(cat "$tmp/rep.json" | head -c 2000)"
import json, sys
doc = json.load(open(sys.argv[1]))
flags = {}
for c in doc["configs"]:
    for f in c["flags"]:
        flags.setdefault(c["section"], set()).add(f["name"])
        if f["name"] == "multimodal":
            mm = f
assert "multimodal" in flags.get("two", set()), flags
assert "outliers" not in flags.get("two", set()), flags
assert "multimodal" not in flags.get("one", set()), flags
msg = mm["message"]
assert "70% (14 runs) at 100.9" in msg and "30% (6 runs) at 115.0" in msg, msg
PY

# compare: 30% of the baseline's values in the high regime, 70% of the
# candidate's: the "faster" mean is a change of the mix (regime-shift),
# and within each regime nothing changed.
awk 'BEGIN { for (i = 0; i < 20; i++) print (i < 14 ? 100 : 115) + (i % 3) / 10 }' \
	>"$tmp/b.txt"
awk 'BEGIN { for (i = 0; i < 20; i++) print (i < 6 ? 100 : 115) + (i % 3) / 10 }' \
	>"$tmp/c.txt"
"$CONTEND" compare "$tmp/b.txt" "$tmp/c.txt" >"$tmp/out" 2>"$tmp/err" ||
	fail "compare: $(cat "$tmp/err")"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/out1"
grep -q "flag regime-shift (both): the runs of both sides fall into two regimes, at 100.1 and 115.1: the baseline has 30% of its runs in the high one, the candidate 70%" \
	"$tmp/out1" || fail "compare: no regime-shift: $(cat "$tmp/out")"
grep -q "within the low regime (14 and 6 runs)" "$tmp/out1" ||
	fail "compare: no change within the low regime"
# the same mix on both sides: multimodal, not a shift
"$CONTEND" compare "$tmp/b.txt" "$tmp/b.txt" >"$tmp/out" 2>&1
grep -q "regime-shift (" "$tmp/out" && fail "compare: regime-shift with one mix"
grep -q "flag multimodal (both)" "$tmp/out" || fail "compare: no multimodal"
[ "$fails" -eq 0 ]
