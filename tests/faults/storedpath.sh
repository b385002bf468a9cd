#!/bin/sh
# storedpath.sh - a received database cannot make contend open, read or
# run a file it names (issue 37, item 1).  Every path a database stores
# (the experiment's config_path, host facts that are paths: cpuset,
# affinity, a kstate value) is set to each of: /proc/kmsg (blocked
# compare once the log was drained, and stole records from the system
# logger), a FIFO with no writer, /dev/zero, a symlink to a readable
# file, a 4 GiB sparse file, a file holding the experiment's config text
# (the equality oracle).  Every reading command (report, report --levels,
# levels, export, plot, compare, history, merge from it) must end within
# its timeout, and strace must show no system call of its, or of a child,
# naming the path.  Without strace only the timeouts are checked.
NAME=storedpath
. tests/faults/lib.sh
command -v timeout > /dev/null || die "timeout is missing"
tracer=
if command -v strace > /dev/null && strace -f -qq -o /dev/null true 2> /dev/null; then
	tracer=yes
else
	note "strace cannot trace here: the timeouts only"
fi

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
	"$C" run "$tmp/c.ini" --db "$db" --label $l --quiet > /dev/null 2>&1 ||
		die "run $l"
done

mkfifo "$tmp/fifo" || die "mkfifo"
echo "a readable file" > "$tmp/target"
ln -s "$tmp/target" "$tmp/link" || die "ln"
truncate -s 4G "$tmp/huge" 2> /dev/null || : > "$tmp/huge"
cp "$tmp/c.ini" "$tmp/same.ini"
mkdir "$tmp/plots"

# audit PATH WHAT ARGS...: contend ARGS ends in time and names PATH in
# no system call
audit() {
	p=$1 what=$2
	shift 2
	if [ -n "$tracer" ]; then
		timeout 120 strace -f -qq -e trace=%file,%desc -o "$tmp/trace" \
			"$C" "$@" > /dev/null 2> "$tmp/err"
	else
		timeout 120 "$C" "$@" > /dev/null 2> "$tmp/err"
	fi
	rc=$?
	[ $rc = 124 ] && fail "$what: contend $1 blocked (timeout) on $p"
	[ $rc -gt 2 ] && [ $rc != 124 ] && fail "$what: contend $1 exited $rc: $(head -c 300 "$tmp/err")"
	# the trace shows the database opened, or it shows nothing
	[ -n "$tracer" ] && ! grep -qF "\"$db" "$tmp/trace" &&
		fail "$what: strace saw no open of the database"
	if [ -n "$tracer" ] && grep -F "\"$p" "$tmp/trace" > "$tmp/hits"; then
		fail "$what: contend $1 touched $p: $(head -n 3 "$tmp/hits")"
	fi
}

for p in /proc/kmsg "$tmp/fifo" /dev/zero "$tmp/link" "$tmp/huge" "$tmp/same.ini"; do
	sqlite3 "$db" "UPDATE experiments SET config_path = '$p';
		INSERT OR REPLACE INTO experiment_meta
			SELECT id, k, '$p' FROM experiments,
			(SELECT 'cpuset' AS k UNION ALL SELECT 'affinity'
			 UNION ALL SELECT 'kstate.tracing_on');" ||
		die "sqlite3"
	rm -rf "$tmp/plots"/* "$tmp/m.db"
	audit "$p" report report --db "$db" base
	audit "$p" "report --levels" report --levels --db "$db" base
	audit "$p" levels levels --db "$db" base
	audit "$p" export export --db "$db"
	audit "$p" plot plot --db "$db" base --out "$tmp/plots"
	audit "$p" compare compare base cand --db "$db"
	audit "$p" "compare json" compare base cand --db "$db" --format json
	audit "$p" history history --db "$db" storedpath
	audit "$p" merge merge "$tmp/m.db" "$db"
done
integrity "$db"
exit $failed
