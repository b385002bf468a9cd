#!/bin/sh
# Regenerates the generated parts of the documentation from the binary, so
# they cannot drift from the code: the workload parameter tables of
# docs/INI.md, between the markers
#   <!-- BEGIN contend list --format markdown ... -->
#   <!-- END contend list -->
# are replaced by the output of `contend list --format markdown`.
# tests/e2e_docs.sh (make check) fails when they differ.
#
# usage: sh scripts/gen-docs.sh [CONTEND]      (default ./contend)
set -eu
CONTEND=${1:-${CONTEND:-./contend}}
doc=docs/INI.md
begin='^<!-- BEGIN contend list --format markdown'
end='^<!-- END contend list -->'

[ -x "$CONTEND" ] || { echo "gen-docs: $CONTEND is not executable (run make)" >&2; exit 1; }
grep -q "$begin" "$doc" && grep -q "$end" "$doc" ||
	{ echo "gen-docs: $doc has no BEGIN/END contend list markers" >&2; exit 1; }

tmp=$(mktemp)
gen=$(mktemp)
trap 'rm -f "$tmp" "$gen"' EXIT
"$CONTEND" list --format markdown >"$gen"
# Keep the marker lines, drop what is between them, put the output there.
awk -v begin="$begin" -v end="$end" -v gen="$gen" '
	$0 ~ begin { print; while ((getline l < gen) > 0) print l; skip = 1; next }
	$0 ~ end { skip = 0 }
	!skip { print }' "$doc" >"$tmp"
if cmp -s "$tmp" "$doc"; then
	echo "gen-docs: $doc is up to date"
else
	cat "$tmp" >"$doc"
	echo "gen-docs: $doc regenerated"
fi
