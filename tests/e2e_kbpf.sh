#!/bin/sh
# e2e_kbpf.sh - the kernel lock wait of every run through the binary
# (runner/kinstr/bpf.h, docs/KLOCK.md): BPF faked away (CONTEND_KBPF=off) a
# list that falls back (bpf, count) has the perf events count, no wait is
# stored and the experiment says which instrument ran and why; where BPF loads, creat with 4 processes and
# reuse = no stores its kernel wait and its top locks in every run, and the
# JSON report lists them (configs[].klock_top); a kernel_delay run stores
# its delays and its refusals by reason.  The live part is skipped
# with the reason where BPF cannot load, unless CONTEND_REQUIRE_KBPF=1.
# Presence and sign only.
NAME=e2e_kbpf
. "$(dirname "$0")/lib.sh"

cat > "$tmp/k.ini" <<'INI'
[experiment]
name        = kbpf
repetitions = 2
warmup      = 0
runtime     = 300ms

[workload creat]
type      = creat
processes = 4
reuse     = no
INI

# ---- BPF faked away: the fallback the list names, the perf events ----
CONTEND_KBPF=off CONTEND_KERNEL_INSTRUMENTS="bpf, count" "$CONTEND" run \
	"$tmp/k.ini" --db "$tmp/off.db" --quiet \
	> /dev/null 2> "$tmp/err" || fail "run with $NAME off: $(cat "$tmp/err")"
expect "instrument off" count \
	"$(q "$tmp/off.db" "SELECT value FROM experiment_meta
			    WHERE key = 'kernel_lock_instrument'")"
expect "why not bpf" "bpf: disabled by CONTEND_KBPF=off" \
	"$(q "$tmp/off.db" "SELECT value FROM experiment_meta
			    WHERE key = 'kernel_lock_fallback'")"
expect "no wait off" 0 "$(q "$tmp/off.db" "SELECT count(*) FROM samples
			 WHERE metric LIKE 'klock_wait%'")"
expect "no top locks off" 0 "$(q "$tmp/off.db" "SELECT count(*) FROM run_klock")"
if [ "$(q "$tmp/off.db" "SELECT value FROM experiment_meta
			  WHERE key = 'kernel_lock_events'")" = yes ]; then
	expect "perf counts off" 2 "$(q "$tmp/off.db" "SELECT count(*)
			 FROM samples WHERE metric = 'klock_contended'")"
fi
"$CONTEND" report --db "$tmp/off.db" --format json > "$tmp/off.json" ||
	fail "report off"
grep -q '"klock_top"' "$tmp/off.json" && fail "klock_top without BPF"

# ---- kernel_delay where BPF cannot run: refused with its line ----
cat > "$tmp/d.ini" <<'INI'
[experiment]
name        = kdelay
repetitions = 2
warmup      = 0
runtime     = 300ms

[workload creat]
type         = creat
processes    = 4
reuse        = no
kernel_delay = 0, 1ms@do_unlinkat
INI
rc=0
CONTEND_KBPF=off "$CONTEND" run "$tmp/d.ini" --db "$tmp/doff.db" > /dev/null \
	2> "$tmp/err" || rc=$?
expect "kernel_delay off: status" 2 "$rc"
grep -q "d.ini:11: kernel_delay: needs the kernel lock BPF program, which cannot run here: disabled by CONTEND_KBPF=off" \
	"$tmp/err" || fail "kernel_delay off: message: $(cat "$tmp/err")"
[ -e "$tmp/doff.db" ] && fail "kernel_delay off: a database was written"
CONTEND_KBPF=off "$CONTEND" run "$tmp/d.ini" --dry-run > /dev/null \
	2> "$tmp/err" || fail "kernel_delay off: the dry run failed"
grep -q "warning: .*d.ini:11: kernel_delay" "$tmp/err" ||
	fail "kernel_delay off: no warning in the dry run"
sed 's/^kernel_delay.*/kernel_delay = 1ms@, 11ms@f/' "$tmp/d.ini" > "$tmp/bad.ini"
"$CONTEND" run "$tmp/bad.ini" --dry-run > /dev/null 2> "$tmp/err" && \
	fail "a bad kernel_delay was accepted"
grep -q "bad.ini:11: kernel_delay: '1ms@' is not TIME@FUNCTION" "$tmp/err" ||
	fail "bad kernel_delay: $(cat "$tmp/err")"

# ---- by default: none (the program changes what it measures) ----
"$CONTEND" run "$tmp/k.ini" --db "$tmp/def.db" --quiet > /dev/null \
	2> "$tmp/err" || fail "default run failed: $(cat "$tmp/err")"
expect "instrument by default" none \
	"$(q "$tmp/def.db" "SELECT value FROM experiment_meta
			    WHERE key = 'kernel_lock_instrument'")"

# ---- this machine, asked for (none where it cannot: then skipped) ----
CONTEND_KERNEL_INSTRUMENTS="bpf, none" "$CONTEND" run "$tmp/k.ini" --db "$tmp/on.db" --quiet > /dev/null \
	2> "$tmp/err" || die "run failed: $(cat "$tmp/err")"
inst=$(q "$tmp/on.db" "SELECT value FROM experiment_meta
		       WHERE key = 'kernel_lock_instrument'")
[ -n "$inst" ] || fail "no kernel_lock_instrument key"
if [ "$inst" != bpf ]; then
	[ "${CONTEND_REQUIRE_KBPF:-}" = 1 ] &&
		fail "BPF required (CONTEND_REQUIRE_KBPF=1) but: $inst"
	echo "$NAME: SKIP (live part): $inst"
	[ "$fails" -eq 0 ]
	exit
fi
# asked in the file: kernel_instruments = bpf does what the variable does
sed 's/^\[experiment\]/&\nkernel_instruments = bpf/' "$tmp/k.ini" > "$tmp/kf.ini"
env -u CONTEND_KBPF "$CONTEND" run "$tmp/kf.ini" --db "$tmp/kf.db" --quiet \
	> /dev/null 2> "$tmp/err" || fail "kernel_instruments = bpf: $(cat "$tmp/err")"
expect "kernel_instruments = bpf" bpf "$(q "$tmp/kf.db" "SELECT value
			 FROM experiment_meta WHERE key = 'kernel_lock_instrument'")"
expect "a wait per run" 2 "$(q "$tmp/on.db" "SELECT count(*) FROM samples
			 WHERE metric = 'klock_wait_s' AND value >= 0")"
expect "perf left closed" 0 "$(q "$tmp/on.db" "SELECT count(*) FROM samples
			 WHERE metric = 'klock_contended' AND value < 0")"
# 4 processes creating and unlinking in one directory contend its rwsem
# (or at least some spinlock) on any machine; on a busy one a run may
# still miss: up to three experiments.
for try in 1 2 3; do
	n=$(q "$tmp/on.db" "SELECT count(*) FROM samples
			    WHERE metric = 'klock_wait_s' AND value > 0")
	r=$(q "$tmp/on.db" "SELECT count(DISTINCT run_id) FROM run_klock")
	[ "$n" = 2 ] && [ "$r" = 2 ] && break
	rm -f "$tmp/on.db"
	CONTEND_KERNEL_INSTRUMENTS=bpf "$CONTEND" run "$tmp/k.ini" \
		--db "$tmp/on.db" --quiet > /dev/null 2>&1 || die "run failed"
done
expect "runs that waited" 2 "$n"
expect "runs with top locks" 2 "$r"
expect "rows well formed" 0 "$(q "$tmp/on.db" "SELECT count(*) FROM run_klock
			 WHERE rank < 1 OR rank > 64 OR contentions < 1
			 OR wait_s < 0 OR nlocks < 1
			 OR (lock IS NULL AND nlocks = 1)")"
"$CONTEND" report --db "$tmp/on.db" --format json > "$tmp/on.json" ||
	fail "report"
grep -q '"klock_top"' "$tmp/on.json" || fail "no klock_top in the JSON report"
"$CONTEND" report --db "$tmp/on.db" --verbose > "$tmp/on.txt" || fail "report"
grep -q "kernel locks by wait" "$tmp/on.txt" ||
	fail "no kernel locks in report --verbose"
"$CONTEND" report --db "$tmp/on.db" --html "$tmp/html" > /dev/null ||
	fail "report --html"
grep -q "Kernel locks by wait" "$tmp/html/report.html" ||
	fail "no kernel locks in the HTML report"
# compare: the top locks' A/B change, with the experiment against itself
# run again (the same configuration)
CONTEND_KERNEL_INSTRUMENTS=bpf "$CONTEND" run "$tmp/k.ini" --db "$tmp/on.db" \
	--quiet > /dev/null 2>&1 || fail "second run"
"$CONTEND" compare "$tmp/on.db:1" "$tmp/on.db:2" --format json \
	> "$tmp/cmp.json" 2> "$tmp/err" || true
grep -q '"klock": \[{"kind": ' "$tmp/cmp.json" ||
	fail "compare: no klock rows: $(cat "$tmp/err")"

# without the runner's cgroup: the run's process tree, followed on fork
CONTEND_CGROUP=off CONTEND_KERNEL_INSTRUMENTS=bpf "$CONTEND" run "$tmp/k.ini" --db "$tmp/tree.db" \
	--quiet > /dev/null 2> "$tmp/err" || fail "run without a cgroup: $(cat "$tmp/err")"
expect "instrument without a cgroup" bpf "$(q "$tmp/tree.db" "SELECT value
			 FROM experiment_meta WHERE key = 'kernel_lock_instrument'")"
expect "a wait per run without a cgroup" 2 "$(q "$tmp/tree.db" "SELECT count(*)
			 FROM samples WHERE metric = 'klock_wait_s' AND value >= 0")"

# kernel_delay: stored with the configuration; the delayed runs count
# their delays (whether a run's unlinks contended at all is the
# machine's: up to three experiments for one delay)
for try in 1 2 3; do
	rm -f "$tmp/d.db"
	"$CONTEND" run "$tmp/d.ini" --db "$tmp/d.db" --quiet > /dev/null \
		2> "$tmp/err" || die "kernel_delay run: $(cat "$tmp/err")"
	n=$(q "$tmp/d.db" "SELECT coalesce(sum(value), 0) FROM samples
			   WHERE metric = 'klock_delayed'")
	[ "${n%.*}" -gt 0 ] && break
done
[ "${n%.*}" -gt 0 ] || fail "kernel_delay: no acquisition delayed in $try tries"
expect "kernel_delay stored" "0 1ms@do_unlinkat" "$(q "$tmp/d.db" "SELECT
			 group_concat(value, ' ') FROM (SELECT value
			 FROM config_params WHERE key = 'kernel_delay'
			 ORDER BY value)")"
expect "klock_delayed only with a delay" 2 "$(q "$tmp/d.db" "SELECT count(*)
			 FROM samples WHERE metric = 'klock_delayed'")"
# its refusals by reason (docs/KLOCK.md, "The delay's bounds"), stored
# with it: four a delayed run
expect "refusals stored" "2 2 2 2" "$(q "$tmp/d.db" "SELECT group_concat(n, ' ')
			 FROM (SELECT count(*) AS n FROM samples
			 WHERE metric IN ('klock_delay_refused_irq',
			 'klock_delay_refused_spin', 'klock_delay_refused_share',
			 'klock_delay_refused_total') AND value >= 0
			 GROUP BY metric)")"
[ "$fails" -eq 0 ]
