#!/bin/sh
# End-to-end for scripts/check-cycles.sh (make lint-cycles): a fake
# folder whose files call each other in a ring (a -> b -> c -> a) fails
# and names the ring with a symbol for each step; the same folder with
# the ring cut (c no longer calls a) passes; a file that calls nothing
# of its folder and a stale object of a deleted source change nothing.
set -u
NAME=e2e_cycles
. tests/lib.sh
top=$(pwd)
CC=${CC:-cc}

mkdir -p "$tmp/src/fake" "$tmp/obj/fake" || die "mkdir"
cat > "$tmp/src/fake/a.c" <<'C'
int b_helper(int);
int a_driver(int x) { return b_helper(x) + 1; }
C
cat > "$tmp/src/fake/b.c" <<'C'
int c_leaf(int);
int b_helper(int x) { return c_leaf(x) * 2; }
C
cat > "$tmp/src/fake/c.c" <<'C'
int a_driver(int);
int c_leaf(int x) { return x > 9 ? x : a_driver(x + 1); }
C
cat > "$tmp/src/fake/d.c" <<'C'
#include <stdlib.h>
int d_alone(void) { return abs(-3); }
C
build() {
	for f in a b c d; do
		"$CC" -c -o "$tmp/obj/fake/$f.o" "$tmp/src/fake/$f.c" ||
			die "cannot compile $f.c"
	done
}
check() {
	(cd "$tmp/src" && BUILD="$tmp/obj" sh "$top/scripts/check-cycles.sh" fake) \
		> "$tmp/out" 2>&1
}

# 1. the ring is found, named, and fails
build
check
st=$?
expect "status with a cycle" 1 "$st"
grep -q '^fake: call cycle between a.c b.c c.c:' "$tmp/out" ||
	fail "the cycle's files are not named: $(cat "$tmp/out")"
grep -q 'a.c -> b.c  (b_helper)' "$tmp/out" || fail "step a -> b not named"
grep -q 'b.c -> c.c  (c_leaf)' "$tmp/out" || fail "step b -> c not named"
grep -q 'c.c -> a.c  (a_driver)' "$tmp/out" || fail "step c -> a not named"
grep -qF ' d.c' "$tmp/out" && fail "d.c, outside the ring, is named"

# 2. the ring cut: passes; a stale object of a deleted source (old.o,
#    the old c.o, which still calls a_driver) is not read
cp "$tmp/obj/fake/c.o" "$tmp/obj/fake/old.o"
cat > "$tmp/src/fake/c.c" <<'C'
int c_leaf(int x) { return x > 9 ? x : x + 1; }
C
build
check
st=$?
expect "status without a cycle" 0 "$st"
grep -q 'no call cycle' "$tmp/out" || fail "no success line: $(cat "$tmp/out")"

# 3. a missing object is an error, not a pass
rm "$tmp/obj/fake/b.o"
check
st=$?
expect "status with an object missing" 2 "$st"
grep -q 'fake/b.o missing' "$tmp/out" || fail "missing object not named"

[ "$fails" -eq 0 ]
