#!/bin/sh
# e2e_aaprofile.sh - `contend calibrate`: K invocations of a command of
# known spread stored as label calibrate, the profile printed (variance
# between and within, A/A false alarms over the splits, the detectable
# change of a design) and stored with the last experiment, where a later
# `contend bisect` on this host finds and cites it; bad input exits 2.
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

"$CONTEND" calibrate "$tmp/c.ini" --db "$tmp/c.db" --invocations 3 \
	> /dev/null 2>&1
expect "3 invocations" 2 $?
"$CONTEND" calibrate "$tmp/nosuch.ini" --db "$tmp/c.db" > /dev/null 2>&1
expect "no config" 2 $?
[ "$fails" -eq 0 ] && echo "$NAME: profile printed, stored, cited by bisect; bad input exits 2"
[ "$fails" -eq 0 ]
