#!/bin/sh
# escape.sh - processes a run starts that leave its process group, so the
# group kill at the run's end misses them: setsid, setpgid (perl's
# setpgrp), and a daemon's double fork into a new session.  The runner
# is their subreaper: nothing of them outlives the run, each run is
# stored with its status (ok here) and a note of how many it killed.
# 2 repetitions of each, and a workload that escapes nothing (no note).
NAME=escape
. tests/faults/lib.sh

# A private copy of sleep, found by its executable like contend's.
cp "$(command -v sleep)" "$tmp/sleeper"
sleepers() {
	find /proc -mindepth 2 -maxdepth 2 -name exe -lname "$tmp/sleeper" 2>/dev/null
}
# away FLAG SECONDS: touches FLAG (it has left the group by then), then
# becomes a sleeper.  A run waits for its flags before it ends, or the
# group kill could come before the escape.
cat > "$tmp/away" <<SH
#!/bin/sh
touch "\$1"
exec $tmp/sleeper "\$2"
SH
chmod +x "$tmp/away"
A=$tmp/away
F=$tmp/flag
out='> /dev/null 2>&1 < /dev/null'
waitf() { echo "until [ -e $F$1 ]; do sleep 0.01; done;"; }

cat > "$tmp/e.ini" <<INI
[experiment]
name        = escape
repetitions = 2
warmup      = 0
timeout     = 20s

[workload setsid]
type   = command
shell  = yes
argv   = rm -f $F*; setsid $A ${F}1 300 $out & setsid $A ${F}2 301 $out & $(waitf 1) $(waitf 2) echo ops 5
metric = ops ([0-9]+)

[workload daemon]
type   = command
shell  = yes
argv   = rm -f $F*; setsid sh -c "$A ${F}3 302 $out &" $out; $(waitf 3) echo ops 5
metric = ops ([0-9]+)

[workload stays]
type   = command
shell  = yes
argv   = rm -f $F*; $A ${F}4 303 $out & $(waitf 4) echo ops 5
metric = ops ([0-9]+)
INI
if command -v perl > /dev/null 2>&1; then
	cat >> "$tmp/e.ini" <<INI

[workload setpgid]
type   = command
shell  = yes
argv   = rm -f $F*; perl -e 'setpgrp(0, 0); exec @ARGV' $A ${F}5 304 $out & $(waitf 5) echo ops 5
metric = ops ([0-9]+)
INI
fi

db=$tmp/e.db
"$C" run "$tmp/e.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err" ||
	fail "the experiment failed: $(cat "$tmp/err")"
integrity "$db"
left=$(sleepers | wc -l)
[ "$left" = 0 ] || fail "$left processes outlived their runs"
for p in $(sleepers); do p=${p#/proc/}; kill -9 "${p%/exe}" 2>/dev/null; done
no_procs
got=$(sql "$db" "SELECT c.section || ':' || r.status || ':' || coalesce(r.error, '')
	FROM runs r JOIN configs c ON c.id = r.config_id ORDER BY r.seq" | sort -u)
want="daemon:ok:1 process left the run's process group and was killed after it
setsid:ok:2 processes left the run's process group and were killed after it
stays:ok:"
command -v perl > /dev/null 2>&1 &&
	want="$want
setpgid:ok:1 process left the run's process group and was killed after it"
want=$(echo "$want" | sort)
[ "$got" = "$want" ] || fail "the runs: got
$got
want
$want"
note "processes that left the run's group: none outlived their run, each noted"
finish
