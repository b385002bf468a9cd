#!/bin/sh
# bench/decide.sh - bisect and history on real runs of a command with a
# known spread (not a timing benchmark: the command prints its numbers,
# so the machine's load changes nothing).  The command prints
# LEVEL + a pseudo-random spread of +-3% (uniform, from its pid); each
# "boot" (experiment) moves LEVEL by a seeded +-0.5%.  Counts:
#   - contend bisect against 5 boots x 10 runs: STEPS candidates at the
#     baseline's level (A/A) and STEPS at 6% below it (--regression 5);
#   - contend history: SERIES series of 20 experiments of 3 runs with a
#     3% step at the 11th, and SERIES without a step.
# Environment (and bench/lib.sh's): STEPS (20), SERIES (10), SEED (1).
set -eu
. bench/lib.sh

STEPS=${STEPS:-20}
SERIES=${SERIES:-10}
SEED=${SEED:-1}
bench_tmp
CONTEND=$(cd "$(dirname "$CONTEND")" && pwd)/$(basename "$CONTEND")

cat > "$tmp/c.ini" <<INI
[experiment]
name        = decide
repetitions = 10
warmup      = 0

[workload cmd]
type   = command
shell  = yes
argv   = read l < $tmp/level; echo ops \$((l + (\$\$ * 7919 % 61 - 30) * l / 1000))
metric = ^ops ([0-9]+)\$
INI
# boot_level BASE N: BASE moved by the Nth seeded +-0.5%
boot_level() {
	awk -v b="$1" -v n="$2" -v s="$SEED" 'BEGIN { srand(s * 100003 + n);
		printf "%d\n", b * (1 + (rand() - 0.5) / 100) }'
}
boots=0
for i in 1 2 3 4 5; do
	boots=$((boots + 1))
	boot_level 100000 "$boots" > "$tmp/level"
	"$CONTEND" run "$tmp/c.ini" --db "$tmp/d.db" --label good --quiet > /dev/null 2>&1
done
# step BASE: one bisect step on a fresh boot at BASE; prints its exit
step() {
	boots=$((boots + 1))
	boot_level "$1" "$boots" > "$tmp/level"
	set +e
	"$CONTEND" bisect "$tmp/c.ini" --db "$tmp/d.db" --baseline good \
		--regression 5 --quiet > /dev/null 2>&1
	echo $?
	set -e
}
: > "$tmp/aa"
: > "$tmp/bad"
i=0
while [ "$i" -lt "$STEPS" ]; do
	step 100000 >> "$tmp/aa"
	step 94000 >> "$tmp/bad"
	i=$((i + 1))
done
runs=$(sqlite3 "$tmp/d.db" "SELECT avg(value) FROM experiment_meta
	WHERE key = 'bisect.cmd.runs'")
echo "bisect, 5 boots x 10 runs baseline, +-3% uniform spread, +-0.5% between boots, --regression 5:"
for f in aa bad; do
	[ "$f" = aa ] && what=A/A || what=-6%
	awk -v w="$what" '{ n[$1]++; t++ } END {
		printf "  %-4s %d steps: bad %d, good %d, skip %d\n", w, t,
			n[1], n[0], n[125] }' "$tmp/$f"
done
echo "  mean runs per step: $runs (cap 40)"

# series LABEL STEP: 20 experiments of 3 runs, a step of STEP from the 11th
series() {
	for k in $(seq 1 20); do
		boots=$((boots + 1))
		if [ "$k" -ge 11 ]; then
			boot_level $((100000 + $2)) "$boots" > "$tmp/level"
		else
			boot_level 100000 "$boots" > "$tmp/level"
		fi
		"$CONTEND" run "$tmp/c.ini" --db "$tmp/h.db" --label "$1-$(printf %02d "$k")" \
			--quiet > /dev/null 2>&1
	done
}
sed -i 's/^repetitions = 10/repetitions = 3/' "$tmp/c.ini"
found=0 aa=0
i=0
while [ "$i" -lt "$SERIES" ]; do
	series "s$i" 3000
	series "a$i" 0
	"$CONTEND" history --db "$tmp/h.db" "s$i-*" --format json > "$tmp/s.json"
	"$CONTEND" history --db "$tmp/h.db" "a$i-*" --format json > "$tmp/a.json"
	found=$((found + $(python3 -c 'import json,sys
c = json.load(open(sys.argv[1]))["configs"][0]["change_points"]
print(int(any(abs(p["index"] - 10) <= 1 for p in c)))' "$tmp/s.json")))
	aa=$((aa + $(python3 -c 'import json,sys
print(int(len(json.load(open(sys.argv[1]))["configs"][0]["change_points"]) > 0))' "$tmp/a.json")))
	i=$((i + 1))
done
echo "history, 20 experiments of 3 runs, same spread:"
echo "  3% step at the 11th: found within one position in $found of $SERIES series"
echo "  no step: a change point in $aa of $SERIES series"
