#!/bin/sh
# diskfull.sh - the database cannot grow while an experiment runs:
#  - a file size limit (RLIMIT_FSIZE, `ulimit -f`) reached during the
#    runs, and one so small that the plan itself cannot be written;
#  - a full file system (a small tmpfs, when this machine lets us mount
#    one: root, no seccomp), with the space given back afterwards;
#  - output that cannot be written (stdout on /dev/full; plot and report
#    files past a file size limit): exit 1 with the reason, no "written".
# Each: a clear error naming the database, exit 1, integrity_check ok, and
# either nothing written or an experiment that --resume completes, every
# planned run exactly once, once the space is back.  contend ignores
# SIGXFSZ (cli/main.c), or the limit would kill it without a word.
NAME=diskfull
. tests/faults/lib.sh

# 2 configurations x 150 runs: about 2 MB of write-ahead log in all.
cat > "$tmp/f.ini" <<'INI'
[experiment]
name        = diskfull
repetitions = 150
warmup      = 0
runtime     = 1ms

[workload w]
type    = noop
threads = 1, 2
INI
PLANNED=300

# limited BLOCKS DB: `contend run` under `ulimit -f BLOCKS` (512-byte
# blocks in a POSIX shell); sets $rc.
limited() {
	(ulimit -f "$1" && exec "$C" run "$tmp/f.ini" --db "$2" --quiet) \
		> /dev/null 2> "$tmp/err"
	rc=$?
}

# ---- the limit reached during the runs, then lifted ----
db=$tmp/limit.db
limited 800 "$db"    # 400 KiB
[ $rc = 1 ] || fail "file size limit during the runs: exit $rc: $(cat "$tmp/err")"
grep -q "$db: .*(is the disk full, or a file size limit reached?)" "$tmp/err" ||
	fail "file size limit: unclear error: $(cat "$tmp/err")"
grep -q "continue with: \`contend run --resume 1 " "$tmp/err" ||
	fail "file size limit: no resume hint: $(cat "$tmp/err")"
integrity "$db"
done_runs=$(sql "$db" "SELECT count(*) FROM runs WHERE status = 'ok'")
[ "$done_runs" -gt 0 ] && [ "$done_runs" -lt $PLANNED ] ||
	fail "file size limit: $done_runs runs stored, want some but not all"
"$C" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/err" ||
	fail "resume once the limit is lifted: $(cat "$tmp/err")"
integrity "$db"
exactly_once "$db" 1 $PLANNED
note "file size limit: stopped after $done_runs runs, resumed to the end"

# ---- a limit too small for the plan: nothing written ----
db=$tmp/tiny.db
limited 40 "$db"     # 20 KiB
[ $rc = 1 ] || fail "tiny file size limit: exit $rc: $(cat "$tmp/err")"
grep -q "$db: " "$tmp/err" || fail "tiny limit: unclear error: $(cat "$tmp/err")"
integrity "$db"
n=$(sql "$db" "SELECT count(*) FROM experiments" 2>/dev/null)
[ -z "$n" ] || [ "$n" = 0 ] || fail "tiny limit: $n experiments written"
note "file size limit below the plan: nothing written"

# ---- output that cannot be written: /dev/full, a file size limit ----
# Each command reports the failed write, exits 1, and never says
# "written" (before: exit 0, or 1 without a word).
db=$tmp/limit.db     # complete, from the first case
printf '[experiment]\nname = s\nrepetitions = 2\nruntime = 1ms\n[workload w]\ntype = noop\n' \
	> "$tmp/s.ini"
# full CMD...: CMD with stdout on /dev/full fails with a message.
full() {
	"$C" "$@" > /dev/full 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "'$*' > /dev/full: exit $rc: $(cat "$tmp/err")"
	grep -qi "space left\|writ" "$tmp/err" ||
		fail "'$*' > /dev/full: no message: $(cat "$tmp/err")"
}
full run "$tmp/f.ini" --dry-run
full run "$tmp/s.ini" --db "$tmp/summary.db"
full merge "$tmp/merged.db" "$db"
full report --db "$db"
full export --db "$db"
# plot and report bundles under a limit of 4 KiB a file: the data files
# are bigger, so their writes fail.  (From a copy out of WAL mode, which
# a reader opens without writing a -shm file past the limit.)
sqlite3 "$db" ".backup $tmp/plain.db" && sqlite3 "$tmp/plain.db" \
	'PRAGMA journal_mode = DELETE' > /dev/null || die "cannot copy $db"
for what in "plot --out $tmp/plots" "report --html $tmp/html"; do
	# shellcheck disable=SC2086 # the command's words
	(ulimit -f 8 && exec "$C" $what --db "$tmp/plain.db") > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "$what under a file size limit: exit $rc: $(cat "$tmp/err")"
	grep -q "File too large" "$tmp/err" ||
		fail "$what under a file size limit: unclear error: $(cat "$tmp/err")"
	grep -q written "$tmp/out" && fail "$what under a file size limit said: $(cat "$tmp/out")"
done
ls -a "$tmp/plots" "$tmp/html" | grep -q '^\..*\.......$' &&
	fail "temporaries left behind: $(ls -a "$tmp/plots" "$tmp/html")"
note "stdout on /dev/full (run, --dry-run, merge, report, export) and plot/report files past a size limit: failed, said so"

# ---- a full file system, then space given back ----
mnt=$tmp/mnt
mkdir "$mnt"
if mount -t tmpfs -o size=16m tmpfs "$mnt" 2> /dev/null; then
	trap 'umount "$mnt" 2>/dev/null; for p in $bg; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
	# Leave 512 KiB free.
	dd if=/dev/zero of="$mnt/filler" bs=1k count=15872 2> /dev/null
	db=$mnt/full.db
	"$C" run "$tmp/f.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "full file system: exit $rc: $(cat "$tmp/err")"
	grep -q "$db: .*full" "$tmp/err" || fail "full file system: unclear error: $(cat "$tmp/err")"
	integrity "$db"
	rm -f "$mnt/filler"
	done_runs=$(sql "$db" "SELECT count(*) FROM runs WHERE status = 'ok'")
	"$C" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/err" ||
		fail "resume once space is back: $(cat "$tmp/err")"
	integrity "$db"
	exactly_once "$db" 1 $PLANNED
	note "full tmpfs: stopped after $done_runs runs, resumed once space was back"
	umount "$mnt"
else
	note "cannot mount a tmpfs here (not root?): full file system not tried"
fi
finish
