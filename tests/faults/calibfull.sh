#!/bin/sh
# calibfull.sh - `contend calibrate` stops storing when the disk fills,
# at every point near the end, where its profile is written (issue 37,
# item 6: written key by key, a partial profile was cited as "a nan%
# change is detectable with 0 boots of 0 runs").  The database lives on
# a small tmpfs (root only) beside a filler file; the smallest free space
# under which calibrate succeeds is found by bisection, then each free
# space below it, a 4 KiB page apart: the profile is whole (all 11 keys)
# or absent, a whole one only with exit 0, compare never cites a nan or
# a 0-boot design, and the file stays intact.  (A file size limit would
# bind on the first experiment's log, never on the profile.)
NAME=calibfull
. tests/faults/lib.sh
mnt=$tmp/mnt
mkdir "$mnt" || die "mkdir"
if ! mount -t tmpfs -o size=4m tmpfs "$mnt" 2> /dev/null; then
	note "SKIP: cannot mount a tmpfs here (not root?)"
	exit 0
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT

cat > "$tmp/c.ini" <<'INI'
[experiment]
name        = calibfull
repetitions = 3
warmup      = 0
runtime     = 1ms

[workload w]
type = noop
INI

# The database made beforehand, so that the four sessions of calibrate
# are alike and the last, with the most data, needs the most space.
"$C" run "$tmp/c.ini" --db "$tmp/base.db" --quiet > /dev/null 2>&1 ||
	die "the base database"

# attempt KIB: calibrate in a copy of base.db with KIB KiB free on its
# file system; sets $rc and $keys (the profile's keys stored)
attempt() {
	db=$mnt/c.db
	rm -f "$db" "$db-wal" "$db-shm" "$mnt/filler"
	cp "$tmp/base.db" "$db" || die "cp"
	head -c $((4096 - $1))k /dev/zero > "$mnt/filler" 2> /dev/null
	"$C" calibrate "$tmp/c.ini" --db "$db" --invocations 4 --quiet \
		> /dev/null 2> "$tmp/err"
	rc=$?
	keys=$(sql "$db" "SELECT count(*) FROM experiment_meta
		WHERE key LIKE 'calibrate.%'" 2> /dev/null || echo 0)
}

# the smallest free space that succeeds, to 4 KiB (one page)
lo=4 hi=2048
attempt $hi
[ $rc = 0 ] || die "calibrate fails even with 2 MiB free: $(cat "$tmp/err")"
while [ $((hi - lo)) -gt 4 ]; do
	mid=$(( (lo + hi) / 2 ))
	attempt $mid
	if [ $rc = 0 ]; then hi=$mid; else lo=$mid; fi
done
note "calibrate needs about $hi KiB"

failed_at_end=0
k=1
while [ $k -le 12 ]; do
	lim=$((hi - 4 * k))
	k=$((k + 1))
	[ $lim -gt 4 ] || break
	attempt $lim
	case $keys in
	0) [ $rc = 0 ] && fail "limit $lim: exit 0 and no profile" ;;
	11) [ $rc = 0 ] || fail "limit $lim: exit $rc with a whole profile" ;;
	*) fail "limit $lim: a partial profile ($keys keys), exit $rc" ;;
	esac
	[ $rc = 0 ] || [ $rc = 1 ] || fail "limit $lim: exit $rc: $(cat "$tmp/err")"
	[ $rc = 1 ] && [ "$(sql "$db" "SELECT count(*) FROM experiments
		WHERE label = 'calibrate' AND status = 'complete'")" = 4 ] &&
		failed_at_end=$((failed_at_end + 1))
	integrity "$db"
	if [ -f "$db" ] && "$C" compare calibrate calibrate --db "$db" \
		> "$tmp/cmp" 2>&1; then
		grep -q "nan%\|with 0 boots" "$tmp/cmp" &&
			fail "limit $lim: a broken profile cited: $(cat "$tmp/cmp")"
	fi
done
[ $failed_at_end -gt 0 ] ||
	note "no free space fell on the profile's write this time (the runs took it)"
exit $failed
