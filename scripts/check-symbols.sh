#!/bin/sh
# check-symbols.sh - every external symbol of the product earns its
# linkage.  A function or object defined with external linkage in a file
# of lib/, db/, runner/, analysis/, plots/ or cli/ must be used by
# another file of the product, or be a tested seam: used in its own file
# and called by a test.  Otherwise one of these is printed, with its
# file, and the script exits 1 (docs/ARCHITECTURE.md, "Layers"):
#   only-tests  no product file uses it, a test does: product code that
#               exists only for its tests (move it into the tests)
#   file-local  only its own file uses it: make it static
#   unused      nothing uses it: delete it
# Definitions and uses across files are read from the objects with nm,
# so the tree must be built first (make lint-symbols does); uses inside
# the defining file, and by tests/ and bench/, are read from the source.
# scripts/symbols-allow.txt names the few injection seams kept for the
# tests (a fake's setter): one "SYMBOL reason" a line, skipped here.
#
#   sh scripts/check-symbols.sh
set -u
BUILD=${BUILD:-build}
tab=$(mktemp)
trap 'rm -f "$tab"' EXIT
for src in lib/*.c db/*.c runner/*.c runner/*/*.c analysis/*.c plots/*.c \
	cli/*.c; do
	case $src in *.bpf.c) continue ;; esac # the BPF program's globals
	[ -f "$src" ] || continue
	obj=$BUILD/${src%.c}.o
	if [ ! -f "$obj" ]; then
		echo "check-symbols: $obj missing (build first)" >&2
		exit 2
	fi
	nm -g --defined-only "$obj" |
		awk -v f="$src" 'NF >= 3 && $2 ~ /[TDBR]/ { print "D", f, $3 }'
	nm -u "$obj" | awk -v f="$src" '{ print "U", f, $NF }'
done > "$tab"
bad=0
# the symbols no other product object refers to, as "FILE SYMBOL"
awk '$1 == "D" { def[$3] = $2; next }
	{ use[$3] = use[$3] " " $2 }
	END {
		for (s in def) {
			if (s == "main")
				continue
			n = split(use[s], u, " "); other = 0
			for (i = 1; i <= n; i++)
				if (u[i] != def[s])
					other = 1
			if (!other)
				print def[s], s
		}
	}' "$tab" | sort > "$tab.lone"
allow=scripts/symbols-allow.txt
while read -r file sym; do
	if [ -f $allow ] && awk -v s="$sym" '$1 == s { f = 1 } END { exit !f }' \
		$allow; then
		continue
	fi
	own=$(grep -cw -- "$sym" "$file")
	tested=no
	grep -rqw --include='*.c' --include='*.h' --include='*.sh' -- "$sym" \
		tests bench 2>/dev/null && tested=yes
	if [ "$own" -ge 2 ] && [ $tested = yes ]; then
		continue
	elif [ "$own" -ge 2 ]; then
		echo "file-local: $file: $sym"
	elif [ $tested = yes ]; then
		echo "only-tests: $file: $sym"
	else
		echo "unused: $file: $sym"
	fi
	bad=1
done < "$tab.lone"
rm -f "$tab.lone"
if [ $bad -ne 0 ]; then
	echo "check-symbols: external symbols that no other product file uses" >&2
	exit 1
fi
echo "check-symbols: every external symbol is used by another product file or is a tested seam"
