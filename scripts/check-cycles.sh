#!/bin/sh
# check-cycles.sh - no call cycle between the files of one folder: within
# each source folder, file A depends on file B when A's object refers to
# a symbol B's object defines (nm: A's undefined symbols against B's
# defined ones; a call, or a pointer to a function or a table).  The
# files of a folder must form layers, helpers below and a driver above,
# so any cycle (A -> B -> ... -> A) is printed, each step with one symbol
# that makes it, and the script exits 1 (docs/ARCHITECTURE.md, "Layers").
#
#   sh scripts/check-cycles.sh [DIR...]
#
# Each DIR is a folder of .c files (by default every source folder of
# contend); the objects are read from $BUILD/DIR/NAME.o (BUILD defaults
# to build), so the tree must be built first (make lint-cycles does).
# Only the sources present count: a stale object of a deleted file is
# ignored.  Run from the top of the tree.
set -u

BUILD=${BUILD:-build}
[ $# -gt 0 ] || set -- lib db runner runner/kinstr runner/workloads analysis plots cli

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
bad=0
for dir in "$@"; do
	: > "$edges"
	for src in "$dir"/*.c; do
		[ -f "$src" ] || continue
		name=${src##*/}
		obj=$BUILD/$dir/${name%.c}.o
		if [ ! -f "$obj" ]; then
			echo "check-cycles: $obj missing (build first)" >&2
			exit 2
		fi
		nm -g --defined-only "$obj" |
			awk -v f="$name" 'NF >= 3 { print "D", f, $3 }' >> "$edges"
		nm -u "$obj" | awk -v f="$name" '{ print "U", f, $NF }' >> "$edges"
	done
	awk -v dir="$dir" '
	$1 == "D" { def[$3] = $2; next }
	{ use[++n] = $2; usym[n] = $3 }
	END {
		for (i = 1; i <= n; i++) {
			a = use[i]; s = usym[i]
			if (!(s in def) || def[s] == a)
				continue
			b = def[s]
			if (!((a, b) in edge)) {
				edge[a, b] = s
				out[a] = out[a] " " b
				node[a] = 1; node[b] = 1
			}
		}
		# reach[a, b]: b is reachable from a (breadth first)
		for (a in node) {
			split("", seen); qn = 0; qh = 1
			q[++qn] = a
			while (qh <= qn) {
				x = q[qh++]
				k = split(out[x], nx, " ")
				for (j = 1; j <= k; j++) {
					y = nx[j]
					if (!(y in seen)) {
						seen[y] = 1; reach[a, y] = 1
						q[++qn] = y
					}
				}
			}
		}
		# one report per strongly connected component, with a shortest
		# cycle through its first file
		m = 0
		for (a in node)
			names[++m] = a
		for (i = 2; i <= m; i++)	# insertion sort: stable output
			for (j = i; j > 1 && names[j - 1] > names[j]; j--) {
				t = names[j]; names[j] = names[j - 1]; names[j - 1] = t
			}
		found = 0
		for (i = 1; i <= m; i++) {
			a = names[i]
			if ((a in done) || !((a, a) in reach))
				continue
			members = ""
			for (j = i; j <= m; j++) {
				b = names[j]
				if (((a, b) in reach) && ((b, a) in reach)) {
					done[b] = 1
					members = members " " b
				}
			}
			# breadth first from a back to a
			split("", par); split("", seen); qn = 0; qh = 1
			q[++qn] = a; seen[a] = 1; last = ""
			while (qh <= qn && last == "") {
				x = q[qh++]
				k = split(out[x], nx, " ")
				for (j = 1; j <= k && last == ""; j++) {
					y = nx[j]
					if (y == a)
						last = x
					else if (!(y in seen)) {
						seen[y] = 1; par[y] = x
						q[++qn] = y
					}
				}
			}
			# the cycle a -> ... -> last -> a, each step with a symbol
			k = 0
			for (x = last; x != a; x = par[x])
				rev[++k] = x
			steps = ""
			x = a
			for (j = k; j >= 0; j--) {
				y = j ? rev[j] : a
				steps = steps "\n    " x " -> " y "  (" edge[x, y] ")"
				x = y
			}
			printf "%s: call cycle between%s:%s\n", dir, members, steps
			found = 1
		}
		exit found
	}' "$edges" || bad=1
done
if [ $bad -ne 0 ]; then
	echo "check-cycles: call cycles between the files of a folder: move the shared helper below, or pass a callback (docs/ARCHITECTURE.md)" >&2
	exit 1
fi
echo "check-cycles: $*: no call cycle between the files of a folder"
