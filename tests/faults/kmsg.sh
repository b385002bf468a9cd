#!/bin/sh
# kmsg.sh - the kernel log's blind spots, through the real runner: the log
# replaced (CONTEND_KMSG) by a file and by a FIFO that each run's command
# writes records into as /dev/kmsg would hand them.  A record of 2,047
# bytes or more (2047, 2048, 4096, 8192, 16384, 40000) followed by a BUG:
# line: every run counts the BUG (before: it was missed 5 of 5 times).  A
# gap in the records' sequence numbers: the run counts the records lost
# (klog_unread) and the report says so (kernel-log-unread).  A log that
# cannot be opened: the experiment stores why as a word (kernel_log) and
# the report says the check did not run.
NAME=kmsg
. tests/faults/lib.sh

# rec SEQ SIZE TEXT: one record of SIZE bytes (newline included) whose text
# is TEXT padded with x.
rec() {
	head="6,$1,100,-;$3"
	pad=$(( $2 - ${#head} - 1 ))
	printf '%s' "$head"
	head -c "$pad" /dev/zero | tr '\0' x
	printf '\n'
}

# ini FILE LOG-WRITER: 3 runs of a command that appends the file $tmp/recs
# to the log (the shell's >>: a file or a FIFO) and prints a number.
ini() {
	cat > "$1" <<INI
[experiment]
name        = kmsg
repetitions = 3
warmup      = 0
timeout     = 20s

[workload w]
type   = command
shell  = yes
argv   = cat $tmp/recs >> $2; echo 1
metric = ([0-9]+)
INI
}

# report DB: its text report on one line (the report wraps its prose)
report() { "$C" report --db "$1" 2>&1 | tr -s ' \n' '  '; }

check_bugs() { # DB WHAT: every run counted one BUG and lost nothing
	n=$(sql "$1" "SELECT count(*) FROM samples s JOIN runs r
		ON r.id = s.run_id WHERE s.metric = 'kmsg_bug' AND s.value = 1
		AND r.status = 'ok'")
	[ "$n" = 3 ] || fail "$2: $n of 3 runs counted the BUG"
	n=$(sql "$1" "SELECT count(*) FROM samples WHERE metric = 'klog_unread'")
	[ "$n" = 0 ] || fail "$2: $n runs lost records"
	w=$(sql "$1" "SELECT value FROM experiment_meta WHERE key = 'kernel_log'")
	[ "$w" = followed ] || fail "$2: kernel_log is '$w'"
}

for size in 2047 2048 4096 8192 16384 40000; do
	for kind in file fifo; do
		log=$tmp/log.$kind.$size db=$tmp/$kind.$size.db
		{ rec 10 "$size" "usb 1-1: long"; printf '4,11,101,-;BUG: x\n'; } \
			> "$tmp/recs"
		case $kind in
		file) : > "$log" ;;
		fifo) mkfifo "$log" ;;
		esac
		ini "$tmp/k.ini" "$log"
		CONTEND_KMSG=$log "$C" run "$tmp/k.ini" --db "$db" --quiet \
			> "$tmp/out" 2>&1 || fail "$kind $size: exit $?: $(cat "$tmp/out")"
		integrity "$db"
		check_bugs "$db" "$kind, a record of $size bytes"
	done
done
note "records of 2047 to 40000 bytes: the BUG after each counted"

# Records lost: each run's records jump from 20 to 25 (4 lost), and the
# next run's from 25 to 20 again (the log cleared: not a loss).
{ printf '6,20,1,-;a\n'; printf '6,25,2,-;b\n'; } > "$tmp/recs"
: > "$tmp/gap.log"
ini "$tmp/k.ini" "$tmp/gap.log"
CONTEND_KMSG=$tmp/gap.log "$C" run "$tmp/k.ini" --db "$tmp/gap.db" --quiet \
	> "$tmp/out" 2>&1 || fail "gap: exit $?: $(cat "$tmp/out")"
n=$(sql "$tmp/gap.db" "SELECT group_concat(value) FROM samples
	WHERE metric = 'klog_unread'")
[ "$n" = "4.0,4.0,4.0" ] || fail "gap: klog_unread '$n', want 4 in each run"
report "$tmp/gap.db" > "$tmp/rep"
grep -q "3 of 3 runs lost 12 kernel log records" "$tmp/rep" ||
	fail "gap: the report does not say it: $(cat "$tmp/rep")"
note "sequence gaps: counted and reported"

# A log that is not there, and one that may not be read (as nobody, a
# root-only file, where this test runs as root and setpriv exists).
{ printf '4,1,1,-;BUG: x\n'; } > "$tmp/recs"
ini "$tmp/k.ini" /dev/null
CONTEND_KMSG=$tmp/none/kmsg "$C" run "$tmp/k.ini" --db "$tmp/absent.db" \
	--quiet > "$tmp/out" 2>&1 || fail "absent: exit $?: $(cat "$tmp/out")"
w=$(sql "$tmp/absent.db" "SELECT value FROM experiment_meta
	WHERE key = 'kernel_log'")
[ "$w" = absent ] || fail "absent: kernel_log is '$w'"
report "$tmp/absent.db" > "$tmp/rep"
grep -q "kernel log was not followed (absent" "$tmp/rep" ||
	fail "absent: the report does not say it: $(cat "$tmp/rep")"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null 2>&1; then
	mkdir "$tmp/nobody" && chmod 777 "$tmp/nobody" "$tmp"
	: > "$tmp/root.log" && chmod 600 "$tmp/root.log"
	chmod 755 "$C"
	CONTEND_KMSG=$tmp/root.log setpriv --reuid=nobody --regid=nogroup \
		--clear-groups "$C" run "$tmp/k.ini" --db "$tmp/nobody/d.db" \
		--quiet > "$tmp/out" 2>&1 ||
		fail "denied: exit $?: $(cat "$tmp/out")"
	w=$(sql "$tmp/nobody/d.db" "SELECT value FROM experiment_meta
		WHERE key = 'kernel_log'")
	[ "$w" = denied ] || fail "denied: kernel_log is '$w'"
	report "$tmp/nobody/d.db" > "$tmp/rep"
	grep -q "not followed (denied: reading it needs root" "$tmp/rep" ||
		fail "denied: the report does not say it: $(cat "$tmp/rep")"
	note "a log that may not be read: kernel_log = denied, reported"
fi
note "a log not there: kernel_log = absent, reported"
exit $failed
