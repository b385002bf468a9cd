#!/bin/sh
# End-to-end: the documentation agrees with the binary.
#  1. docs/INI.md's generated block (between the contend list markers) is
#     exactly `contend list --format markdown`; fix with scripts/gen-docs.sh.
#     docs/USER-GUIDE.md's block of each command (between the contend help
#     CMD markers) is `contend help CMD`, indented (scripts/gen-docs.sh).
#  2. Every command of `contend --help` has a section in docs/contend.1,
#     and every option its `contend help CMD` usage names appears there.
#  3. docs/contend.1 renders without a warning (when groff is installed).
#  4. Every path of the tree that docs/ARCHITECTURE.md or docs/STYLE.md
#     names exists (placeholders such as cmd_NAME.c aside), so the map
#     cannot point at a file that was split or renamed.
#  5. Every citation of a section in the sources, scripts and docs, as
#     (docs/RUNNING.md, "Calibration"), names a heading of that file that
#     starts with the quoted words.
#  6. Every `$ contend exec ...` example of docs/RUNNING.md runs as
#     printed (its directory /mnt/test/dir replaced by a temporary one):
#     its parameters are accepted, whatever the run then does.
set -u
CONTEND=${CONTEND:-./contend}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "e2e_docs: FAIL: $*" >&2; exit 1; }

# 1. generated tables
sed -n '/^<!-- BEGIN contend list --format markdown/,/^<!-- END contend list -->/p' \
	docs/INI.md | sed '1d;$d' >"$tmp/block"
[ -s "$tmp/block" ] || fail "docs/INI.md: no generated block between the contend list markers"
"$CONTEND" list --format markdown >"$tmp/live" || fail "contend list --format markdown failed"
diff -u "$tmp/block" "$tmp/live" >"$tmp/diff" ||
	fail "docs/INI.md differs from 'contend list --format markdown'; run sh scripts/gen-docs.sh
$(head -20 "$tmp/diff")"

# 1b. each command's usage and options in the user guide
guide=docs/USER-GUIDE.md
for c in $("$CONTEND" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
	sed -n "/^<!-- BEGIN contend help $c -->/,/^<!-- END contend help $c -->/p" \
		"$guide" | sed '1d;$d' >"$tmp/block"
	[ -s "$tmp/block" ] || fail "$guide: no generated block between the contend help $c markers"
	{ echo; "$CONTEND" help "$c" | sed 's/^./    &/'; echo; } >"$tmp/live"
	diff -u "$tmp/block" "$tmp/live" >"$tmp/diff" ||
		fail "$guide differs from 'contend help $c'; run sh scripts/gen-docs.sh
$(head -20 "$tmp/diff")"
done

# 2. man page vs the command table.  groff renders \- as '-' with -Tascii;
# without groff, read the source with the roff escapes taken out.
man=docs/contend.1
[ -f "$man" ] || fail "$man is missing"
if command -v groff >/dev/null 2>&1; then
	groff -man -Tascii -ww "$man" 2>"$tmp/warn" | col -b >"$tmp/man.txt" ||
		fail "groff could not render $man"
	[ -s "$tmp/warn" ] && fail "groff warns on $man: $(head -5 "$tmp/warn")"
else
	echo "e2e_docs: groff not installed: checking $man unrendered"
	sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(em/--/g' "$man" >"$tmp/man.txt"
fi
cmds=$("$CONTEND" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
[ -n "$cmds" ] || fail "contend --help lists no commands"
for c in $cmds; do
	grep -q "^ *contend $c" "$tmp/man.txt" || fail "$man has no synopsis for 'contend $c'"
	"$CONTEND" help "$c" >"$tmp/usage" || fail "contend help $c failed"
	for o in $(grep -o -- '--[a-z][a-z-]*' "$tmp/usage" | sort -u); do
		grep -q -- "$o" "$tmp/man.txt" ||
			fail "$man does not mention $o (from 'contend help $c')"
	done
done

# 4. the map of the tree
missing=
for doc in docs/ARCHITECTURE.md docs/STYLE.md; do
	[ -f "$doc" ] || fail "$doc is missing"
	# The unquoted $(...) expands a pattern (runner/config*.c); one that
	# matches nothing stays as written, and is reported.
	for p in $(grep -oE '(lib|db|runner|analysis|plots|cli|tests|scripts|bench|configs|docs)/[A-Za-z0-9_./*-]*[A-Za-z0-9_/*]' "$doc" | sort -u); do
		case $p in *NAME* | *MODULE*) continue ;; esac
		[ -e "$p" ] || missing="$missing $doc:$p"
	done
done
[ -z "$missing" ] || fail "paths named in the docs but not in the tree:$missing"

# 5. citations of a section
grep -rhoE 'docs/[A-Za-z-]+\.md,? "[A-Za-z`][^"]*"' --include='*.[ch]' --include='*.sh' \
	--include='*.md' --include=Makefile lib db runner analysis plots cli \
	tests scripts bench docs Makefile README.md | sort -u >"$tmp/cites"
while IFS= read -r c; do
	file=${c%%.md*}.md
	sec=${c#*\"}
	sec=${sec%\"}
	[ -f "$file" ] || fail "citation $c: $file is not in the tree"
	awk -v s="$sec" '/^#+ / { sub(/^#+ /, ""); if (index($0, s) == 1) found = 1 }
		END { exit !found }' "$file" || fail "citation $c: $file has no section \"$sec\""
done <"$tmp/cites"

# 6. the `contend exec` examples
mkdir -p "$tmp/scratch"
grep '^\$ contend exec ' docs/RUNNING.md | sed 's/^\$ contend //; s/ *#.*//' >"$tmp/execs"
[ -s "$tmp/execs" ] || fail "docs/RUNNING.md: no '\$ contend exec' example"
while IFS= read -r line; do
	# shellcheck disable=SC2086 # the example's words, as a shell splits them
	set -- $(echo "$line" | sed "s|/mnt/test/dir|$tmp/scratch|g")
	"$CONTEND" "$@" >/dev/null 2>"$tmp/exec.err" </dev/null
	st=$?
	[ "$st" -ne 2 ] && ! grep -q 'unknown parameter' "$tmp/exec.err" ||
		fail "docs/RUNNING.md: 'contend $line' is refused (exit $st): $(head -3 "$tmp/exec.err")"
done <"$tmp/execs"
exit 0
