#!/bin/sh
# e2e_klock.sh - kernel lock contention through the binary: with
# CONTEND_KLOCK=off (a fake kernel without lock:contention_begin) count
# is refused before any run, or falls back where the list says so, and
# the experiment says why; a timeline
# run (timeline = auto: 1 ms) stores its timeline and `contend plot`
# draws its streak figure;
# profile = lock (removed) is refused at its line, naming what replaces
# it, and profile = none still loads; with the tracepoint usable, every
# kind is counted, the experiment says which instruments it held and
# whether this host can show spinlock contention, and creat's directory
# rwsem (contended on any machine) is counted, in exec and through a
# command the runner spawns.
# Presence and sign only.
NAME=e2e_klock
. "$(dirname "$0")/lib.sh"

value() {
	awk -v m="$2" '$1 == m { print $2 }' "$1"
}

cat > "$tmp/k.ini" <<'INI'
[experiment]
name        = klock
repetitions = 2
runtime     = 50ms

[workload fm]
type    = futex-mutex
threads = 2
INI

# ---- as on a kernel without the tracepoint ----
CONTEND_KLOCK=off "$CONTEND" exec futex-mutex threads=2 runtime=30ms \
	--kernel-instrument count > "$tmp/off" 2> "$tmp/err" ||
	fail "exec off: $(cat "$tmp/err")"
[ -n "$(value "$tmp/off" throughput)" ] || fail "exec off: no throughput"
grep -q '^klock_' "$tmp/off" && fail "exec off printed klock metrics"
CONTEND_KLOCK=off CONTEND_KERNEL_INSTRUMENTS="count, none" "$CONTEND" run \
	"$tmp/k.ini" --db "$tmp/off.db" --quiet > /dev/null 2>&1 ||
	fail "run off failed"
expect "instrument off" none "$(q "$tmp/off.db" "SELECT value
	FROM experiment_meta WHERE key = 'kernel_lock_instrument'")"
expect "why not count" "count: no tracepoint: disabled by CONTEND_KLOCK=off" \
	"$(q "$tmp/off.db" "SELECT value FROM experiment_meta
			   WHERE key = 'kernel_lock_fallback'")"
expect "ok runs off" 2 "$(q "$tmp/off.db" "SELECT count(*) FROM runs
			   WHERE status = 'ok' AND warmup = 0")"
expect "klock samples off" 0 "$(q "$tmp/off.db" "SELECT count(*) FROM samples
			   WHERE metric LIKE 'klock%'")"

# ---- the timeline and its figure ----
cat > "$tmp/t.ini" <<'INI'
[experiment]
name        = timeline
repetitions = 2
warmup      = 0
runtime     = 100ms

[workload tl]
type          = pthread-mutex
threads       = 2
timeline      = auto
latency_every = 100
INI
cat > "$tmp/ts.ini" <<'INI'
[experiment]
name        = timeline-spin
repetitions = 2
warmup      = 0
runtime     = 100ms

[workload tl]
type          = spinlock
threads       = 2
timeline      = 5ms
latency_every = 100
INI
"$CONTEND" run "$tmp/ts.ini" --db "$tmp/ts.db" --quiet > /dev/null 2>&1 ||
	fail "spinlock timeline run failed"
expect "spinlock timelines stored" 2 "$(q "$tmp/ts.db" "SELECT count(*) FROM run_timeline
			   WHERE threads = 2 AND length(ops) > 2")"
expect "spinlock latency sampled" 2 "$(q "$tmp/ts.db" "SELECT count(*) FROM samples
			   WHERE metric = 'acquire_p99_ns' AND value > 0")"
"$CONTEND" run "$tmp/t.ini" --db "$tmp/t.db" --quiet > /dev/null 2>&1 ||
	fail "timeline run failed"
expect "timelines stored" 2 "$(q "$tmp/t.db" "SELECT count(*) FROM run_timeline
			   WHERE threads = 2 AND length(ops) > 2")"
expect "latency sampled" 2 "$(q "$tmp/t.db" "SELECT count(*) FROM samples
			   WHERE metric = 'acquire_p99_ns' AND value > 0")"
# timeline = auto: kept as the word, recorded at 1 ms (2 threads x 100 ms
# fit the cell budget many times over)
expect "timeline = auto kept as auto" 1 "$(q "$tmp/t.db" "SELECT count(*) FROM configs
			   WHERE canon LIKE '%timeline=auto %'")"
expect "timeline = auto at 1 ms" 2 "$(q "$tmp/t.db" "SELECT count(*) FROM run_timeline
			   WHERE abs(interval_s - 0.001) < 1e-12")"
if command -v gnuplot > /dev/null 2>&1; then
	"$CONTEND" plot --db "$tmp/t.db" --out "$tmp/plots" > "$tmp/out" 2>&1 ||
		fail "plot failed: $(cat "$tmp/out")"
	[ -s "$tmp/plots/streak-1.png" ] || fail "no streak figure"
	# the HTML report inlines the same figure (its store read after
	# the analysis, before it is closed)
	"$CONTEND" report --db "$tmp/t.db" --html "$tmp/th" > "$tmp/out" 2>&1 ||
		fail "report --html failed: $(cat "$tmp/out")"
	grep -q 'alt="which thread did the work when, in one run of configuration 1 (streaks: one thread alone)" src="data:image/svg+xml;base64,' \
		"$tmp/th/report.html" ||
		fail "the HTML report does not embed the streak figure"
	"$CONTEND" report --db "$tmp/t.db" --markdown "$tmp/tm" > "$tmp/out" 2>&1 ||
		fail "report --markdown failed: $(cat "$tmp/out")"
	grep -q '(./streak-1.png)' "$tmp/tm/report.md" ||
		fail "the Markdown report does not link the streak figure"
	[ -s "$tmp/tm/streak-1.png" ] || fail "no streak PNG beside report.md"
fi

# ---- profile = lock: removed, refused at its line, nothing written ----
# creat into one directory: a workload that contends a kernel lock the
# tracepoint reports on any machine (its directory's rwsem)
cat > "$tmp/p.ini" <<'INI'
[experiment]
name        = profile
repetitions = 1
warmup      = 0
runtime     = 300ms

[workload creat]
type      = creat
processes = 4
reuse     = no
profile   = lock
INI
"$CONTEND" run "$tmp/p.ini" --db "$tmp/np.db" --quiet > /dev/null 2> "$tmp/err"
expect "profile = lock: status" 2 "$?"
grep -q "p.ini:11: profile = lock: removed; .*kernel_instruments = bpf" \
	"$tmp/err" || fail "profile = lock: not refused at its line: $(cat "$tmp/err")"
[ -e "$tmp/np.db" ] && fail "profile = lock: a database was written"
sed -i 's/^profile   = lock$/profile   = none/' "$tmp/p.ini"
"$CONTEND" run "$tmp/p.ini" --dry-run > /dev/null 2> "$tmp/err" ||
	fail "profile = none refused: $(cat "$tmp/err")"
sed -i '/^profile/d' "$tmp/p.ini"

# ---- unasked: nothing counts, and the experiment says why ----
"$CONTEND" run "$tmp/k.ini" --db "$tmp/def.db" --quiet > /dev/null 2>&1 ||
	fail "default run failed"
expect "kernel_lock_events unasked" off \
	"$(q "$tmp/def.db" "SELECT value FROM experiment_meta
			   WHERE key = 'kernel_lock_events'")"
expect "no klock samples unasked" 0 "$(q "$tmp/def.db" "SELECT count(*)
			   FROM samples WHERE metric LIKE 'klock%'")"

# ---- asked in the file: kernel_instruments ----
sed 's/^runtime .*/&\nkernel_instruments = count/' "$tmp/k.ini" > "$tmp/ki.ini"
env -u CONTEND_KLOCK "$CONTEND" run "$tmp/ki.ini" --db "$tmp/ki.db" --quiet \
	> /dev/null 2>&1 || fail "run with kernel_instruments = count failed"
case $(q "$tmp/ki.db" "SELECT value FROM experiment_meta
		       WHERE key = 'kernel_lock_events'") in
off) fail "kernel_instruments = count: the counters stayed off" ;;
esac
# asked and impossible (a fake kernel without the tracepoint): refused
# before anything is written, in a dry run too
for how in "--db $tmp/kioff.db --quiet" --dry-run; do
	# shellcheck disable=SC2086
	CONTEND_KLOCK=off "$CONTEND" run "$tmp/ki.ini" $how > /dev/null \
		2> "$tmp/err"
	expect "count impossible ($how): status" 2 "$?"
	grep -q "ki.ini:5: kernel_instruments = count: nothing listed can run here (count: no tracepoint: disabled by CONTEND_KLOCK=off)" \
		"$tmp/err" || fail "count impossible ($how): $(cat "$tmp/err")"
done
[ -e "$tmp/kioff.db" ] && fail "count impossible: a database was written"
sed 's/= count/= lots/' "$tmp/ki.ini" > "$tmp/kbad.ini"
"$CONTEND" run "$tmp/kbad.ini" --db "$tmp/kbad.db" > /dev/null 2> "$tmp/err"
expect "kernel_instruments = lots: status" 2 "$?"
grep -q "kbad.ini:5.*kernel_instruments" "$tmp/err" ||
	fail "kernel_instruments = lots: no file:line:key: $(cat "$tmp/err")"
[ -e "$tmp/kbad.db" ] && fail "kernel_instruments = lots: a database was written"

# ---- this kernel, asked ----
CONTEND_KERNEL_INSTRUMENTS="count, none" "$CONTEND" run "$tmp/k.ini" \
	--db "$tmp/on.db" --quiet > /dev/null 2>&1 || fail "run failed"
status=$(q "$tmp/on.db" "SELECT value FROM experiment_meta
			 WHERE key = 'kernel_lock_events'")
[ -n "$status" ] || fail "no kernel_lock_events key"
if [ "$status" != yes ]; then
	echo "$NAME: SKIP (live part): kernel lock events unavailable: $status"
	[ "$fails" -eq 0 ]
	exit
fi
expect "klock samples" 2 "$(q "$tmp/on.db" "SELECT count(*) FROM samples
			 JOIN runs ON runs.id = run_id
			 WHERE metric = 'klock_contended' AND warmup = 0")"
inst=$(q "$tmp/on.db" "SELECT value FROM experiment_meta
		       WHERE key = 'kernel_instruments'")
case $inst in
lock:contention_begin,perf-count | \
lock:contention_begin,lock:contention_end,bpf) ;;
*) fail "kernel_instruments is '$inst'" ;;
esac
spin=$(q "$tmp/on.db" "SELECT value FROM experiment_meta
		       WHERE key = 'kernel_spin_visible'")
case $spin in
yes-pv-spinlocks | yes-3-cpus | no-few-cpus-pv-off | no-few-cpus) ;;
*) fail "kernel_spin_visible is '$spin', not one of docs/KLOCK.md's words" ;;
esac
"$CONTEND" report --db "$tmp/on.db" > "$tmp/out" 2>&1
grep -q "kernel instruments: lock:contention_begin" "$tmp/out" ||
	fail "the report does not say which kernel instruments ran"
# Whether two threads or chat's sockets contend a spinlock the kernel can
# report depends on the host (two CPUs without paravirt spinlocks never
# queue: runner/kinstr/count.h) and on its load: only that every kind is there.
for w in "futex-mutex threads=2 runtime=100ms" "chat mode=threads"; do
	# shellcheck disable=SC2086
	"$CONTEND" exec $w --kernel-instrument kinds > "$tmp/out" 2> "$tmp/err" ||
		fail "exec $w: $(cat "$tmp/err")"
	for m in klock_contended klock_spin klock_mutex klock_rwsem_read \
		 klock_rwsem_write klock_rwlock_read klock_rwlock_write \
		 klock_contended_per_op; do
		[ -n "$(value "$tmp/out" "$m")" ] || fail "exec $w: no $m"
	done
done
# Asked (count): the total alone, one event (docs/WORKLOADS.md)
"$CONTEND" exec futex-mutex threads=2 runtime=50ms --kernel-instrument count \
	> "$tmp/out" 2> "$tmp/err" ||
	fail "exec default: $(cat "$tmp/err")"
[ -n "$(value "$tmp/out" klock_contended)" ] || fail "exec default: no total"
[ -n "$(value "$tmp/out" klock_spin)" ] && fail "exec default: kinds counted"
# Real contention, made on every machine: eight processes creating new
# files in one directory contend its inode's rwsem, a sleeping lock that
# reports from its slow path whatever the CPUs (up to three tries: a run
# is short).
creat="creat processes=8 reuse=no runtime=300ms"
n=0
for try in 1 2 3; do
	# shellcheck disable=SC2086
	"$CONTEND" exec $creat --kernel-instrument kinds > "$tmp/out" \
		2> "$tmp/err" ||
		fail "exec $creat: $(cat "$tmp/err")"
	n=$(value "$tmp/out" klock_rwsem_write)
	awk -v n="${n:-0}" 'BEGIN { exit !(n > 0) }' && break
done
awk -v n="${n:-0}" 'BEGIN { exit !(n > 0) }' ||
	fail "exec $creat: klock_rwsem_write ${n:-none}, not > 0 in 3 tries"
# A command the runner spawns itself: its counters are the runner's,
# attached to the command's process tree.  Every run has the counts; one
# run with contentions shows that they count the tree (a run on a loaded
# machine may see none: the processes then rarely run at once).
cat > "$tmp/c.ini" <<INI
[experiment]
name        = klock-command
repetitions = 3
warmup      = 0

[workload cmd]
type   = command
argv   = $CONTEND exec creat processes=8 reuse=no runtime=500ms
metric = ^throughput ([0-9.e+]+)\$
INI
CONTEND_KERNEL_INSTRUMENTS=count "$CONTEND" run "$tmp/c.ini" --db "$tmp/c.db" --quiet > /dev/null 2> "$tmp/err" ||
	fail "command run failed: $(cat "$tmp/err")"
expect "command runs with kernel counts" 3 "$(q "$tmp/c.db" "SELECT count(*)
			 FROM samples JOIN runs ON runs.id = run_id
			 WHERE metric = 'klock_contended' AND warmup = 0")"
n=$(q "$tmp/c.db" "SELECT count(*) FROM samples JOIN runs ON runs.id = run_id
		   WHERE metric = 'klock_contended' AND value > 0 AND warmup = 0")
[ "$n" -ge 1 ] || fail "no command run counted a kernel contention"
CONTEND_KERNEL_INSTRUMENTS=count "$CONTEND" run "$tmp/p.ini" --db "$tmp/p.db" \
	--quiet > /dev/null 2> "$tmp/err" || fail "creat run failed: $(cat "$tmp/err")"
"$CONTEND" report --db "$tmp/p.db" > "$tmp/out" 2>&1
grep -q "kl/Mop" "$tmp/out" || fail "the summary has no kl/Mop column"
[ "$fails" -eq 0 ]
