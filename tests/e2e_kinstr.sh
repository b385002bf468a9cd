#!/bin/sh
# e2e_kinstr.sh - asked means there (runner/kinstr/kinstr.h, docs/KLOCK.md
# "Choosing the instrument"): kernel_instruments = bpf where BPF cannot
# run is refused before any run, exit 2, nothing written, by run and dry
# run alike: for real as an unprivileged user (setpriv; skipped with the
# reason where this is not root or has no setpriv) and through the fake
# CONTEND_KBPF=off; `bpf, count` falls back and stores count, and the dry
# run names the same; and a resume stays one experiment
# (docs/RUNNING.md "Resuming"): another boot, kernel, instrument or
# contend version (faked in the stored meta) is refused, --force goes on
# and is recorded; an experiment merged from another database runs its
# stored prepare only with --allow-stored-commands.
NAME=e2e_kinstr
. "$(dirname "$0")/lib.sh"

cat > "$tmp/b.ini" <<'INI'
[experiment]
name               = kinstr
repetitions        = 2
warmup             = 0
runtime            = 20ms
kernel_instruments = bpf

[workload a]
type = noop
INI
sed 's/= bpf$/= bpf, count/' "$tmp/b.ini" > "$tmp/bc.ini"

# ---- refused, run and dry run alike (the fake of a host without BPF) ----
for how in "--db $tmp/off.db --quiet" --dry-run; do
	# shellcheck disable=SC2086
	CONTEND_KBPF=off "$CONTEND" run "$tmp/b.ini" $how > "$tmp/out" \
		2> "$tmp/err"
	expect "bpf faked away ($how): status" 2 "$?"
	grep -q "b.ini:6: kernel_instruments = bpf: nothing listed can run here (bpf: disabled by CONTEND_KBPF=off); run as root, or list a fallback" \
		"$tmp/err" || fail "bpf faked away ($how): $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "bpf faked away ($how): printed a plan"
done
[ -e "$tmp/off.db" ] && fail "bpf faked away: a database was written"

# ---- refused for real: an unprivileged user ----
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null 2>&1; then
	echo "$NAME: SKIP (unprivileged): needs root and setpriv to become nobody"
else
	mkdir "$tmp/nobody"
	chmod 755 "$tmp"
	chmod 777 "$tmp/nobody"
	cp "$tmp/b.ini" "$tmp/nobody/b.ini"
	for how in "--db $tmp/nobody/u.db --quiet" --dry-run; do
		# shellcheck disable=SC2086
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$CONTEND" run "$tmp/nobody/b.ini" $how \
			> /dev/null 2> "$tmp/err"
		rc=$?
		if grep -q "Permission denied" "$tmp/err"; then
			echo "$NAME: SKIP (unprivileged): nobody cannot reach $CONTEND"
			break
		fi
		expect "unprivileged ($how): status" 2 "$rc"
		grep -q "b.ini:6: kernel_instruments = bpf: nothing listed can run here (bpf: " \
			"$tmp/err" || fail "unprivileged ($how): $(cat "$tmp/err")"
	done
	[ -e "$tmp/nobody/u.db" ] && fail "unprivileged: a database was written"
fi

# ---- the fallback the file asks for ----
if [ "$("$CONTEND" run "$tmp/b.ini" --dry-run 2>/dev/null |
	sed -n 's/^kernel instrument: //p')" = bpf ] || true; then :; fi
CONTEND_KBPF=off "$CONTEND" run "$tmp/bc.ini" --dry-run > "$tmp/out" \
	2> "$tmp/err"
rc=$?
dry=$(sed -n 's/^kernel instrument: \([a-z]*\).*/\1/p' "$tmp/out")
CONTEND_KBPF=off "$CONTEND" run "$tmp/bc.ini" --db "$tmp/bc.db" --quiet \
	> /dev/null 2> "$tmp/err2"
rc2=$?
expect "dry run and run: the same status" "$rc" "$rc2"
if [ "$rc" = 2 ]; then
	# count cannot run here either: both said so, nothing written
	grep -q "bc.ini:6: kernel_instruments = bpf, count: nothing listed can run here (bpf: disabled by CONTEND_KBPF=off; count: " \
		"$tmp/err2" || fail "bpf, count refused: $(cat "$tmp/err2")"
	[ -e "$tmp/bc.db" ] && fail "bpf, count refused: a database was written"
	echo "$NAME: SKIP (fallback to count): $(cat "$tmp/err2")"
else
	expect "dry run: the fallback" count "$dry"
	expect "stored: the fallback" count "$(q "$tmp/bc.db" "SELECT value
		FROM experiment_meta WHERE key = 'kernel_lock_instrument'")"
	expect "stored: why not bpf" "bpf: disabled by CONTEND_KBPF=off" \
		"$(q "$tmp/bc.db" "SELECT value FROM experiment_meta
				   WHERE key = 'kernel_lock_fallback'")"
	expect "runs counted" 2 "$(q "$tmp/bc.db" "SELECT count(*) FROM samples
				    WHERE metric = 'klock_contended'")"
fi

# ---- the old variables are refused, not ignored ----
CONTEND_KBPF=on "$CONTEND" run "$tmp/bc.ini" --dry-run > /dev/null \
	2> "$tmp/err"
expect "CONTEND_KBPF=on: status" 2 "$?"
grep -q "CONTEND_KBPF is no longer read" "$tmp/err" ||
	fail "CONTEND_KBPF=on: $(cat "$tmp/err")"

# ---- resume stays one experiment ----
cat > "$tmp/r.ini" <<INI
[experiment]
name        = resume-one
order       = sequential
repetitions = 2
warmup      = 0
runtime     = 20ms

[workload a]
type    = noop
prepare = touch $tmp/prepared
INI
# an experiment whose last run is still to do, as an interrupted one
unfinish() {
	sqlite3 "$1" "PRAGMA foreign_keys = ON;
		UPDATE experiments SET status = 'interrupted';
		DELETE FROM samples WHERE run_id = (SELECT max(id) FROM runs);
		UPDATE runs SET status = 'planned'
		WHERE id = (SELECT max(id) FROM runs);" ||
		die "cannot unfinish $1"
}
meta() {
	sqlite3 "$1" "UPDATE experiment_meta SET value = '$3'
		      WHERE key = '$2'" || die "cannot set $2"
}
"$CONTEND" run "$tmp/r.ini" --db "$tmp/r.db" --quiet > /dev/null 2>&1 ||
	die "resume: the first run failed"
for key in boot_id kernel_release kernel_lock_instrument tool_version; do
	cp "$tmp/r.db" "$tmp/$key.db"
	unfinish "$tmp/$key.db"
	case $key in
	kernel_lock_instrument) meta "$tmp/$key.db" "$key" bpf ;;
	*) meta "$tmp/$key.db" "$key" other ;;
	esac
	"$CONTEND" run --resume 1 --db "$tmp/$key.db" --quiet > /dev/null \
		2> "$tmp/err"
	expect "resume, $key differs: status" 2 "$?"
	grep -q "not resumed: its runs would not be one experiment ($key " \
		"$tmp/err" || fail "resume, $key differs: $(cat "$tmp/err")"
	grep -q -- "--force" "$tmp/err" || fail "resume, $key: no --force named"
	expect "resume, $key differs: nothing run" 1 "$(q "$tmp/$key.db" \
		"SELECT count(*) FROM runs WHERE status = 'planned'")"
done
"$CONTEND" run --resume 1 --db "$tmp/boot_id.db" --quiet --force \
	> /dev/null 2> "$tmp/err" || fail "resume --force: $(cat "$tmp/err")"
expect "resume --force: done" 0 "$(q "$tmp/boot_id.db" \
	"SELECT count(*) FROM runs WHERE status = 'planned'")"
case $(q "$tmp/boot_id.db" "SELECT value FROM experiment_meta
			    WHERE key = 'resume_forced'") in
*"boot_id other, now "*) ;;
*) fail "resume --force: not recorded" ;;
esac
# the same session resumes unasked
cp "$tmp/r.db" "$tmp/same.db"
unfinish "$tmp/same.db"
"$CONTEND" run --resume 1 --db "$tmp/same.db" --quiet > /dev/null \
	2> "$tmp/err" || fail "resume, the same session: $(cat "$tmp/err")"

# ---- merged from another database: its stored prepare ----
cp "$tmp/r.db" "$tmp/src.db"
unfinish "$tmp/src.db"
"$CONTEND" merge "$tmp/merged.db" "$tmp/src.db" > /dev/null 2> "$tmp/err" ||
	die "merge: $(cat "$tmp/err")"
rm -f "$tmp/prepared"
"$CONTEND" run --resume 1 --db "$tmp/merged.db" --quiet > /dev/null \
	2> "$tmp/err"
expect "merged, resumed unasked: status" 2 "$?"
grep -q "was made elsewhere (merged from another database): resuming it runs the commands stored with it (the first: prepare = touch .*prepared); read its config, then resume with --allow-stored-commands" "$tmp/err" ||
	fail "merged, resumed unasked: $(cat "$tmp/err")"
[ -e "$tmp/prepared" ] && fail "merged: its prepare ran unasked"
"$CONTEND" run --resume 1 --db "$tmp/merged.db" --quiet \
	--allow-stored-commands > /dev/null 2> "$tmp/err" ||
	fail "merged, --allow-stored-commands: $(cat "$tmp/err")"
[ -e "$tmp/prepared" ] || fail "merged, allowed: its prepare did not run"
expect_status 2 run "$tmp/r.ini" --force --dry-run
# exec counts only what a run opens itself: bpf is the runner's
expect_status 2 exec noop --kernel-instrument bpf

[ "$fails" -eq 0 ]
