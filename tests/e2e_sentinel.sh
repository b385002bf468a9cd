#!/bin/sh
# e2e_sentinel.sh - per-run sentinels through the binary: every run stores
# steal_s (where /proc/stat is readable); a run during which the kernel
# log gets a lockdep warning (written to /dev/kmsg by the run itself:
# root only, else that part is skipped) stores kmsg_lockdep and its line,
# and the report flags kernel-warning on its configuration and not on the
# clean one; the experiment says once where cpu_mhz comes from
# (cpu_freq_source: aperf-mperf, cpufreq or none, cpu_msr why);
# --exclude-kernel-warnings leaves those runs out and says how
# many.  Other programs may log meanwhile (a crash test's segfault): the
# clean configuration is checked for lockdep lines only.
NAME=e2e_sentinel
. "$(dirname "$0")/lib.sh"

db=$tmp/s.db
mark="contend-e2e-$$"
cat > "$tmp/s.ini" <<INI
[experiment]
name        = sentinel
repetitions = 3
warmup      = 0

[workload warn]
type       = command
argv       = sh -c "echo '$mark: WARNING: possible circular locking dependency detected' > /dev/kmsg 2>/dev/null; echo ops 5"
metric.ops = ops ([0-9]+)

[workload clean]
type       = command
argv       = sh -c "echo ops 6"
metric.ops = ops ([0-9]+)
INI

"$CONTEND" run "$tmp/s.ini" --db "$db" --quiet >/dev/null 2>"$tmp/err" ||
	die "run: $(cat "$tmp/err")"
if [ -r /proc/stat ]; then
	expect "runs with steal_s" 6 "$(q "SELECT count(*) FROM samples
					  WHERE metric = 'steal_s'")"
fi
src=$(q "SELECT value FROM experiment_meta WHERE key = 'cpu_freq_source'")
case $src in
aperf-mperf)
	mhz=$(q "SELECT value FROM experiment_meta WHERE key = 'cpu_base_mhz'")
	case $mhz in ''|*[!0-9]*) fail "cpu_base_mhz: '$mhz'" ;; esac ;;
cpufreq|none)
	msr=$(q "SELECT value FROM experiment_meta WHERE key = 'cpu_msr'")
	case $msr in absent|denied|unreadable|no-base-mhz) ;;
	*) fail "cpu_msr: '$msr'" ;; esac ;;
*) fail "cpu_freq_source: '$src'" ;;
esac
if [ "$(id -u)" -ne 0 ] || [ ! -w /dev/kmsg ]; then
	echo "$NAME: SKIP: /dev/kmsg is not writable here"
	[ "$fails" -eq 0 ]
	exit
fi
sec() {
	q "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id
	   JOIN configs c ON c.id = r.config_id
	   WHERE c.section = '$1' AND s.metric = 'kmsg_lockdep'"
}
expect "warn runs with kmsg_lockdep" 3 "$(sec warn)"
expect "clean runs with kmsg_lockdep" 0 "$(sec clean)"
[ "$(q "SELECT count(*) FROM experiment_meta WHERE key LIKE 'kmsg.%'
	AND value LIKE 'lockdep: $mark: WARNING: possible circular%'")" \
	-eq 3 ] || fail "the warning's line is not stored per run"

"$CONTEND" report --db "$db" --verbose >"$tmp/rep" 2>"$tmp/err" ||
	fail "report: $(cat "$tmp/err")"
tr '\n' ' ' <"$tmp/rep" | tr -s ' ' >"$tmp/rep1"
grep -q "kernel-warning, config 1: 3 of 3 runs logged kernel warnings" \
	"$tmp/rep1" || fail "no kernel-warning on warn: $(cat "$tmp/rep")"
grep -q "first: 'lockdep: $mark: WARNING: possible circular" "$tmp/rep1" ||
	fail "kernel-warning does not name the line"

"$CONTEND" report --db "$db" --verbose --exclude-kernel-warnings >"$tmp/rep" \
	2>"$tmp/err" || fail "report --exclude-kernel-warnings"
grep -q "contend: [3-6] measured runs with kernel warnings left out" \
	"$tmp/err" || fail "the exclusion is not counted: $(cat "$tmp/err")"
tr '\n' ' ' <"$tmp/rep" | tr -s ' ' |
	grep -q "left out of the summaries" || fail "the flag does not say so"

# compare carries the flag to the side whose runs logged the warnings.
cat > "$tmp/ab.ini" <<INI
[experiment]
name        = ab
repetitions = 3
warmup      = 0

[workload w]
type       = command
argv       = sh -c "[ -e '$tmp/dirty' ] && echo '$mark: WARNING: possible circular locking dependency detected' > /dev/kmsg; echo ops 5"
metric.ops = ops ([0-9]+)
INI
"$CONTEND" run "$tmp/ab.ini" --db "$db" --label clean --quiet >/dev/null \
	2>"$tmp/err" || die "run clean: $(cat "$tmp/err")"
: > "$tmp/dirty"
"$CONTEND" run "$tmp/ab.ini" --db "$db" --label dirty --quiet >/dev/null \
	2>"$tmp/err" || die "run dirty: $(cat "$tmp/err")"
"$CONTEND" compare --db "$db" clean dirty --metric ops >"$tmp/out" 2>"$tmp/err"
grep -q "kernel-warning (candidate)" "$tmp/out" ||
	fail "compare: no kernel-warning on the candidate: $(cat "$tmp/out")"
[ "$fails" -eq 0 ]
