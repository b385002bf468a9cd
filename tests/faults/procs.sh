#!/bin/sh
# procs.sh - what runs leave behind, and runs that flood their output:
#  - a run that forks and carries on (noop fault=fork: the child keeps the
#    run's stdout open) and a command run whose shell backgrounds sleepers
#    and kills itself: the runs are stored (ok; failed, "killed by signal
#    9"), and nothing of them outlives them (the run's process group is
#    killed).  (Sleepers that kept the command's output open would hold
#    the command workload until the run's timeout: it reads the output to
#    its end.)
#  - the runner SIGKILLed while such a run is in flight: its `contend exec`
#    child dies with it (PDEATHSIG) and takes its process group along
#    (cli/cmd_exec.c), so no orphan is left;
#  - a run writing stdout forever: capped (1 MiB), stored as `protocol`
#    with the reason, the experiment goes on (no deadlock); 4 MiB of
#    stderr: the run fails with its tail kept.
NAME=procs
. tests/faults/lib.sh

# A private copy of sleep, found by its executable like contend's.
cp "$(command -v sleep)" "$tmp/sleeper"
sleepers() {
	find /proc -mindepth 2 -maxdepth 2 -name exe -lname "$tmp/sleeper" 2>/dev/null
}

cat > "$tmp/p.ini" <<INI
[experiment]
name        = procs
repetitions = 2
warmup      = 0
runtime     = 20ms
timeout     = 20s

[workload forks]
type  = noop
fault = fork

[workload dies]
type  = command
shell = yes
argv  = $tmp/sleeper 300 > /dev/null 2>&1 & $tmp/sleeper 300 > /dev/null 2>&1 & kill -9 \$\$

[workload flood]
type  = noop
fault = flood

[workload errflood]
type  = noop
fault = errflood

[workload fine]
type = noop
INI

db=$tmp/p.db
# Exit 1: three configurations fail every run, as they should.
"$C" run "$tmp/p.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(grep -c ': all 2 runs failed' "$tmp/err")" = 3 ] ||
	fail "the experiment: exit $rc: $(head -c 2000 "$tmp/err")"
integrity "$db"
exactly_once "$db" 1 10
no_procs
i=0
while [ -n "$(sleepers)" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.05; done
[ -z "$(sleepers)" ] || fail "the command's background sleepers outlived its run"
# status of each section's runs, with its error
st() {
	sql "$db" "SELECT group_concat(DISTINCT r.status) FROM runs r JOIN configs c
		ON c.id = r.config_id WHERE c.section = '$1'"
}
[ "$(st forks)" = ok ] || fail "fork: runs '$(st forks)', want ok"
[ "$(st dies)" = failed ] || fail "command killed: runs '$(st dies)', want failed"
[ "$(st flood)" = protocol ] || fail "flood: runs '$(st flood)', want protocol"
[ "$(st errflood)" = failed ] || fail "errflood: runs '$(st errflood)', want failed"
[ "$(st fine)" = ok ] || fail "the runs after the floods: '$(st fine)', want ok"
e=$(sql "$db" "SELECT r.error FROM runs r JOIN configs c ON c.id = r.config_id
	WHERE c.section = 'flood' LIMIT 1")
case $e in *1048576*|*"1 MiB"*|*MiB*|*bytes*) ;; *) fail "flood: error '$e' does not name the cap" ;; esac
e=$(sql "$db" "SELECT length(r.error) FROM runs r JOIN configs c ON c.id = r.config_id
	WHERE c.section = 'errflood' LIMIT 1")
[ "$e" -le 4096 ] || fail "errflood: a stored error of $e bytes"
note "forks, a dying shell, floods: stored as ok, failed, protocol, failed; nothing left"

# ---- the runner killed while a forking run is in flight ----
cat > "$tmp/slow.ini" <<INI
[experiment]
name        = procs-kill
repetitions = 1
warmup      = 0
runtime     = 30s

[workload forks]
type  = noop
fault = fork

[workload sh]
type  = command
shell = yes
argv  = $tmp/sleeper 300 & $tmp/sleeper 300
INI
for section in forks sh; do
	db=$tmp/k-$section.db
	sed "/^\[workload/,\$!b; /^\[workload $section\]/,/^\$/!d" "$tmp/slow.ini" > "$tmp/one.ini"
	"$C" run "$tmp/one.ini" --db "$db" --quiet > /dev/null 2>&1 &
	pid=$!
	bg=$pid
	# Wait until the run has forked: the fork child or the sleepers.
	forked() {
		if [ $section = forks ]; then [ "$(procs | wc -l)" -ge 3 ]
		else [ "$(sleepers | wc -l)" -ge 2 ]; fi
	}
	wait_for forked || die "$section: the run never forked"
	kill -9 $pid
	wait $pid 2>/dev/null
	bg=""
	no_procs
	i=0
	while [ -n "$(sleepers)" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.05; done
	[ -z "$(sleepers)" ] || { fail "$section: sleepers outlived the killed runner"
		for p in $(sleepers); do p=${p#/proc/}; kill -9 ${p%/exe}; done; }
	integrity "$db"
done
note "runner SIGKILLed during forking runs: no orphan"
finish
