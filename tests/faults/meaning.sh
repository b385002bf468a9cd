#!/bin/sh
# meaning.sh - values that mean nothing are refused.  kernel_delay's TIME
# below the delay loop's resolution (100ns) or between two nanoseconds,
# in an INI file (exit 2, the key's line, no database) and on `contend
# exec`; and kernel_delay handed to `contend exec` at all, for every
# workload, which would run without the runner's BPF program under a
# label that claims the delay (exit 2, nothing run).  `kernel_delay = 0`
# asks for nothing and is accepted.
NAME=meaning
. tests/faults/lib.sh

# ini FILE VALUE: a noop section with kernel_delay = VALUE on line 8.
ini() {
	cat > "$1" <<INI
[experiment]
name        = meaning
repetitions = 1
jobs        = 10

[workload w]
type         = noop
kernel_delay = $2
INI
}

for v in 0.4ns@f 1ns@f 99ns@f 99.9ns@f 0.00000001s@f 100.5ns@f \
	1.0000001us@f 0.5ns@do_unlinkat; do
	ini "$tmp/k.ini" "$v"
	CONTEND_KBPF=on "$C" run "$tmp/k.ini" --db "$tmp/k.db" > "$tmp/out" \
		2> "$tmp/err"
	rc=$?
	[ $rc = 2 ] || fail "kernel_delay = $v: exit $rc: $(cat "$tmp/err")"
	grep -q "k.ini:8: kernel_delay: '$v': TIME is" "$tmp/err" ||
		fail "kernel_delay = $v: $(cat "$tmp/err")"
	[ -e "$tmp/k.db" ] && fail "kernel_delay = $v: a database was written"
	rm -f "$tmp/k.db"
	"$C" exec noop jobs=1 "kernel_delay=$v" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 2 ] || fail "exec kernel_delay=$v: exit $rc"
	[ -s "$tmp/out" ] && fail "exec kernel_delay=$v: it ran"
done
note "kernel_delay below 100ns or between nanoseconds: refused"

for wl in noop "pthread-mutex" "futex-mutex" spinlock creat; do
	for v in 1ms@do_unlinkat 100ns@f 10ms@x; do
		"$C" exec "$wl" jobs=10 "kernel_delay=$v" > "$tmp/out" \
			2> "$tmp/err"
		rc=$?
		[ $rc = 2 ] || fail "exec $wl kernel_delay=$v: exit $rc"
		[ -s "$tmp/out" ] && fail "exec $wl kernel_delay=$v: it ran"
		grep -q "exec $wl: kernel_delay is applied by 'contend run' alone" \
			"$tmp/err" || fail "exec $wl kernel_delay=$v: $(cat "$tmp/err")"
	done
	"$C" exec "$wl" jobs=10 kernel_delay=0 > "$tmp/out" 2> "$tmp/err" ||
		fail "exec $wl kernel_delay=0: exit $?: $(cat "$tmp/err")"
done
note "contend exec: kernel_delay refused for every workload, 0 accepted"
exit $failed
