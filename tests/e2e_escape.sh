#!/bin/sh
# e2e_escape.sh - nothing from a database is code (issue #26, item 1).  A
# database whose names hold line breaks, quotes, backslashes, escape
# sequences and gnuplot commands (as a merged or received one can: the INI
# loader would refuse them) is plotted, reported as HTML and Markdown,
# merged and plotted again, compared and read by levels: no payload ever
# runs (no MARKER file appears), every gnuplot script keeps its shape, the
# HTML and Markdown stay well-formed, and no control byte of a name reaches
# the terminal.  Also: a link planted at NAME.gp.log is never read back,
# and compare --plot on a full disk (RLIMIT_FSIZE) fails instead of
# calling a truncated image written.
NAME=e2e_escape
. tests/lib.sh
cd "$tmp" || exit 1

cat > h.ini <<'EOF'
[experiment]
name        = hostile
repetitions = 2
warmup      = 0
seed        = 3

[workload w]
type    = noop
threads = 1, 2
runtime = 10ms

[workload v]
type    = noop
runtime = 10ms
EOF
for l in L1 L2; do
	"$CONTEND" run h.ini --db h.db --label $l --quiet >/dev/null 2>&1 ||
		die "run $l failed"
done
cp h.db clean.db

# ESC, BEL, line breaks, quotes and a backslash last in every kind of name.
sqlite3 h.db <<'EOF' || die "sqlite3 failed"
update configs set section = 'w' || char(10) || 'system("touch MARKER1")' ||
	char(10) || char(27) || '[31m<script>x</script>''"\' where section = 'w';
update configs set section = 'v' || char(10) || 'system("touch MARKER7")' ||
	char(27) || '[2J' where section = 'v';
update experiments set name = 'hostile' || char(27) || ']0;title' || char(7);
update experiments set label = 'L' || id || char(10) ||
	'system("touch MARKER2")' || char(27) || '[2J';
update experiment_meta set value = 'vm' || char(10) || 'system("touch MARKER3")'
	where key = 'hostname';
update experiment_meta set value = 'k\' || char(10) || '!touch MARKER4'
	where key = 'kernel_release';
update config_params set value = '100' || char(10) ||
	'system("touch MARKER5")' || char(27) || '[1m' where key = 'spin';
update configs set workload = 'noop' || char(27) || '[31m';
update samples set metric = 'vcsw' || char(10) || 'system("touch MARKER6")' ||
	char(27) || '[0m' where metric = 'vcsw';
EOF
name=$(printf 'hostile\033]0;title\007')

no_marker() {
	m=$(find "$tmp" -name 'MARKER*' | head -n 3)
	[ -z "$m" ] || fail "$1: a payload ran: $m"
}

# A script's every line is one contend writes: a comment, if/set/unset/
# plot, a continuation, the braces of the terminal block.
script_shape() {
	for gp in "$1"/*.gp; do
		bad=$(grep -v -E "^(# |if |    set |\} else \{$|\}$|set |unset |plot |  )" "$gp" | head -n 2)
		[ -z "$bad" ] || fail "$gp: a line that is no command of contend's: $bad"
		bad=$(grep '\\$' "$gp" | grep -v -E '(, |plot )\\$' | head -n 2)
		[ -z "$bad" ] || fail "$gp: a line ends in a backslash: $bad"
	done
}

# No control byte but the line break (and tab) in a file or an output.
no_controls() {
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$2"; then
		fail "$1: a control byte reached it: $(LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$2" | head -n 2 | od -c | head -n 3)"
	fi
}

# ---- plot ----
"$CONTEND" plot --db h.db 1 --out p > out 2> err
rc=$?
if command -v gnuplot >/dev/null 2>&1; then
	[ $rc = 0 ] || fail "plot: exit $rc: $(head -c 300 err)"
	[ -s p/lockdep-1.png ] || fail "plot: no lockdep-1.png"
	# Re-rendered by hand, as the comments say.
	for gp in p/*.gp; do
		(cd p && gnuplot -e "fmt='svg'" "$(basename "$gp")" >/dev/null 2>&1)
	done
fi
no_marker plot
script_shape p
no_controls "plot stdout" out
no_controls "plot stderr" err
grep -q 'skipped, section v\\n' out || fail "plot: the skipped section is not shown escaped: $(head -c 300 out)"
for f in p/*.gp p/*.dat; do
	no_controls "$f" "$f"
done
# Data-file headers hold metric names: still one comment line.
grep -q '^system' p/*.dat && fail "plot: a name started a line of data"

# ---- report --html and --markdown ----
"$CONTEND" report --db h.db 1 --html r1 > out 2> err ||
	fail "report --html: $(head -c 300 err)"
no_marker "report --html"
script_shape r1
no_controls "report.html" r1/report.html
grep -q -i '<script' r1/report.html && fail "report.html: a name opened a tag"
grep -q '&lt;script&gt;' r1/report.html || fail "report.html: the section name is not shown escaped"
"$CONTEND" report --db h.db 1 --markdown r2 > out 2> err ||
	fail "report --markdown: $(head -c 300 err)"
no_marker "report --markdown"
no_controls "report.md" r2/report.md
grep -q '^system' r2/report.md && fail "report.md: a name started a line"

# ---- merge, then plot what was merged ----
"$CONTEND" merge m.db h.db > out 2> err || fail "merge: $(head -c 300 err)"
"$CONTEND" merge m.db h.db > out2 2> err2 || fail "merge again: $(head -c 300 err2)"
no_controls "merge stdout" out
no_controls "merge notices" err2
grep -q 'already in' err2 || fail "merge: no 'already in' notice: $(head -c 300 err2)"
"$CONTEND" plot --db m.db 1 --out pm > out 2> err
no_marker "plot after merge"
script_shape pm

# ---- the invocations figure of both experiments ----
"$CONTEND" plot --db h.db "$name" --out pl > out 2> err
no_marker "plot of the invocations"
# One level per label: a directory each.
for d in pl/*/; do
	script_shape "$d"
done
[ -n "$(ls pl/*/invocations.gp 2>/dev/null)" ] || fail "plot of the invocations: no script"
no_controls "plot of the invocations: stdout" out
no_controls "plot of the invocations: stderr" err
grep -q 'invocations of hostile\\x1b' out || fail "plot of the invocations: the name is not shown escaped: $(head -c 300 out)"

# ---- the terminal: compare, levels, report, selector errors ----
"$CONTEND" compare --db h.db 1 2 > out 2> err
no_controls "compare stdout" out
no_controls "compare stderr" err
"$CONTEND" levels --db h.db "$name" > out 2> err
no_controls "levels stdout" out
no_controls "levels stderr" err
grep -q 'level hostile\\x1b' out || fail "levels: the name is not shown escaped: $(head -c 300 out)"
"$CONTEND" report --db h.db 1 > out 2> err
no_controls "report stdout" out
"$CONTEND" report --db h.db "$(printf 'x\033[2Jy')" > out 2> err
no_controls "selector error" err
"$CONTEND" report --db h.db "1@$(printf 'k\033[2J')=v" > out 2> err
no_controls "filter error" err
# Errors that list what a database has.
"$CONTEND" compare --db h.db 1 2 --metric nope > out 2> err
no_controls "compare: a metric it does not have" err
"$CONTEND" report --db h.db 1 --metrics nope > out 2> err
no_controls "report --metrics: a metric it does not have" err
grep -q 'vcsw\\nsystem' err || fail "report --metrics: the metric names are not shown escaped: $(head -c 300 err)"
no_marker "terminal"

# ---- gnuplot's messages: never read back through a planted link ----
mkdir -p fake/bin lg
printf 'SECRET-CONTENT\n' > secret
cat > fake/bin/gnuplot <<'EOF'
#!/bin/sh
echo "fake gnuplot: line 1: error" >&2
exit 1
EOF
chmod +x fake/bin/gnuplot
for f in lockdep-1 contention-1 order distribution fairness; do
	ln -s "$tmp/secret" "lg/$f.gp.log"
done
PATH="$tmp/fake/bin:$PATH" "$CONTEND" plot --db clean.db 1 --out lg > out 2> err
rc=$?
expect "plot with a failing gnuplot: exit" 1 "$rc"
grep -q SECRET-CONTENT out err && fail "a link at NAME.gp.log was read back"
grep -q 'fake gnuplot: line 1: error' err ||
	fail "gnuplot's messages are not shown: $(head -c 300 err)"

# ---- compare --plot on a full disk: an error, not "written" ----
if command -v gnuplot >/dev/null 2>&1; then
	printf '100\n102\n98\n101\n99\n' > a.txt
	printf '110\n112\n109\n111\n113\n' > b.txt
	# 16 blocks of 512 bytes (8 KiB, POSIX sh): the script and data fit,
	# an image does not; SIGXFSZ ignored, so a write fails with EFBIG.
	(ulimit -f 16 && trap '' XFSZ &&
		exec "$CONTEND" compare a.txt b.txt --plot full > out 2> err)
	rc=$?
	[ $rc != 0 ] || fail "compare --plot on a full disk: exit 0"
	grep -q 'written' err && fail "compare --plot on a full disk says written: $(cat err)"
	for f in full/compare.png full/compare.svg; do
		[ ! -e "$f" ] || fail "$f left behind (truncated) on a full disk"
	done
	[ -z "$(ls -A full | grep '^\.')" ] || fail "a temporary was left in full/"
fi
[ "$fails" -eq 0 ]
