#!/bin/sh
# e2e_futexhash.sh - futex_hash_slots through the real binary: a value
# that is not a power of two is refused at its line (exit 2, nothing
# written); `futex_hash_slots = 16, 256` stores 16 and 256 as each run's
# futex_hash_slots; compare flags two experiments whose stored slots
# differ (futex-hash-differs) and not two that agree.  The runs need a
# kernel with the private futex hash (Linux 6.16, CONFIG_FUTEX_PRIVATE_HASH):
# elsewhere those steps are skipped with the reason.
NAME=e2e_futexhash
. "$(dirname "$0")/lib.sh"
db=$tmp/f.db

ini() { # LABEL SLOTS
	cat > "$tmp/$1.ini" <<EOF2
[experiment]
name        = fh
repetitions = 3
warmup      = 0
seed        = 5

[workload m]
type             = futex-mutex
threads          = 2
futex_hash_slots = $2
jobs             = 2000
EOF2
}

# 48 is no size the kernel takes: refused at line 10, nothing written.
ini bad "16, 48"
"$CONTEND" run "$tmp/bad.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err"
expect "48 slots: exit status" 2 $?
grep -q "bad.ini:10: \[workload m\] futex_hash_slots: 48 is not 0 or a power of two" \
	"$tmp/err" || fail "48 not refused at its line: $(cat "$tmp/err")"
[ -e "$db" ] && fail "a refused file wrote $db"

# Does this kernel have the private hash?  exec prints what the run got.
"$CONTEND" exec futex-mutex threads=2 jobs=100 > "$tmp/exec" 2>&1 ||
	die "exec failed: $(cat "$tmp/exec")"
if ! grep -q '^futex_hash_slots ' "$tmp/exec"; then
	echo "$NAME: SKIP: runs: this kernel ($(uname -r)) has no private" \
	     "futex hash (Linux 6.16 with CONFIG_FUTEX_PRIVATE_HASH)"
	[ "$fails" -eq 0 ]
	exit
fi

# 16, 256: each run stores the slots its configuration asked for.
ini sweep "16, 256"
"$CONTEND" run "$tmp/sweep.ini" --db "$db" --label sweep --quiet \
	> /dev/null 2>&1 || die "run of 16, 256 failed"
expect "runs ok" 6 "$(q "SELECT count(*) FROM runs WHERE status = 'ok'")"
expect "each run's slots are its configuration's" 6 "$(q "
	SELECT count(*) FROM runs r
	JOIN config_params p ON p.config_id = r.config_id
		AND p.key = 'futex_hash_slots'
	JOIN samples s ON s.run_id = r.id AND s.metric = 'futex_hash_slots'
	WHERE r.status = 'ok' AND s.value = CAST(p.value AS REAL)")"
expect "the slots stored" "16 256" "$(q "SELECT DISTINCT CAST(value AS INT)
	FROM samples WHERE metric = 'futex_hash_slots' ORDER BY 1" | tr '\n' ' ' |
	sed 's/ $//')"
expect "set, not automatic" 0 "$(q "SELECT max(value) FROM samples
	WHERE metric = 'futex_hash_auto'" | sed 's/\.0$//')"

# auto: the kernel's size, marked automatic
ini auto auto
"$CONTEND" run "$tmp/auto.ini" --db "$db" --label auto --quiet \
	> /dev/null 2>&1 || die "run of auto failed"
expect "auto runs marked automatic" 3 "$(q "SELECT count(*) FROM samples s
	JOIN runs r ON r.id = s.run_id JOIN experiments e
	ON e.id = r.experiment_id WHERE e.label = 'auto'
	AND s.metric = 'futex_hash_auto' AND s.value = 1")"

# Two experiments of 16 and one of 256: compare across the parameter.
ini s16 16
ini s256 256
for l in s16 s16b; do
	"$CONTEND" run "$tmp/s16.ini" --db "$db" --label $l --quiet \
		> /dev/null 2>&1 || die "run $l failed"
done
"$CONTEND" run "$tmp/s256.ini" --db "$db" --label s256 --quiet \
	> /dev/null 2>&1 || die "run s256 failed"
"$CONTEND" compare --db "$db" s16@futex_hash_slots=16 \
	s256@futex_hash_slots=256 --format json > "$tmp/c.json" 2> "$tmp/err"
grep -q '"name": *"futex-hash-differs"' "$tmp/c.json" ||
	fail "16 vs 256 not flagged: $(head -c 600 "$tmp/c.json")"
grep -q 'baseline 16 slots, candidate 256 slots' "$tmp/c.json" ||
	fail "the flag does not give both sizes"
"$CONTEND" compare --db "$db" s16@futex_hash_slots=16 \
	s256@futex_hash_slots=256 > "$tmp/c.txt" 2>&1
grep -q 'futex-hash-differs' "$tmp/c.txt" ||
	fail "the text output does not name the flag"
"$CONTEND" compare --db "$db" s16 s16b --format json > "$tmp/same.json" \
	2> "$tmp/err"
grep -q 'futex-hash-differs' "$tmp/same.json" &&
	fail "16 vs 16 flagged"

[ "$fails" -eq 0 ] && echo "$NAME: futex_hash_slots = 16, 256 stores 16 and 256 per run; compare flags 16 against 256, not 16 against 16"
[ "$fails" -eq 0 ]
