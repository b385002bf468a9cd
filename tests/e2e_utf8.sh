#!/bin/sh
# e2e_utf8.sh - every JSON output is valid UTF-8 whatever bytes the
# database holds.  A label given on the command line as raw bytes
# (\xff\xfe), and an experiment name, section, canonical parameters, a
# parameter and a host value rewritten to hold invalid UTF-8 (as a
# database written by another tool may), must come out of `report
# --format json`, `report --levels NAME --format json`, `compare --format
# json` and `export --format json` as JSON that a strict decoder reads
# (python3: bytes.decode("utf-8") without error handling, json.loads; and
# `python3 -m json.tool`), with each bad byte as U+FFFD and valid UTF-8
# (é) kept.
NAME=e2e_utf8
. tests/lib.sh
command -v python3 > /dev/null 2>&1 || { echo "$NAME: python3 missing: skipped"; exit 0; }

bad=$(printf '\377\376')
label="lab${bad}"
db=$tmp/u.db
cat > "$tmp/u.ini" <<'INI'
[experiment]
name        = utf8
repetitions = 3
warmup      = 0
runtime     = 2ms

[workload w]
type    = noop
threads = 1, 2
INI
# Two invocations of one level (name, label), so --levels has k = 2.
for i in 1 2; do
	"$CONTEND" run "$tmp/u.ini" --db "$db" --quiet --label "$label" \
		> /dev/null 2> "$tmp/err" || fail "run $i: $(cat "$tmp/err")"
done

# Invalid UTF-8 where only another writer could put it: text cast from
# blobs keeps the bytes as they are.
python3 - "$db" <<'PY' || fail "could not rewrite the database"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
t = lambda b: (b,)
c.execute("UPDATE experiments SET name = CAST(? AS TEXT)", t(b"nm\xc3\xa9\xff\xc0\xaf"))
c.execute("UPDATE configs SET section = CAST(? AS TEXT) || section", t(b"s\xed\xa0\x80"))
c.execute("UPDATE configs SET canon = canon || CAST(? AS TEXT)", t(b" x=\xf4\x90\x80\x80"))
c.execute("INSERT INTO config_params (config_id, pos, key, value) "
          "SELECT id, 99, CAST(? AS TEXT), CAST(? AS TEXT) FROM configs",
          (b"k\xfe", b"v\xe2\x82"))
c.execute("UPDATE experiment_meta SET value = CAST(? AS TEXT) WHERE key = 'hostname'",
          t(b"host\x80"))
c.commit()
PY
name=$(printf 'nm\303\251\377\300\257')

# out FILE CMD...: runs contend into FILE, which must then be strict JSON.
out() {
	f=$tmp/$1
	shift
	"$CONTEND" "$@" > "$f" 2> "$tmp/err" || fail "$*: exit $?: $(cat "$tmp/err")"
	python3 -m json.tool "$f" > /dev/null 2>&1 || fail "$*: json.tool refuses it"
}
out report.json report --db "$db" --format json
out report-label.json report --db "$db" "$label~newest" --format json
out levels.json report --levels "$name" --db "$db" --format json
out compare.json compare "$db:1" "$db:2" --format json
out compare-label.json compare "$db:$label" "$db:$label" --format json
out export.json export --db "$db" --format json

python3 - "$tmp" <<'PY' || fails=$((fails + 1))
import json, sys
tmp, bad = sys.argv[1], []
def load(f):
    # Strict: invalid UTF-8 raises here, whatever the locale.
    return json.loads(open(f"{tmp}/{f}", "rb").read().decode("utf-8"))
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what}: {got!r} != {exp!r}")
R = "\ufffd"
name, label = "nmé" + R * 3, "lab" + R * 2
section, canon_tail = "s" + R * 3 + "w", " x=" + R * 4
for f in ("report.json", "report-label.json"):
    r = load(f)
    want(f"{f} name", r["experiment"]["name"], name)
    want(f"{f} label", r["experiment"]["label"], label)
    want(f"{f} hostname", r["experiment"]["host"]["hostname"], "host" + R)
    want(f"{f} section", r["configs"][0]["section"], section)
    want(f"{f} canon", r["configs"][0]["canon"].endswith(canon_tail), True)
    want(f"{f} param", r["configs"][0]["params"].get("k" + R), "v" + R * 2)
lv = load("levels.json")["levels"]
want("levels", [(l["name"], l["label"], len(l["invocations"])) for l in lv], [(name, label, 2)])
want("levels section", lv[0]["configs"][0]["section"], section)
for f in ("compare.json", "compare-label.json"):
    c = load(f)
    want(f"{f} compared", len(c["comparisons"]), 2)
    want(f"{f} section", c["comparisons"][0]["section"], section)
    want(f"{f} param", c["comparisons"][0]["params"].get("k" + R), "v" + R * 2)
want("compare-label selector", load("compare-label.json")["baseline"]["selector"].endswith(":" + label), True)
ex = load("export.json")
want("export names", {r["experiment"] for r in ex}, {name})
want("export labels", {r["label"] for r in ex}, {label})
for b in bad:
    print("e2e_utf8: FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ "$fails" -eq 0 ] && echo "$NAME: report, levels, compare and export JSON are strict UTF-8 (bad bytes as U+FFFD)"
[ "$fails" -eq 0 ]
