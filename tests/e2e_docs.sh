#!/bin/sh
# End-to-end: the documentation agrees with the binary.
#  1. docs/INI.md's generated block (between the contend list markers) is
#     exactly `contend list --format markdown`; fix with scripts/gen-docs.sh.
#     docs/USER-GUIDE.md's block of each command (between the contend help
#     CMD markers) is `contend help CMD`, indented (scripts/gen-docs.sh).
#  2. Every command of `contend --help` has a section in docs/contend.1,
#     and every option its `contend help CMD` usage names appears there.
#  3. docs/contend.1 renders without a warning (when groff is installed).
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
exit 0
