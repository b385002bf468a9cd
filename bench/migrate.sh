#!/bin/sh
# bench/migrate.sh - the upgrade of a received old-format database against
# the size of its stored config text (issue 37, item 2: 1.2 / 4.7 / 23 /
# 112 s at S = 5k / 10k / 20k / 40k sections, quadratic).  For each S: a
# schema 3 database whose one experiment's config text holds S workload
# sections under `repetitions = auto` and 4 S other meta keys (what the
# keys of S sections would be), then the fastest of REPEAT of `report` of
# it (read-only: the keys made in memory), `merge` of it into a new file
# and `run --db` on it (the upgrade), and each time's ratio to the one of
# the S before: twice the size should cost about twice the time (O(S log
# S) or better), not four times.  Sections past the INI loader's limit
# (CONFIG_MAX_SECTIONS) are not read at all.  Not part of `make bench`.
#
# Environment (and bench/lib.sh's): SIZES ("5000 10000 20000 40000"),
# REPEAT (3).
set -eu
. bench/lib.sh

SIZES=${SIZES:-5000 10000 20000 40000}
REPEAT=${REPEAT:-3}
bench_need sqlite3 "the old databases are made with it" || exit 0
bench_tmp

cat > "$tmp/one.ini" <<'INI'
[experiment]
name        = migrate
repetitions = 1
warmup      = 0
runtime     = 1ms

[workload w]
type = noop
INI
"$CONTEND" run "$tmp/one.ini" --db "$tmp/seed.db" --quiet 2> /dev/null

# old S: $tmp/old.db, schema 3, its experiment's config text S sections
old() {
	rm -f "$tmp/old.db" "$tmp/old.db-wal" "$tmp/old.db-shm"
	cp "$tmp/seed.db" "$tmp/old.db"
	awk -v s="$1" 'BEGIN {
		printf "[experiment]\nrepetitions = auto\n"
		for (i = 0; i < s; i++) printf "[workload w%d]\ntype = noop\n", i
	}' > "$tmp/text"
	sqlite3 "$tmp/old.db" "UPDATE experiments SET config_text =
			CAST(readfile('$tmp/text') AS TEXT);
		WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n
			WHERE i + 1 < 4 * $1)
		INSERT INTO experiment_meta SELECT 1, 'kmsg.' || i, 'x' FROM n;
		PRAGMA user_version = 3;" > /dev/null
}

# best CMD...: the fastest of REPEAT runs of CMD on a fresh old database,
# in seconds
best() {
	b=
	r=0
	while [ $r -lt "$REPEAT" ]; do
		old "$S"
		rm -f "$tmp/out.db"
		t0=$(date +%s.%N)
		"$@" > /dev/null 2>&1 || { echo "FAILED: $*" >&2; exit 1; }
		t1=$(date +%s.%N)
		b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN {
			t = z - a; print (b == "" || t < b) ? t : b }')
		r=$((r + 1))
	done
	echo "$b"
}

bench_machine
printf '%8s %10s %6s %10s %6s %10s %6s\n' S report ratio merge ratio run ratio
prev=
for S in $SIZES; do
	rep=$(best "$CONTEND" report --db "$tmp/old.db")
	mer=$(best "$CONTEND" merge "$tmp/out.db" "$tmp/old.db")
	run=$(best "$CONTEND" run "$tmp/one.ini" --db "$tmp/old.db" --quiet)
	awk -v s="$S" -v a="$rep" -v b="$mer" -v c="$run" -v p="$prev" 'BEGIN {
		split(p, q, " ")
		printf "%8d %9.3fs %6s %9.3fs %6s %9.3fs %6s\n", s,
			a, p == "" ? "" : sprintf("%.2f", a / q[1]),
			b, p == "" ? "" : sprintf("%.2f", b / q[2]),
			c, p == "" ? "" : sprintf("%.2f", c / q[3]) }'
	prev="$rep $mer $run"
done
echo "ratio: each time over the one of the S before (S doubles: ~2 is linear, ~4 quadratic)"
bench_end
