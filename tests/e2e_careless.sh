#!/bin/sh
# e2e_careless.sh - what a careless or hostile user did to contend (issue
# 20), each refused clearly or survived:
#  - `--db ''` is a usage error (exit 2) for every command, nothing stored;
#  - a FIFO, or anything else not a regular file, as the database is
#    refused at once (exit 2), never waited on;
#  - symlinks planted in an output directory (plot --out, report --html,
#    report --markdown) are replaced, their targets never written;
#  - exec creat --scratch DIR deletes none of DIR's files;
#  - a database whose user_version is negative is not a contend schema;
#  - messages: a file that is not executable as argv, cpus that are not
#    online, plot --x naming no parameter, too few file descriptors.
NAME=e2e_careless
. tests/lib.sh
cd "$tmp" || die "cd $tmp"

cat > k.ini <<'INI'
[experiment]
name        = careless
repetitions = 4
warmup      = 0
runtime     = 5ms

[workload w]
type    = noop
threads = 1, 2
INI
db=$tmp/k.db
"$CONTEND" run k.ini --db "$db" --quiet > /dev/null 2>&1 || die "the experiment failed"

# refused WANT_STATUS PATTERN CMD...: CMD exits WANT_STATUS within 20 s
# with PATTERN in its messages.
refused() {
	want=$1 pat=$2
	shift 2
	timeout 20 "$CONTEND" "$@" > out 2> err
	got=$?
	[ "$got" = "$want" ] || fail "'contend $*' exited $got, not $want: $(cat err)"
	grep -q -- "$pat" err || fail "'contend $*': want '$pat' in: $(cat err)"
}

# ---- --db '' ----
for cmd in "run k.ini" "report" "export" "plot"; do
	# shellcheck disable=SC2086 # the command's words
	refused 2 "the database path is empty" $cmd --db ''
done
refused 2 "the database path is empty" run --resume 1 --db ''
refused 2 "no database at  (use --db" compare a b --db ''
refused 2 "the database path is empty" merge '' "$db"
refused 2 "the database path is empty" merge out.db ''
[ ! -e out.db ] || fail "merge with an empty input wrote out.db"

# ---- a FIFO, a device ----
mkfifo fifo.db
for cmd in "run k.ini" "report" "export" "plot"; do
	# shellcheck disable=SC2086
	refused 2 "fifo.db: not a regular file (a FIFO)" $cmd --db fifo.db
done
refused 2 "'fifo.db' is not a contend database" compare fifo.db:1 "$db:1"
refused 2 "not a regular file (a FIFO)" merge out.db fifo.db
refused 2 "not a regular file (a FIFO)" merge fifo.db "$db"
refused 2 "/dev/null: not a regular file (a device)" report --db /dev/null

# ---- user_version = -1 ----
cp "$db" neg.db
sqlite3 neg.db 'PRAGMA user_version = -1'
refused 2 "neg.db: not a contend database (schema version -1)" report --db neg.db
refused 2 "not a contend database (schema version -1)" run k.ini --db neg.db

# ---- planted symlinks ----
echo precious > target
for d in plots html md; do
	mkdir "$d"
	for f in order.dat order.gp order.png order.svg report.html report.md; do
		ln -s "$tmp/target" "$d/$f"
	done
done
"$CONTEND" plot --db "$db" --out plots > out 2> err ||
	fail "plot into a directory of symlinks: $(cat err)"
"$CONTEND" report --db "$db" --html html > out 2> err ||
	fail "report --html into a directory of symlinks: $(cat err)"
"$CONTEND" report --db "$db" --markdown md > out 2> err ||
	fail "report --markdown into a directory of symlinks: $(cat err)"
expect "the symlinks' target" precious "$(cat target)"
for f in plots/order.dat plots/order.gp html/report.html md/report.md; do
	[ -f "$f" ] && [ ! -L "$f" ] || fail "$f is not a new regular file"
done
grep -q '<html' html/report.html || fail "html/report.html holds no report"
command -v gnuplot > /dev/null 2>&1 && { [ ! -L plots/order.png ] ||
	fail "plots/order.png is still the planted symlink"; }
ls -a plots html md | grep -q '^\.[a-z].*\.......$' &&
	fail "temporaries left behind: $(ls -a plots html md)"

# ---- exec creat --scratch DIR ----
mkdir scratch
touch scratch/p0 scratch/p1 scratch/p0.1 scratch/mine
for reuse in yes no; do
	"$CONTEND" exec creat processes=2 runtime=20ms reuse=$reuse \
		--scratch scratch > out 2> err ||
		fail "exec creat reuse=$reuse: $(cat err)"
done
expect "files of the scratch directory" "mine p0 p0.1 p1" \
	"$(ls scratch | tr '\n' ' ' | sed 's/ $//')"

# ---- messages ----
cat > pw.ini <<'INI'
[experiment]
name = pw
[workload c]
type = command
argv = /etc/passwd
INI
refused 2 "pw.ini:5: \[workload c\] argv: '/etc/passwd' is not executable" run pw.ini --db pw.db
cat > cpus.ini <<'INI'
[experiment]
name = cpus
[workload c]
type = noop
cpus = 0, 1023
INI
refused 2 "cpus.ini:5: cpus: cpu 1023 is not online here (contend may run on cpus " run cpus.ini --db cpus.db
[ ! -e pw.db ] && [ ! -e cpus.db ] || fail "a refused config created its database"
printf '[experiment]\nname = z\n[workload c]\ntype = noop\nthr\342\200\213eads = 2\n' > zw.ini
refused 2 "zw.ini:5: unknown key 'thr\\\\u200beads'" run zw.ini --db zw.db
refused 2 "plot: --x BOGUS: experiment 1 has no such parameter (it has: threads" plot --db "$db" --x BOGUS --out xp
grep -q written out && fail "plot --x BOGUS said written: $(cat out)"
# Few descriptors: 5 leaves the database's own open without one.
(ulimit -n 5; exec "$CONTEND" run k.ini --db fd.db --quiet) > out 2> err
grep -qi "too many open files" err || fail "ulimit -n 5: no 'too many open files' in: $(cat err)"

[ "$fails" -eq 0 ]
