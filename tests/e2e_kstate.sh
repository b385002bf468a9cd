#!/bin/sh
# e2e_kstate.sh - the kernel state of each experiment through the binary:
# every experiment stores its kstate.* keys, and compare of an experiment
# run with the lock trace events enabled against one without raises
# instrumentation-differs naming kstate.trace_lock.  Toggling tracefs
# needs root and a writable events/lock/enable (else that part is
# skipped); the value found is ALWAYS restored, by a trap.
NAME=e2e_kstate
. "$(dirname "$0")/lib.sh"

db=$tmp/k.db
cat > "$tmp/k.ini" <<'INI'
[experiment]
name        = kstate
repetitions = 2
runtime     = 20ms

[workload n]
type = noop
INI

"$CONTEND" run "$tmp/k.ini" --db "$db" --label off --quiet >/dev/null \
	2>"$tmp/err" || die "run off: $(cat "$tmp/err")"
[ "$(q "SELECT count(*) FROM experiment_meta WHERE key LIKE 'kstate.%'")" \
	-gt 10 ] || fail "no kstate keys stored"
expect "checked at the end" "start, end" \
	"$(q "SELECT value FROM experiment_meta WHERE key = 'kstate_checked'")"

"$CONTEND" run "$tmp/k.ini" --db "$db" --label off2 --quiet >/dev/null \
	2>"$tmp/err" || die "run off2: $(cat "$tmp/err")"
# The same state on both sides: no flag.
"$CONTEND" compare --db "$db" off off2 >"$tmp/out" 2>"$tmp/err"
grep -q "instrumentation-differs (both" "$tmp/out" &&
	fail "instrumentation-differs between two plain experiments: $(cat "$tmp/out")"

ev=
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -w "$t/events/lock/enable" ] && ev=$t/events/lock/enable && break
done
if [ -z "$ev" ] || [ "$(id -u)" -ne 0 ]; then
	echo "$NAME: SKIP: no writable events/lock/enable (root and tracefs)"
	[ "$fails" -eq 0 ]
	exit
fi
was=$(cat "$ev")
case $was in 0) ;; *)
	echo "$NAME: SKIP: lock events already enabled ('$was'), left alone"
	[ "$fails" -eq 0 ]
	exit ;;
esac
trap 'echo 0 > "$ev"; rm -rf "$tmp"' EXIT
trap 'echo 0 > "$ev"; rm -rf "$tmp"; exit 130' INT TERM HUP
echo 1 > "$ev" || die "cannot enable $ev"
"$CONTEND" run "$tmp/k.ini" --db "$db" --label on --quiet >/dev/null \
	2>"$tmp/err"
st=$?
echo 0 > "$ev"
[ "$st" -eq 0 ] || die "run on: $(cat "$tmp/err")"
expect "trace_lock stored" "1" \
	"$(q "SELECT value FROM experiment_meta e JOIN experiments x
	      ON x.id = e.experiment_id WHERE x.label = 'on'
	      AND key = 'kstate.trace_lock'")"
"$CONTEND" report --db "$db" on >"$tmp/rep" 2>"$tmp/err" ||
	fail "report on: $(cat "$tmp/err")"
grep -q "kernel tracing: kstate.trace_lock=1" "$tmp/rep" ||
	fail "report on: no kernel tracing line: $(head -8 "$tmp/rep")"
"$CONTEND" report --db "$db" off >"$tmp/rep" 2>"$tmp/err"
grep -q "kernel tracing:" "$tmp/rep" && fail "report off: kernel tracing line"

"$CONTEND" compare --db "$db" off on >"$tmp/out" 2>"$tmp/err"
grep -q "instrumentation-differs (both" "$tmp/out" ||
	fail "no instrumentation-differs: $(cat "$tmp/out")"
# The flag's message, its wrapped lines joined.
tr '\n' ' ' <"$tmp/out" | tr -s ' ' |
	grep -q "instrumentation-differs (both.*kstate.trace_lock '0' vs '1'" ||
	fail "trace_lock not named: $(cat "$tmp/out")"
[ "$fails" -eq 0 ]
