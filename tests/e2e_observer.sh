#!/bin/sh
# End-to-end: the observer parameter through the real runner.  A fake
# observer of the file ([observer NAME], a shell script) is started
# before each of its runs, detected ready (a file, a line of output),
# stopped after the run, its directory removed and its start and stop
# times stored; one that is never ready fails its runs with the reason,
# and SIGINT while waiting for it interrupts the run and stops it;
# a missing or unknown one is refused at its line (exit 2, nothing
# written); exec refuses it by hand.  Live, where this host has them:
# tracefs-lock (and the repair of an instance a killed runner left),
# perf-lock, bpf; each skipped with the reason otherwise.
NAME=e2e_observer
. tests/lib.sh
db=$tmp/o.db

cat > "$tmp/fake.sh" <<EOS
#!/bin/sh
# a fake observer: says where it runs, is ready when 'ready' exists, and
# notes its stop
echo "start \$CONTEND_OBSERVER_DIR" >> "$tmp/log"
trap 'echo stop >> "$tmp/log"; exit 0' TERM
touch ready
while :; do sleep 0.05; done
EOS
chmod +x "$tmp/fake.sh"

cat > "$tmp/o.ini" <<EOF2
; Expected run time: a few seconds
[experiment]
name = observers
repetitions = 2
warmup = 0
order = random
seed = 7

[observer fake]
command = $tmp/fake.sh
ready = file ready
stop = TERM

[observer talk]
command = sh -c "echo warming up; sleep 0.1; echo READY-NOW; exec sleep 100"
ready = output READY-NOW

[workload n]
type = noop
jobs = 1000
observer = none, fake, talk
EOF2
"$CONTEND" run "$tmp/o.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err" ||
	die "run failed: $(cat "$tmp/err")"
expect "every run ok" 6 "$(q "SELECT count(*) FROM runs WHERE status = 'ok'")"
expect "the observer stored with each run" "fake 2|none 2|talk 2" \
	"$(q "SELECT substr(c.canon, instr(c.canon, 'observer=') + 9) || ' ' ||
		     count(*) FROM runs r JOIN configs c ON c.id = r.config_id
	      GROUP BY c.canon ORDER BY 1" | tr '\n' '|' | sed 's/|$//')"
expect "start and stop times of observed runs only" 8 \
	"$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id
	      JOIN configs c ON c.id = r.config_id
	      WHERE s.metric IN ('observer_start_s', 'observer_stop_s')
		AND s.value >= 0 AND c.canon NOT LIKE '%observer=none%'")"
expect "started and stopped once per run, in turn" "start stop start stop" \
	"$(sed 's/ .*//' "$tmp/log" | tr '\n' ' ' | sed 's/ $//')"
for d in $(sed -n 's/^start //p' "$tmp/log"); do
	[ -e "$d" ] && fail "observer directory $d left behind"
done
"$CONTEND" report --db "$db" > "$tmp/report" 2>&1 ||
	fail "report failed: $(cat "$tmp/report")"
grep -q "^  [0-9]/[0-9] *fake " "$tmp/report" ||
	fail "no observer table row for fake: $(cat "$tmp/report")"
"$CONTEND" report --db "$db" --format json | grep -q '"observer_effect"' ||
	fail "no observer_effect in the JSON report"

# ---- never ready: its runs fail with the reason ----
sed -e 's/^ready = file ready/ready = file never\nready_timeout = 200ms/' \
    -e 's/^observer = .*/observer = fake/' "$tmp/o.ini" > "$tmp/slow.ini"
"$CONTEND" run "$tmp/slow.ini" --db "$tmp/slow.db" --quiet > /dev/null 2>&1
expect "runs of an observer never ready" "failed|2" \
	"$(q "$tmp/slow.db" "SELECT status, count(*) FROM runs GROUP BY status")"
q "$tmp/slow.db" "SELECT error FROM runs" | grep -q \
	"observer fake: not ready after 0.2s (ready_timeout)" ||
	fail "no reason: $(q "$tmp/slow.db" "SELECT error FROM runs")"

# ---- SIGINT while the runner waits for readiness: interrupted ----
sed -e 's/^ready_timeout = 200ms/ready_timeout = 60s/' "$tmp/slow.ini" \
	> "$tmp/wait.ini"
: > "$tmp/log"
"$CONTEND" run "$tmp/wait.ini" --db "$tmp/wait.db" --quiet > /dev/null \
	2> "$tmp/err" &
runner=$!
i=0
while ! grep -q start "$tmp/log" && [ $i -lt 3000 ]; do
	i=$((i + 1))
	sleep 0.01
done
kill -INT "$runner"
wait "$runner"
expect "interrupted while waiting: exit" 130 $?
runner=
expect "interrupted while waiting: the run" interrupted \
	"$(q "$tmp/wait.db" "SELECT status FROM runs WHERE seq = 0")"
expect "interrupted while waiting: the observer stopped" "start stop" \
	"$(sed 's/ .*//' "$tmp/log" | tr '\n' ' ' | sed 's/ $//')"

# ---- refused: missing, unknown ----
cat > "$tmp/ghost.ini" <<EOF2
[experiment]
name = ghost
repetitions = 2
[observer ghost]
command = contend-no-such-observer --all
ready = output ok
package = ghost-tools
[workload n]
type = noop
jobs = 10
observer = none, ghost
EOF2
"$CONTEND" run "$tmp/ghost.ini" --db "$tmp/ghost.db" > /dev/null 2> "$tmp/err"
expect "a missing observer: exit" 2 $?
expect "a missing observer: the message" "contend: $tmp/ghost.ini:11: observer ghost: contend-no-such-observer is not installed (not found on PATH); Debian's package ghost-tools provides it" \
	"$(cat "$tmp/err")"
[ -e "$tmp/ghost.db" ] && fail "a refused config wrote a database"
sed 's/^observer = .*/observer = none, nosuch/' "$tmp/ghost.ini" > "$tmp/unk.ini"
"$CONTEND" run "$tmp/unk.ini" --db "$tmp/unk.db" > /dev/null 2> "$tmp/err"
expect "an unknown observer: exit" 2 $?
grep -q "unk.ini:11: observer: 'nosuch' is not none, tracefs-lock" "$tmp/err" ||
	fail "unknown observer: $(cat "$tmp/err")"
if ! command -v bpftrace > /dev/null 2>&1; then
	sed 's/^observer = .*/observer = none, bpftrace/' "$tmp/ghost.ini" \
		> "$tmp/bt.ini"
	"$CONTEND" run "$tmp/bt.ini" --dry-run > /dev/null 2> "$tmp/err"
	expect "bpftrace not installed: exit" 2 $?
	grep -q "bt.ini:11: observer bpftrace: bpftrace is not installed .*package bpftrace provides it" \
		"$tmp/err" || fail "bpftrace: $(cat "$tmp/err")"
fi
"$CONTEND" exec noop observer=fake jobs=10 > /dev/null 2> "$tmp/err"
expect "exec with an observer: exit" 2 $?
grep -q "observer is applied by 'contend run' alone" "$tmp/err" ||
	fail "exec: $(cat "$tmp/err")"
expect_status 0 exec noop observer=none jobs=10

# ---- live, where this host has them ----
live() { # OBSERVER: runs it against none; 0 when it ran
	sed -e "s/^observer = .*/observer = none, $1/" "$tmp/o.ini" \
		> "$tmp/$1.ini"
	"$CONTEND" run "$tmp/$1.ini" --db "$tmp/$1.db" --quiet > /dev/null \
		2> "$tmp/err.$1"
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q "cannot run here\|not installed\|no writable tracefs\|lock tracepoints" "$tmp/err.$1"; then
		echo "$NAME: SKIP ($1): $(head -1 "$tmp/err.$1")"
		return 1
	fi
	[ "$rc" -eq 0 ] || { fail "$1: exit $rc: $(cat "$tmp/err.$1")"; return 1; }
	expect "$1: ok runs" 4 "$(q "$tmp/$1.db" "SELECT count(*) FROM runs
							WHERE status = 'ok'")"
	expect "$1: timed" 2 "$(q "$tmp/$1.db" "SELECT count(*) FROM samples
					 WHERE metric = 'observer_start_s'")"
}
inst=/sys/kernel/tracing/instances
[ -d "$inst" ] || inst=/sys/kernel/debug/tracing/instances
if [ -w "$inst" ]; then
	# a runner killed by SIGKILL left its instance on: repaired
	sh -c 'exit 0' & dead=$!
	wait "$dead"
	mkdir "$inst/contend-obs.$dead" 2> /dev/null &&
		echo 1 > "$inst/contend-obs.$dead/events/lock/enable"
fi
if live tracefs-lock; then
	ls "$inst" | grep -q '^contend-obs\.' &&
		fail "tracefs instances left: $(ls "$inst" | grep contend-obs)"
fi
live perf-lock
if live bpf; then
	expect "bpf: the program counted its runs only" 2 \
		"$(q "$tmp/bpf.db" "SELECT count(*) FROM samples s JOIN runs r
			ON r.id = s.run_id WHERE s.metric = 'klock_contended'")"
fi
[ "$fails" -eq 0 ]
