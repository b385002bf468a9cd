# rocopy_setup.sh - sourced by tests/e2e_rocopy.sh and
# tests/faults/rocopy.sh: a WAL database whose log holds its experiment,
# on read-only media (a tmpfs remounted read-only: root only), in $ro;
# a private TMPDIR in $t; `blocked SIGNAL` and the checks of what is left.
# Needs $tmp, $CONTEND, die and fail; sets $mnt, to be unmounted on exit.
mnt=$tmp/ro
t=$tmp/t
mkdir "$mnt" "$t" || die "mkdir"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=16m tmpfs "$mnt" 2> /dev/null; then
	echo "$NAME: SKIP: read-only media cannot be made here (root and mount needed)"
	rmdir "$mnt"
	mnt=
	exit 0
fi
cat > "$tmp/b.ini" <<'INI'
[experiment]
name        = rocopy
repetitions = 150
warmup      = 0
runtime     = 1ms

[workload w]
type = noop
INI
w=$tmp/w.db
sed 's/= 150/= 1/' "$tmp/b.ini" > "$tmp/one.ini"
"$CONTEND" run "$tmp/one.ini" --db "$w" --quiet 2> /dev/null || die "first run"
# a connection held open (sqlite3 on a FIFO) keeps the commits in the -wal
mkfifo "$tmp/hold" || die "mkfifo"
sqlite3 "$w" < "$tmp/hold" > "$tmp/holder.out" 2>&1 &
holder=$!
exec 4> "$tmp/hold"
echo "SELECT 'open', count(*) FROM experiments;" >&4
i=0
until grep -q "^open" "$tmp/holder.out"; do
	i=$((i + 1))
	[ $i -lt 600 ] || die "the holding connection did not open"
	sleep 0.1
done
"$CONTEND" run "$tmp/b.ini" --db "$w" --quiet 2> /dev/null || die "run"
[ -s "$w-wal" ] || die "the runs are not in a write-ahead log"
cp "$w" "$w-wal" "$mnt/" && mount -o remount,ro "$mnt" ||
	die "cannot make the read-only file system"
exec 4>&-
wait "$holder"
holder=
ro=$mnt/w.db
mkfifo "$tmp/out" || die "mkfifo"

# copies: the read-only copies in $t, one a line
copies() { ls -d "$t"/contend-ro-[0-9]* 2> /dev/null; }

# a background command of a script ignores SIGINT and SIGQUIT: the
# reader gets them back (coreutils env), or those signals are not tried
dflt=
env --default-signal true 2> /dev/null && dflt="env --default-signal"

# blocked: `contend export` of $ro in the background, stopped writing to a
# pipe nobody reads (its 900 KB do not fit), its pid in $reader, once its
# copy (named for its pid) exists
blocked() {
	exec 3<> "$tmp/out"
	TMPDIR=$t $dflt "$CONTEND" export --db "$ro" > "$tmp/out" \
		2> "$tmp/err" &
	reader=$!
	i=0
	until copies | grep -q "/contend-ro-$reader-"; do
		i=$((i + 1))
		[ $i -lt 600 ] || die "no read-only copy made: $(cat "$tmp/err")"
		sleep 0.1
	done
}

# ended SIG: the reader, signalled with SIG, ended and left no copy
ended() {
	kill -s "$1" "$reader"
	wait "$reader"
	rc=$?
	exec 3>&-
	[ $rc -gt 128 ] || fail "SIG$1: the reader exited $rc, not by the signal"
	[ -z "$(copies)" ] || fail "SIG$1: left $(copies)"
}
