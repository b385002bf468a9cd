#!/bin/sh
# e2e_aaprofile.sh - `contend calibrate`: K invocations of a command of
# known spread stored as label calibrate, the profile printed (variance
# between and within, A/A false alarms over the splits, the detectable
# change of a design) and stored with the last experiment, where a later
# `contend bisect` on this host finds and cites it, and so do `contend
# compare` and its gate (text and JSON: the numbers calibrate stored),
# the baseline's host when the candidate's differs; a compare without a
# profile cites none and prints a calibrate hint that, run as printed
# from elsewhere, makes one; bad input exits 2.
NAME=e2e_aaprofile
. "$(dirname "$0")/lib.sh"

cat > "$tmp/c.ini" <<INI
[experiment]
name        = profile-me
repetitions = 4
warmup      = 0

[workload cmd]
type   = command
shell  = yes
argv   = echo ops \$((\$\$ % 11 + 1000))
metric = ^ops ([0-9]+)\$
INI
"$CONTEND" calibrate "$tmp/c.ini" --db "$tmp/c.db" --invocations 4 --quiet \
	> "$tmp/out" 2> "$tmp/err" || fail "calibrate exited $?: $(cat "$tmp/err")"
expect "experiments" "4 calibrate" "$(q "$tmp/c.db" "SELECT count(*) || ' ' ||
			   min(label) FROM experiments")"
grep -q "A/A false alarms [0-3]/3" "$tmp/out" || fail "no A/A line: $(cat "$tmp/out")"
grep -q "detectable with 3 boots of 10" "$tmp/out" || fail "no MDE: $(cat "$tmp/out")"
expect "stored with the last" "3 4" "$(q "$tmp/c.db" "SELECT value FROM experiment_meta
			   WHERE experiment_id = 4 AND key = 'calibrate.cmd.aa_splits'") $(q "$tmp/c.db" "SELECT value FROM experiment_meta
			   WHERE experiment_id = 4 AND key = 'calibrate.cmd.invocations'")"
# the within-invocation spread: pid % 11 over ~1005, a CV of ~0.3%
w=$(q "$tmp/c.db" "SELECT value FROM experiment_meta
		   WHERE experiment_id = 4 AND key = 'calibrate.cmd.s2_within'")
awk -v w="$w" 'BEGIN { cv = sqrt(w); exit !(cv > 0.001 && cv < 0.006) }' ||
	fail "s2_within $w is not a CV near 0.3%"

# bisect on the same host cites it (the calibrate runs are a baseline too)
"$CONTEND" bisect "$tmp/c.ini" --db "$tmp/c.db" --baseline calibrate \
	--regression 5 --quiet > /dev/null 2> "$tmp/err"
expect "bisect A/A" 0 $?
grep -q "on this host (calibrate experiment 4: 4 invocations)" "$tmp/err" ||
	fail "bisect does not cite the profile: $(cat "$tmp/err")"

# ---- compare and the gate cite it, with the numbers stored ----
meta() {
	q "$1" "SELECT value FROM experiment_meta WHERE experiment_id = $2
		AND key = '$3'"
}
host=$(meta "$tmp/c.db" 4 hostname)
mde=$(awk -v v="$(meta "$tmp/c.db" 4 calibrate.cmd.mde_pct)" \
	'BEGIN { printf "%.1f", v }')
aa="$(meta "$tmp/c.db" 4 calibrate.cmd.aa_alarms)/$(meta "$tmp/c.db" 4 calibrate.cmd.aa_splits)"
cvb=$(awk -v v="$(meta "$tmp/c.db" 4 calibrate.cmd.s2_between)" \
	'BEGIN { printf "%.2f", 100 * sqrt(v > 0 ? v : 0) }')
day=$(q "$tmp/c.db" "SELECT strftime('%Y-%m-%d', created_at, 'unixepoch')
		     FROM experiments WHERE id = 4")
cite="on host $host (calibrated $day "
cite2="experiment 4: 4 invocations) a $mde% change is detectable with 3 boots of 10 runs; A/A false alarms $aa; between invocations $cvb%"
for i in 1 2; do
	"$CONTEND" run "$tmp/c.ini" --db "$tmp/c.db" --label cand --quiet \
		> /dev/null 2>&1 || die "run cand $i"
done
# one line of the wrapped text
flat() { tr '\n' ' ' < "$1" | tr -s ' '; }
"$CONTEND" compare calibrate cand --db "$tmp/c.db" --fail-on-regression 50 \
	> "$tmp/cmp" 2> "$tmp/err"
expect "compare --fail-on-regression" 0 $?
case $(flat "$tmp/cmp") in
*"Gate: --fail-on-regression 50%: passed"*"A/A: [cmd] $cite"*"$cite2"*) ;;
*) fail "the gate does not cite the stored profile ($cite... $cite2): $(cat "$tmp/cmp")" ;;
esac
"$CONTEND" compare calibrate cand --db "$tmp/c.db" > "$tmp/cmp" 2> "$tmp/err"
case $(flat "$tmp/cmp") in
*"A/A: [cmd] $cite"*"$cite2"*) ;;
*) fail "compare does not cite the stored profile: $(cat "$tmp/cmp")" ;;
esac
grep -q "contend calibrate" "$tmp/cmp" && fail "a hint beside a profile: $(cat "$tmp/cmp")"
if command -v python3 > /dev/null 2>&1; then
	"$CONTEND" compare calibrate cand --db "$tmp/c.db" --format json \
		> "$tmp/cmp.json" 2> "$tmp/err"
	got=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["calibrations"]
print(len(c), *[c[0][k] for k in ("comparison", "section", "side",
      "hostname", "experiment_id", "invocations", "aa_splits", "aa_alarms",
      "boots", "runs_per_boot")], "%.9g %.9g %.9g" % (c[0]["mde_pct"],
      c[0]["s2_between"], c[0]["s2_within"]), c[0]["created"][:10])
' "$tmp/cmp.json")
	want="1 0 cmd candidate $host 4 4 $(meta "$tmp/c.db" 4 calibrate.cmd.aa_splits) $(meta "$tmp/c.db" 4 calibrate.cmd.aa_alarms) 3 10 $(python3 -c '
import sys
print("%.9g %.9g %.9g" % tuple(float(x) for x in sys.argv[1:]))' \
		"$(meta "$tmp/c.db" 4 calibrate.cmd.mde_pct)" \
		"$(meta "$tmp/c.db" 4 calibrate.cmd.s2_between)" \
		"$(meta "$tmp/c.db" 4 calibrate.cmd.s2_within)") $day"
	expect "JSON calibrations[]" "$want" "$got"
fi

# the candidate on another host: the baseline's host cited, as such,
# and the candidate's host told how to make its own
cp "$tmp/c.db" "$tmp/o.db"
sqlite3 "$tmp/o.db" "UPDATE experiment_meta SET value = 'other-host'
	WHERE key = 'hostname' AND experiment_id IN
	(SELECT id FROM experiments WHERE label = 'cand')" || die "sqlite3"
"$CONTEND" compare calibrate cand --db "$tmp/o.db" > "$tmp/cmp" 2> "$tmp/err"
case $(flat "$tmp/cmp") in
*"A/A: [cmd] baseline: $cite"*"$cite2"*"no profile of host other-host for 1 configuration"*) ;;
*) fail "hosts differ: not the baseline's profile and a hint: $(cat "$tmp/cmp")" ;;
esac

# ---- a sweep: a profile per point, each cited on its line ----
cat > "$tmp/s.ini" <<'INI'
[experiment]
name        = sweep
repetitions = 2
warmup      = 0
runtime     = 50ms
timeout     = 5s

[workload good]
type    = noop
threads = 1, 2, 3
INI
"$CONTEND" calibrate "$tmp/s.ini" --db "$tmp/s.db" --invocations 4 --quiet \
	> /dev/null 2> "$tmp/err" || fail "calibrate a sweep: $(cat "$tmp/err")"
"$CONTEND" run "$tmp/s.ini" --db "$tmp/s.db" --label cand --quiet \
	> /dev/null 2>&1 || die "run the sweep"
expect "a profile per point" "good#1 good#2 good#3" "$(q "$tmp/s.db" "
	SELECT group_concat(substr(key, 11, 6), ' ') FROM experiment_meta
	WHERE key LIKE 'calibrate.%.params' AND value LIKE '%threads=_ %'
	ORDER BY key")"
"$CONTEND" compare calibrate cand --db "$tmp/s.db" > "$tmp/cmp" 2> "$tmp/err"
for n in 1 2 3; do
	sec=$(q "$tmp/s.db" "SELECT substr(key, 11, 6) FROM experiment_meta
		WHERE key LIKE 'calibrate.%.params' AND value LIKE
		'%threads=$n %'")
	want=$(awk -v m="$(meta "$tmp/s.db" 4 "calibrate.$sec.mde_pct")" \
		-v a="$(meta "$tmp/s.db" 4 "calibrate.$sec.aa_alarms")" \
		-v s="$(meta "$tmp/s.db" 4 "calibrate.$sec.aa_splits")" \
		-v n=$n 'BEGIN { printf "[good] threads=%d: %.1f%%, %d/%d,", n, m, a, s }')
	grep -qF "$want" "$tmp/cmp" || fail "point $n not cited as '$want': $(cat "$tmp/cmp")"
done

# ---- no profile: none cited, a hint that makes one ----
# run from a directory with a blank and a quote, the config named
# relative to it; the hint names both files absolute, quoted (the config
# as the runner stored it)
dir="$tmp/it's a dir"
mkdir -p "$dir" "$tmp/elsewhere" || die "mkdir"
cp "$tmp/c.ini" "$dir/c.ini" || die "cp"
for l in base base cand cand; do
	(cd "$dir" && "$CONTEND" run c.ini --db "n one.db" --label $l \
		--quiet) > /dev/null 2>&1 || die "run $l"
done
(cd "$dir" && "$CONTEND" compare base cand --db "n one.db" \
	--fail-on-regression 50) > "$tmp/cmp" 2> "$tmp/err"
expect "compare without a profile" 0 $?
grep -q "detectable with" "$tmp/cmp" && fail "a profile cited where none is: $(cat "$tmp/cmp")"
h=$(grep -o '`contend calibrate [^`]*`' "$tmp/cmp" | sed 's/^`//; s/`$//')
case $h in
"contend calibrate '$tmp/it'\\''s a dir/c.ini' --db '$tmp/it'\\''s a dir/n one.db'") ;;
*) fail "no runnable calibrate hint: $(cat "$tmp/cmp")" ;;
esac
if command -v python3 > /dev/null 2>&1; then
	"$CONTEND" compare base cand --db "$dir/n one.db" --format json \
		> "$tmp/cmp.json" 2> "$tmp/err"
	expect "JSON without a profile" 0 "$(python3 -c '
import json, sys
print(len(json.load(open(sys.argv[1]))["calibrations"]))' "$tmp/cmp.json")"
fi
# from elsewhere the same hint: the path was stored absolute
"$CONTEND" compare base cand --db "$dir/n one.db" > "$tmp/cmp" 2> "$tmp/err"
expect "the hint from elsewhere" "\`$h\`" \
	"$(grep -o '`contend calibrate [^`]*`' "$tmp/cmp")"
(cd "$tmp/elsewhere" && PATH="$(dirname "$CONTEND"):$PATH" sh -c "$h --quiet") \
	> /dev/null 2> "$tmp/err" || fail "the hint failed: $(cat "$tmp/err")"
last=$(q "$dir/n one.db" "SELECT max(id) FROM experiments WHERE label = 'calibrate'")
"$CONTEND" compare base cand --db "$dir/n one.db" > "$tmp/cmp" 2> "$tmp/err"
case $(flat "$tmp/cmp") in
*"A/A: [cmd] on host $host (calibrated"*"experiment $last: 6 invocations)"*) ;;
*) fail "the hint's profile is not cited: $(cat "$tmp/cmp")" ;;
esac
# a config file changed since: the stored path is shown, never read
# (a received database names it: tests/e2e_storedpath.sh)
echo "# edited" >> "$dir/c.ini"
sqlite3 "$dir/n one.db" "DELETE FROM experiment_meta WHERE key LIKE 'calibrate.%'" ||
	die "sqlite3"
(cd "$dir" && "$CONTEND" compare base cand --db "n one.db") > "$tmp/cmp" 2> "$tmp/err"
grep -q "detectable with" "$tmp/cmp" &&
	fail "a deleted profile cited: $(cat "$tmp/cmp")"
grep -q "contend calibrate" "$tmp/cmp" ||
	fail "no hint beside a changed config: $(cat "$tmp/cmp")"
# the same host's profile in the baseline's database only: cited as such
"$CONTEND" compare "$tmp/c.db:calibrate" "$dir/n one.db:cand" > "$tmp/cmp" \
	2> "$tmp/err"
case $(flat "$tmp/cmp") in
*"A/A: [cmd] baseline: $cite"*"$cite2"*) ;;
*) fail "the baseline database's profile is not cited: $(cat "$tmp/cmp")" ;;
esac
grep -q "contend calibrate" "$tmp/cmp" && fail "a hint beside the baseline's profile: $(cat "$tmp/cmp")"

"$CONTEND" calibrate "$tmp/c.ini" --db "$tmp/c.db" --invocations 3 \
	> /dev/null 2>&1
expect "3 invocations" 2 $?
"$CONTEND" calibrate "$tmp/nosuch.ini" --db "$tmp/c.db" > /dev/null 2>&1
expect "no config" 2 $?
[ "$fails" -eq 0 ] && echo "$NAME: profile printed, stored, cited by bisect, compare and the gate; bad input exits 2"
[ "$fails" -eq 0 ]
