#!/bin/sh
# Regenerates the generated parts of the documentation from the binary, so
# they cannot drift from the code:
#  - the workload parameter tables of docs/INI.md, between the markers
#      <!-- BEGIN contend list --format markdown ... -->
#      <!-- END contend list -->
#    are the output of `contend list --format markdown`;
#  - every command's usage and options in docs/USER-GUIDE.md, between
#      <!-- BEGIN contend help CMD -->
#      <!-- END contend help CMD -->
#    are `contend help CMD` (from the command's option table), indented
#    as a code block;
#  - the flag table (docs/USER-GUIDE.md, "Every flag at a glance"),
#    between
#      <!-- BEGIN flag table (analysis/flags.c) -->
#      <!-- END flag table -->
#    is the table of analysis/flags.c in markdown, as
#    `build/tests/test_flagtab --markdown` prints it.
# tests/e2e_docs.sh and tests/test_flagtab.c (make check) fail when they
# differ.
#
# usage: sh scripts/gen-docs.sh [CONTEND]      (default ./contend)
set -eu
CONTEND=${1:-${CONTEND:-./contend}}
FLAGTAB=${BUILD:-build}/tests/test_flagtab

[ -x "$CONTEND" ] || { echo "gen-docs: $CONTEND is not executable (run make)" >&2; exit 1; }
[ -x "$FLAGTAB" ] || { echo "gen-docs: $FLAGTAB is not executable (run make $FLAGTAB)" >&2; exit 1; }

tmp=$(mktemp)
gen=$(mktemp)
trap 'rm -f "$tmp" "$gen"' EXIT

# splice DOC BEGIN END: the lines between the markers become $gen's.
splice() {
	grep -q "$2" "$1" && grep -q "$3" "$1" ||
		{ echo "gen-docs: $1 has no markers $2 ... $3" >&2; exit 1; }
	# Keep the marker lines, drop what is between them, put $gen there.
	awk -v begin="$2" -v end="$3" -v gen="$gen" '
		$0 ~ begin { print; while ((getline l < gen) > 0) print l; skip = 1; next }
		$0 ~ end { skip = 0 }
		!skip { print }' "$1" >"$tmp"
	if cmp -s "$tmp" "$1"; then
		echo "gen-docs: $1 ($2) is up to date"
	else
		cat "$tmp" >"$1"
		echo "gen-docs: $1 ($2) regenerated"
	fi
}

"$CONTEND" list --format markdown >"$gen"
splice docs/INI.md '^<!-- BEGIN contend list --format markdown' '^<!-- END contend list -->'

for c in $("$CONTEND" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
	{ echo; "$CONTEND" help "$c" | sed 's/^./    &/'; echo; } >"$gen"
	splice docs/USER-GUIDE.md "^<!-- BEGIN contend help $c -->" "^<!-- END contend help $c -->"
done

"$FLAGTAB" --markdown >"$gen"
splice docs/USER-GUIDE.md '^<!-- BEGIN flag table' '^<!-- END flag table -->'
