#!/bin/sh
# e2e_storedpath.sh - a received database names a file (the experiment's
# stored config_path) and compare shows it, never opens it (issue 37,
# item 1): its calibrate hint is the same whether the named file holds
# the experiment's config text, other text, is missing, a FIFO with no
# writer, or /proc/kmsg (which blocked compare once the log was drained);
# a name with a control byte or longer than 1 KiB is not shown.  The
# system-call audit of every reading command is tests/faults/storedpath.sh.
NAME=e2e_storedpath
. tests/lib.sh
command -v sqlite3 > /dev/null || { echo "$NAME: SKIP: sqlite3 not found"; exit 0; }
command -v timeout > /dev/null || { echo "$NAME: SKIP: timeout not found"; exit 0; }

cat > "$tmp/c.ini" <<'INI'
[experiment]
name        = storedpath
repetitions = 3
warmup      = 0
runtime     = 1ms

[workload w]
type = noop
INI
db=$tmp/s.db
for l in base base cand cand; do
	"$CONTEND" run "$tmp/c.ini" --db "$db" --label $l --quiet \
		> /dev/null 2>&1 || die "run $l"
done
got=$(q "SELECT DISTINCT config_path FROM experiments")
expect "the config's path stored absolute" "$tmp/c.ini" "$got"

# hint PATH: compare's calibrate hint with every config_path set to PATH
hint() {
	sqlite3 "$db" "UPDATE experiments SET config_path = '$1'" ||
		die "sqlite3"
	timeout 60 "$CONTEND" compare base cand --db "$db" > "$tmp/cmp" \
		2> "$tmp/err"
	rc=$?
	[ $rc = 0 ] || fail "config_path $1: compare exited $rc: $(cat "$tmp/err")"
	grep -o '`contend calibrate [^`]*`' "$tmp/cmp"
}

want="\`contend calibrate $tmp/x.ini --db $db\`"
cp "$tmp/c.ini" "$tmp/x.ini"
expect "the same text" "$want" "$(hint "$tmp/x.ini")"
echo "[experiment]" > "$tmp/x.ini"
expect "another text" "$want" "$(hint "$tmp/x.ini")"
rm -f "$tmp/x.ini"
expect "a missing file" "$want" "$(hint "$tmp/x.ini")"
mkfifo "$tmp/x.ini" || die "mkfifo"
expect "a FIFO" "$want" "$(hint "$tmp/x.ini")"
expect "/proc/kmsg" "\`contend calibrate /proc/kmsg --db $db\`" \
	"$(hint /proc/kmsg)"
# a newline in the name: not shown (it would break the hint's line)
expect "a control byte" "" "$(hint "$tmp/a'||char(10)||'b.ini")"
long=$(printf '%01100d' 0)
expect "a name over 1 KiB" "" "$(hint "/$long")"

[ "$fails" -eq 0 ]
